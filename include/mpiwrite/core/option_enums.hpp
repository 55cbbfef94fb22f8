#pragma once
// The options' choices (--partition, --write-mode, --format, --engine, --layout,
// --progress-style) as enums, with the names the command line and the reports use. Apart from
// RunConfig so that a module that only needs a choice (a partition, an engine) does not take
// the whole configuration with it.

#include <string_view>

namespace mpiwrite {

// Block and Cyclic split the files up front; Dynamic hands them out in chunks of --chunk on
// demand from a shared counter, so a faster rank or thread takes more.
enum class Partition { Block, Cyclic, Dynamic };
enum class WriteMode { Line, Whole };  // Line: one write() per line (the seed); Whole: one write()
enum class Format { Table, Markdown, Csv, Json };
// Posix: blocking system calls, one file in flight per thread. Uring: io_uring, --queue-depth
// files in flight per thread (docs/uring.md). Null: no I/O at all, mpiwrite's own overhead.
enum class Engine { Posix, Uring, Null };
// Where the files live (core/directory_layout.hpp): all in the run directory, a directory per
// rank, or one per writer thread.
enum class Layout { Shared, Rank, Thread };
// How --progress shows itself (docs/metrics.md, "Live progress"): auto: one line rewritten in
// place when rank 0's standard error is a terminal, else plain lines; tty / lines: forced.
enum class ProgressStyle { Auto, Tty, Lines };

std::string_view to_string(Partition value);
std::string_view to_string(WriteMode value);
std::string_view to_string(Format value);
std::string_view to_string(Engine value);
std::string_view to_string(Layout value);
std::string_view to_string(ProgressStyle value);

}  // namespace mpiwrite
