#!/usr/bin/env bash
# One command for a newcomer: install what is missing, build a Release mpiwrite, and run the
# seed workload with 4 ranks: mpirun -np 4 mpiwrite. The files land in ./mpiwrite-data.
# Extra arguments go to mpiwrite, e.g. scripts/run.sh -t 4 -r 10 --format markdown
# Installed (PREFIX/share/mpiwrite/run.sh, no source tree beside it) it builds nothing and runs
# $MPIWRITE, else PREFIX/bin/mpiwrite, else mpiwrite on PATH. MPIWRITE_RANKS: the ranks (4).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
if [ -x "$root/tools/build.sh" ]; then
  "$root/tools/install-deps.sh"
  "$root/tools/build.sh" "$root/build" -DMPIWRITE_BUILD_TESTS=OFF >/dev/null
  # shellcheck source=SCRIPTDIR/../tools/mpi-env.sh
  source "$root/tools/mpi-env.sh"
  binary=${MPIWRITE:-$root/build/mpiwrite}
else
  # shellcheck source=/dev/null  # installed beside this script
  source "$here/mpi-env.sh"
  binary=${MPIWRITE:-}
  [ -n "$binary" ] || [ ! -x "$here/../../bin/mpiwrite" ] ||
    binary=$(cd "$here/../../bin" && pwd)/mpiwrite
  [ -n "$binary" ] || binary=$(command -v mpiwrite || true)
  [ -x "$binary" ] ||
    { echo "run.sh: error: no mpiwrite: set MPIWRITE=/path/to/mpiwrite" >&2; exit 2; }
fi

# mpiwrite never overwrites files it did not create in this run, so an earlier run's files
# are moved aside (to mpiwrite-data.previous) rather than rewritten.
if [ -d mpiwrite-data ] && [ -n "$(ls -A mpiwrite-data)" ]; then
  rm -rf mpiwrite-data.previous
  mv mpiwrite-data mpiwrite-data.previous
  echo "run.sh: moved the previous run's files to ./mpiwrite-data.previous"
fi
mpirun -np "${MPIWRITE_RANKS:-4}" "$binary" "$@"
