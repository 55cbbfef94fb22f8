#pragma once
// The stat, read and remove phases of one step (--phases): each rank's writer threads stat,
// read or unlink their share of the step's files (core/phase_share.hpp: another rank's block
// for stat and read, --shift; its own for remove; after a step --time-limit cut short, the
// writers' records), timed as the write phase is. One value per phase of a step, run by
// timed_phase.

#include <optional>
#include <string>
#include <vector>

#include "mpiwrite/core/created_files.hpp"
#include "mpiwrite/core/phase.hpp"
#include "mpiwrite/core/repetition_figures.hpp"
#include "mpiwrite/core/schedule.hpp"
#include "mpiwrite/core/work_source.hpp"
#include "mpiwrite/engines/writer.hpp"
#include "items_phase.hpp"
#include "phase_agreement.hpp"
#include "point_resources.hpp"
#include "run_state.hpp"

namespace mpiwrite {

struct FilesOutcome {
  bool ok = false;                      // every rank of the world succeeded
  std::optional<PhaseFigures> figures;  // rank 0, for a timed step
};

class FilesPhase final : public ItemsPhase {
 public:
  // `records`: this rank's writers' records of a step --time-limit cut short or written with
  // --partition dynamic, else null (every name 1..files exists, each rank's where the write's
  // split put it). `phase`: Stat, Read or Remove.
  FilesPhase(const RunState& run, PhaseAgreement& phases, PointHandles& h, const Step& step,
             Phase phase, const CreatedFiles* records);

  // Untimed first: whose files (the exchange of records after a cut-short step), the order,
  // the writer's target opened; then the phase.
  FilesOutcome run();

  void work(std::string& failure) override;
  // ItemsPhase's, then the read phase's --verify: its figures say so, and a file read wrong
  // is the rank's failure.
  void after(const PhaseClock& clock, std::string& failure) override;

 private:
  std::vector<Progression> share() const;
  void set_up(std::string& failure);

  const CreatedFiles* records_;
  std::optional<PartsSource> source_;
};

}  // namespace mpiwrite
