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
# Two CTest slots a core: most end-to-end tests wait (mpiexec's start and its 1 s timers,
# strace delays, --slow-rank sleeps, --timeout) far more than they compute: the suite used
# 0.45-0.7 s of CPU a test-second (faults.np4 20 s of CPU to 46 s of CI, interrupt_scale 18 to
# 50; the whole suite at -j4 888 s for CI's 1250 test-seconds, waiting ranks' sched_yield
# included), so at one slot a core CI's two cores stood idle for much of its 634 s. A test
# that keeps a core busy takes 2 slots, one that keeps the machine busy 4 (PROCESSORS,
# tests/CMakeLists.txt). CTEST_SLOTS overrides.
ctest --output-on-failure -j"${CTEST_SLOTS:-$(($(nproc) * 2))}" --timeout 300
