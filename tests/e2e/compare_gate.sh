#!/usr/bin/env bash
# mpiwrite-compare as a CI gate (issue 24 §5, §7) on real reports: mpiwrite under mpiexec with
# the null engine, once as is and once with a --slow-rank delay (a real "slower" verdict in a
# second, with no file written), and a sweep. Checks --fail-on's exit codes (0, 3; 2 for a bad
# value; 1 when standard output cannot be written), the operation named for the change, and
# that no line of the table or markdown output is wider than 120 columns in any of its shapes.
# Environment as lib.sh, plus MPIWRITE_COMPARE = the binary. Usage: compare_gate.sh RANKS
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
: "${MPIWRITE_COMPARE:?set MPIWRITE_COMPARE to the mpiwrite-compare binary}"

# run_compare ARGS...: sets STATUS, leaves standard output and error in $WORK/cmp.out, .err.
run_compare() {
  set +e
  timeout 60 "$MPIWRITE_COMPARE" "$@" >"$WORK/cmp.out" 2>"$WORK/cmp.err"
  STATUS=$?
  set -e
}
# expect_exit CODE WHAT: the last run_compare's exit code.
expect_exit() {
  [ "$STATUS" -eq "$1" ] ||
    fail "$2: exit code $STATUS, expected $1; stderr: $(cat "$WORK/cmp.err"); stdout: $(head -c 3000 "$WORK/cmp.out")"
}
# check_width WHAT: the last output's lines are at most 120 columns, counted in bytes (at least
# the characters: stricter for a UTF-8 name; awk, as python3 takes seconds to start under load).
widest=0
check_width() {
  local w
  w=$(LC_ALL=C awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$WORK/cmp.out")
  [ "$w" -le 120 ] || fail "$1: a line of $w columns: $(awk 'length > 120' "$WORK/cmp.out")"
  [ "$w" -gt "$widest" ] && widest=$w
  echo "   $1: widest line $w"
}

note "three reports, $RANKS ranks, null engine: base, slow (rank 0 sleeps 10 ms a file), sweep"
common=(--engine null --files 40 -r 6 --format json)
run_mpiwrite "${common[@]}" --dir "$WORK/base" -o "$WORK/base.json"
expect_status 0
run_mpiwrite "${common[@]}" --dir "$WORK/slow" --slow-rank 0 --slow-delay-us 10000 -o "$WORK/slow.json"
expect_status 0
run_mpiwrite "${common[@]}" --dir "$WORK/sweep" --sweep-threads 1,2 --phases write,stat \
  -o "$WORK/sweep.json"
expect_status 0

note "the verdicts the exit codes below rest on"
run_compare --format json "$WORK/base.json" "$WORK/slow.json"
expect_exit 0 "json, no --fail-on"
python3 - "$WORK/cmp.out" <<'PY' || fail "base against slow"
import json, sys
p = json.load(open(sys.argv[1]))["points"][0]
# 20 files x 10 ms on rank 0 against a null engine's microseconds and a loaded machine's start
# spread (up to 25 ms seen with 2 cores and load 25): new is slower in every
# repetition, p = 2/924 with 6 against 6.
assert p["verdict"] == "slower", p
# The delay is outside every operation (docs/metrics.md): "other" carries the change, by
# at least 10000 us x 20 / 40 files = 5000 us per file (a sleep may last longer).
f = p["per_file"]
assert f["carried_by"] == "other", f
other = f["operations"][0]
assert 4500 < other["change_us"] < 50000, other
assert {o["name"] for o in f["operations"]} == {"create", "writes", "close", "other"}, f
assert all(abs(o["change_us"]) <= abs(other["change_us"]) for o in f["operations"]), f
assert abs(f["latency"]["change_us"] - sum(o["change_us"] for o in f["operations"])) < 1e-6, f
print("   slower, carried by other:", round(other["change_us"], 1), "us per file")
PY

note "--fail-on: 3 when the verdict says so, 0 otherwise"
gate() {  # gate CODE WHAT ARGS...
  local code=$1 what=$2
  shift 2
  run_compare "$@"
  expect_exit "$code" "$what"
  if [ "$code" -eq 3 ]; then
    [ "$(wc -l <"$WORK/cmp.err")" -eq 1 ] || fail "$what: not one line: $(cat "$WORK/cmp.err")"
    grep -q "^mpiwrite-compare: --fail-on .*: new is .* at 1 of 1 points: " "$WORK/cmp.err" ||
      fail "$what: $(cat "$WORK/cmp.err")"
  else
    [ ! -s "$WORK/cmp.err" ] || fail "$what: standard error: $(cat "$WORK/cmp.err")"
  fi
  grep -q "where the change is\|\"verdict\"\|no significant difference" "$WORK/cmp.out" ||
    fail "$what: the comparison was not printed: $(cat "$WORK/cmp.out")"
}
gate 3 "slower, --fail-on slower" --fail-on slower "$WORK/base.json" "$WORK/slow.json"
grep -q "new is slower at 1 of 1 points: slower " "$WORK/cmp.err" || fail "$(cat "$WORK/cmp.err")"
gate 3 "slower, --fail-on different" --fail-on different "$WORK/base.json" "$WORK/slow.json"
gate 3 "slower, --fail-on=slower,different" --fail-on=slower,different --format json \
  "$WORK/base.json" "$WORK/slow.json"
gate 0 "faster, --fail-on slower" --fail-on slower "$WORK/slow.json" "$WORK/base.json"
gate 3 "faster, --fail-on different" --fail-on different "$WORK/slow.json" "$WORK/base.json"
grep -q "new is faster at 1 of 1 points: faster " "$WORK/cmp.err" || fail "$(cat "$WORK/cmp.err")"
gate 0 "no difference, --fail-on slower,different" --fail-on slower,different \
  "$WORK/base.json" "$WORK/base.json"
gate 0 "slower, no --fail-on" "$WORK/base.json" "$WORK/slow.json"

note "--fail-on: a bad value is exit 2 before reading anything; 1 beats 3"
run_compare --fail-on worse "$WORK/base.json" "$WORK/slow.json"
expect_exit 2 "--fail-on worse"
grep -q "^mpiwrite-compare: error: .*worse" "$WORK/cmp.err" || fail "$(cat "$WORK/cmp.err")"
[ ! -s "$WORK/cmp.out" ] || fail "--fail-on worse printed a comparison"
run_compare --fail-on slower "$WORK/base.json" "$WORK/absent.json"
expect_exit 2 "--fail-on slower with a missing report"
set +e
"$MPIWRITE_COMPARE" --fail-on slower "$WORK/base.json" "$WORK/slow.json" >/dev/full 2>"$WORK/cmp.err"
STATUS=$?
set -e
expect_exit 1 "--fail-on slower, standard output /dev/full"
grep -q "cannot write to standard output" "$WORK/cmp.err" || fail "$(cat "$WORK/cmp.err")"

note "where the change is: the table names the operation"
run_compare "$WORK/base.json" "$WORK/slow.json"
grep -Eq '^  run [^ ]+ slower: other (\+[0-9]+ %|from 0) per file \(\+[0-9.]+ ms\), ' "$WORK/cmp.out" ||
  fail "no line naming the operation: $(cat "$WORK/cmp.out")"

note "every output fits 120 columns"
for format in table markdown; do
  run_compare --format "$format" "$WORK/base.json" "$WORK/slow.json"
  check_width "$format, single points, slower, workloads differ"
  run_compare --format "$format" --seed 18446744073709551615 "$WORK/slow.json" "$WORK/base.json"
  check_width "$format, faster, the longest seed"
  run_compare --format "$format" "$WORK/sweep.json" "$WORK/sweep.json"
  check_width "$format, a sweep against itself"
  run_compare --format "$format" --phase stat "$WORK/sweep.json" "$WORK/sweep.json"
  check_width "$format, --phase stat"
  run_compare --format "$format" "$WORK/base.json" "$WORK/sweep.json"
  check_width "$format, nothing matched, kinds differ"
done
echo "widest line of all: $widest"
echo "PASS"
