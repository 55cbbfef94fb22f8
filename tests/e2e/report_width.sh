#!/usr/bin/env bash
# The default table fits a terminal (issue 24 §1, §2): a run's report within 100 columns with
# its headline first, a sweep's or comparison's within 120 with the verdicts at the left, on
# real runs: plain (at RANKS, and at 1 rank), 6 repetitions with --per-rank, --time-limit, a
# sweep, a comparison of two layouts with the uring engine's async points, and one interrupted.
# --wide keeps every column. The null engine where what is written does not matter.
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

# widest FILE: its widest line's columns (characters, not bytes).
widest() { LC_ALL=C.UTF-8 awk '{ if (length($0) > w) w = length($0) } END { print w + 0 }' "$1"; }
# fits FILE LIMIT WHAT
fits() {
  local w
  w=$(widest "$1")
  [ "$w" -le "$2" ] || fail "$3: a line of $w columns (over $2): $(awk -v w="$w" 'length($0) == w' "$1")"
  note "$3: widest line $w columns"
}

note "a plain run at $RANKS ranks, one repetition: the headline first, no interval"
run_mpiwrite -d "$WORK/plain" -n 40 --engine null --cleanup
expect_status 0
fits "$WORK/out" 100 "plain np$RANKS"
head -n 1 "$WORK/out" | grep -Eq '^files/s [0-9.]+ \(1 repetition: no interval\); makespan [0-9.]+ s$' ||
  fail "the first line is not the headline: $(head -n 3 "$WORK/out")"
grep -q '+- 0.000000' "$WORK/out" && fail "a spread of one repetition is printed as 0"
grep -Eq '^rep +files/s +MiB/s +makespan \[s\] +imbalance +p50 \[us\] +p99 \[us\]$' "$WORK/out" ||
  fail "the repetition rows do not start with the rate: $(cat "$WORK/out")"
grep -q '^makespan = .*docs/metrics.md$' "$WORK/out" || fail "no definitions line"
cp "$WORK/out" "$WORK/plain.txt"

if [ "$RANKS" -ne 1 ]; then
  note "a plain run at 1 rank"
  RANKS=1 run_mpiwrite -d "$WORK/one" -n 40 --engine null --cleanup
  expect_status 0
  fits "$WORK/out" 100 "plain np1"
fi

note "--wide keeps every column"
run_mpiwrite -d "$WORK/wide" -n 40 --engine null --cleanup --wide
expect_status 0
grep -Eq '^rep +makespan \[s\] +first done \[s\] +last start \[s\] +slowest rank \[s\] ' "$WORK/out" ||
  fail "--wide lacks the full grid: $(cat "$WORK/out")"
[ "$(widest "$WORK/out")" -gt 100 ] || fail "--wide is as narrow as the default"

note "6 repetitions with --per-rank and --verify: the median's interval in the headline"
run_mpiwrite -d "$WORK/six" -n 24 -r 6 --per-rank --verify --cleanup
expect_status 0
fits "$WORK/out" 100 "-r 6 --per-rank --verify"
head -n 1 "$WORK/out" | grep -Eq '^files/s [0-9.]+ \[95% CI [0-9.]+-[0-9.]+\], median of 6; makespan ' ||
  fail "no interval in the headline: $(head -n 1 "$WORK/out")"
[ "$(grep -Ec '^ *rank [0-9]+ +[1-6] ' "$WORK/out")" -eq $((RANKS * 6)) ] ||
  fail "not one per-rank row per rank and repetition: $(cat "$WORK/out")"
grep -Eq ' 24 ok$' "$WORK/out" || fail "the verification is not in the rows: $(cat "$WORK/out")"

note "--time-limit with every rank slow"
all=$(seq -s, 0 $((RANKS - 1)))
run_mpiwrite -d "$WORK/limit" -n 100000 --time-limit 0.2 --slow-rank "$all" --slow-delay-us 10000 \
  --engine null --cleanup
expect_status 0
fits "$WORK/out" 100 "--time-limit"
grep -Eq '^rep .* files +at limit$' "$WORK/out" || fail "no limit columns: $(cat "$WORK/out")"

note "a sweep"
run_mpiwrite -d "$WORK/sweep" -n 24 -r 2 --sweep-threads 1,2,4 --engine null --cleanup
expect_status 0
fits "$WORK/out" 120 "sweep"
grep -Eq '^ +mode +point +concurrency +files/s +files/s 95% CI +speedup \[95% CI\]' "$WORK/out" ||
  fail "no long-form grid: $(cat "$WORK/out")"

note "a comparison of two layouts with the async (uring) points, verdicts at the left"
run_mpiwrite -d "$WORK/cmp" -n 16 -r 2 --compare --layout shared,rank --engine uring \
  --max-concurrency 2 --cleanup
if [ "$STATUS" -eq 2 ] && grep -Eq "cannot run here|built without io_uring" "$WORK/err"; then
  note "io_uring is not usable here: the comparison runs posix only"
  run_mpiwrite -d "$WORK/cmp" -n 16 -r 2 --compare --layout shared,rank --max-concurrency 2 --cleanup
fi
expect_status 0
fits "$WORK/out" 120 "--compare --layout shared,rank"
grep -Eq '^concurrency +winner +mode +point +files/s ' "$WORK/out" || fail "no verdict column at the left"
# One group per (layout, concurrency): its first row names the concurrency and a winner.
[ "$(grep -Ec '^ +[12] +[a-z]+ +(processes|threads|hybrid|async) ' "$WORK/out")" -eq 4 ] ||
  fail "not one verdict per layout and concurrency: $(cat "$WORK/out")"
grep -Eq '^  (shared|rank) at 2: ' "$WORK/out" || fail "no verdict line: $(cat "$WORK/out")"
# The same warning for many points once, with the points it covers.
[ "$(grep -c '^WARNING: .*high variation' "$WORK/out")" -le 1 ] || fail "a warning repeated per point"

note "an interrupted comparison (SIGINT after 2 s; a plain process)"
set +e
timeout -s INT 2 "$MPIWRITE" -d "$WORK/int" -n 20 -r 3 -t 2 --compare --slow-rank 0 \
  --slow-delay-us 20000 --cleanup >"$WORK/int.out" 2>"$WORK/int.err"
STATUS=$?
set -e
[ "$STATUS" -ne 0 ] || fail "the interrupted run exited 0"
grep -q '^INTERRUPTED by SIGINT' "$WORK/int.out" || fail "no interrupted report: $(cat "$WORK/int.out")"
fits "$WORK/int.out" 120 "interrupted --compare"
note "ok"
