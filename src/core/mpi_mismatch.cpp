// The MPI mismatch warning (mpi_mismatch.hpp).
#include "mpiwrite/core/mpi_mismatch.hpp"

#include <fmt/format.h>

#include <optional>
#include <regex>

namespace mpiwrite {

namespace {

struct MpiName {
  std::string family;   // "Open MPI" or "MPICH"
  std::string version;  // "4.1.4", "5.0.3rc1"
};

// The family and version in a library's name, from either side (mpi.h's macros or
// MPI_Get_library_version); nullopt when neither family is named.
std::optional<MpiName> read_name(std::string_view text) {
  static const std::regex kOpenMpi(R"(Open MPI v?([0-9][0-9A-Za-z.]*))");
  static const std::regex kMpich(R"(MPICH(?: Version:)?\s+([0-9][0-9A-Za-z.]*))");
  const std::string s(text);
  std::smatch m;
  if (std::regex_search(s, m, kOpenMpi)) return MpiName{"Open MPI", m[1]};
  if (std::regex_search(s, m, kMpich)) return MpiName{"MPICH", m[1]};
  return std::nullopt;
}

}  // namespace

std::string mpi_mismatch_warning(std::string_view built, std::string_view running) {
  const std::optional<MpiName> b = read_name(built);
  const std::optional<MpiName> r = read_name(running);
  if (!b || !r || (b->family == r->family && b->version == r->version)) return {};
  return fmt::format(
      "mpiwrite: warning: built against {} {} but running on {} {}: mpiwrite and Boost.MPI "
      "must be built against the MPI that runs them (mpiwrite --version; docs/site-build.md)",
      b->family, b->version, r->family, r->version);
}

}  // namespace mpiwrite
