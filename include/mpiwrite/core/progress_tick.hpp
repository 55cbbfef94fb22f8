#pragma once
// The cheap hook by which a loop on the main thread (verify, removal) reports its progress:
// add() per file, and every kEvery files one call of `report` with the files since the last
// (which reads the clock and, when an interval has passed, joins a progress round). Loops take
// a ProgressTick* that is null when progress is off.

#include <cstdint>
#include <functional>

namespace mpiwrite {

class ProgressTick {
 public:
  static constexpr std::uint32_t kEvery = 16;  // a clock read per 16 files: < 2 ns a file

  explicit ProgressTick(std::function<void(std::uint64_t files)> report)
      : report_(std::move(report)) {}
  void add() {
    if (++pending_ == kEvery) flush();
  }
  // The files not yet reported (at the end of the loop).
  void flush() {
    if (pending_ != 0) report_(pending_);
    pending_ = 0;
  }

 private:
  std::function<void(std::uint64_t)> report_;
  std::uint32_t pending_ = 0;
};

}  // namespace mpiwrite
