#pragma once
// The posix engine (blocking system calls, one file at a time) and the null engine (no I/O:
// mpiwrite's own per-file cost): one loop, a file's own calls apart (posix_engine.cpp).
// Private to src/engines; made by make_engine.

#include <atomic>

#include "engine.hpp"

namespace mpiwrite {

class PosixEngine final : public FileEngine {
 public:
  explicit PosixEngine(const FileRecipe& recipe) : recipe_(recipe) {}

 protected:
  void run(const WriteTarget& target, WorkSource& source, unsigned thread, SliceResult& result,
           std::atomic<bool>& stop) override;

 private:
  const FileRecipe& recipe_;
};

class NullEngine final : public FileEngine {
 public:
  explicit NullEngine(const FileRecipe& recipe) : recipe_(recipe) {}

 protected:
  void run(const WriteTarget& target, WorkSource& source, unsigned thread, SliceResult& result,
           std::atomic<bool>& stop) override;

 private:
  const FileRecipe& recipe_;
};

}  // namespace mpiwrite
