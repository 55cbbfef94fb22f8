#!/usr/bin/env bash
# mpiwrite --version and mpiwrite-compare --version (issue 25 §5; docs/site-build.md): every
# field there, printed once by rank 0, and true: the commit one of this checkout's, the compiler
# CMake used, the MPI of mpi.h and of the run as ompi_info (or mpichversion) says, Boost's and
# fmt's headers, liburing as pkg-config says (or "not built"), the engines. And --engine uring
# in a build without io_uring: exit 2, one message, nothing created.
# Usage: version.sh RANKS (CTest: 2). Needs MPIWRITE_COMPARE and MPIWRITE_URING_BUILT.
source "$(dirname "$0")/lib.sh"
no_kill_grace  # its failing runs end by themselves; none is signalled (lib.sh)
: "${MPIWRITE_COMPARE:?set MPIWRITE_COMPARE to the mpiwrite-compare binary}"
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(dirname "$MPIWRITE")  # mpiwrite is written to the top of the build directory

# The value of field NAME in FILE ("NAME:   value").
field() { sed -n "s/^$2: *//p" "$1"; }
expect_field() {  # FILE NAME VALUE: the field is VALUE
  local got
  got=$(field "$1" "$2")
  [ "$got" = "$3" ] || fail "$2: '$got', expected '$3' ($(cat "$1"))"
}

note "mpiwrite --version on $RANKS ranks: once, every field"
run_mpiwrite --version
expect_status 0
out=$WORK/version  # kept: the runs below write $WORK/out
cp "$WORK/out" "$out"
[ "$(grep -c '^mpiwrite ' "$out")" -eq 1 ] || fail "printed $(grep -c '^mpiwrite ' "$out") times"
[ ! -s "$WORK/err" ] || fail "stderr: $(cat "$WORK/err")"
version=$(sed -n 's/^project(mpiwrite VERSION \([0-9.]*\).*/\1/p' "$root/CMakeLists.txt")
[ "$(head -1 "$out")" = "mpiwrite $version" ] || fail "first line: $(head -1 "$out")"
for name in commit compiler "MPI built" "MPI running" Boost fmt liburing engines; do
  [ "$(grep -c "^$name: " "$out")" -eq 1 ] || fail "no one '$name:' line: $(cat "$out")"
done

commit=$(field "$out" commit | cut -d' ' -f1)
if git -C "$root" rev-parse --git-dir >/dev/null 2>&1; then
  git -C "$root" cat-file -e "$commit^{commit}" 2>/dev/null || fail "commit $commit is not in $root"
else
  [ "$commit" = unknown ] || fail "commit $commit outside git"
fi

compiler=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")
compiler_version=$(field "$out" compiler | awk '{print $NF}')
"$compiler" --version | head -1 | grep -qF "$compiler_version" ||
  fail "compiler $(field "$out" compiler), but $compiler says $("$compiler" --version | head -1)"

if command -v ompi_info >/dev/null; then
  ompi=$(ompi_info --parsable | sed -n 's/^ompi:version:full://p')
  expect_field "$out" "MPI built" "Open MPI $ompi"
  field "$out" "MPI running" | grep -q "^Open MPI v$ompi[, ]" ||
    fail "MPI running: $(field "$out" "MPI running"), ompi_info says $ompi"
elif command -v mpichversion >/dev/null; then
  mpich=$(mpichversion | sed -n 's/^MPICH Version: *//p')
  expect_field "$out" "MPI built" "MPICH $mpich"
fi

boost=$(sed -n 's/^#define BOOST_LIB_VERSION "\([0-9_]*\)"/\1/p' /usr/include/boost/version.hpp |
        tr _ .)
[ -z "$boost" ] || field "$out" Boost | grep -q "^$boost\(\.\|$\)" ||
  fail "Boost $(field "$out" Boost), the headers say $boost"
if fmt=$(dpkg-query -W -f='${Version}' libfmt-dev 2>/dev/null); then
  expect_field "$out" fmt "${fmt%%[+-]*}"
fi

if [ "${MPIWRITE_URING_BUILT:-1}" != 0 ]; then
  expect_field "$out" liburing "$(pkg-config --modversion liburing)"
  expect_field "$out" engines "posix, null, uring"
else
  expect_field "$out" liburing "not built"
  expect_field "$out" engines "posix, null"
  note "--engine uring without io_uring: exit 2, one message, nothing created"
  run_mpiwrite --engine uring -d "$WORK/none" -n 8
  expect_status 2
  [ "$(grep -c 'error' "$WORK/err")" -eq 1 ] || fail "not one message: $(cat "$WORK/err")"
  grep -q '^mpiwrite: error: this mpiwrite was built without io_uring (' "$WORK/err" ||
    fail "the message: $(cat "$WORK/err")"
  [ ! -e "$WORK/none" ] || fail "--dir was made"
fi

note "a run on the MPI it was built against: no mismatch warning"
run_mpiwrite --engine null -d "$WORK/run" -n 4
expect_status 0
! grep -q "warning: built against" "$WORK/err" || fail "a mismatch warning: $(cat "$WORK/err")"

note "mpiwrite-compare --version: no MPI, its JSON library"
"$MPIWRITE_COMPARE" --version >"$WORK/cmp" || fail "mpiwrite-compare --version: exit $?"
[ "$(head -1 "$WORK/cmp")" = "mpiwrite-compare $version" ] || fail "$(head -1 "$WORK/cmp")"
expect_field "$WORK/cmp" commit "$(field "$out" commit)"
expect_field "$WORK/cmp" compiler "$(field "$out" compiler)"
expect_field "$WORK/cmp" fmt "$(field "$out" fmt)"
! grep -q "MPI" "$WORK/cmp" || fail "mpiwrite-compare names an MPI: $(cat "$WORK/cmp")"
if json=$(dpkg-query -W -f='${Version}' nlohmann-json3-dev 2>/dev/null); then
  expect_field "$WORK/cmp" json "nlohmann-json ${json%%[+-]*}"
fi
echo "PASS"
