// The run's report, filled on rank 0 (report_assembly.hpp).
#include "report_assembly.hpp"

#include <fmt/chrono.h>
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <filesystem>
#include <sstream>
#include <stdexcept>

#include "mpiwrite/core/version.hpp"
#include "mpiwrite/mpi/comm.hpp"
#include "mpiwrite/report/reporters.hpp"
#include "mpiwrite/sys/posix_file.hpp"
#include "mpiwrite/sys/report_output.hpp"
#include "mpiwrite/sys/system_facts.hpp"

namespace mpiwrite {

namespace {

const char* report_extension(Format format) {
  switch (format) {
    case Format::Table:
      return "txt";
    case Format::Markdown:
      return "md";
    case Format::Csv:
      return "csv";
    case Format::Json:
      return "json";
  }
  return "txt";
}

}  // namespace

RankFacts gather_rank_facts(const boost::mpi::communicator& world,
                            std::chrono::system_clock::time_point started) {
  RankFacts facts;
  facts.hosts = comm::gather_host_names(world);
  facts.cpus = comm::gather_ints(world, usable_cpus());
  facts.bound_by_launcher = comm::gather_ints(world, launcher_binding());
  facts.started = started;
  return facts;
}

void describe_run(RunReport& report, const RunState& run, const RankFacts& facts,
                  const PhaseAgreement& phases, int world_ranks) {
  report.config = run.config;
  report.kind = run_kind(run.config);
  report.seed = run.seed;
  for (const PointSpec& spec : run.points) report.points.emplace_back(spec);
  RunContext& x = report.context;
  x.mpiwrite_version = kVersion;
  x.ranks = world_ranks;
  // The most writer threads any point runs on one rank (a plain run's: its one point's),
  // from the points themselves: --threads is no point's count in a sweep or comparison.
  x.threads = 1;
  for (const PointPlan& plan : run.plans) x.threads = std::max(x.threads, plan.spec.threads);
  x.hosts = group_ranks_by_host(facts.hosts);
  x.mpi_library = comm::mpi_library_version();
  x.directory = run.directory.path;
  x.filesystem = run.directory.filesystem;
  x.cpus_of_rank = facts.cpus;
  x.started_utc = fmt::format("{:%Y-%m-%dT%H:%M:%SZ}",
                              std::chrono::time_point_cast<std::chrono::seconds>(facts.started));
  x.bound_by_launcher = facts.bound_by_launcher;
  x.clock_domains = phases.clock_domains();
  x.clock_offset_error_s = static_cast<double>(phases.clock_offsets().error_ns) / 1e9;
  x.clock_largest_offset_s = static_cast<double>(phases.clock_offsets().largest_ns) / 1e9;
}

void gather_peak_memory(const boost::mpi::communicator& world, RunReport& report) {
  const std::vector<int> rss = comm::gather_ints(world, static_cast<int>(peak_rss_kib()));
  report.context.peak_rss_kib.assign(rss.begin(), rss.end());
}

std::string interrupted_copy_path(const RunState& run) {
  const bool dir_goes = run.config.cleanup && run.directory.created;
  const std::string where = dir_goes
                                ? std::filesystem::path(run.directory.path).parent_path().string()
                                : run.directory.path;
  return fmt::format("{}/mpiwrite-interrupted-{}.{}", where, run.run_id,
                     report_extension(run.config.format));
}

void publish_report(const RunReport& report, const RunState& run, std::ostream& out,
                    int copy_dir_fd, const HeldOutputDirectory* copy_beside) {
  const Format terminal = run.config.format;
  std::map<Format, std::string> texts;  // each format written once, whatever its outputs
  const auto text_in = [&](Format format) -> const std::string& {
    auto [at, made] = texts.try_emplace(format);
    if (made) {
      std::ostringstream text;
      write_report(report, format, text);
      at->second = text.str();
    }
    return at->second;
  };
  const std::string& standard = text_in(terminal);
  // The copy first, like the files (publish_report_files): standard output may block.
  std::string copy_failed;
  if (!report.saved_copy.empty()) {
    try {
      write_new_file(report.saved_copy, standard, copy_dir_fd);
      if (copy_beside) expect_output_directory(*copy_beside, report.saved_copy);
    } catch (const std::exception& e) {
      copy_failed = e.what();
    }
  }
  std::vector<ReportFile> files;
  for (std::size_t i = 0; i < run.outputs.size(); ++i) {
    const ReportOutput& o = run.outputs[i];
    const std::string option = o.option == "--output" ? "-o" : o.option;
    files.push_back({o.path, option, &text_in(o.format), &run.output_dirs[i],
                     o.format == terminal});
  }
  try {
    publish_report_files(files, standard, out);
  } catch (const std::exception& e) {
    if (copy_failed.empty()) throw;
    throw std::runtime_error(fmt::format("{}; {}", e.what(), copy_failed));
  }
  if (!copy_failed.empty()) throw std::runtime_error(copy_failed);
}

}  // namespace mpiwrite
