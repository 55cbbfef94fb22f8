// The coordinator: one run, top to bottom. Configure -> check the engine -> prepare -> set up
// the points -> the steps (write, verify) -> removal -> report. Each part lives beside this
// file: the phase boundaries (phase_agreement), the per-point MPI resources (point_resources),
// the steps (steps), the removal (removal), the interrupt path (interrupted) and the report
// (report_assembly). Who writes, reads and removes what is decided in core/rank_plan.
#include "mpiwrite/app/app.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <optional>
#include <ostream>
#include <sstream>

#include "interrupted.hpp"
#include "mpiwrite/core/cli.hpp"
#include "mpiwrite/core/cli_errors.hpp"
#include "mpiwrite/core/dry_run.hpp"
#include "mpiwrite/core/mpi_mismatch.hpp"
#include "mpiwrite/core/point_plan.hpp"
#include "mpiwrite/core/version_text.hpp"
#include "mpiwrite/engines/uring_support.hpp"
#include "mpiwrite/engines/writer.hpp"
#include "mpiwrite/mpi/comm.hpp"
#include "mpiwrite/mpi/mpi_library.hpp"
#include "mpiwrite/sys/held_directory.hpp"
#include "mpiwrite/sys/interrupt.hpp"
#include "mpiwrite/sys/output_path.hpp"
#include "mpiwrite/sys/report_output.hpp"
#include "phase_agreement.hpp"
#include "point_resources.hpp"
#include "removal.hpp"
#include "report_assembly.hpp"
#include "run_state.hpp"
#include "steps.hpp"

namespace mpiwrite {

namespace {

namespace mpi = boost::mpi;

class Coordinator {
 public:
  Coordinator(const mpi::communicator& world, std::ostream& out, std::ostream& err)
      : world_(world), root_(world.rank() == 0), out_(out), err_(err), phases_(world, err) {}

  int run(int argc, const char* const* argv) {
    install_interrupt_handlers();
    if (int code = configure(argc, argv); code != kContinue) return code;
    // --timeout is known on every rank from here: every step after is watched, until the
    // watchdog goes with phases_, after the point resources are freed.
    phases_.start_watchdog(run_.config.timeout_s);
    return watched_run();
  }

 private:
  int watched_run() {
    plan_the_points();
    if (int code = check_engine(); code != kContinue) return code;
    if (run_.config.dry_run) return dry_run();
    if (int code = prepare(); code != kContinue) return code;
    if (!hold_run_directory() || !set_up_points()) return give_up_set_up();
    const bool written = StepRunner(run_, phases_, *resources_, report_).run_all();
    const bool removed = run_.interrupted || remove_files_and_directories(run_, phases_, report_);
    if (run_.interrupted) return finish_interrupted(run_, phases_, report_, written, out_, err_);
    if (!written) return kExitIo;
    // Every repetition completed: a removal that failed (said above) costs the exit code,
    // never the report.
    // --dir renamed or replaced during the run: the run's own files went through the held
    // descriptor, but the name no longer leads to them (exit 1, the report still printed).
    // (A --dir the run made and --cleanup removed was checked by its removal.)
    const bool gone =
        run_.ledger.removes_run_directory() || run_.ledger.removes_emptied_run_directory();
    const bool same =
        !removed || gone ||
        phases_.root_step(
            [&] { expect_same_directory(run_.directory.path, run_.directory.identity); },
            "checking that --dir is still the run's directory") == kExitOk;
    phases_.enter("gathering the peak memory for the report");
    gather_peak_memory(world_, report_);
    const int code = phases_.root_step(
        [&] { publish_report(report_, run_, out_); }, "writing the report");
    // A --dir this run made and its remove phase emptied goes now, after the report, only if
    // empty: a report written into it, or a file someone put there, keeps it (the ledger).
    const int tidied =
        !run_.ledger.removes_emptied_run_directory()
            ? kExitOk
            : phases_.root_step([&] { remove_held_directory_if_empty(run_.directory.path,
                                                                     run_.directory.identity); },
                                "removing the emptied --dir");
    // The point resources are freed (collectively) after run() returns.
    phases_.enter("ending the run");
    return removed && same && tidied == kExitOk ? code : kExitIo;
  }

  // Rank 0 parses and validates; the others wait for its verdict, so a bad option is
  // reported once, not once per rank. What needs the ranks (--files-per-rank) is filled in
  // there too, so every rank receives the files to write.
  int configure(int argc, const char* const* argv) {
    CliOutcome cli;
    if (root_) {
      const MpiLibraries mpi{comm::mpi_library_built(), comm::mpi_library_running()};
      cli = parse_command_line(argc, argv, version_text(build_facts(), mpi));
      if (cli.run) {
        guarded(
            [&] {
              require_engine_built(cli.config.engine);
              resolve_for_world(cli.config, world_.size());
            },
            cli.message);
        if (!cli.message.empty()) {
          cli = {false, cli.config, kExitUsage, usage_message("mpiwrite", cli.message)};
        }
      }
    }
    const int code = comm::broadcast_int(world_, root_ && !cli.run ? cli.exit_code : kContinue);
    if (code != kContinue) {
      if (root_) (code == kExitOk ? out_ : err_) << cli.message << std::flush;
      return code;
    }
    // Once, before the run: a site build against another MPI than the one it runs on.
    if (root_) {
      const std::string warning =
          mpi_mismatch_warning(comm::mpi_library_built(), comm::mpi_library_running());
      if (!warning.empty()) err_ << warning << '\n' << std::flush;
    }
    run_.config = cli.config;
    comm::broadcast_config(world_, run_.config);
    run_.phases = PhaseSet(run_.config.phases);
    return kContinue;
  }

  // Every point's plan, once, on every rank (the dry run's too): what each rank writes,
  // reads back and removes, where, and with which engine options (point_plan.hpp).
  void plan_the_points() {
    run_.plans = plan_points(run_.config, world_.size());
    run_.points.clear();
    for (const PointPlan& plan : run_.plans) run_.points.push_back(plan.spec);
  }

  // --engine uring must be usable on every rank (nodes can differ), checked before anything
  // is created (also for --dry-run): otherwise one message from rank 0 naming the reason, and
  // exit 2.
  int check_engine() {
    if (run_.config.engine != Engine::Uring) return kContinue;
    phases_.enter("checking --engine uring on every rank");
    std::string reason = uring_unavailable_reason(run_.phases);
    if (reason.empty()) {  // what the rings will register, known before the run
      reason = fixed_file_limit_problem(largest_ring_depth(run_.plans, world_.rank()));
    }
    const std::vector<std::string> reasons = comm::gather_strings(world_, reason);
    const std::vector<std::string> hosts = comm::gather_host_names(world_);
    const std::string message = root_ ? describe_uring_unavailable(reasons, hosts) : "";
    const int code = comm::broadcast_int(world_, message.empty() ? kContinue : kExitUsage);
    if (root_ && code != kContinue) phases_.print_error(message);
    return code;
  }

  // The same checks of --dir as a real run (nothing is created), then the plan.
  int dry_run() {
    const int code =
        phases_.root_step([&] { check_directory(run_.config, run_.plans); }, "checking --dir");
    if (code != kExitOk) return code;
    return phases_.root_step(
        [&] {
          std::ostringstream plan;
          write_plan(run_.config, run_.plans, plan);
          write_standard_output(plan.str(), out_);
        },
        "writing the plan");
  }

  // Rank 0 checks the outputs and makes --dir; every rank then learns the directory, the run
  // id and the seed, and where the ranks run.
  int prepare() {
    const auto started = std::chrono::system_clock::now();
    const auto ticks = static_cast<std::uint64_t>(started.time_since_epoch().count());
    RunConfig& c = run_.config;
    int code = phases_.root_step(
        [&] {
          // Before --dir is created: a bad output costs nothing. Each output's directory is
          // held from now on.
          run_.outputs = report_outputs(c);
          run_.output_dirs = check_output_paths(c, run_.outputs);
          check_standard_output(c);
          run_.directory = prepare_directory(c, run_.plans);
          for (std::size_t i = 0; i < run_.outputs.size(); ++i) {
            if (run_.output_dirs[i].deferred)
              run_.output_dirs[i] = hold_output_directory(run_.outputs[i].path);
          }
          if (c.output.empty() && c.cleanup && run_.directory.created) {
            run_.copy_dir = hold_parent_of(run_.directory.path, run_.directory.identity);
          }
          run_.run_id = fmt::format("{:x}-{:x}", ::getpid(), ticks);
          if (!run_.directory.created) remove_earlier_trash(run_.directory.path, err_);
        },
        "preparing --dir");
    if (code != kExitOk) return code;
    phases_.enter("learning the run's directory and seed");
    comm::broadcast_string(world_, run_.directory.path);
    comm::broadcast_string(world_, run_.run_id);
    run_.directory.created = comm::broadcast_int(world_, run_.directory.created ? 1 : 0) != 0;
    run_.seed = comm::broadcast_u64(world_, c.seed.value_or(ticks));
    run_.scratch_root = scratch_root_path(run_.directory.path, run_.run_id);
    run_.schedule.emplace(c, run_.points, run_.directory.path, run_.scratch_root, run_.seed);
    run_.ledger =
        CreationLedger(*run_.schedule, run_.directory.path, creates_files(c.engine),
                       c.cleanup);
    run_.ledger.removes_in_every_step(run_.phases.has(Phase::Remove),
                                      run_.phases.has(Phase::TreeRemove));
    if (run_.directory.created) run_.ledger.run_directory_made();
    run_.pattern = parse_pattern(c.pattern);
    // Removal spans every step, whichever point: each rank plans as one of all the ranks.
    run_.world_plan = plan_point(c, world_point(c, world_.size())).rank(world_.rank());
    run_.world_rank = world_.rank();

    phases_.enter("the clock exchange");
    comm::quiet_barrier(world_);  // a rank that does not come is named (comm.hpp)
    const RankFacts facts = gather_rank_facts(world_, started);
    phases_.put_clocks_on_one_axis();
    if (root_) describe_run(report_, run_, facts, phases_, world_.size());
    phases_.enter("setting up --progress");
    set_up_progress();
    return kContinue;
  }

  // Every rank holds --dir by a descriptor opened once, now, before the writer threads start
  // (their descriptor tables are copies of this one). Ranks on rank 0's host check it is the
  // directory rank 0 made or found (device and inode); another host's device numbers mean
  // nothing here (a network file system numbers its mounts per client), so there the path,
  // opened once without following a last link, is all there is.
  bool hold_run_directory() {
    PreparedDirectory& d = run_.directory;
    std::string host = host_name();
    comm::broadcast_string(world_, host);
    const std::uint64_t device = comm::broadcast_u64(world_, d.identity.device);
    const std::uint64_t inode = comm::broadcast_u64(world_, d.identity.inode);
    std::string failure;
    if (!root_) {
      guarded(
          [&] {
            d.fd = open_at(DirectoryAt(d.path));
            d.identity = identity_of(d.fd.get(), d.path);
            if (host == host_name() && (d.identity.device != device || d.identity.inode != inode)) {
              throw DirectoryReplaced(d.path);
            }
          },
          failure);
    }
    return phases_.agree(failure);
  }

  // Setting up failed (said): what the run made goes, as after any failure. Only --dir can
  // exist yet (the scratch root comes with the first step); rank 0 removes it if it made it,
  // is asked to clean up, and it is still the directory it made and empty.
  int give_up_set_up() {
    if (run_.ledger.removes_run_directory()) {
      phases_.root_step(
          [&] { remove_held_directory(run_.directory.path, run_.directory.identity); });
    }
    return kExitIo;
  }

  static std::string host_name() {
    char host[256] = {};
    ::gethostname(host, sizeof host - 1);
    return host;
  }

  // --progress: rank 0 decides (its standard error is the one that prints), every rank learns
  // the interval, at which it joins the rounds.
  void set_up_progress() {
    ProgressSettings& p = run_.progress;
    if (root_) p = progress_settings(run_.config, stderr_is_terminal());
    const auto us = static_cast<std::uint64_t>(std::llround(p.interval_s * 1e6));
    p.interval_s = static_cast<double>(comm::broadcast_u64(world_, us)) / 1e6;
    if (root_ && p.on()) run_.progress_out = std::make_unique<ProgressOutput>(err_, p.in_place);
  }

  // The per-point resources (collective, in point order), and every rank's verdict on them.
  bool set_up_points() {
    std::string failure;
    phases_.enter("setting up the points' communicators and writers");
    resources_.emplace(world_, run_.config, run_.phases, run_.plans, failure);
    // A writer that could not be made (no thread, no ring) is not there to ask.
    if (root_ && failure.empty()) {
      if (const std::optional<bool> own = resources_->private_fd_tables()) {
        report_.context.private_fd_tables = *own;
      }
    }
    return phases_.agree_after("setting up the points", failure);
  }

  const mpi::communicator& world_;
  const bool root_;
  std::ostream& out_;
  std::ostream& err_;
  PhaseAgreement phases_;  // holds the watchdog, which outlives every phase
  RunState run_;
  RunReport report_;  // filled on rank 0 only
  // Last: freed (collectively, in the order the type keeps) before anything above.
  std::optional<PointResources> resources_;
};

}  // namespace

int run(int argc, const char* const* argv, const boost::mpi::communicator& world, std::ostream& out,
        std::ostream& err) {
  return Coordinator(world, out, err).run(argc, argv);
}

}  // namespace mpiwrite
