#pragma once

namespace mpiwrite {

inline constexpr const char* kVersion = "0.2.0";

}  // namespace mpiwrite
