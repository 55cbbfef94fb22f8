# mpiwrite_warnings: an INTERFACE target carrying the warning flags, linked PRIVATE by every
# project target, so no global flags are edited and consumers never inherit them.
add_library(mpiwrite_warnings INTERFACE)
target_compile_options(mpiwrite_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion -Wnon-virtual-dtor
  $<$<BOOL:${MPIWRITE_WERROR}>:-Werror>)
