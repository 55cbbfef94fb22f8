#include "mpiwrite/core/operation_latency.hpp"

namespace mpiwrite {

std::string_view operation_name(Operation op) {
  switch (op) {
    case Operation::Create:
      return "create";
    case Operation::Writes:
      return "writes";
    case Operation::Fsync:
      return "fsync";
    case Operation::Close:
      return "close";
  }
  return "unknown";
}

}  // namespace mpiwrite
