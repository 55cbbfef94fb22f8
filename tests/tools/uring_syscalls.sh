#!/usr/bin/env bash
# The uring engine's stat, read, remove and tree phases go through io_uring, not through system
# calls of their own: runs their tests (tests/unit/uring_phases_test.cpp) under strace -f and
# checks that the writer threads (those that gave themselves a private descriptor table,
# unshare(CLONE_FILES)) made no statx, read, unlinkat or mkdirat system call, and no openat but
# of a directory (their target, the layout's and the tree's parents), while they did enter
# io_uring. Skips (77) without strace, without ptrace, or where io_uring is unavailable.
# Usage: uring_syscalls.sh PATH/TO/mpiwrite_system_tests
set -uo pipefail
tests=${1:?usage: uring_syscalls.sh mpiwrite_system_tests}
command -v strace >/dev/null || { echo "no strace: skipped"; exit 77; }
log=$(mktemp) out=$(mktemp)
trap 'rm -f "$log" "$out"' EXIT
filter='ThreadsAndDepths/UringPhases.StatReadAndRemoveEveryFileOnce/*'
filter+=':ThreadsAndDepths/UringTree.MakesThenRemovesEveryDirectoryOnce/*'
if ! strace -f -qq -o "$log" \
    -e trace=unshare,statx,newfstatat,openat,read,pread64,unlinkat,mkdirat,io_uring_enter \
    "$tests" --gtest_filter="$filter" >"$out" 2>&1; then
  if grep -q 'PTRACE\|ptrace' "$out"; then echo "strace cannot trace here: skipped"; exit 77; fi
  cat "$out"
  echo "FAIL: the tests failed under strace"
  exit 1
fi
if grep -q '\[  SKIPPED \]' "$out"; then
  grep -m1 -A1 'SKIPPED\|Skipped' "$out"
  echo "io_uring unavailable: skipped"
  exit 77
fi
awk '
  $2 ~ /^unshare\(CLONE_FILES/ { writer[$1] = 1; next }
  !($1 in writer) { next }
  $2 ~ /^io_uring_enter\(/ { enters++; next }
  $2 ~ /^(statx|newfstatat|read|pread64|unlinkat|mkdirat)\(/ {
    bad++; print "writer thread: " $0; next
  }
  $2 ~ /^openat\(/ && $0 !~ /O_DIRECTORY/ { bad++; print "writer thread: " $0; next }
  END {
    printf "writer threads: %d, their io_uring_enter calls: %d, forbidden calls: %d\n",
           length(writer), enters, bad
    exit (length(writer) == 0 || enters == 0 || bad > 0) ? 1 : 0
  }' "$log" || { echo "FAIL"; exit 1; }
echo "PASS"
