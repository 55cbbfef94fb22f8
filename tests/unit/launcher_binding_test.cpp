// Whether mpirun bound a rank, from the environment of Open MPI 4 and of Open MPI 5 (issue 25
// §6). Open MPI 5 is not installed here: its names are checked only as this lookup sees them.
#include "mpiwrite/core/launcher_binding.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace mpiwrite {
namespace {

int binding(const std::map<std::string, std::string>& environment) {
  return launcher_binding([&](const char* name) -> const char* {
    const auto found = environment.find(name);
    return found == environment.end() ? nullptr : found->second.c_str();
  });
}

TEST(LauncherBinding, OpenMpi4) {
  EXPECT_EQ(binding({{"OMPI_MCA_hwloc_base_binding_policy", "none"}}), 0);
  EXPECT_EQ(binding({{"OMPI_MCA_hwloc_base_binding_policy", "core"}}), 1);
  EXPECT_EQ(binding({{"OMPI_MCA_orte_bound_at_launch", "1"}}), 1);
  EXPECT_EQ(binding({{"OMPI_MCA_hwloc_base_binding_policy", "none"},
                     {"OMPI_MCA_orte_bound_at_launch", "1"}}),
            0);
}

TEST(LauncherBinding, OpenMpi5) {
  EXPECT_EQ(binding({{"PRTE_MCA_hwloc_default_binding_policy", "none"}}), 0);
  EXPECT_EQ(binding({{"PRTE_MCA_hwloc_default_binding_policy", "none:overload-allowed"}}), 0);
  EXPECT_EQ(binding({{"PRTE_MCA_hwloc_default_binding_policy", "package"}}), 1);
  EXPECT_EQ(binding({{"OMPI_MCA_hwloc_default_binding_policy", "none"}}), 0);
  EXPECT_EQ(binding({{"OMPI_MCA_hwloc_default_binding_policy", "core"}}), 1);
}

TEST(LauncherBinding, UnknownWithoutEither) {
  EXPECT_EQ(binding({}), -1);
  EXPECT_EQ(binding({{"OMPI_MCA_orte_bound_at_launch", "0"}}), -1);
  EXPECT_EQ(binding({{"PMI_RANK", "0"}}), -1);  // MPICH's Hydra says nothing of binding
}

}  // namespace
}  // namespace mpiwrite
