// What a build says about itself (--version) and refuses when it lacks an engine, and the
// warning of a run on another MPI than the build's (issue 25 §4, §5): pure functions, fed
// both builds' answers here whichever this build is.
#include <gtest/gtest.h>

#include <string>

#include "mpiwrite/core/build_facts.hpp"
#include "mpiwrite/core/errors.hpp"
#include "mpiwrite/core/mpi_mismatch.hpp"
#include "mpiwrite/core/version_text.hpp"

namespace mpiwrite {
namespace {

TEST(EngineNotBuilt, OnlyUringWithoutIoUringIsRefused) {
  EXPECT_EQ(engine_not_built(Engine::Uring, true), "");
  EXPECT_EQ(engine_not_built(Engine::Posix, false), "");
  EXPECT_EQ(engine_not_built(Engine::Null, false), "");
  const std::string refused = engine_not_built(Engine::Uring, false);
  EXPECT_EQ(refused.rfind("this mpiwrite was built without io_uring (", 0), 0u) << refused;
  EXPECT_NE(refused.find("--engine posix"), std::string::npos) << refused;
}

TEST(EngineNotBuilt, ThisBuildRefusesWhatItLacks) {
  EXPECT_NO_THROW(require_engine_built(Engine::Posix));
  EXPECT_NO_THROW(require_engine_built(Engine::Null));
  if (build_facts().uring) {
    EXPECT_NO_THROW(require_engine_built(Engine::Uring));
  } else {
    EXPECT_THROW(require_engine_built(Engine::Uring), UsageError);
  }
}

TEST(EnginesBuilt, UringLastAndOnlyWhenBuilt) {
  EXPECT_EQ(engines_built(false), (std::vector<Engine>{Engine::Posix, Engine::Null}));
  EXPECT_EQ(engines_built(true),
            (std::vector<Engine>{Engine::Posix, Engine::Null, Engine::Uring}));
}

BuildFacts facts(bool uring) {
  BuildFacts f;
  f.version = "9.8.7";
  f.commit = "0123456789ab";
  f.compiler = "GNU 12.2.0";
  f.boost = "1.74.0";
  f.fmt = "9.1.0";
  f.liburing = uring ? "2.3" : "";
  f.nlohmann_json = "3.11.2";
  f.uring = uring;
  return f;
}

TEST(VersionText, EveryFactOnItsOwnLine) {
  const std::string text = version_text(facts(true), {"Open MPI 4.1.4", "Open MPI v4.1.4, x"});
  EXPECT_EQ(text,
            "mpiwrite 9.8.7\n"
            "commit:      0123456789ab (at configure time)\n"
            "compiler:    GNU 12.2.0\n"
            "MPI built:   Open MPI 4.1.4\n"
            "MPI running: Open MPI v4.1.4, x\n"
            "Boost:       1.74.0\n"
            "fmt:         9.1.0\n"
            "liburing:    2.3\n"
            "engines:     posix, null, uring");
}

TEST(VersionText, WithoutIoUringSaysNotBuilt) {
  BuildFacts f = facts(false);
  f.commit = "unknown";
  const std::string text = version_text(f, {"MPICH 4.0.2", "MPICH Version: 4.0.2"});
  EXPECT_NE(text.find("\ncommit:      unknown\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\nliburing:    not built\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\nengines:     posix, null"), std::string::npos) << text;
  EXPECT_EQ(text.find("uring\n"), std::string::npos) << text;
}

TEST(VersionText, CompareNamesNoMpi) {
  EXPECT_EQ(compare_version_text(facts(true)),
            "mpiwrite-compare 9.8.7\n"
            "commit:      0123456789ab (at configure time)\n"
            "compiler:    GNU 12.2.0\n"
            "fmt:         9.1.0\n"
            "json:        nlohmann-json 3.11.2");
}

TEST(MpiMismatch, TheSameLibraryAndVersionIsQuiet) {
  EXPECT_EQ(mpi_mismatch_warning("Open MPI 4.1.4",
                                 "Open MPI v4.1.4, package: Debian OpenMPI, ident: 4.1.4, "
                                 "repo rev: v4.1.4, May 26, 2022"),
            "");
  EXPECT_EQ(mpi_mismatch_warning("MPICH 4.0.2", "MPICH Version: 4.0.2"), "");
  EXPECT_EQ(mpi_mismatch_warning("MPICH 4.0.2", "MPICH Version:\t4.0.2"), "");
}

TEST(MpiMismatch, AnotherVersionOrLibraryWarnsInOneLine) {
  const std::string newer = mpi_mismatch_warning("Open MPI 4.1.4", "Open MPI v5.0.3, package: x");
  EXPECT_EQ(newer.rfind("mpiwrite: warning: built against Open MPI 4.1.4 but running on Open MPI "
                        "5.0.3: ",
                        0),
            0u)
      << newer;
  EXPECT_EQ(newer.find('\n'), std::string::npos);
  EXPECT_NE(mpi_mismatch_warning("Open MPI 4.1.4", "Open MPI v4.1.5, package: x"), "");
  const std::string other = mpi_mismatch_warning("MPICH 4.0.2", "Open MPI v4.1.4, package: x");
  EXPECT_NE(other.find("built against MPICH 4.0.2 but running on Open MPI 4.1.4"),
            std::string::npos)
      << other;
  EXPECT_NE(mpi_mismatch_warning("Open MPI 4.1.4", "MPICH Version: 4.1"), "");
}

TEST(MpiMismatch, ALibraryItCannotReadIsNotGuessedAt) {
  EXPECT_EQ(mpi_mismatch_warning("MPICH 3.4a2", "Intel(R) MPI Library 2021.6 for Linux* OS"), "");
  EXPECT_EQ(mpi_mismatch_warning("MPI 3.1 (mpi.h of an unknown library)", "Open MPI v4.1.4"), "");
  EXPECT_EQ(mpi_mismatch_warning("Open MPI 4.1.4", "unknown"), "");
}

}  // namespace
}  // namespace mpiwrite
