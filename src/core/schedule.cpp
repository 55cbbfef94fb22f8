#include "mpiwrite/core/schedule.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <numeric>

namespace mpiwrite {

std::string scratch_root_path(const std::string& dir, const std::string& run_id) {
  return dir + "/.mpiwrite-" + run_id;
}

StepSchedule::StepSchedule(const RunConfig& config, const std::vector<PointSpec>& points,
                           std::string dir, std::string scratch_root, std::uint64_t seed)
    : dir_(std::move(dir)),
      scratch_root_(std::move(scratch_root)),
      warmup_(config.warmup),
      rounds_(config.warmup + config.rounds_asked()),
      auto_(config.auto_repetitions),
      single_(run_kind(config) == RunKind::Run),
      overwrite_(config.overwrite),
      order_(points.size()),
      random_(seed),
      position_(points.size()) {
  for (const PointSpec& point : points) labels_.push_back(point.label());
  std::iota(order_.begin(), order_.end(), std::size_t{0});
}

bool StepSchedule::next(Step& step) {
  if (position_ == order_.size()) {
    if (begun_ == rounds_ || order_.empty()) return false;
    ++begun_;
    position_ = 0;
    // The same engine shuffles the previous round's order again, as the list made up front
    // did, so a --seed gives the same order as before the schedule became lazy.
    if (!single_) std::shuffle(order_.begin(), order_.end(), random_);
  }
  const unsigned round = begun_ - 1;
  step.point = order_[position_++];
  step.timed = round >= warmup_;
  step.number = step.timed ? round - warmup_ + 1 : round + 1;
  const char kind = step.timed ? 'r' : 'w';
  // -r auto: which repetition is the last is known only after it, so none writes into --dir.
  step.scratch = !single_ || (!overwrite_ && (auto_ || round + 1 < rounds_));
  step.dir.clear();  // keeps its capacity: no allocation per step once it is long enough
  if (!step.scratch) {
    step.dir.append(dir_);
  } else if (single_) {
    fmt::format_to(std::back_inserter(step.dir), "{}/{}{}", scratch_root_, kind, step.number);
  } else {
    fmt::format_to(std::back_inserter(step.dir), "{}/{}-{}{}", scratch_root_, labels_[step.point],
                   kind, step.number);
  }
  return true;
}

std::uint64_t StepSchedule::size() const {
  return static_cast<std::uint64_t>(rounds_) * labels_.size();
}

}  // namespace mpiwrite
