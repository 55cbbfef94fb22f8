#pragma once
// The phases of a small file's life that a run can time (--phases), in the order they run in
// every repetition: the layout's directory tree made, the files written, stat'ed, read and
// removed, the tree removed (mdtest's -C -T -E -r and tree phases). Pure: the names the
// command line and every report use, and which operations each phase's per-item latency is
// split into (operation_latency.hpp).

#include <array>
#include <initializer_list>
#include <cstddef>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "mpiwrite/core/operation_latency.hpp"

namespace mpiwrite {

enum class Phase : std::size_t { TreeCreate, Write, Stat, Read, Remove, TreeRemove };
inline constexpr std::size_t kPhases = 6;
inline constexpr std::array<Phase, kPhases> kAllPhases{Phase::TreeCreate, Phase::Write,
                                                       Phase::Stat,       Phase::Read,
                                                       Phase::Remove,     Phase::TreeRemove};

// "tree-create", "write", "stat", "read", "remove", "tree-remove".
std::string_view phase_name(Phase phase);
inline std::string_view to_string(Phase phase) { return phase_name(phase); }
// The phase named `name`, or nothing.
std::optional<Phase> parse_phase(std::string_view name);

// Whether the phase's items are directories (the tree phases) rather than files.
inline bool counts_directories(Phase phase) {
  return phase == Phase::TreeCreate || phase == Phase::TreeRemove;
}

// The operations one item of `phase` goes through, in order (write: create, writes, fsync,
// close; stat: stat; read: open, reads, close; remove: unlink; tree-create: mkdir;
// tree-remove: rmdir).
std::span<const Operation> operations_of(Phase phase);

// A set of phases, always walked in kAllPhases' order.
class PhaseSet {
 public:
  PhaseSet() = default;
  PhaseSet(std::initializer_list<Phase> phases) {
    for (Phase p : phases) add(p);
  }
  // The set of a list of phases (RunConfig::phases, the user's list): the one conversion,
  // made once per run (RunState::phases).
  explicit PhaseSet(std::span<const Phase> phases) {
    for (Phase p : phases) add(p);
  }
  void add(Phase phase) { on_[static_cast<std::size_t>(phase)] = true; }
  bool has(Phase phase) const { return on_[static_cast<std::size_t>(phase)]; }
  // The phases in the set, in the order they run.
  std::vector<Phase> ordered() const;
  bool operator==(const PhaseSet&) const = default;

 private:
  std::array<bool, kPhases> on_{};
};

}  // namespace mpiwrite
