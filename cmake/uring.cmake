# MPIWRITE_WITH_URING (AUTO, ON, OFF) -> MPIWRITE_URING_BUILT and, when built, PkgConfig::LIBURING.
# AUTO is the default so that a site without liburing configures; the line below says which it
# became, so a build that left the engine out does not pass unnoticed.
set(MPIWRITE_URING_BUILT OFF)
string(TOUPPER "${MPIWRITE_WITH_URING}" uring_choice)
if(uring_choice STREQUAL "AUTO")
  find_package(PkgConfig QUIET)
  if(PkgConfig_FOUND)
    pkg_check_modules(LIBURING QUIET IMPORTED_TARGET liburing>=2.1)
  endif()
  set(MPIWRITE_URING_BUILT ${LIBURING_FOUND})
elseif(MPIWRITE_WITH_URING)  # ON, YES, TRUE, 1
  find_package(PkgConfig REQUIRED)
  pkg_check_modules(LIBURING IMPORTED_TARGET liburing>=2.1)
  if(NOT LIBURING_FOUND)
    message(FATAL_ERROR "MPIWRITE_WITH_URING=ON but liburing >= 2.1 was not found (Debian: "
                        "apt-get install liburing-dev; Spack: liburing); or configure with "
                        "-DMPIWRITE_WITH_URING=OFF to build without the uring engine")
  endif()
  set(MPIWRITE_URING_BUILT ON)
endif()
if(MPIWRITE_URING_BUILT)
  set(MPIWRITE_URING_VERSION "${LIBURING_VERSION}")
  message(STATUS "mpiwrite: the uring engine is built (liburing ${LIBURING_VERSION})")
else()
  set(MPIWRITE_URING_VERSION "")
  message(STATUS "mpiwrite: the uring engine is NOT built (MPIWRITE_WITH_URING="
                 "${MPIWRITE_WITH_URING}; liburing >= 2.1 not found or not wanted): "
                 "--engine uring will exit 2")
endif()
