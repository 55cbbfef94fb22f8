// Whether mpirun bound the rank, from its environment (launcher_binding.hpp).
#include "mpiwrite/core/launcher_binding.hpp"

#include <string_view>

namespace mpiwrite {

int launcher_binding(const EnvironmentLookup& environment) {
  // Open MPI 4 first; 5's names are PRRTE's (open-mpi/ompi#8955: 4's are ignored there).
  for (const char* name : {"OMPI_MCA_hwloc_base_binding_policy",
                           "PRTE_MCA_hwloc_default_binding_policy",
                           "OMPI_MCA_hwloc_default_binding_policy"}) {
    const char* policy = environment(name);
    if (policy == nullptr || *policy == '\0') continue;
    const std::string_view value(policy);
    return value == "none" || value.starts_with("none:") ? 0 : 1;
  }
  const char* bound = environment("OMPI_MCA_orte_bound_at_launch");
  return bound != nullptr && std::string_view(bound) == "1" ? 1 : -1;
}

}  // namespace mpiwrite
