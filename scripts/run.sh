#!/usr/bin/env bash
# One command for a newcomer: install what is missing, build a Release mpiwrite, and run the
# seed workload with 4 ranks: mpirun -np 4 mpiwrite. The files land in ./mpiwrite-data.
# Extra arguments go to mpiwrite, e.g. scripts/run.sh -t 4 -r 10 --format markdown
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/tools/install-deps.sh"
"$root/tools/build.sh" "$root/build" -DMPIWRITE_BUILD_TESTS=OFF >/dev/null
# shellcheck source=SCRIPTDIR/../tools/mpi-env.sh
source "$root/tools/mpi-env.sh"
export PATH="$root/build:$PATH"

# mpiwrite never overwrites files it did not create in this run, so an earlier run's files
# are moved aside (to mpiwrite-data.previous) rather than rewritten.
if [ -d mpiwrite-data ] && [ -n "$(ls -A mpiwrite-data)" ]; then
  rm -rf mpiwrite-data.previous
  mv mpiwrite-data mpiwrite-data.previous
  echo "run.sh: moved the previous run's files to ./mpiwrite-data.previous"
fi
mpirun -np 4 mpiwrite "$@"
