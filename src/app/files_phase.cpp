// The stat, read and remove phases of one step (files_phase.hpp).
#include "files_phase.hpp"

#include <fmt/format.h>

#include <span>
#include <utility>
#include <vector>

#include "mpiwrite/core/phase_share.hpp"
#include "mpiwrite/mpi/comm.hpp"

namespace mpiwrite {

namespace {

// A seed of its own for every rank of every step: the run's seed, mixed (splitmix64's
// finalizer) with the step and the rank, so the orders are reproducible from the report.
std::uint64_t order_seed(std::uint64_t run_seed, const Step& step, int rank) {
  constexpr std::uint64_t kGolden = 0x9e3779b97f4a7c15;
  std::uint64_t z = run_seed ^ (std::uint64_t{step.point} * kGolden) ^
                    (std::uint64_t{step.number} << 32) ^
                    (step.timed ? std::uint64_t{1} << 31 : std::uint64_t{0}) ^
                    static_cast<std::uint64_t>(rank);
  z = (z ^ (z >> 30)) * std::uint64_t{0xbf58476d1ce4e5b9};
  z = (z ^ (z >> 27)) * std::uint64_t{0x94d049bb133111eb};
  return z ^ (z >> 31);
}

}  // namespace

FilesPhase::FilesPhase(const RunState& run, PhaseAgreement& phases, PointHandles& h,
                       const Step& step, Phase phase, const CreatedFiles* records)
    : ItemsPhase(run, phases, h, step, phase), records_(records) {}

// This rank's files: after a completed block or cyclic write, a slice of the names as the
// write split them; after a dynamic or cut-short one, the records of the rank whose share it
// takes (exchanged here: collective over the point).
std::vector<Progression> FilesPhase::share() const {
  if (records_ == nullptr) {
    return {
        completed_share(phase_, run_.plans[step_.point].split, h_.comm.rank(), run_.config.shift)};
  }
  const unsigned by = phase_ == Phase::Remove ? 0 : run_.config.shift;
  return comm::created_of_rank_after(h_.comm, *records_, by).taken;
}

FilesOutcome FilesPhase::run() {
  const bool ok =
      set_up_then_time("choosing the files of the " + name(),
                       "opening the directories of the " + name(),
                       [this](std::string& failure) { set_up(failure); });
  return FilesOutcome{ok, std::move(figures_)};
}

// Untimed: this rank's share and its order; then every writer thread opens the step's
// directory and, as the write phase's writers do theirs, the layout directories of its part
// (with --random-order those of the whole share, where any of its files may be; after a
// dynamic or cut-short write, of the records' many progressions), up to its descriptor share,
// the rest as the files reach them, kept open once opened.
void FilesPhase::set_up(std::string& failure) {
  std::vector<Progression> mine;
  std::vector<std::vector<Progression>> parts;
  std::vector<std::span<const Progression>> ahead;  // per thread, whose directories it opens now
  guarded(
      [&] {
        mine = share();
        for (const Progression& p : mine) items_ += p.count;
        const unsigned threads = run_.plans[step_.point].split.threads;
        if (run_.config.random_order) {
          ahead.assign(threads, mine);  // views of the one share, not copies
          source_.emplace(
              shuffled_parts(mine, threads, order_seed(run_.seed, step_, h_.comm.rank())));
          return;
        }
        parts = split_over_threads(mine, threads);
        ahead.assign(parts.begin(), parts.end());
      },
      failure);
  if (!failure.empty()) return;
  guarded(
      [&] {
        h_.writer->open_target(run_.from_dir(step_.dir), false, h_.layout, &ahead);
        if (!source_) source_.emplace(std::move(parts));
      },
      failure);
}

void FilesPhase::work(std::string& failure) {
  guarded([&] { result_ = h_.writer->run_files(phase_, *source_, poll_, poll_every_); }, failure);
}

void FilesPhase::after(const PhaseClock& clock, std::string& failure) {
  ItemsPhase::after(clock, failure);
  if (figures_ && phase_ == Phase::Read) figures_->verified = run_.config.verify;
  if (failure.empty() && result_.mismatches != 0) {
    failure = fmt::format("verify: {} of {} files read wrong: {}", result_.mismatches,
                          result_.files, fmt::join(result_.problems, "; "));
  }
}

}  // namespace mpiwrite
