#pragma once
// The posix engine (blocking system calls, one file at a time) and the null engine (no I/O:
// mpiwrite's own per-file cost). Private to src/engines; made by make_engine.

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
  void write_part(const WriteTarget& target, const Progression& part, FileNamer& namer,
                  SliceResult& result, std::atomic<bool>& stop) const;

  const FileRecipe& recipe_;
};

class NullEngine final : public FileEngine {
 public:
  explicit NullEngine(const FileRecipe& recipe) : recipe_(recipe) {}

 protected:
  void run(const WriteTarget& target, WorkSource& source, unsigned thread, SliceResult& result,
           std::atomic<bool>& stop) override;

 private:
  void write_part(const WriteTarget& target, const Progression& part, FileNamer& namer,
                  SliceResult& result,
                  std::atomic<bool>& stop) const;

  const FileRecipe& recipe_;
};

}  // namespace mpiwrite
