#pragma once
// The posix engine (blocking system calls, one file at a time) and the null engine (no I/O:
// mpiwrite's own per-file cost): one loop per phase kind, a file's own calls apart (the write
// phase in posix_engine.cpp; stat, read, remove and the tree in posix_phases.cpp). Private to
// src/engines; made by make_engine.

#include <atomic>
#include <vector>

#include "engine.hpp"

namespace mpiwrite {

class PosixEngine final : public FileEngine {
 public:
  explicit PosixEngine(const FileRecipe& recipe) : recipe_(recipe) {}

 protected:
  void run(const WriteTarget& target, WorkSource& source, unsigned thread, SliceResult& result,
           std::atomic<bool>& stop) override;
  void run_files(Phase phase, const WriteTarget& target, WorkSource& source, unsigned thread,
                 SliceResult& result, std::atomic<bool>& stop) override;
  void run_tree(Phase phase, const WriteTarget& target, const std::vector<std::string>& level,
                const Progression& part, SliceResult& result, std::atomic<bool>& stop) override;

 private:
  const FileRecipe& recipe_;
  // The read phase's buffer, made at this thread's first read phase and kept: never per file.
  std::vector<char> read_buffer_;
};

class NullEngine final : public FileEngine {
 public:
  explicit NullEngine(const FileRecipe& recipe) : recipe_(recipe) {}

 protected:
  void run(const WriteTarget& target, WorkSource& source, unsigned thread, SliceResult& result,
           std::atomic<bool>& stop) override;
  void run_files(Phase phase, const WriteTarget& target, WorkSource& source, unsigned thread,
                 SliceResult& result, std::atomic<bool>& stop) override;
  void run_tree(Phase phase, const WriteTarget& target, const std::vector<std::string>& level,
                const Progression& part, SliceResult& result, std::atomic<bool>& stop) override;

 private:
  const FileRecipe& recipe_;
};

}  // namespace mpiwrite
