#include "mpiwrite/core/repetition_log.hpp"

#include <algorithm>
#include <stdexcept>

namespace mpiwrite {

namespace {

bool same(const LatencyFigures& a, const LatencyFigures& b) {
  return a.p50_us == b.p50_us && a.p90_us == b.p90_us && a.p99_us == b.p99_us &&
         a.max_us == b.max_us && a.mean_us == b.mean_us && a.count == b.count &&
         a.total_ns == b.total_ns;
}

bool same(const OperationFigures& a, const OperationFigures& b) {
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!same(a[i], b[i])) return false;
  }
  return true;
}

// Whether `rebuilt` says everything `rep` says (the derived figures compared exactly: they come
// from the same computation on the same numbers).
bool same(const RepetitionFigures& a, const RepetitionFigures& b) {
  return a.index == b.index && a.makespan_s == b.makespan_s && a.first_done_s == b.first_done_s &&
         a.start_spread_s == b.start_spread_s && a.slowest_s == b.slowest_s &&
         a.fastest_s == b.fastest_s && a.mean_s == b.mean_s && a.imbalance == b.imbalance &&
         a.files == b.files && a.bytes == b.bytes && a.files_per_s == b.files_per_s &&
         a.mib_per_s == b.mib_per_s && same(a.latency, b.latency) &&
         same(a.operations, b.operations) && a.verified == b.verified &&
         (!a.verified || (a.verify.elapsed_s == b.verify.elapsed_s &&
                          a.verify.files_checked == b.verify.files_checked &&
                          a.verify.mismatches == b.verify.mismatches)) &&
         a.limit.applied == b.limit.applied && a.limit.cut_short == b.limit.cut_short &&
         a.limit.files_at_limit == b.limit.files_at_limit &&
         a.limit.files_asked == b.limit.files_asked;
}

}  // namespace

void RepetitionLog::push_back(const RepetitionFigures& rep) {
  if (rep.ranks.empty()) throw std::invalid_argument("a repetition without ranks");
  if (empty()) {
    ranks_ = rep.ranks.size();
    verified_ = rep.verified;
    limited_ = rep.limit.applied;
    phases_per_repetition_ = rep.phases.size();
  }
  if (rep.index != size() + 1 || rep.ranks.size() != ranks_ || rep.verified != verified_ ||
      rep.limit.applied != limited_ || rep.phases.size() != phases_per_repetition_) {
    throw std::invalid_argument("a repetition out of order or unlike the point's first");
  }
  for (std::size_t r = 0; r < ranks_; ++r) {
    if (rep.ranks[r].rank != static_cast<int>(r)) {
      throw std::invalid_argument("a repetition's ranks are not 0..n-1 in order");
    }
  }
  for (const RankFigures& rank : rep.ranks)
    samples_.push_back({rank.start_s, rank.elapsed_s, rank.files, rank.bytes});
  latency_.push_back(rep.latency);
  operations_.push_back(rep.operations);
  if (verified_) verify_.push_back(rep.verify);
  if (limited_) limit_.push_back(rep.limit);
  if (!same((*this)[size() - 1], rep)) {
    samples_.resize(samples_.size() - ranks_);
    latency_.pop_back();
    operations_.pop_back();
    if (verified_) verify_.pop_back();
    if (limited_) limit_.pop_back();
    throw std::invalid_argument("a repetition not made by summarize_repetition");
  }
  // The other phases are kept whole (their figures are not rebuilt from samples).
  phases_.insert(phases_.end(), rep.phases.begin(), rep.phases.end());
}

void RepetitionLog::reserve(std::size_t repetitions, std::size_t ranks) {
  samples_.reserve(repetitions * ranks);
  latency_.reserve(repetitions);
  operations_.reserve(repetitions);
}

RepetitionFigures RepetitionLog::operator[](std::size_t i) const {
  std::vector<RankFigures> ranks;
  ranks.reserve(ranks_);
  for (std::size_t r = 0; r < ranks_; ++r) {
    const RankSample& s = samples_[i * ranks_ + r];
    ranks.push_back({static_cast<int>(r), s.elapsed_s, s.files, s.bytes, s.start_s});
  }
  RepetitionFigures rep =
      summarize_repetition(static_cast<unsigned>(i + 1), std::move(ranks), latency_[i]);
  rep.operations = operations_[i];
  if (verified_) {
    rep.verified = true;
    rep.verify = verify_[i];
  }
  if (limited_) rep.limit = limit_[i];
  const auto first = phases_.begin() + static_cast<std::ptrdiff_t>(i * phases_per_repetition_);
  if (i * phases_per_repetition_ < phases_.size()) {
    rep.phases.assign(first, first + static_cast<std::ptrdiff_t>(phases_per_repetition_));
  }
  return rep;
}

std::uint64_t RepetitionLog::files(std::size_t i) const {
  std::uint64_t files = 0;
  for (std::size_t r = 0; r < ranks_; ++r) files += samples_[i * ranks_ + r].files;
  return files;
}

double RepetitionLog::makespan_s(std::size_t i) const {
  double makespan = 0;  // as summarize_repetition computes it, so the two agree exactly
  for (std::size_t r = 0; r < ranks_; ++r) {
    const RankSample& s = samples_[i * ranks_ + r];
    makespan = std::max(makespan, s.start_s + s.elapsed_s);
  }
  return makespan;
}

}  // namespace mpiwrite
