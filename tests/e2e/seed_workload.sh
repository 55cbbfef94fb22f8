#!/usr/bin/env bash
# The seed workload and its variations write exactly write1..writeN with exact content.
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

for threads in 1 3; do
  note "default workload, $RANKS ranks x $threads threads"
  run_mpiwrite -d "$WORK/seed-$threads" -t "$threads"
  expect_status 0
  expect_files "$WORK/seed-$threads" 100 100 "Hello, world!"
  grep -q "100 files of 1400 B" "$WORK/out" || fail "report does not describe the workload"
  grep -q "$RANKS rank" "$WORK/out" || fail "report does not name the rank count"
  [ ! -s "$WORK/err" ] || fail "unexpected stderr: $(cat "$WORK/err")"
done

note "whole-file writes, cyclic partition, fewer files than ranks x threads"
run_mpiwrite -d "$WORK/whole" -n 5 -l 9 --text "x y" --write-mode whole --partition cyclic -t 3
expect_status 0
expect_files "$WORK/whole" 5 9 "x y"

note "another pattern"
run_mpiwrite -d "$WORK/pattern" -n 12 -l 1 --pattern "f-{}.dat"
expect_status 0
expect_files "$WORK/pattern" 12 1 "Hello, world!" f- .dat
echo "PASS"
