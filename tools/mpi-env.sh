# Sourced by the scripts: what Open MPI needs on a workstation or CI machine.
# As root, Open MPI refuses to start unless told that this is deliberate.
if [ "$(id -u)" -eq 0 ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
# More ranks than cores (4 ranks on a 2-core machine) is fine for an I/O benchmark.
export OMPI_MCA_rmaps_base_oversubscribe=1
