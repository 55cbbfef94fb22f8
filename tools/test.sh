#!/usr/bin/env bash
# One command for the tests: install what is missing, build with warnings as errors, and run
# every test (unit, MPI under mpiexec -n 1/2/4, end to end) through CTest.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build-test}
"$root/tools/install-deps.sh" --test
"$root/tools/build.sh" "$build" -DMPIWRITE_WERROR=ON
# shellcheck source=mpi-env.sh
source "$root/tools/mpi-env.sh"
cd "$build"
ctest --output-on-failure -j"$(nproc)" --timeout 300
