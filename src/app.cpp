#include "mpiwrite/app.hpp"

#include <fmt/chrono.h>
#include <fmt/format.h>
#include <fmt/ostream.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <ostream>
#include <sstream>

#include "mpiwrite/cli.hpp"
#include "mpiwrite/comm.hpp"
#include "mpiwrite/errors.hpp"
#include "mpiwrite/plan.hpp"
#include "mpiwrite/posix_file.hpp"
#include "mpiwrite/report.hpp"
#include "mpiwrite/run_directory.hpp"
#include "mpiwrite/version.hpp"
#include "mpiwrite/writer.hpp"

namespace mpiwrite {

namespace {

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

// Writes `text` to `path` through a temporary file in the same directory and a rename, so a
// reader never sees a half-written report.
void write_file_atomically(const std::string& path, const std::string& text) {
  const std::string temporary = fmt::format("{}.tmp-{}", path, ::getpid());
  {
    std::ofstream file(temporary, std::ios::binary | std::ios::trunc);
    if (!file) throw IoError(errno, temporary, "open report");
    file << text;
    file.flush();
    if (!file) {
      std::remove(temporary.c_str());
      throw IoError(EIO, temporary, "write report");
    }
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    const int error = errno;
    std::remove(temporary.c_str());
    throw IoError(error, path, "rename report");
  }
}

class Coordinator {
 public:
  Coordinator(const boost::mpi::communicator& world, std::ostream& out, std::ostream& err)
      : world_(world), root_(world.rank() == 0), out_(out), err_(err) {}

  int run(int argc, const char* const* argv) {
    if (int code = configure(argc, argv); code != kContinue) return code;
    if (config_.dry_run) {
      if (root_) write_plan(config_, world_.size(), out_);
      return kExitOk;
    }
    if (int code = prepare(); code != kContinue) return code;
    const bool written = write_repetitions();
    const bool removed = remove_scratch_and_cleanup();
    if (!written || !removed) return kExitIo;
    return root_step([&] { publish_report(); });
  }

 private:
  // Rank 0 parses and validates; the others wait for its verdict, so a bad option is
  // reported once, not once per rank.
  int configure(int argc, const char* const* argv) {
    CliOutcome cli;
    if (root_) cli = parse_command_line(argc, argv);
    const int code = comm::broadcast_int(world_, root_ && !cli.run ? cli.exit_code : kContinue);
    if (code != kContinue) {
      if (root_) (code == kExitOk ? out_ : err_) << cli.message << std::flush;
      return code;
    }
    config_ = cli.config;
    comm::broadcast_config(world_, config_);
    return kContinue;
  }

  // A step only rank 0 performs, followed by its verdict for everyone.
  template <typename Step>
  int root_step(Step&& step) {
    std::string message;
    const int code = comm::broadcast_int(world_, root_ ? guarded(step, message) : kExitOk);
    if (root_ && code != kExitOk) err_ << "mpiwrite: error: " << message << '\n' << std::flush;
    return code;
  }

  int prepare() {
    const auto started = std::chrono::system_clock::now();
    int code = root_step([&] {
      directory_ = prepare_directory(config_);
      run_id_ = fmt::format("{:x}-{:x}", ::getpid(), started.time_since_epoch().count());
    });
    if (code != kExitOk) return code;
    comm::broadcast_string(world_, directory_.path);
    comm::broadcast_string(world_, run_id_);
    plans_ = plan_repetitions(config_, directory_.path, run_id_);
    pattern_ = parse_pattern(config_.pattern);

    std::vector<Progression> slices;
    if (root_) {
      for (int rank = 0; rank < world_.size(); ++rank) {
        slices.push_back(split(whole_run(config_.files), static_cast<std::uint64_t>(world_.size()),
                               static_cast<std::uint64_t>(rank), config_.partition));
      }
    }
    slice_ = comm::scatter_slices(world_, slices);
    const std::vector<std::string> hosts = comm::gather_host_names(world_);
    const std::vector<int> cpus = comm::gather_ints(world_, usable_cpus());
    if (root_) init_report(hosts, cpus, started);

    std::string failure;
    guarded([&] { writer_ = make_writer(write_options_from(config_)); }, failure);
    if (root_ && writer_) report_.context.private_fd_tables = writer_->private_fd_tables();
    return fail_unless_agreed(failure) ? kContinue : kExitIo;
  }

  void init_report(const std::vector<std::string>& hosts, const std::vector<int>& cpus,
                   std::chrono::system_clock::time_point started) {
    report_.config = config_;
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

  // Every rank's verdict on a phase; rank 0 prints each failing rank's message once.
  bool fail_unless_agreed(const std::string& local_failure) {
    const comm::Agreement agreement = comm::agree(world_, local_failure);
    if (root_) {
      for (const std::string& line : agreement.failures) err_ << "mpiwrite: error: " << line << '\n';
      err_ << std::flush;
    }
    return agreement.all_ok;
  }

  bool write_repetitions() {
    for (const RepetitionPlan& plan : plans_) {
      if (plan.scratch && root_step([&] { make_directory(plan.dir); }) != kExitOk) return false;
      if (plan.scratch) scratch_made_.push_back(plan.dir);
      if (!write_one(plan)) return false;
    }
    if (root_) {
      std::vector<double> makespans;
      for (const RepetitionFigures& rep : report_.repetitions) makespans.push_back(rep.slowest_s);
      report_.makespan = summarize_series(std::move(makespans));
    }
    return true;
  }

  bool write_one(const RepetitionPlan& plan) {
    std::string failure;
    guarded([&] { writer_->open_target(plan.dir); }, failure);
    if (!fail_unless_agreed(failure)) return false;

    world_.barrier();  // all ranks start the timed phase together
    const Clock::time_point start = Clock::now();
    SliceResult result = writer_->write(slice_);
    const double elapsed_s = seconds_since(start);
    writer_->close_target();

    const RankFigures mine{world_.rank(), elapsed_s, result.files, result.bytes};
    std::vector<RankFigures> figures = comm::gather_figures(world_, mine);
    comm::reduce_histogram(world_, result.latency);
    if (root_ && plan.timed) {
      report_.repetitions.push_back(
          summarize_repetition(plan.number, std::move(figures), result.latency));
    }
    return fail_unless_agreed(result.failure ? result.failure->message() : std::string());
  }

  // The removal phase, timed on its own and never inside a write time: the scratch
  // directories' files (and with --cleanup the final files), each rank removing exactly the
  // names of its own slice; then rank 0 removes the directories the run created.
  bool remove_scratch_and_cleanup() {
    std::vector<std::string> dirs = scratch_made_;
    if (config_.cleanup) dirs.push_back(directory_.path);
    if (dirs.empty()) return true;

    world_.barrier();
    const Clock::time_point start = Clock::now();
    std::uint64_t removed = 0;
    std::string failure;
    guarded([&] { for (const std::string& d : dirs) removed += remove_files(d, pattern_, slice_); },
            failure);
    const double elapsed_s = comm::max_to_root(world_, seconds_since(start));
    removed = comm::sum_to_root(world_, removed);
    if (!fail_unless_agreed(failure)) return false;

    if (config_.cleanup && !directory_.created) dirs.pop_back();  // never a directory it did not make
    if (root_step([&] { for (const std::string& d : dirs) remove_directory(d); }) != kExitOk) {
      return false;
    }
    report_.cleanup = {true, elapsed_s, removed};
    return true;
  }

  void publish_report() {
    std::ostringstream text;
    write_report(report_, text);
    out_ << text.str() << std::flush;
    if (!config_.output.empty()) write_file_atomically(config_.output, text.str());
  }

  const boost::mpi::communicator& world_;
  const bool root_;
  std::ostream& out_;
  std::ostream& err_;
  RunConfig config_;
  PreparedDirectory directory_;
  std::string run_id_;
  FilePattern pattern_;
  std::vector<RepetitionPlan> plans_;
  std::vector<std::string> scratch_made_;
  Progression slice_;
  std::unique_ptr<Writer> writer_;
  RunReport report_;  // filled on rank 0 only
};

}  // namespace

int run(int argc, const char* const* argv, const boost::mpi::communicator& world,
        std::ostream& out, std::ostream& err) {
  return Coordinator(world, out, err).run(argc, argv);
}

}  // namespace mpiwrite
