#!/usr/bin/env bash
# -r auto (issue 26): on the null engine it stops on precision within a few repetitions and
# --progress shows the precision and the budget; a slowed rank makes each repetition long, so
# --max-time's budget ends it (and says so) within the budget; --max-repetitions is honoured;
# every point of a --compare says why it stopped; and equivalence: two identical
# measurements are equivalent in mpiwrite-compare, a 2x slowed one is not. Small counts, a
# few seconds in all. Environment as lib.sh, plus MPIWRITE_COMPARE. Usage: auto_repetitions.sh
# RANKS
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
: "${MPIWRITE_COMPARE:?set MPIWRITE_COMPARE to the mpiwrite-compare binary}"

# json_check FILE PYTHON: runs PYTHON with `doc` the parsed report; it exits non-zero to fail.
json_check() {
  python3 - "$1" "$2" <<'PY' || fail "$2"
import json, sys
doc = json.load(open(sys.argv[1]))
points = doc["points"]
s = [p["summary"] for p in points]
exec(sys.argv[2])
PY
}

note "null engine: stops on precision within a few repetitions, --progress says how far"
# A slowed rank makes a repetition 20 sleeps of 2 ms (~40 ms: long enough for progress lines);
# 20 %: at 6 repetitions the interval is the whole range, and on a loaded machine (load 13 on
# 2 cores) one repetition in several is far off, so a tighter goal takes tens of repetitions.
run_mpiwrite --dir "$WORK/n" --engine null --files $((RANKS * 20)) --slow-rank 0 \
  --slow-delay-us 2000 -r auto --precision 20% --max-repetitions 100 --max-time 30 \
  --progress 0.01 --progress-style lines --json "$WORK/n.json"
expect_status 0
json_check "$WORK/n.json" '
assert doc["config"]["auto_repetitions"] is True, doc["config"]
assert s[0]["stopped_by"] == "precision", s[0]["stopped_by"]
assert 6 <= s[0]["repetitions_measured"] <= 60, s[0]["repetitions_measured"]
assert s[0]["precision"] is not None and s[0]["precision"] <= 0.2, s[0]["precision"]
assert s[0]["repetitions_asked"] == s[0]["repetitions_measured"]
'
grep -q "stopped on precision" "$WORK/out" || fail "the table does not say why it stopped"
grep -q "rep 1 \[precision none yet (goal 20%), 30 s of 30 s left\]" "$WORK/err" &&
  grep -q "rep 6 \[precision .* (goal 20%), .* of 30 s left\]" "$WORK/err" ||
  fail "--progress shows no precision and budget: $(head -c 600 "$WORK/err")"

note "--max-repetitions: an unreachable precision stops at the maximum"
run_mpiwrite --dir "$WORK/m" --engine null --files 40 -r auto --precision 0.000001 \
  --max-repetitions 7 --format csv -o "$WORK/m.csv"
expect_status 0
python3 - "$WORK/m.csv" <<'PY' || fail "--max-repetitions not honoured in the CSV"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
reps = [r for r in rows if r["row"] == "repetition"]
median = [r for r in rows if r["row"] == "median"]
assert len(reps) == 7, len(reps)
assert median[0]["stopped_by"] == "maximum", median[0]
assert median[0]["precision"] != "", median[0]
PY

note "a slowed rank: each repetition ~0.4 s, the budget of 1.5 s ends it, and says so"
run_mpiwrite --dir "$WORK/s" --engine null --files $((RANKS * 20)) --slow-rank 0 \
  --slow-delay-us 20000 -r auto --max-time 1.5 --json "$WORK/s.json"
expect_status 0
json_check "$WORK/s.json" '
assert s[0]["stopped_by"] == "budget", s[0]["stopped_by"]
n = s[0]["repetitions_measured"]
assert 1 <= n < 6, n
spent = sum(r["makespan_s"] for r in points[0]["repetitions"])
assert spent <= 1.5, spent  # the next round was predicted to overrun, so it did not run
'
grep -q "stopped by the budget of 1.5 s" "$WORK/out" || fail "the table does not name the budget"

note "--compare -r auto: every point stopped for the same reason, verdicts are three-way"
run_mpiwrite --dir "$WORK/c" --engine null --files 200 --compare -r auto --max-time 2 \
  --max-repetitions 8 --equivalence 10% --json "$WORK/c.json"
expect_status 0
json_check "$WORK/c.json" '
why = {x["stopped_by"] for x in s}
assert len(why) == 1 and why <= {"precision", "budget", "maximum"}, why
counts = {x["repetitions_measured"] for x in s}
assert len(counts) == 1, counts  # interleaved rounds: every point the same count
assert doc["statistics"]["equivalence"] == 0.1
for row in doc["comparison"]:
    if row["verdict"] is not None:
        assert row["verdict"]["verdict"] in ("faster", "equivalent", "undecided"), row
'

note "equivalence: the same measurements are equivalent, twice as slow is not"
# A slowed rank makes each repetition's time its sleeps (20 x 2 ms, then 20 x 4 ms). The same
# configuration run again is not used: on this shared 2-core machine (load 13) two runs a few
# seconds apart differed by 1.7x in median, which no margin of a few per cent survives; a
# report against itself has the same series, whose ratio interval must lie inside +-D. D is
# 25 %: the interval of 8 repetitions against themselves is as wide as their spread, which the
# sleeps' overshoot made +-10 % in CI (ratio interval 0.90-1.11: not inside +-10 %).
slow=(--engine null --files $((RANKS * 20)) --slow-rank 0 -r 8 --format json)
run_mpiwrite --dir "$WORK/e1" "${slow[@]}" --slow-delay-us 2000 -o "$WORK/e1.json"
expect_status 0
run_mpiwrite --dir "$WORK/e3" "${slow[@]}" --slow-delay-us 4000 -o "$WORK/e3.json"
expect_status 0
"$MPIWRITE_COMPARE" --equivalence 25% --format json "$WORK/e1.json" "$WORK/e1.json" \
  >"$WORK/same.json" || fail "mpiwrite-compare failed"
"$MPIWRITE_COMPARE" --equivalence 25% --format json "$WORK/e1.json" "$WORK/e3.json" \
  >"$WORK/slow.json" || fail "mpiwrite-compare failed"
"$MPIWRITE_COMPARE" --equivalence 25% "$WORK/e1.json" "$WORK/e1.json" >"$WORK/same.txt"
grep -q "equivalent" "$WORK/same.txt" || fail "the table says no equivalence: $(cat "$WORK/same.txt")"
python3 - "$WORK/same.json" "$WORK/slow.json" <<'PY' || fail "equivalence verdicts"
import json, sys
same = json.load(open(sys.argv[1]))
slow = json.load(open(sys.argv[2]))["points"][0]
assert same["statistics"]["equivalence"] == 0.25, same["statistics"]
assert same["points"][0]["verdict"] == "equivalent", same["points"][0]
assert slow["verdict"] != "equivalent", slow
PY
note "ok"
