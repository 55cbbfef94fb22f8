// Every rank's verdict on --engine uring in one message (uring_support.hpp): pure, and built
// with or without io_uring.
#include <fmt/format.h>

#include <map>

#include "mpiwrite/engines/uring_support.hpp"

namespace mpiwrite {

std::string describe_uring_unavailable(const std::vector<std::string>& reasons,
                                       const std::vector<std::string>& hosts) {
  std::map<std::string, std::vector<std::size_t>> ranks_by_reason;
  for (std::size_t rank = 0; rank < reasons.size(); ++rank) {
    if (!reasons[rank].empty()) ranks_by_reason[reasons[rank]].push_back(rank);
  }
  if (ranks_by_reason.empty()) return {};
  std::string message = "--engine uring cannot run here:";
  for (const auto& [reason, ranks] : ranks_by_reason) {
    std::string where;
    if (ranks.size() == reasons.size()) {
      where = reasons.size() == 1 ? "" : "on every rank";
    } else {
      where = fmt::format("on {} {}", ranks.size() == 1 ? "rank" : "ranks", ranks.front());
      for (std::size_t i = 1; i < ranks.size() && i < 8; ++i) where += fmt::format(",{}", ranks[i]);
      if (ranks.size() > 8) where += fmt::format(" and {} more", ranks.size() - 8);
      if (ranks.front() < hosts.size()) where += fmt::format(" (host {})", hosts[ranks.front()]);
    }
    message += where.empty() ? fmt::format(" {}", reason) : fmt::format(" {}: {}", where, reason);
    message += ';';
  }
  message.back() = '.';
  message += " Use --engine posix.";
  return message;
}

}  // namespace mpiwrite
