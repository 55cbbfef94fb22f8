// The stat, read and remove phases of one step (files_phase.hpp).
#include "files_phase.hpp"

#include <fmt/format.h>

#include "mpiwrite/core/phase_share.hpp"
#include "mpiwrite/mpi/comm.hpp"
#include "phase_figures.hpp"
#include "step_names.hpp"

namespace mpiwrite {

namespace {

ProgressPhase progress_phase_of(Phase phase) {
  switch (phase) {
    case Phase::Stat:
      return ProgressPhase::Stat;
    case Phase::Read:
      return ProgressPhase::Read;
    default:
      return ProgressPhase::Remove;
  }
}

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
    : TimedPhase(fmt::format("{} phase of {}", phase_name(phase), label_of(run, step)), &h.comm),
      run_(run),
      phases_(phases),
      h_(h),
      step_(step),
      phase_(phase),
      records_(records) {}

// This rank's files: after a completed write, a block of the names; after a cut-short one,
// the records of the rank whose share it takes (exchanged here: collective over the point).
std::vector<Progression> FilesPhase::share() const {
  const int ranks = h_.comm.size();
  const int rank = h_.comm.rank();
  if (records_ == nullptr) {
    return {completed_share(phase_, run_.config.files, rank, ranks, run_.config.shift)};
  }
  const unsigned by = phase_ == Phase::Remove ? 0 : run_.config.shift;
  return comm::created_of_rank_after(h_.comm, *records_, by).taken;
}

FilesOutcome FilesPhase::run() {
  std::string failure;
  if (h_.comm) {
    phases_.enter("choosing the files of the " + name());
    guarded(
        [&] {
          const std::vector<Progression> mine = share();
          for (const Progression& p : mine) items_ += p.count;
          const unsigned threads = run_.plans[step_.point].split.threads;
          source_.emplace(run_.config.random_order
                              ? shuffled_parts(mine, threads,
                                               order_seed(run_.seed, step_, h_.comm.rank()))
                              : split_over_threads(mine, threads));
        },
        failure);
    if (failure.empty()) open_target(failure);
  }
  if (!phases_.agree_after("opening the directories of the " + name(), failure)) return outcome_;
  outcome_.ok = phases_.timed_phase(*this);
  return outcome_;
}

// Untimed: every writer thread opens the step's directory (the layout's directories as it
// reaches them: a thread's files here are not those it wrote).
void FilesPhase::open_target(std::string& failure) {
  guarded([&] { h_.writer->open_target(run_.from_dir(step_.dir), false, h_.layout, nullptr); },
          failure);
}

void FilesPhase::before() {
  if (!run_.progress.on()) return;
  live_.emplace(run_.progress, run_.progress_out.get(), h_.comm,
                subject_of(run_, step_, progress_phase_of(phase_)), items_);
  poll_ = [this] { return live_->poll(h_.writer->files_done()); };
  poll_every_ = live_->poll_every();
}

void FilesPhase::work(std::string& failure) {
  guarded([&] { result_ = h_.writer->run_files(phase_, *source_, poll_, poll_every_); }, failure);
}

void FilesPhase::after(const PhaseClock& clock, std::string& failure) {
  if (live_) guarded([&] { live_->finish(result_.files); }, failure);
  h_.writer->close_target();
  comm::quiet_barrier(h_.comm);
  outcome_.figures = gather_phase_figures(phases_, h_.comm, phase_, clock, result_, step_.timed);
  if (outcome_.figures && phase_ == Phase::Read) outcome_.figures->verified = run_.config.verify;
  if (failure.empty() && result_.failure) failure = result_.failure->message();
  if (failure.empty() && result_.mismatches != 0) {
    failure = fmt::format("verify: {} of {} files read wrong: {}", result_.mismatches,
                          result_.files, fmt::join(result_.problems, "; "));
  }
}

}  // namespace mpiwrite
