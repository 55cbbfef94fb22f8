#!/usr/bin/env bash
# Bad options: exit code 2, exactly one error message whatever the rank count, nothing created,
# nothing clobbered.
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
# The runs fail (exit 2), after which mpirun waits odls_base_sigkill_timeout (1 s) twice though
# every rank has exited (1.6 s a launch -> 0.6 s): waiting that tests nothing of mpiwrite's.
export OMPI_MCA_odls_base_sigkill_timeout=0

check_rejected() {
  run_mpiwrite -d "$WORK/never" "$@"
  expect_status 2
  [ "$(error_lines)" -eq 1 ] || { cat "$WORK/err" >&2; fail "expected one error message for: $*"; }
  [ ! -e "$WORK/never" ] || fail "a rejected run created its directory: $*"
  [ ! -s "$WORK/out" ] || fail "a rejected run printed a report: $*"
}

check_rejected --files 0
check_rejected --files -3
check_rejected --files abc
check_rejected --threads 0
check_rejected --pattern nobrace.txt
check_rejected --format xml
check_rejected --lines 1000000000
check_rejected --no-such-option

note "a second run into the same directory refuses to overwrite"
run_mpiwrite -d "$WORK/data" -n 10
expect_status 0
echo "precious" >"$WORK/data/write3.txt"
run_mpiwrite -d "$WORK/data" -n 10
expect_status 2
[ "$(error_lines)" -eq 1 ] || fail "expected one message"
grep -q -- "--overwrite" "$WORK/err" || fail "the message should point to --overwrite"
[ "$(cat "$WORK/data/write3.txt")" = "precious" ] || fail "a file was clobbered"

note "--help and --version exit 0 and print once"
run_mpiwrite --help
expect_status 0
[ "$(grep -c -- '-n,--files ' "$WORK/out")" -eq 1 ] || fail "--help printed more than once"  # not --files-per-dir
run_mpiwrite --version
expect_status 0
[ "$(grep -c '^mpiwrite ' "$WORK/out")" -eq 1 ] || fail "--version printed more than once"
echo "PASS"
