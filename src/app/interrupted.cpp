// The interrupt path (interrupted.hpp).
#include "interrupted.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <optional>
#include <vector>

#include "mpiwrite/sys/held_directory.hpp"
#include "mpiwrite/sys/scratch_remover.hpp"
#include "removal.hpp"
#include "report_assembly.hpp"

namespace mpiwrite {

namespace {

// Rank 0: renames the scratch root to its trash name, in the held --dir and only while the
// name is still the root's; returns what is to be removed, relative to the held --dir.
std::string give_up_scratch(const RunState& run) {
  if (!run.ledger.scratch_root()) return {};
  const std::string name = run.scratch_name();
  const std::string trash = trash_path(name);
  const int dir = run.directory.fd.get();
  expect_same_directory(dir, name, run.scratch_identity, run.scratch_root);
  return ::renameat(dir, name.c_str(), dir, trash.c_str()) == 0 ? trash : name;
}

std::string identity_text(const DirectoryIdentity& id) {
  return fmt::format("{}:{}", id.device, id.inode);
}

void start_background_removal(const RunState& run, const std::string& trash, std::ostream& err) {
  if (trash.empty()) return;
  const std::string problem = remove_in_background({trash}, {}, {run.directory.fd.get(), {}});
  if (!problem.empty()) {
    err << fmt::format(
               "mpiwrite: warning: could not start removing {} in the background ({}); "
               "remove it by hand\n",
               run.directory.path + "/" + trash, problem)
        << std::flush;
  }
}

// Every rank, --cleanup: its share of what the run wrote into --dir (`item`), without stopping
// at the signal (it came already). Returns whether every rank succeeded.
bool empty_directory(const RunState& run, const RemovalItem& item, PhaseAgreement& phases) {
  std::string failure;
  phases.enter("removing the run's files from --dir");
  if (!run.dir_files_removed) guarded([&] { remove_written(run, item, nullptr); }, failure);
  if (!phases.agree_after("removing the run's files from --dir", failure)) return false;
  phases.enter("removing the layout directories from --dir");
  // The layout directories this rank made go in the background (10^6 of them outlast the
  // launcher's kill), else here.
  guarded(
      [&] {
        const std::vector<std::string> none;
        const std::vector<std::string>& made = item.made != nullptr ? *item.made : none;
        const std::vector<std::string> last_first(made.rbegin(), made.rend());
        if (!remove_directories_in_background(run.directory.fd.get(), last_first).empty()) {
          remove_layout_directories_of(run, item);
        }
      },
      failure);
  return phases.agree_after("removing the layout directories from --dir", failure);
}

}  // namespace

int finish_interrupted(RunState& run, PhaseAgreement& phases, RunReport& report, bool written,
                       std::ostream& out, std::ostream& err) {
  report.interrupted_by = run.interrupted;
  report.interrupted_in = run.interrupted_in;
  std::string trash;
  // A scratch root whose name leads elsewhere now is said (exit 1) and not touched by name.
  const int gave_up = phases.root_step([&] { trash = give_up_scratch(run); },
                                       "moving the scratch directory to trash");
  // The removal starts before the report: writing the report to standard output may block
  // once the launcher stops forwarding it (Open MPI 4.1's mpirun, after its signal, takes
  // about 12 KB more), and then the launcher's kill would take the removal with it. The
  // -o file is written before standard output for the same reason.
  report.cleanup.in_background = !trash.empty();
  phases.root_step([&] { start_background_removal(run, trash, err); },
                   "starting the background removal");
  int code = kExitIo;  // a run that failed has no report, interrupted or not
  if (written) {
    phases.enter("gathering the peak memory for the report");
    gather_peak_memory(phases.world(), report);
    // In --dir, except when --cleanup is to remove a --dir mpiwrite made: then beside it.
    if (phases.root() && run.config.output.empty()) report.saved_copy = interrupted_copy_path(run);
    // In --dir: through its held descriptor; beside it: through --dir's parent, held since
    // --dir was made.
    const bool in_dir = !run.ledger.removes_run_directory();
    code = phases.root_step(
        [&] {
          if (in_dir) {
            publish_report(report, run, out, run.directory.fd.get());
          } else {
            publish_report(report, run, out, run.copy_dir.fd.get(), &run.copy_dir);
          }
        },
        "writing the report");
  }
  bool dir_emptied = true;
  // (Not an --dir the remove phase emptied without --cleanup: after a signal the run keeps
  // what it made there, as before.)
  if (const std::optional<RemovalItem> dir = run.ledger.dir_item();
      dir && dir->holds_anything() && !dir->only_empty) {
    dir_emptied = empty_directory(run, *dir, phases);
  }
  // --dir itself, if mpiwrite made it, goes once the trash inside it is gone: a second
  // background rm after the first (rm -rf of what is already gone is harmless), then rmdir,
  // which leaves a directory that still holds anything.
  if (run.ledger.removes_run_directory() && dir_emptied && phases.root()) {
    const std::string problem = remove_in_background(
        trash.empty() ? std::vector<std::string>{} : std::vector{trash}, run.directory.path,
        {run.directory.fd.get(), identity_text(run.directory.identity)});
    if (!problem.empty()) err << "mpiwrite: warning: " << problem << '\n' << std::flush;
  }
  if (gave_up != kExitOk) return kExitIo;
  return code == kExitOk ? 128 + run.interrupted : code;
}

void remove_earlier_trash(const std::string& dir, std::ostream& err) {
  const std::vector<std::string> trash = find_trash(dir);
  if (trash.empty()) return;
  const std::string problem = remove_in_background(trash);
  const std::string what = trash.size() == 1 ? "scratch directory" : "scratch directories";
  const std::string doing =
      problem.empty() ? "removing in the background" : "cannot remove: " + problem;
  err << fmt::format("mpiwrite: note: {} {} left by interrupted or killed runs in {}: {}\n",
                     trash.size(), what, dir, doing)
      << std::flush;
}

}  // namespace mpiwrite
