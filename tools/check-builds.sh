#!/usr/bin/env bash
# Configures and builds the site configurations of docs/site-build.md, each with -Werror in its
# own directory, and runs what each must pass (issue 25 §4). By hand or in the benchmark, not
# in CI's test command: each is a full build (about 10-25 minutes each on a loaded 2-core VM).
#   no-uring  -DMPIWRITE_WITH_URING=OFF, tests on: ctest -L unit, the uring tests (each
#             skipped, saying why), e2e.version.np2 (--engine uring: exit 2), a few e2e
#   no-tests  -DMPIWRITE_BUILD_TESTS=OFF: mpiwrite and mpiwrite-compare only, no GoogleTest
#   no-bench  -DMPIWRITE_BUILD_BENCH=OFF: no bench programs, no bench tests registered
#   clang     CC=clang CXX=clang++ (Debian's), tests on: ctest -L unit, e2e.version.np2
# Usage: tools/check-builds.sh [PREFIX] [CONFIG...]   (default: all four, each in the directory
# PREFIX<config>, build-check- beside build/ by default: at build/'s depth, a ccache that built
# build/ serves most of the gcc configurations' objects, since the relative paths are the same).
# Uses ccache when it is installed. Exit 0 when every configuration built and passed.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
prefix=${1:-$root/build-check-}
shift || true
configs=("$@")
[ "${#configs[@]}" -gt 0 ] || configs=(no-uring no-tests no-bench clang)
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
# shellcheck source=mpi-env.sh
source "$root/tools/mpi-env.sh"
failed=()
ctest_runs=0

# build NAME [cmake args]: configure and build into ${prefix}NAME, its log there (check-build.log).
build() {
  local name=$1
  shift
  echo "== $name: configure and build (log: ${prefix}$name/check-build.log)"
  mkdir -p "${prefix}$name"
  if ! { cmake -S "$root" -B "${prefix}$name" -DCMAKE_BUILD_TYPE=Release -DMPIWRITE_WERROR=ON \
           "${launcher[@]}" "$@" && cmake --build "${prefix}$name" -j"$(nproc)"; } \
         >"${prefix}$name/check-build.log" 2>&1; then
    tail -30 "${prefix}$name/check-build.log"
    echo "== $name: BUILD FAILED"
    failed+=("$name")
    return 1
  fi
}

# run_ctest NAME ARGS...: ctest in ${prefix}NAME; fails on a failed test, and prints the skips.
run_ctest() {
  local name=$1
  shift
  ctest_runs=$((ctest_runs + 1))
  local log="${prefix}$name/check-ctest-$ctest_runs.log"
  (cd "${prefix}$name" && ctest --output-on-failure "$@") >"$log" 2>&1
  local status=$?
  grep -E "tests passed" "$log" | sed 's/^/   /'
  echo "   skipped: $(grep -c '^[[:space:]]*[0-9]* - .*(Skipped)' "$log") (the reasons: $log)"
  grep -E '^[[:space:]]*[0-9]+ - .*(Failed|Not Run|Timeout)' "$log" | sed 's/^/   /'
  if [ $status -ne 0 ]; then
    echo "== $name: TESTS FAILED (log: $log)"
    failed+=("$name")
  fi
}

mkdir -p "$(dirname "${prefix}x")"
for config in "${configs[@]}"; do
  case $config in
    no-uring)
      build no-uring -DMPIWRITE_WITH_URING=OFF || continue
      grep -q "uring engine is NOT built" "${prefix}no-uring/check-build.log" ||
        { echo "== no-uring: configure did not say the engine is left out"; failed+=(no-uring); }
      ! nm -C "${prefix}no-uring/mpiwrite" | grep -q "io_uring_queue_init" ||
        { echo "== no-uring: mpiwrite links liburing"; failed+=(no-uring); }
      [ ! -e "${prefix}no-uring/mpiwrite_uring_probe" ] ||
        { echo "== no-uring: the uring probe was built"; failed+=(no-uring); }
      run_ctest no-uring -L unit
      run_ctest no-uring -R 'uring|^e2e\.(version\.np2|tree\.np2|time_limit\.np2|bad_options\.np4)$|^bench\.smoke$'
      ;;
    no-tests)
      build no-tests -DMPIWRITE_BUILD_TESTS=OFF || continue
      [ -x "${prefix}no-tests/mpiwrite" ] && [ -x "${prefix}no-tests/mpiwrite-compare" ] &&
        [ ! -e "${prefix}no-tests/mpiwrite_unit_tests" ] ||
        { echo "== no-tests: not the two programs alone"; failed+=(no-tests); }
      ;;
    no-bench)
      build no-bench -DMPIWRITE_BUILD_BENCH=OFF -DMPIWRITE_BUILD_TESTS=ON || continue
      [ ! -e "${prefix}no-bench/mpiwrite_floor" ] ||
        { echo "== no-bench: the floor program was built"; failed+=(no-bench); }
      (cd "${prefix}no-bench" && ctest -N) | grep -q "bench\.\|e2e\.alloc" &&
        { echo "== no-bench: bench tests registered"; failed+=(no-bench); }
      run_ctest no-bench -R '^architecture\.layers$'
      ;;
    clang)
      CC=clang CXX=clang++ build clang || continue
      run_ctest clang -L unit
      run_ctest clang -R '^e2e\.(version\.np2|bad_options\.np4)$'
      ;;
    *) echo "unknown configuration $config"; exit 2 ;;
  esac
done
if [ "${#failed[@]}" -gt 0 ]; then
  echo "FAILED: ${failed[*]}"
  exit 1
fi
echo "PASS: ${configs[*]}"
