# Sourced by the scripts: what Open MPI needs on a workstation or CI machine, for Open MPI 4 and
# 5 alike (docs/site-build.md, "Open MPI 5 and MPICH"). Each ignores the other's names.
# As root, Open MPI refuses to start unless told that this is deliberate (5 reads the same).
if [ "$(id -u)" -eq 0 ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
# More ranks than cores (4 ranks on a 2-core machine) is fine for an I/O benchmark. Open MPI 4:
# the rmaps parameter; Open MPI 5 ignores it (open-mpi/ompi#8955) and takes a modifier of
# PRRTE's default mapping policy. Untested here with Open MPI 5 (only 4 is installed).
export OMPI_MCA_rmaps_base_oversubscribe=1
export PRTE_MCA_rmaps_default_mapping_policy=:oversubscribe
