#pragma once
// How many bytes a file holds and how many each write() call writes: the one rule, read by
// RunConfig (the report, the dry run, --verify) and by the engines (EngineOptions).

#include <algorithm>
#include <cstdint>
#include <optional>

#include "mpiwrite/core/option_enums.hpp"

namespace mpiwrite {

struct FileBytes {
  std::uint64_t file = 0;   // bytes in a file
  std::uint64_t write = 0;  // bytes per write() call; the last of a file may be shorter
  // write() calls per file: 0 for an empty file (created and closed, nothing written).
  std::uint64_t writes() const { return file == 0 ? 0 : (file + write - 1) / write; }
};

// --file-size and --write-size when given (the write size at most the file's; not given: the
// whole file in one call); otherwise the seed's `lines` lines of `line_bytes`, a line per call
// (WriteMode::Line) or the whole file in one. Either way byte k of a file is line[k % line
// size] (FileRecipe::content_matches).
inline FileBytes file_bytes_of(std::uint64_t lines, std::uint64_t line_bytes, WriteMode mode,
                               const std::optional<std::uint64_t>& file_size,
                               const std::optional<std::uint64_t>& write_size) {
  if (file_size) return {*file_size, write_size ? std::min(*write_size, *file_size) : *file_size};
  const std::uint64_t file = lines * line_bytes;
  return {file, mode == WriteMode::Line ? line_bytes : file};
}

}  // namespace mpiwrite
