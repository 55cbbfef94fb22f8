#pragma once
// How the report's workload line and the dry run say how many files there are and how each is
// written, in one place (the workload words of config.hpp: --files-per-rank, --file-size,
// --write-size). Pure.

#include <string>

#include "mpiwrite/core/config.hpp"

namespace mpiwrite {

// "100 files", or with --files-per-rank "20 files (5 per rank x 4 ranks)".
std::string files_words(const RunConfig& config);
// The write() calls of one file: "100 writes of 14 B each", "one write() each" (the seed's
// --write-mode whole), and with --file-size "no write", "1 write of 4096 B",
// "3 writes of 4096 B, the last 1808 B".
std::string writes_words(const RunConfig& config);

}  // namespace mpiwrite
