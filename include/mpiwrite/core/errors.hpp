#pragma once
// The two kinds of failure mpiwrite distinguishes, and the exit codes they map to.
// Everything that goes wrong inside a rank is thrown as one of these, or returned as a
// WriteFailure by the engines (engines/writer.hpp); across ranks it travels as the message of
// a failed phase (comm::agree), and it becomes a message and an exit code in exactly one
// place: guarded() in src/app/phase_agreement.hpp.

#include <stdexcept>
#include <string>
#include <system_error>

namespace mpiwrite {

inline constexpr int kExitOk = 0;
inline constexpr int kExitIo = 1;         // an I/O or runtime failure on any rank
inline constexpr int kExitUsage = 2;      // bad options or values; nothing was created or deleted
inline constexpr int kExitTimeout = 124;  // a rank's phase outran --timeout; the job was aborted
// Interrupted by a signal: 128 + the signal number (130 for SIGINT, 143 for SIGTERM).

// Bad command line or configuration: the user must change what they asked for.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A failed system call on a path; what() reads "PATH: OPERATION: strerror(errno)".
class IoError : public std::system_error {
 public:
  IoError(int errno_value, std::string path, const std::string& operation)
      : std::system_error(errno_value, std::generic_category(), path + ": " + operation),
        path_(std::move(path)) {}
  const std::string& path() const noexcept { return path_; }

 private:
  std::string path_;
};

}  // namespace mpiwrite
