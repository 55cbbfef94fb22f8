#pragma once

namespace mpiwrite {

inline constexpr const char* kVersion = "0.1.0";

}  // namespace mpiwrite
