#pragma once

namespace mpiwrite {

inline constexpr const char* kVersion = "0.4.0";

}  // namespace mpiwrite
