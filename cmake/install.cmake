# What `cmake --install` puts where (GNUInstallDirs; docs/install.md lists it):
#   bin/                                  mpiwrite, mpiwrite-compare
#   share/man/man1/                       mpiwrite.1, mpiwrite-compare.1  (made by src/manual)
#   share/bash-completion/completions/    mpiwrite, mpiwrite-compare      (made by src/manual)
#   share/mpiwrite/                       the job scripts, run.sh, mpi-env.sh, plot.py and the
#                                         report readers, the JSON schema, the hostfiles
#   share/doc/mpiwrite/                   README.md, CHANGELOG.md, docs/, bench-results/: the
#                                         same tree as the source, so relative links resolve
# The scripts find the installed binary beside them (../../bin), so nothing points back into
# a source tree (tests/install/layout.sh checks both).
include(GNUInstallDirs)
add_subdirectory(src/manual)

install(TARGETS mpiwrite mpiwrite-compare RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${MPIWRITE_MAN_PAGES} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${MPIWRITE_COMPLETIONS}
  DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)

set(mpiwrite_data ${CMAKE_INSTALL_DATADIR}/mpiwrite)
install(PROGRAMS scripts/run.sh scripts/plot.py scripts/job_summary.py scripts/mpiwrite_report.py
  DESTINATION ${mpiwrite_data})
install(FILES scripts/job_common.sh tools/mpi-env.sh docs/report.schema.json
  DESTINATION ${mpiwrite_data})
install(PROGRAMS scripts/slurm/mpiwrite.sbatch scripts/slurm/compare.sbatch
  DESTINATION ${mpiwrite_data}/slurm)
install(PROGRAMS scripts/pbs/mpiwrite.pbs DESTINATION ${mpiwrite_data}/pbs)
install(DIRECTORY hostfiles/ DESTINATION ${mpiwrite_data}/hostfiles)

install(FILES README.md CHANGELOG.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs)
install(DIRECTORY bench-results/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/bench-results)
