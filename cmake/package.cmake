# The Debian package: tools/package.sh BUILD_DIR runs CPack on a built tree and leaves
# mpiwrite_<version>_<arch>.deb there (docs/install.md). It holds what cmake/install.cmake
# installs, under /usr. dpkg-shlibdeps reads the binaries for the libraries they load (Open
# MPI, Boost.MPI, fmt, liburing, libstdc++); the rest is said here: mpirun (openmpi-bin) to
# start the ranks, python3 for the scripts in /usr/share/mpiwrite, and plot.py's matplotlib
# and the completion's loader as recommendations (a cluster node may have no use for them).
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME mpiwrite)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "create many small files from MPI ranks and threads, and time it")
set(CPACK_PACKAGE_DESCRIPTION
  "mpiwrite is a metadata benchmark for parallel file systems: MPI ranks and threads create,
stat, read and remove many small files, and one report gives each phase's makespan and rates.
mpiwrite-compare tells whether one report is faster than another. Job scripts for Slurm and
PBS, plot.py and the JSON report's schema are in /usr/share/mpiwrite.")
set(CPACK_PACKAGE_CONTACT "mpiwrite maintainers <mpiwrite@localhost>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # mpiwrite_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "openmpi-bin, python3")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "python3-matplotlib, bash-completion")
include(CPack)
