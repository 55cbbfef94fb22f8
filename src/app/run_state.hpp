#pragma once
// What the coordinator knows about the run as it goes, shared by its parts: the steps (steps.hpp),
// the removal (removal.hpp) and the interrupt path (interrupted.hpp). Every rank holds the same
// values, except where a member says otherwise.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "mpiwrite/core/config.hpp"
#include "mpiwrite/core/creation_ledger.hpp"
#include "mpiwrite/core/directory_layout.hpp"
#include "mpiwrite/core/file_namer.hpp"
#include "mpiwrite/core/phase.hpp"
#include "mpiwrite/core/point_plan.hpp"
#include "mpiwrite/core/points.hpp"
#include "mpiwrite/core/progress_line.hpp"
#include "mpiwrite/core/rank_plan.hpp"
#include "mpiwrite/core/report_outputs.hpp"
#include "mpiwrite/core/run_report.hpp"
#include "mpiwrite/core/schedule.hpp"
#include "mpiwrite/sys/output_path.hpp"
#include "mpiwrite/sys/posix_file.hpp"
#include "mpiwrite/sys/progress_output.hpp"
#include "mpiwrite/sys/run_directory.hpp"
#include "phase_agreement.hpp"

namespace mpiwrite {

struct RunState {
  RunConfig config;
  // config.phases (the user's list) as a set, derived once from the broadcast config: what
  // every part of the run asks to know whether it times a phase.
  PhaseSet phases;
  PreparedDirectory directory;
  // Rank 0: the report's files (-o, --json, --csv, --markdown: core/report_outputs.hpp), and
  // the directory each is replaced in, held from the check before the run to the report
  // (nothing held when it is written in place); and, when --cleanup is to remove a --dir the
  // run made, --dir's parent, which gets the interrupted-report copy.
  std::vector<ReportOutput> outputs;
  std::vector<HeldOutputDirectory> output_dirs;  // output_dirs[i] is outputs[i]'s
  HeldOutputDirectory copy_dir;
  std::string run_id;
  FilePattern pattern;
  std::vector<PointSpec> points;
  std::vector<PointPlan> plans;  // plans[i] is points[i]'s, made once (point_plan.hpp)
  std::uint64_t seed = 0;
  std::optional<StepSchedule> schedule;  // built once the run id is known
  // This world rank's plan as one point of every rank: its share of the removal.
  RankPlan world_plan;
  int world_rank = 0;

  std::string scratch_root;  // DIR/.mpiwrite-<run id>: every scratch directory is in it
  // The scratch root, held once made (rank 0 from its mkdir, every other rank from the first
  // step after): step directories are reached from it, never by a path (held_directory.hpp).
  UniqueFd scratch_fd;
  DirectoryIdentity scratch_identity;  // rank 0: what the root's name must still lead to
  UniqueFd scratch_lock;               // rank 0's flock on it: a later run sees whether we live
  // What the run created on this rank: the steps record into it, removal and the interrupt
  // path read it (core/creation_ledger.hpp).
  CreationLedger ledger;
  // This rank's share of the run's files in --dir is removed (its removal loop ran to the end
  // with no signal): the interrupt path then goes straight to the layout directories, whose
  // hand-off to the background must come before the launcher's kill (a second pass over
  // 200,000 names in as many directories took longer, and left ~93,000 directories).
  bool dir_files_removed = false;
  int interrupted = 0;  // the signal every rank agreed on, or 0
  // What the run is doing (its phase empty between steps), set as each part of a step or the
  // final removal begins; kept as `interrupted_in` by the boundary that first agrees on a
  // signal, for the report to say what was cut.
  InterruptedIn under_way;
  std::optional<InterruptedIn> interrupted_in;
  // --progress: the interval is the same on every rank (each joins the rounds), the style is
  // rank 0's; rank 0 prints through progress_out (null elsewhere and when off).
  ProgressSettings progress;
  std::unique_ptr<ProgressOutput> progress_out;
  // -r auto, rank 0: the precision reached and the budget left, for --progress's lines.
  std::string auto_note;

  // Where a step's directory `dir` (as the schedule names it) is reached: --dir itself through
  // its held descriptor, a scratch step's directory from the held scratch root.
  DirectoryAt at(const std::string& dir) const {
    if (dir == directory.path) return {directory.fd.get(), "", dir};
    return {scratch_fd.get(), dir.substr(scratch_root.size() + 1), dir};
  }
  // The same from --dir's descriptor alone, for writer threads: their descriptor tables are
  // copies taken when they started, which hold --dir but not the scratch root made later.
  DirectoryAt from_dir(const std::string& dir) const {
    if (dir == directory.path) return {directory.fd.get(), "", dir};
    return {directory.fd.get(), dir.substr(directory.path.size() + 1), dir};
  }
  std::string scratch_name() const { return scratch_root.substr(directory.path.size() + 1); }
  // The layout of point `point` (flat: every file in the step's directory).
  const DirectoryLayout& layout_of(std::size_t point) const { return plans[point].layout; }
};

// run.interrupted from a signal every rank agreed on; the first one names the part under way.
inline bool noted_interrupt(RunState& run, int agreed_signal) {
  const bool first = run.interrupted == 0;
  run.interrupted = agreed_signal;
  if (first && run.interrupted != 0 && !run.under_way.phase.empty()) {
    run.interrupted_in = run.under_way;
  }
  return run.interrupted != 0;
}

// Whether a rank got SIGINT, SIGTERM or SIGHUP; all ranks learn it together, at a step boundary.
inline bool interrupted_now(RunState& run, PhaseAgreement& phases) {
  phases.enter("the agreement on signals at a step boundary");
  return noted_interrupt(run, phases.agree_on_signal());
}

// The same verdict right after a phase's agreement, which carried every rank's signal: no
// boundary of its own (with 64 ranks on 2 cores a boundary costs milliseconds, once a phase of
// every step). A signal after that agreement is the next check's: the phase had completed.
inline bool interrupted_at_agreement(RunState& run, const PhaseAgreement& phases) {
  return noted_interrupt(run, phases.signal_at_last_agreement());
}

}  // namespace mpiwrite
