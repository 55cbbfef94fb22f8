#pragma once
// Skips a test, or ends one after its other engines' part, where the uring engine cannot run:
// a build without io_uring (MPIWRITE_WITH_URING=OFF) or a kernel or sandbox without it. The
// reason (uring_unavailable_reason) is what gtest prints for the skip.

#include <gtest/gtest.h>

#include <string>

#include "mpiwrite/engines/uring_support.hpp"

#define MPIWRITE_SKIP_WITHOUT_URING()                                                  \
  if (const std::string uring_reason = ::mpiwrite::uring_unavailable_reason();         \
      !uring_reason.empty()) {                                                         \
    GTEST_SKIP() << "uring: " << uring_reason;                                         \
  }

namespace mpiwrite::testing {

inline bool uring_runs_here() { return uring_unavailable_reason().empty(); }

}  // namespace mpiwrite::testing
