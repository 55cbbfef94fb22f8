# The facts `mpiwrite --version` prints that only the build knows: the commit (at configure
# time; "unknown" outside a git checkout, as in a release tarball), the compiler, and the
# versions of Boost, liburing and nlohmann-json that were found. Written to
# ${PROJECT_BINARY_DIR}/generated/build_config.hpp.
set(MPIWRITE_GIT_COMMIT unknown)
find_package(Git QUIET)
if(GIT_FOUND)
  execute_process(COMMAND ${GIT_EXECUTABLE} rev-parse --short=12 HEAD
                  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
                  OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE
                  RESULT_VARIABLE failed ERROR_QUIET)
  if(NOT failed AND commit)
    set(MPIWRITE_GIT_COMMIT ${commit})
  endif()
endif()
if(MPIWRITE_URING_BUILT)
  set(MPIWRITE_URING_BUILT_CXX true)
else()
  set(MPIWRITE_URING_BUILT_CXX false)
endif()
configure_file(${PROJECT_SOURCE_DIR}/cmake/build_config.hpp.in
               ${PROJECT_BINARY_DIR}/generated/build_config.hpp @ONLY)
