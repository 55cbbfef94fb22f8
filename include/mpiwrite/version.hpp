#pragma once

namespace mpiwrite {

inline constexpr const char* kVersion = "0.3.0";

}  // namespace mpiwrite
