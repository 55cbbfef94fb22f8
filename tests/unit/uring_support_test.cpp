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

// Each phase's operations, and the sentence that names one the kernel lacks: the operation,
// the phase and the release that added it.
TEST(UringOperations, EachPhaseNamesWhatItSubmits) {
  if (!MPIWRITE_URING_BUILT) GTEST_SKIP() << "uring: " << uring_unavailable_reason();
  const auto names = [](Phase phase) {
    std::string all;
    for (const UringOperation& op : uring_operations_of(phase)) all += std::string(op.name) + " ";
    return all;
  };
  EXPECT_EQ(names(Phase::Write), "OPENAT WRITE FSYNC TIMEOUT CLOSE ");
  EXPECT_EQ(names(Phase::Stat), "STATX ");
  EXPECT_EQ(names(Phase::Read), "OPENAT READ CLOSE ");
  EXPECT_EQ(names(Phase::Remove), "UNLINKAT ");
  EXPECT_EQ(names(Phase::TreeCreate), "MKDIRAT ");
  EXPECT_EQ(names(Phase::TreeRemove), "UNLINKAT ");
  EXPECT_EQ(uring_lacks(Phase::TreeCreate, uring_operations_of(Phase::TreeCreate)[0]),
            "the kernel's io_uring lacks the MKDIRAT operation, which the tree-create phase "
            "needs (Linux 5.15 or later)");
}

TEST(UringUnavailableReason, ForEveryPhaseIsEmptyOrOneLine) {
  const std::string reason = uring_unavailable_reason(
      PhaseSet{Phase::TreeCreate, Phase::Stat, Phase::Read, Phase::Remove, Phase::TreeRemove});
  EXPECT_EQ(reason.find('\n'), std::string::npos) << reason;
  if (uring_unavailable_reason().empty()) {  // a kernel of 5.19 or later has them all
    EXPECT_EQ(reason, "");
  }
}

}  // namespace
}  // namespace mpiwrite
