#pragma once
// Whether mpirun bound a rank to CPUs, read from the environment it exported to the rank, for
// Open MPI 4 and 5 alike (docs/site-build.md, "Open MPI 5 and MPICH"). Pure: the environment
// comes in as a lookup (sys/system_facts.cpp passes getenv).

#include <functional>

namespace mpiwrite {

// The value of an environment variable, or nullptr when it is not set.
using EnvironmentLookup = std::function<const char*(const char*)>;

// 1 bound, 0 not bound (--bind-to none), -1 unknown (another launcher, or no mpirun). The
// binding policy, when one was given: Open MPI 4's OMPI_MCA_hwloc_base_binding_policy, Open
// MPI 5's (PRRTE's) PRTE_MCA_hwloc_default_binding_policy or its OMPI_MCA_ spelling; "none"
// (or "none:..." with qualifiers) is not bound, any other policy bound. Without a policy,
// Open MPI 4's OMPI_MCA_orte_bound_at_launch=1 says it bound the rank; Open MPI 5 exports no
// such flag (untested here: only Open MPI 4 is installed), so there it is unknown.
int launcher_binding(const EnvironmentLookup& environment);

}  // namespace mpiwrite
