// The phases' names and operations (phase.hpp).
#include "mpiwrite/core/phase.hpp"

namespace mpiwrite {

namespace {

constexpr std::array<std::string_view, kPhases> kNames{"tree-create", "write",  "stat",
                                                       "read",        "remove", "tree-remove"};

constexpr std::array<Operation, 4> kWrite{Operation::Create, Operation::Writes, Operation::Fsync,
                                          Operation::Close};
constexpr std::array<Operation, 1> kStat{Operation::Stat};
constexpr std::array<Operation, 3> kRead{Operation::Open, Operation::Reads, Operation::Close};
constexpr std::array<Operation, 1> kRemove{Operation::Unlink};
constexpr std::array<Operation, 1> kMkdir{Operation::Mkdir};
constexpr std::array<Operation, 1> kRmdir{Operation::Rmdir};

}  // namespace

std::string_view phase_name(Phase phase) { return kNames[static_cast<std::size_t>(phase)]; }

std::optional<Phase> parse_phase(std::string_view name) {
  for (Phase p : kAllPhases) {
    if (phase_name(p) == name) return p;
  }
  return std::nullopt;
}

std::span<const Operation> operations_of(Phase phase) {
  switch (phase) {
    case Phase::TreeCreate:
      return kMkdir;
    case Phase::Write:
      return kWrite;
    case Phase::Stat:
      return kStat;
    case Phase::Read:
      return kRead;
    case Phase::Remove:
      return kRemove;
    case Phase::TreeRemove:
      return kRmdir;
  }
  return {};
}

std::vector<Phase> PhaseSet::ordered() const {
  std::vector<Phase> out;
  for (Phase p : kAllPhases) {
    if (has(p)) out.push_back(p);
  }
  return out;
}

}  // namespace mpiwrite
