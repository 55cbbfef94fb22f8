#include "mpiwrite/app.hpp"

#include <fmt/chrono.h>
#include <fmt/format.h>
#include <unistd.h>

#include <boost/mpi/environment.hpp>
#include <chrono>
#include <map>
#include <ostream>
#include <sstream>
#include <tuple>

#include "mpiwrite/cli.hpp"
#include "mpiwrite/comm.hpp"
#include "mpiwrite/errors.hpp"
#include "mpiwrite/interrupt.hpp"
#include "mpiwrite/plan.hpp"
#include "mpiwrite/points.hpp"
#include "mpiwrite/posix_file.hpp"
#include "mpiwrite/report.hpp"
#include "mpiwrite/run_directory.hpp"
#include "mpiwrite/schedule.hpp"
#include "mpiwrite/shared_counter.hpp"
#include "mpiwrite/uring_support.hpp"
#include "mpiwrite/verify.hpp"
#include "mpiwrite/version.hpp"
#include "mpiwrite/watchdog.hpp"
#include "mpiwrite/writer.hpp"

namespace mpiwrite {

namespace {

namespace mpi = boost::mpi;
using Clock = std::chrono::steady_clock;
constexpr int kContinue = -1;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Runs `step` and turns what it throws into an exit code and a message.
template <typename Step>
int guarded(Step&& step, std::string& message) {
  try {
    step();
    return kExitOk;
  } catch (const UsageError& e) {
    message = e.what();
    return kExitUsage;
  } catch (const std::exception& e) {
    message = e.what();
    return kExitIo;
  }
}

// What the ranks of one point need, made once before any step (collectively).
struct PointResources {
  mpi::communicator comm;  // ranks 0..p-1 of the world; null on the others
  Progression slice;        // this rank's files with a static partition
  Writer* writer = nullptr;
  SharedCounter* counter = nullptr;  // with --partition dynamic
};

class Coordinator {
 public:
  Coordinator(const mpi::communicator& world, std::ostream& out, std::ostream& err)
      : world_(world), root_(world.rank() == 0), out_(out), err_(err) {}

  int run(int argc, const char* const* argv) {
    install_interrupt_handlers();
    if (int code = configure(argc, argv); code != kContinue) return code;
    if (int code = check_engine(); code != kContinue) return code;
    if (config_.dry_run) {
      if (root_) write_plan(config_, make_points(config_, world_.size()), out_);
      return kExitOk;
    }
    if (int code = prepare(); code != kContinue) return code;
    if (!set_up_points()) return kExitIo;
    const bool written = run_steps();
    const bool removed = remove_files_and_directories();
    if (!written || !removed) return kExitIo;
    const std::vector<int> rss = comm::gather_ints(world_, static_cast<int>(peak_rss_kib()));
    report_.context.peak_rss_kib.assign(rss.begin(), rss.end());
    const int code = root_step([&] { publish_report(); });
    return code == kExitOk && interrupted_ ? 128 + interrupted_ : code;
  }

 private:
  // Rank 0 parses and validates; the others wait for its verdict, so a bad option is
  // reported once, not once per rank.
  int configure(int argc, const char* const* argv) {
    CliOutcome cli;
    if (root_) {
      cli = parse_command_line(argc, argv);
      if (cli.run) {
        guarded([&] { validate_for_world(cli.config, world_.size()); }, cli.message);
        if (!cli.message.empty()) {
          cli = {false, cli.config, kExitUsage, "mpiwrite: error: " + cli.message + "\n"};
        }
      }
    }
    const int code = comm::broadcast_int(world_, root_ && !cli.run ? cli.exit_code : kContinue);
    if (code != kContinue) {
      if (root_) (code == kExitOk ? out_ : err_) << cli.message << std::flush;
      return code;
    }
    config_ = cli.config;
    comm::broadcast_config(world_, config_);
    return kContinue;
  }

  // --engine uring must be usable on every rank (nodes can differ), checked before anything
  // is created: otherwise one message from rank 0 naming the reason, and exit 2.
  int check_engine() {
    if (config_.engine != Engine::Uring || config_.dry_run) return kContinue;
    const std::vector<std::string> reasons = comm::gather_strings(world_, uring_unavailable_reason());
    const std::vector<std::string> hosts = comm::gather_host_names(world_);
    const std::string message = root_ ? describe_uring_unavailable(reasons, hosts) : "";
    const int code = comm::broadcast_int(world_, message.empty() ? kContinue : kExitUsage);
    if (root_ && code != kContinue) err_ << "mpiwrite: error: " << message << '\n' << std::flush;
    return code;
  }

  // A step only rank 0 performs, followed by its verdict for everyone.
  template <typename Step>
  int root_step(Step&& step) {
    std::string message;
    const int code = comm::broadcast_int(world_, root_ ? guarded(step, message) : kExitOk);
    if (root_ && code != kExitOk) err_ << "mpiwrite: error: " << message << '\n' << std::flush;
    return code;
  }

  // Every rank's verdict on a phase; rank 0 prints each failing rank's message once.
  bool fail_unless_agreed(const std::string& local_failure) {
    const comm::Agreement agreement = comm::agree(world_, local_failure);
    if (root_) {
      for (const std::string& line : agreement.failures) err_ << "mpiwrite: error: " << line << '\n';
      err_ << std::flush;
    }
    return agreement.all_ok;
  }

  int prepare() {
    const auto started = std::chrono::system_clock::now();
    const auto ticks = static_cast<std::uint64_t>(started.time_since_epoch().count());
    std::uint64_t seed = config_.seed ? config_.seed : ticks;
    int code = root_step([&] {
      directory_ = prepare_directory(config_);
      run_id_ = fmt::format("{:x}-{:x}", ::getpid(), ticks);
    });
    if (code != kExitOk) return code;
    comm::broadcast_string(world_, directory_.path);
    comm::broadcast_string(world_, run_id_);
    seed = comm::broadcast_u64(world_, seed);
    points_ = make_points(config_, world_.size());
    scratch_root_ = scratch_root_path(directory_.path, run_id_);
    seed_ = seed;
    schedule_.emplace(config_, points_, directory_.path, scratch_root_, seed);
    pattern_ = parse_pattern(config_.pattern);

    const std::vector<std::string> hosts = comm::gather_host_names(world_);
    const std::vector<int> cpus = comm::gather_ints(world_, usable_cpus());
    const std::vector<int> bound = comm::gather_ints(world_, launcher_binding());
    if (root_) {
      init_report(hosts, cpus, started, seed);
      report_.context.bound_by_launcher = bound;
    }
    if (config_.verify) {
      verifier_ = std::make_unique<FileVerifier>(pattern_, config_.text, config_.lines);
    }
    watchdog_ = std::make_unique<Watchdog>(config_.timeout_s, [this](const std::string& phase) {
      // The stuck rank says so itself (once), then ends the whole job rather than hang it.
      err_ << fmt::format("mpiwrite: error: rank {} ({}): the {} phase has not finished after {} "
                          "s (--timeout {}); aborting the job\n",
                          world_.rank(), mpi::environment::processor_name(), phase,
                          config_.timeout_s, config_.timeout_s)
           << std::flush;
      MPI_Abort(MPI_COMM_WORLD, kExitTimeout);
    });
    return kContinue;
  }

  void init_report(const std::vector<std::string>& hosts, const std::vector<int>& cpus,
                   std::chrono::system_clock::time_point started, std::uint64_t seed) {
    report_.config = config_;
    report_.kind = run_kind(config_);
    report_.seed = seed;
    for (const PointSpec& spec : points_) report_.points.push_back({spec, {}, {}, 1.0, 1.0});
    RunContext& x = report_.context;
    x.mpiwrite_version = kVersion;
    x.ranks = world_.size();
    x.threads = config_.threads;
    x.hosts = group_ranks_by_host(hosts);
    x.mpi_library = comm::mpi_library_version();
    x.directory = directory_.path;
    x.filesystem = directory_.filesystem;
    x.cpus_of_rank = cpus;
    x.started_utc = fmt::format("{:%Y-%m-%dT%H:%M:%SZ}",
                                std::chrono::time_point_cast<std::chrono::seconds>(started));
  }

  // Per point: its communicator (world ranks 0..p-1), this rank's slice, a writer with its
  // thread count, and with --partition dynamic the shared counter. Collective, in point order.
  bool set_up_points() {
    std::string failure;
    std::map<int, std::size_t> first_with_ranks;
    for (const PointSpec& spec : points_) {
      PointResources r;
      if (auto known = first_with_ranks.find(spec.ranks); known != first_with_ranks.end()) {
        const PointResources& same = resources_[known->second];
        r.comm = same.comm;
        r.slice = same.slice;
        r.counter = same.counter;
      } else {
        first_with_ranks.emplace(spec.ranks, resources_.size());
        r.comm = world_.split(world_.rank() < spec.ranks ? 0 : MPI_UNDEFINED);
        if (r.comm) set_up_ranks(r, spec, failure);
      }
      if (r.comm) guarded([&] { r.writer = &writer_for(spec); }, failure);
      resources_.push_back(std::move(r));
    }
    if (root_ && !writers_.empty()) {
      report_.context.private_fd_tables = writers_.begin()->second->private_fd_tables();
    }
    return fail_unless_agreed(failure);
  }

  void set_up_ranks(PointResources& r, const PointSpec& spec, std::string& failure) {
    if (config_.partition == Partition::Dynamic) {
      guarded([&] { counters_.push_back(std::make_unique<SharedCounter>(r.comm)); }, failure);
      if (failure.empty()) r.counter = counters_.back().get();
      return;
    }
    std::vector<Progression> slices;
    if (r.comm.rank() == 0) {
      for (int rank = 0; rank < spec.ranks; ++rank) {
        slices.push_back(split(whole_run(config_.files), static_cast<std::uint64_t>(spec.ranks),
                               static_cast<std::uint64_t>(rank), config_.partition));
      }
    }
    r.slice = comm::scatter_slices(r.comm, slices);
  }

  Writer& writer_for(const PointSpec& spec) {
    auto& writer = writers_[{spec.threads, spec.engine, spec.queue_depth}];
    if (!writer) {
      WriteOptions options = write_options_from(config_);
      options.threads = spec.threads;
      options.engine = spec.engine;
      options.queue_depth = spec.queue_depth;
      options.interrupt = &interrupt_signal();
      for (int rank : config_.slow_ranks) {
        if (rank == world_.rank()) options.per_file_delay_us = config_.slow_delay_us;
      }
      writer = make_writer(options);
    }
    return *writer;
  }

  // Whether a rank got SIGINT or SIGTERM; all ranks learn it together, at a step boundary.
  bool interrupted_now() {
    interrupted_ = comm::max_int(world_, interrupt_signal().load());
    return interrupted_ != 0;
  }

  bool run_steps() {
    Step step;
    while (schedule_->next(step)) {
      if (interrupted_now()) break;
      if (step.scratch && !scratch_root_made_) {
        if (root_step([&] { make_directory(scratch_root_); }) != kExitOk) return false;
        scratch_root_made_ = true;
      }
      if (step.scratch && root_step([&] { make_directory(step.dir); }) != kExitOk) return false;
      ++steps_begun_;
      if (!run_step(step)) return false;
      if (interrupted_) break;
    }
    if (root_) {
      summarize_points(report_.points);
      if (report_.kind == RunKind::Compare) report_.comparison = compare_rows(report_.points);
      report_.interrupted_by = interrupted_;
    }
    return true;
  }

  // One repetition of one point. Ranks outside the point wait at the phase boundaries. A
  // repetition during which a signal arrived is discarded: its writers stopped early.
  bool run_step(const Step& step) {
    PointResources& r = resources_[step.point];
    std::string failure;
    if (r.comm) guarded([&] { r.writer->open_target(step.dir); }, failure);
    if (!fail_unless_agreed(failure)) return false;
    std::optional<RepetitionFigures> figures;
    if (r.comm) failure = measure(step, r, figures);
    if (!fail_unless_agreed(failure)) return false;
    if (interrupted_now()) return true;
    if (config_.verify && step.timed && !verify(step, r, figures)) return false;
    if (figures) report_.points[step.point].repetitions.push_back(std::move(*figures));
    return true;
  }

  // --verify: rank r of p reads back block r + 1 of the files, which rank r + 1 wrote with a
  // block partition, so no rank reads what its own client cache holds (like mdtest -N).
  bool verify(const Step& step, PointResources& r, std::optional<RepetitionFigures>& figures) {
    std::string failure;
    if (r.comm) {
      const auto ranks = static_cast<std::uint64_t>(r.comm.size());
      const auto block = (static_cast<std::uint64_t>(r.comm.rank()) + 1) % ranks;
      const Progression mine = split(whole_run(config_.files), ranks, block, Partition::Block);
      VerifyResult result;
      r.comm.barrier();
      watchdog_->arm("verify");
      const Clock::time_point start = Clock::now();
      guarded([&] { result = verifier_->verify(step.dir, mine); }, failure);
      const double elapsed_s = seconds_since(start);
      watchdog_->disarm();
      if (failure.empty() && result.mismatches != 0) {
        failure = fmt::format("verify: {} of {} files wrong: {}", result.mismatches,
                              result.checked, fmt::join(result.problems, "; "));
      }
      const VerifyFigures total{comm::max_to_root(r.comm, elapsed_s),
                                comm::sum_to_root(r.comm, result.checked),
                                comm::sum_to_root(r.comm, result.mismatches)};
      if (figures) {
        figures->verified = true;
        figures->verify = total;
      }
    }
    return fail_unless_agreed(failure);
  }

  // The timed write phase of the point's ranks, and its reduction to rank 0 (`figures`, on
  // rank 0 for a timed step).
  std::string measure(const Step& step, PointResources& r,
                      std::optional<RepetitionFigures>& figures) {
    std::optional<StaticSource> fixed;
    std::optional<SharedCounterSource> dynamic;
    std::function<void()> progress;
    if (r.counter) {
      r.counter->reset();
      dynamic.emplace(*r.counter, whole_run(config_.files), config_.chunk);
      if (r.counter->needs_progress()) progress = [counter = r.counter] { counter->progress(); };
    } else {
      fixed.emplace(r.slice, points_[step.point].threads, config_.partition);
    }
    WorkSource& source = r.counter ? static_cast<WorkSource&>(*dynamic) : *fixed;

    r.comm.barrier();  // the point's ranks start the timed phase together
    if (r.counter) r.counter->begin();
    watchdog_->arm("write");
    const Clock::time_point start = Clock::now();
    SliceResult result = r.writer->write(source, progress);
    const double elapsed_s = seconds_since(start);
    watchdog_->disarm();
    if (r.counter) r.counter->end();
    r.writer->close_target();
    comm::quiet_barrier(r.comm);  // early finishers leave the CPUs to the ranks still writing

    const RankFigures mine{r.comm.rank(), elapsed_s, result.files, result.bytes};
    std::vector<RankFigures> all = comm::gather_figures(r.comm, mine);
    comm::reduce_histogram(r.comm, result.latency);
    if (root_ && step.timed) {
      figures = summarize_repetition(step.number, std::move(all), result.latency);
    }
    return result.failure ? result.failure->message() : std::string();
  }

  // The removal phase, timed on its own and never inside a write time: the scratch
  // directories' files (and with --cleanup the final files). Whoever wrote them, rank r
  // removes block r of the names, so removal is spread evenly; rank 0 then removes the
  // directories the run created.
  bool remove_files_and_directories() {
    std::vector<std::string> dirs;  // --dir with --cleanup; the scratch ones are walked again
    if (config_.cleanup) dirs.push_back(directory_.path);
    if (dirs.empty() && !scratch_root_made_) return true;
    const Progression mine = split(whole_run(config_.files), static_cast<std::uint64_t>(world_.size()),
                                   static_cast<std::uint64_t>(world_.rank()), Partition::Block);
    world_.barrier();
    const Clock::time_point start = Clock::now();
    std::uint64_t removed = 0;
    std::string failure;
    watchdog_->arm("removal");
    if (config_.engine != Engine::Null) {  // the null engine created no file to remove
      guarded([&] {
        for_each_scratch_dir([&](const std::string& d) { removed += remove_files(d, pattern_, mine); });
        for (const std::string& d : dirs) removed += remove_files(d, pattern_, mine);
      }, failure);
    }
    watchdog_->disarm();
    const double elapsed_s = comm::max_to_root(world_, seconds_since(start));
    removed = comm::sum_to_root(world_, removed);
    if (!fail_unless_agreed(failure)) return false;

    if (config_.cleanup && !directory_.created) dirs.pop_back();  // never a directory it did not make
    if (root_step([&] {
          for_each_scratch_dir([](const std::string& d) { remove_directory(d); });
          if (scratch_root_made_) remove_directory(scratch_root_);
          for (const std::string& d : dirs) remove_directory(d);
        }) != kExitOk) {
      return false;
    }
    report_.cleanup = {true, elapsed_s, removed};
    return true;
  }

  // The scratch directories of the steps begun, walked again from the same seed rather than
  // kept in a list that would grow with the repetitions.
  template <typename Visit>
  void for_each_scratch_dir(Visit&& visit) const {
    StepSchedule again(config_, points_, directory_.path, scratch_root_, seed_);
    Step step;
    for (std::uint64_t i = 0; i < steps_begun_ && again.next(step); ++i) {
      if (step.scratch) visit(step.dir);
    }
  }

  void publish_report() {
    std::ostringstream text;
    write_report(report_, text);
    out_ << text.str() << std::flush;
    if (!config_.output.empty()) write_file_atomically(config_.output, text.str());
  }

  const mpi::communicator& world_;
  const bool root_;
  std::ostream& out_;
  std::ostream& err_;
  RunConfig config_;
  PreparedDirectory directory_;
  std::string run_id_;
  FilePattern pattern_;
  std::vector<PointSpec> points_;
  std::optional<StepSchedule> schedule_;  // built in prepare(), once the run id is known
  std::string scratch_root_;
  std::uint64_t seed_ = 0;
  bool scratch_root_made_ = false;
  std::uint64_t steps_begun_ = 0;  // steps whose directory exists (removal walks them again)
  std::map<std::tuple<unsigned, Engine, unsigned>, std::unique_ptr<Writer>>
      writers_;                            // by thread count, engine and queue depth
  std::vector<PointResources> resources_;                // one per point
  // Declared after resources_, so windows are freed before their communicators; every rank
  // frees them in the same order (MPI_Win_free is collective).
  std::vector<std::unique_ptr<SharedCounter>> counters_;
  std::unique_ptr<FileVerifier> verifier_;  // with --verify
  std::unique_ptr<Watchdog> watchdog_;      // armed around every timed phase
  int interrupted_ = 0;                     // the signal every rank agreed on, or 0
  RunReport report_;  // filled on rank 0 only
};

}  // namespace

int run(int argc, const char* const* argv, const boost::mpi::communicator& world,
        std::ostream& out, std::ostream& err) {
  return Coordinator(world, out, err).run(argc, argv);
}

}  // namespace mpiwrite
