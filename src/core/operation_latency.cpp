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
    case Operation::Stat:
      return "stat";
    case Operation::Open:
      return "open";
    case Operation::Reads:
      return "reads";
    case Operation::Unlink:
      return "unlink";
    case Operation::Mkdir:
      return "mkdir";
    case Operation::Rmdir:
      return "rmdir";
  }
  return "unknown";
}

}  // namespace mpiwrite
