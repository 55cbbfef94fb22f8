#include "mpiwrite/app/app.hpp"

#include <fmt/chrono.h>
#include <fmt/format.h>
#include <unistd.h>

#include <boost/mpi/environment.hpp>
#include <chrono>
#include <filesystem>
#include <map>
#include <ostream>
#include <sstream>
#include <tuple>

#include "mpiwrite/core/cli.hpp"
#include "mpiwrite/mpi/comm.hpp"
#include "mpiwrite/core/errors.hpp"
#include "mpiwrite/sys/interrupt.hpp"
#include "mpiwrite/sys/output_path.hpp"
#include "mpiwrite/core/dry_run.hpp"
#include "mpiwrite/core/points.hpp"
#include "mpiwrite/sys/posix_file.hpp"
#include "mpiwrite/core/run_report.hpp"
#include "mpiwrite/report/reporters.hpp"
#include "mpiwrite/sys/report_output.hpp"
#include "mpiwrite/sys/run_directory.hpp"
#include "mpiwrite/sys/scratch_remover.hpp"
#include "mpiwrite/core/schedule.hpp"
#include "mpiwrite/mpi/shared_counter.hpp"
#include "mpiwrite/core/text_escape.hpp"
#include "mpiwrite/engines/uring_support.hpp"
#include "mpiwrite/sys/verify.hpp"
#include "mpiwrite/core/version.hpp"
#include "mpiwrite/sys/watchdog.hpp"
#include "mpiwrite/engines/writer.hpp"

namespace mpiwrite {

namespace {

namespace mpi = boost::mpi;
using Clock = std::chrono::steady_clock;
constexpr int kContinue = -1;

const char* report_extension(Format format) {
  switch (format) {
    case Format::Table: return "txt";
    case Format::Markdown: return "md";
    case Format::Csv: return "csv";
    case Format::Json: return "json";
  }
  return "txt";
}

// The monotonic clock in nanoseconds: what ranks of one kernel share (common_clock.hpp).
std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count();
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
    if (config_.dry_run) return dry_run();
    if (int code = prepare(); code != kContinue) return code;
    if (!set_up_points()) return kExitIo;
    const bool written = run_steps();
    const bool removed = interrupted_ || remove_files_and_directories();
    if (interrupted_) return finish_interrupted(written);
    if (!written) return kExitIo;
    // Every repetition completed: a removal that failed (said above) costs the exit code,
    // never the report.
    gather_peak_memory();
    const int code = root_step([&] { publish_report(); });
    return removed ? code : kExitIo;
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
          cli = {false, cli.config, kExitUsage, "mpiwrite: error: " + printable(cli.message) + "\n"};
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

  // The same checks of --dir as a real run (nothing is created), then the plan.
  int dry_run() {
    const int code = root_step([&] { check_directory(config_); });
    if (code != kExitOk) return code;
    return root_step([&] {
      std::ostringstream plan;
      write_plan(config_, make_points(config_, world_.size()), plan);
      write_standard_output(plan.str(), out_);
    });
  }

  // --engine uring must be usable on every rank (nodes can differ), checked before anything
  // is created (also for --dry-run): otherwise one message from rank 0 naming the reason, and
  // exit 2.
  int check_engine() {
    if (config_.engine != Engine::Uring) return kContinue;
    const std::vector<std::string> reasons = comm::gather_strings(world_, uring_unavailable_reason());
    const std::vector<std::string> hosts = comm::gather_host_names(world_);
    const std::string message = root_ ? describe_uring_unavailable(reasons, hosts) : "";
    const int code = comm::broadcast_int(world_, message.empty() ? kContinue : kExitUsage);
    if (root_ && code != kContinue) err_ << "mpiwrite: error: " << printable(message) << '\n' << std::flush;
    return code;
  }

  // A step only rank 0 performs, followed by its verdict for everyone.
  template <typename Step>
  int root_step(Step&& step) {
    std::string message;
    const int code = comm::broadcast_int(world_, root_ ? guarded(step, message) : kExitOk);
    // Messages carry paths and values as given: printable() keeps each on one line, and no
    // terminal escape of a file name reaches the terminal.
    if (root_ && code != kExitOk) err_ << "mpiwrite: error: " << printable(message) << '\n' << std::flush;
    return code;
  }

  // Every rank's verdict on a phase; rank 0 prints each failing rank's message once.
  bool fail_unless_agreed(const std::string& local_failure) {
    const comm::Agreement agreement = comm::agree(world_, local_failure);
    if (root_) {
      for (const std::string& line : agreement.failures) {
        err_ << "mpiwrite: error: " << printable(line) << '\n';
      }
      err_ << std::flush;
    }
    return agreement.all_ok;
  }

  int prepare() {
    const auto started = std::chrono::system_clock::now();
    const auto ticks = static_cast<std::uint64_t>(started.time_since_epoch().count());
    std::uint64_t seed = config_.seed ? config_.seed : ticks;
    int code = root_step([&] {
      check_output_path(config_);  // before --dir is created: a bad -o costs nothing
      check_standard_output(config_);
      directory_ = prepare_directory(config_);
      run_id_ = fmt::format("{:x}-{:x}", ::getpid(), ticks);
      if (!directory_.created) remove_earlier_trash();
    });
    if (code != kExitOk) return code;
    comm::broadcast_string(world_, directory_.path);
    comm::broadcast_string(world_, run_id_);
    directory_.created = comm::broadcast_int(world_, directory_.created ? 1 : 0) != 0;
    seed = comm::broadcast_u64(world_, seed);
    points_ = make_points(config_, world_.size());
    scratch_root_ = scratch_root_path(directory_.path, run_id_);
    seed_ = seed;
    schedule_.emplace(config_, points_, directory_.path, scratch_root_, seed);
    pattern_ = parse_pattern(config_.pattern);

    const std::vector<std::string> hosts = comm::gather_host_names(world_);
    const std::vector<int> cpus = comm::gather_ints(world_, usable_cpus());
    const std::vector<int> bound = comm::gather_ints(world_, launcher_binding());
    put_clocks_on_one_axis();
    if (root_) {
      init_report(hosts, cpus, started, seed);
      report_.context.bound_by_launcher = bound;
      report_.context.clock_domains = clock_domains_;
      report_.context.clock_offset_error_s = static_cast<double>(clock_offsets_.error_ns) / 1e9;
      report_.context.clock_largest_offset_s = static_cast<double>(clock_offsets_.largest_ns) / 1e9;
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

  // A phase of `comm`'s ranks on rank 0, from the earliest start to the latest end on one time
  // axis (common_clock.hpp); 0 on the other ranks.
  double phase_on_root(const mpi::communicator& comm, std::int64_t start_ns, std::int64_t end_ns) {
    const std::vector<RankClockSample> all = comm::gather_clock_samples(comm, {comm.rank(), start_ns, end_ns, 0, 0});
    if (!root_) return 0;
    double span = 0;
    for (const RankFigures& f : on_common_axis(all, clock_offsets_.offset_ns)) {
      span = std::max(span, f.start_s + f.elapsed_s);
    }
    return span;
  }

  // Ranks of one kernel share the monotonic clock; for ranks of other kernels rank 0 measures
  // their clock's offset to its own once, here, outside any timed phase.
  void put_clocks_on_one_axis() {
    const std::vector<std::string> boot_ids = comm::gather_strings(world_, kernel_boot_id());
    std::vector<int> domains = root_ ? clock_domains(boot_ids) : std::vector<int>{};
    domains = comm::broadcast_ints(world_, std::move(domains));
    clock_domains_ = static_cast<int>(std::count_if(domains.begin(), domains.end(), [r = 0](int d) mutable {
      return d == r++;
    }));
    if (clock_domains_ > 1) clock_offsets_ = comm::measure_clock_offsets(world_, domains, now_ns);
  }

  // Scratch directories that interrupted runs in this --dir gave up (renamed to a trash name)
  // and whose background removal was killed too: removed in the background now.
  void remove_earlier_trash() {
    const std::vector<std::string> trash = find_trash(directory_.path);
    if (trash.empty()) return;
    const std::string problem = remove_in_background(trash);
    err_ << fmt::format("mpiwrite: note: {} {} left by interrupted or killed runs in {}: {}\n", trash.size(),
                        trash.size() == 1 ? "scratch directory" : "scratch directories",
                        directory_.path,
                        problem.empty() ? "removing in the background" : "cannot remove: " + problem)
         << std::flush;
  }

  void init_report(const std::vector<std::string>& hosts, const std::vector<int>& cpus,
                   std::chrono::system_clock::time_point started, std::uint64_t seed) {
    report_.config = config_;
    report_.kind = run_kind(config_);
    report_.seed = seed;
    for (const PointSpec& spec : points_) report_.points.emplace_back(spec);
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
      guarded([&] { counters_.push_back(SharedCounter::create(r.comm)); }, failure);
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
      if (step.scratch) {
        const int code = root_step([&] { make_scratch_directory(step.dir); });
        // Every rank must know whether the root exists: removal is collective.
        if (!scratch_root_made_) scratch_root_made_ = comm::broadcast_int(world_, root_made_) != 0;
        if (code != kExitOk) return false;
      }
      ++executed_;
      if (!run_step(step)) return false;
      if (interrupted_) break;
    }
    if (root_) {
      summarize_report(report_);
      report_.interrupted_by = interrupted_;
    }
    return true;
  }

  // Rank 0: a step's scratch directory, inside the run's scratch root (made with the first
  // one, readable only by the owner: no other user can plant a file where mpiwrite removes).
  void make_scratch_directory(const std::string& dir) {
    if (!root_made_) {
      make_directory(scratch_root_, 0700);
      root_made_ = true;
      scratch_lock_ = lock_scratch_root(scratch_root_);  // held until this process ends
    }
    make_directory(dir);
  }

  // Calls visit(step) for every step whose directory the run made or wrote into, in order:
  // the schedule walked again from the same seed, rather than a list that would grow with the
  // repetitions.
  template <typename Visit>
  void for_each_executed_step(Visit&& visit) const {
    StepSchedule again(config_, points_, directory_.path, scratch_root_, seed_);
    Step step;
    for (std::uint64_t i = 0; i < executed_ && again.next(step); ++i) visit(step);
  }

  // One repetition of one point. Ranks outside the point wait at the phase boundaries. A
  // repetition during which a signal arrived is discarded: its writers stopped early. Until
  // its write phase has completed on every rank, the step is the incomplete one, whose files
  // only the records of what each writer created can tell.
  bool run_step(const Step& step) {
    PointResources& r = resources_[step.point];
    incomplete_ = IncompleteStep{step.dir, {}};
    std::string failure;
    // --overwrite --cleanup: the first step into --dir finds none of its names (checked before
    // the run), so it creates them all with O_EXCL: a file put at a name meanwhile is refused,
    // not rewritten and then removed as if it were the run's.
    const bool exclusive = config_.overwrite && config_.cleanup && !step.scratch && !dir_touched_;
    if (!step.scratch) dir_touched_ = true;
    if (r.comm) guarded([&] { r.writer->open_target(step.dir, exclusive); }, failure);
    if (!fail_unless_agreed(failure)) return false;
    std::optional<RepetitionFigures> figures;
    if (r.comm) failure = measure(step, r, figures);
    const bool written = fail_unless_agreed(failure);
    if (!written || interrupted_now()) return written;
    incomplete_.reset();
    if (!step.scratch) dir_complete_ = true;
    if (config_.verify && step.timed && !verify(step, r, figures)) return false;
    if (interrupted_now()) return true;  // verified only in part: discarded too
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
      const std::int64_t start_ns = now_ns();
      guarded([&] { result = verifier_->verify(step.dir, mine, &interrupt_signal()); }, failure);
      const std::int64_t end_ns = now_ns();
      watchdog_->disarm();
      if (failure.empty() && result.mismatches != 0) {
        failure = fmt::format("verify: {} of {} files wrong: {}", result.mismatches,
                              result.checked, fmt::join(result.problems, "; "));
      }
      const VerifyFigures total{phase_on_root(r.comm, start_ns, end_ns),
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
    if (r.counter) {
      r.counter->begin(points_[step.point].threads, config_.chunk, whole_run(config_.files).count);
    }
    watchdog_->arm("write");
    const std::int64_t start_ns = now_ns();
    SliceResult result;
    std::string thrown;  // the writers record failures; anything thrown is one more
    guarded([&] { result = r.writer->write(source, progress); }, thrown);
    const std::int64_t end_ns = now_ns();
    watchdog_->disarm();
    if (r.counter) r.counter->end();
    r.writer->close_target();
    comm::quiet_barrier(r.comm);  // early finishers leave the CPUs to the ranks still writing

    const RankClockSample mine{r.comm.rank(), start_ns, end_ns, result.files, result.bytes};
    const std::vector<RankClockSample> all = comm::gather_clock_samples(r.comm, mine);
    comm::reduce_histogram(r.comm, result.latency);
    if (root_ && step.timed) {
      figures = summarize_repetition(step.number, on_common_axis(all, clock_offsets_.offset_ns),
                                     result.latency);
    }
    if (incomplete_) incomplete_->mine = std::move(result.created);
    if (!thrown.empty()) return thrown;
    return result.failure ? result.failure->message() : std::string();
  }

  // The removal phase, timed on its own and never inside a write time: the files of the
  // run's scratch directories, and with --cleanup those it wrote into --dir; then the
  // directories it made. Removal goes by what the run created: a step that completed created
  // every name 1..files in its directory (O_EXCL), and rank r removes block r of them, so
  // removal is spread evenly whoever wrote them; the one step that did not complete is
  // removed by each rank from its writers' records. A signal stops it (finish_interrupted).
  bool remove_files_and_directories() {
    const bool clean_dir = config_.cleanup && (dir_complete_ || incomplete_in(directory_.path));
    if (!scratch_root_made_ && !clean_dir && !(config_.cleanup && directory_.created)) return true;
    const Progression mine = split(whole_run(config_.files), static_cast<std::uint64_t>(world_.size()),
                                   static_cast<std::uint64_t>(world_.rank()), Partition::Block);
    world_.barrier();
    const std::int64_t start_ns = now_ns();
    std::uint64_t removed = 0;
    std::string failure;
    watchdog_->arm("removal");
    if (config_.engine != Engine::Null) {  // the null engine created no file to remove
      // A directory that fails stops only itself: the others are still removed, and the
      // first failure is reported.
      auto remove_in = [&](const std::string& dir, bool all) {
        // A signal stops the phase at once, not after visiting every directory (a comparison
        // of 10^5 repetitions has that many), so the report goes out before the launcher's
        // kill; the rest goes to the background removal (finish_interrupted).
        if (interrupt_signal().load() != 0) return;
        std::string problem;
        guarded([&] { removed += remove_written(dir, all, mine); }, problem);
        if (failure.empty()) failure = problem;
      };
      for_each_executed_step([&](const Step& step) {
        if (step.scratch) remove_in(step.dir, !incomplete_in(step.dir));
      });
      if (clean_dir) remove_in(directory_.path, dir_complete_);
    }
    watchdog_->disarm();
    const double elapsed_s = phase_on_root(world_, start_ns, now_ns());
    removed = comm::sum_to_root(world_, removed);
    report_.cleanup = {true, elapsed_s, removed, false, true};
    if (!fail_unless_agreed(failure)) return false;
    if (interrupted_now()) {
      report_.cleanup.failed = false;  // cut short, and the rest goes to the background
      return true;
    }

    const int code = root_step([&] {
      std::string first;  // every directory is tried; the first failure is reported
      auto rmdir_or_note = [&](const std::string& dir) {
        if (interrupt_signal().load() != 0) return;  // as above: the trash takes the rest
        std::string problem;
        guarded([&] { remove_directory(dir); }, problem);
        if (first.empty()) first = problem;
      };
      for_each_executed_step([&](const Step& step) {
        if (step.scratch) rmdir_or_note(step.dir);
      });
      if (scratch_root_made_ && interrupt_signal().load() == 0) {
        unlock_scratch_root(scratch_root_, scratch_lock_);
        rmdir_or_note(scratch_root_);
      }
      if (config_.cleanup && directory_.created) rmdir_or_note(directory_.path);
      if (!first.empty()) throw std::runtime_error(first);
    });
    if (code != kExitOk) return false;
    if (interrupted_now()) return true;  // what is left becomes trash (finish_interrupted)
    report_.cleanup.failed = false;
    return true;
  }

  bool incomplete_in(const std::string& dir) const { return incomplete_ && incomplete_->dir == dir; }

  // This rank's share of the run's files in `dir`: block `mine` of every name when the run
  // created them all, else what this rank's writers recorded.
  std::uint64_t remove_written(const std::string& dir, bool all, const Progression& mine) {
    const std::atomic<int>* stop = &interrupt_signal();
    if (all) return remove_files(dir, pattern_, mine, stop, config_.overwrite);
    return remove_created(dir, pattern_, incomplete_->mine, stop);
  }

  // After SIGINT or SIGTERM: the launcher kills the ranks a few seconds later (mpirun: ~2 s),
  // so first the scratch root becomes trash (one rename), then the report of what completed
  // goes out, then rm removes the trash in a process of its own (scratch_remover.hpp). With
  // --cleanup the ranks then remove what they wrote into --dir, as far as they get.
  int finish_interrupted(bool written) {
    report_.interrupted_by = interrupted_;
    std::string trash;
    root_step([&] { trash = give_up_scratch(); });
    // The removal starts before the report: writing the report to standard output may block
    // once the launcher stops forwarding it (Open MPI 4.1's mpirun, after its signal, takes
    // about 12 KB more), and then the launcher's kill would take the removal with it. The
    // -o file is written before standard output for the same reason.
    report_.cleanup.in_background = !trash.empty();
    root_step([&] { start_background_removal(trash); });
    int code = kExitIo;  // a run that failed has no report, interrupted or not
    if (written) {
      gather_peak_memory();
      if (root_ && config_.output.empty()) {
        // In --dir, except when --cleanup is to remove a --dir mpiwrite made: then beside it.
        const bool dir_goes = config_.cleanup && directory_.created;
        const std::string where = dir_goes ? std::filesystem::path(directory_.path).parent_path().string()
                                           : directory_.path;
        report_.saved_copy = fmt::format("{}/mpiwrite-interrupted-{}.{}", where, run_id_,
                                         report_extension(config_.format));
      }
      code = root_step([&] { publish_report(); });
    }
    bool dir_emptied = true;
    if (config_.cleanup && config_.engine != Engine::Null &&
        (dir_complete_ || incomplete_in(directory_.path))) {
      const Progression mine = split(whole_run(config_.files), static_cast<std::uint64_t>(world_.size()),
                                     static_cast<std::uint64_t>(world_.rank()), Partition::Block);
      std::string failure;
      guarded([&] {
        if (dir_complete_) {
          remove_files(directory_.path, pattern_, mine, nullptr, config_.overwrite);
        } else {
          remove_created(directory_.path, pattern_, incomplete_->mine);
        }
      }, failure);
      dir_emptied = fail_unless_agreed(failure);
    }
    // --dir itself, if mpiwrite made it, goes once the trash inside it is gone: a second
    // background rm after the first (rm -rf of what is already gone is harmless), then rmdir,
    // which leaves a directory that still holds anything.
    if (config_.cleanup && directory_.created && dir_emptied && root_) {
      const std::string problem =
          remove_in_background(trash.empty() ? std::vector<std::string>{} : std::vector{trash},
                               directory_.path);
      if (!problem.empty()) err_ << "mpiwrite: warning: " << problem << '\n' << std::flush;
    }
    return code == kExitOk ? 128 + interrupted_ : code;
  }

  // Rank 0: renames the scratch root to its trash name; returns what is to be removed.
  std::string give_up_scratch() {
    if (!scratch_root_made_) return {};
    const std::string trash = trash_path(scratch_root_);
    return ::rename(scratch_root_.c_str(), trash.c_str()) == 0 ? trash : scratch_root_;
  }

  void start_background_removal(const std::string& trash) {
    if (trash.empty()) return;
    const std::string problem = remove_in_background({trash});
    if (!problem.empty()) {
      err_ << fmt::format("mpiwrite: warning: could not start removing {} in the background ({}); "
                          "remove it by hand\n", trash, problem) << std::flush;
    }
  }

  void gather_peak_memory() {
    const std::vector<int> rss = comm::gather_ints(world_, static_cast<int>(peak_rss_kib()));
    report_.context.peak_rss_kib.assign(rss.begin(), rss.end());
  }

  void publish_report() {
    std::ostringstream text;
    write_report(report_, text);
    // The copy first, like -o (publish_report_text): standard output may block. Each output
    // is attempted whatever happens to the other.
    std::string copy_failed;
    if (!report_.saved_copy.empty()) {
      try {
        write_new_file(report_.saved_copy, text.str());
      } catch (const std::exception& e) {
        copy_failed = e.what();
      }
    }
    publish_report_text(text.str(), out_, config_.output);
    if (!copy_failed.empty()) throw std::runtime_error(copy_failed);
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
  std::uint64_t seed_ = 0;
  std::string scratch_root_;        // DIR/.mpiwrite-<run id>: every scratch directory is in it
  bool root_made_ = false;          // rank 0 made the scratch root
  UniqueFd scratch_lock_;           // rank 0's flock on it: a later run sees whether we live
  bool scratch_root_made_ = false;  // the same, known on every rank
  std::uint64_t executed_ = 0;      // steps whose directory was made (removal walks them again)
  // The step whose write phase did not complete on every rank (it failed or was interrupted),
  // with what this rank's writers created in it.
  struct IncompleteStep {
    std::string dir;
    CreatedFiles mine;
  };
  std::optional<IncompleteStep> incomplete_;
  bool dir_complete_ = false;  // a step that wrote into --dir completed: every name there is ours
  bool dir_touched_ = false;   // a step began writing into --dir
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
  int clock_domains_ = 1;             // kernels (monotonic clocks) among the ranks
  comm::ClockOffsets clock_offsets_;  // to rank 0's clock, on rank 0; empty with one kernel
};

}  // namespace

int run(int argc, const char* const* argv, const boost::mpi::communicator& world,
        std::ostream& out, std::ostream& err) {
  return Coordinator(world, out, err).run(argc, argv);
}

}  // namespace mpiwrite
