#pragma once
// What an engine needs to write a point's files, the same on every rank of the point: what a
// file holds and how it is written. Pure; the point's plan holds it (point_plan.hpp), and the
// writers add what only a rank knows (engines/writer.hpp, WriteOptions).

#include <cstdint>
#include <optional>
#include <string>

#include "mpiwrite/core/file_bytes.hpp"
#include "mpiwrite/core/file_namer.hpp"
#include "mpiwrite/core/option_enums.hpp"

namespace mpiwrite {

struct EngineOptions {
  FilePattern pattern;
  std::uint64_t lines = 100;
  std::string text = "Hello, world!";
  WriteMode mode = WriteMode::Line;
  // --file-size and --write-size (not given: lines, text and mode say it; file_bytes.hpp).
  std::optional<std::uint64_t> file_size, write_size;
  bool fsync = false;
  bool overwrite = false;  // rewrite an existing file (open_for_overwrite) instead of O_EXCL
  Engine engine = Engine::Posix;
  // Files in flight per thread (uring engine): the point's; a rank's writer sizes its ring by
  // its work (ring_depth, rank_plan.hpp).
  unsigned queue_depth = 1;
  unsigned threads = 1;  // writer threads per rank

  FileBytes bytes() const {
    return file_bytes_of(lines, text.size() + 1, mode, file_size, write_size);
  }
};

}  // namespace mpiwrite
