#pragma once
// The run's report, filled on rank 0 from the run: what was run (configuration, points, seed),
// where (hosts, CPUs, clocks, file system), the repetitions as the steps measure them, the
// removal, the peak memory; then written out. Reporters only format (report/reporters.hpp).

#include <boost/mpi/communicator.hpp>
#include <chrono>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "mpiwrite/core/run_report.hpp"
#include "phase_agreement.hpp"
#include "run_state.hpp"

namespace mpiwrite {

// Where the ranks run, gathered on rank 0 (rank order).
struct RankFacts {
  std::vector<std::string> hosts;
  std::vector<int> cpus;
  std::vector<int> bound_by_launcher;
  std::chrono::system_clock::time_point started;
};

// Collective over the world: every rank's host, usable CPUs and launcher binding.
RankFacts gather_rank_facts(const boost::mpi::communicator& world,
                            std::chrono::system_clock::time_point started);

// Rank 0: the report's description of the run, before any step.
void describe_run(RunReport& report, const RunState& run, const RankFacts& facts,
                  const PhaseAgreement& phases, int world_ranks);

// Collective over the world: every rank's peak resident set size, into the report on rank 0.
void gather_peak_memory(const boost::mpi::communicator& world, RunReport& report);

// Rank 0, interrupted without -o: the copy of the report saved beside what was written, in
// --dir (or beside it when --cleanup is to remove a --dir mpiwrite made).
std::string interrupted_copy_path(const RunState& run);

// Rank 0: the report to standard output, to each of run.outputs (-o, --json, --csv,
// --markdown, each in its held directory, RunState::output_dirs) and to its saved copy if it
// has one; each format is written once. Each output is attempted whatever happens to the
// others; throws the failures. `copy_dir_fd`: the held directory the interrupted-report copy
// goes into (-1: by its path); `copy_beside`, when that is --dir's parent: its path must
// still lead there once the copy is written.
void publish_report(const RunReport& report, const RunState& run, std::ostream& out,
                    int copy_dir_fd = -1, const HeldOutputDirectory* copy_beside = nullptr);

}  // namespace mpiwrite
