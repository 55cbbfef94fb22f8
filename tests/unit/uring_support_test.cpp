#include "mpiwrite/engines/uring_support.hpp"

#include <gtest/gtest.h>

namespace mpiwrite {
namespace {

TEST(DescribeUringUnavailable, EmptyWhenEveryRankCan) {
  EXPECT_EQ(describe_uring_unavailable({"", "", ""}, {"a", "a", "b"}), "");
}

TEST(DescribeUringUnavailable, OneReasonOnEveryRankIsSaidOnce) {
  const std::string m = describe_uring_unavailable({"blocked", "blocked"}, {"a", "a"});
  EXPECT_EQ(m, "--engine uring cannot run here: on every rank: blocked. Use --engine posix.");
}

TEST(DescribeUringUnavailable, ASingleRankNeedsNoWhere) {
  EXPECT_EQ(describe_uring_unavailable({"old kernel"}, {"a"}),
            "--engine uring cannot run here: old kernel. Use --engine posix.");
}

TEST(DescribeUringUnavailable, DistinctReasonsNameTheirRanksAndFirstHost) {
  const std::string m =
      describe_uring_unavailable({"", "blocked", "old kernel", "blocked"}, {"a", "b", "c", "d"});
  EXPECT_EQ(m,
            "--engine uring cannot run here: on ranks 1,3 (host b): blocked; on rank 2 (host c): "
            "old kernel. Use --engine posix.");
}

TEST(DescribeUringUnavailable, LongRankListsAreCut) {
  std::vector<std::string> reasons(20, "blocked"), hosts(20, "h");
  reasons[0] = "";
  const std::string m = describe_uring_unavailable(reasons, hosts);
  EXPECT_NE(m.find("on ranks 1,2,3,4,5,6,7,8 and 11 more (host h): blocked."), std::string::npos)
      << m;
}

// Whatever this machine says, it says it as one sentence (the e2e test covers a real refusal).
TEST(UringUnavailableReason, IsEmptyOrOneLine) {
  const std::string reason = uring_unavailable_reason();
  EXPECT_EQ(reason.find('\n'), std::string::npos) << reason;
}

}  // namespace
}  // namespace mpiwrite
