#!/usr/bin/env bash
# mpiwrite-compare on two real reports: mpiwrite run twice (plain, then --write-mode whole, or
# --threads 2 with 2 ranks), compared in all three formats and checked from outside; bad
# inputs exit 2 with one line. Environment as lib.sh, plus MPIWRITE_COMPARE = the binary.
# Usage: compare_reports.sh RANKS
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

note "two reports, $RANKS ranks"
run_mpiwrite --dir "$WORK/a" --files 50 --lines 20 -r 6 --format json -o "$WORK/a.json"
expect_status 0
if [ "$RANKS" -ge 2 ]; then second=(--threads 2); else second=(--write-mode whole); fi
# b times stat too (--phases), for --phase; a times only the write phase, as before issue 23.
run_mpiwrite --dir "$WORK/b" --files 50 --lines 20 -r 6 "${second[@]}" --phases write,stat \
  --format json -o "$WORK/b.json"
expect_status 0

note "json"
run_compare --format json "$WORK/a.json" "$WORK/b.json"
[ "$STATUS" -eq 0 ] || { cat "$WORK/cmp.err" >&2; fail "json: exit code $STATUS"; }
[ ! -s "$WORK/cmp.err" ] || fail "json: standard error not empty: $(cat "$WORK/cmp.err")"
python3 - "$WORK/cmp.out" "$WORK/a.json" "$WORK/b.json" "${second[0]}" <<'PY'
import json, statistics, sys
out, a_path, b_path, second = sys.argv[1:]
doc = json.load(open(out))
a, b = json.load(open(a_path)), json.load(open(b_path))
def check(cond, what):
    if not cond:
        sys.exit(f"FAIL: {what}: {json.dumps(doc)[:2000]}")
def times(report):
    key = "makespan_s" if report["schema_version"] >= 4 else "slowest_s"
    return [r[key] for r in report["points"][0]["repetitions"]]
check(doc["schema"] == "mpiwrite-compare/1", "schema")
check(doc["statistics"]["seed"] == 42, "the default seed is recorded")
check(doc["old"]["schema_version"] == a["schema_version"], "old schema_version")
check(doc["matched_by"] == "the only point of each report", "two runs: one point each")
check(len(doc["points"]) == 1 and doc["unmatched"] == [], "one matched point")
p = doc["points"][0]
check(p["old"]["label"] == a["points"][0]["label"] and p["new"]["label"] == b["points"][0]["label"], "labels")
check(p["old"]["repetitions"] == 6 and p["new"]["repetitions"] == 6, "six repetitions each")
# The medians from the reports' own repetitions, worked out here.
check(abs(p["old"]["median_s"] - statistics.median(times(a))) <= 1e-12, "old median")
check(abs(p["new"]["median_s"] - statistics.median(times(b))) <= 1e-12, "new median")
check(abs(p["ratio"]["estimate"] - p["new"]["median_s"] / p["old"]["median_s"]) <= 1e-12, "ratio")
for side in ("old", "new"):
    ci = p[side]["median_ci"]  # 6 repetitions: the smallest n with a 95 % interval
    check(ci is not None and ci["low"] <= p[side]["median_s"] <= ci["high"], f"{side} median_ci")
check(p["ratio"]["ci"]["low"] <= p["ratio"]["estimate"] <= p["ratio"]["ci"]["high"], "ratio ci")
check(0 <= p["p_value"] <= 1, "p-value")
check(p["verdict"] in ("faster", "slower", "no significant difference", "below noise threshold"), "verdict")
keys = [d["key"] for d in doc["workload_differences"]]
check(keys == (["write_mode"] if second == "--write-mode" else []), f"workload differences {keys}")
check(not doc["filesystems_differ"] and not doc["hosts_differ"], "same machine")
print("json ok:", p["verdict"], "p", p["p_value"], "ratio", p["ratio"]["estimate"])
PY

note "table"
run_compare "$WORK/a.json" "$WORK/b.json"
[ "$STATUS" -eq 0 ] || { cat "$WORK/cmp.err" >&2; fail "table: exit code $STATUS"; }
# One row per matched point: the lines between the grid's header and the end.
rows=$(awk '/^ *mode +point/ { on = 1; next } on && NF { n++ } on && !NF { exit } END { print n + 0 }' "$WORK/cmp.out")
[ "$rows" -eq 1 ] || { cat "$WORK/cmp.out" >&2; fail "table: $rows rows, expected 1"; }
grep -q "each report has one point" "$WORK/cmp.out" || fail "table does not say how the points were matched"
grep -q "seed 42" "$WORK/cmp.out" || fail "table does not record the seed"
if [ "${second[0]}" = --write-mode ]; then
  grep -q '^WARNING: .*write_mode "line" (old) vs "whole" (new)' "$WORK/cmp.out" ||
    fail "table does not warn about the write mode: $(cat "$WORK/cmp.out")"
fi
run_compare --seed 7 "$WORK/a.json" "$WORK/b.json"
grep -q "seed 7" "$WORK/cmp.out" || fail "--seed 7 is not recorded"

note "markdown"
run_compare --format markdown "$WORK/a.json" "$WORK/b.json"
[ "$STATUS" -eq 0 ] || fail "markdown: exit code $STATUS"
head -n 1 "$WORK/cmp.out" | grep -q '^### ' || fail "markdown has no heading"
[ "$(grep -c '^|---' "$WORK/cmp.out")" -eq 2 ] || fail "markdown: expected two tables (verdicts, medians)"
[ "$(grep -c '^| run |' "$WORK/cmp.out")" -eq 1 ] || fail "markdown: expected one row: $(cat "$WORK/cmp.out")"

note "a report against itself: no significant difference"
run_compare --format json "$WORK/a.json" "$WORK/a.json"
python3 -c 'import json, sys
p = json.load(open(sys.argv[1]))["points"][0]
assert p["verdict"] == "no significant difference" and p["p_value"] == 1, p' "$WORK/cmp.out" ||
  fail "a report against itself"

note "--phase: another phase's makespans; a report without the phase is refused"
run_compare "$WORK/a.json" "$WORK/b.json"
grep -q '^phase: *write ' "$WORK/cmp.out" ||
  fail "the table does not say it compares the write phase"
run_compare --format json --phase stat "$WORK/b.json" "$WORK/b.json"
[ "$STATUS" -eq 0 ] || fail "--phase stat: exit code $STATUS: $(cat "$WORK/cmp.err")"
python3 - "$WORK/cmp.out" "$WORK/b.json" <<'PY' || fail "--phase stat"
import json, statistics, sys
doc, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
stat = [r["phases"]["stat"]["makespan_s"] for r in b["points"][0]["repetitions"]]
write = [r["makespan_s"] for r in b["points"][0]["repetitions"]]
assert doc["phase"] == "stat", doc["phase"]
p = doc["points"][0]
assert abs(p["old"]["median_s"] - statistics.median(stat)) <= 1e-12, (p, stat)
assert statistics.median(stat) != statistics.median(write), "stat and write time alike"
PY
run_compare --phase stat --format markdown "$WORK/b.json" "$WORK/b.json"
grep -q '^- phase: stat ' "$WORK/cmp.out" ||
  fail "markdown does not name the phase: $(cat "$WORK/cmp.out")"

note "bad inputs: exit 2, one line"
printf '{"schema_version": 3,' >"$WORK/truncated.json"
python3 -c 'import json, sys
d = json.load(open(sys.argv[1])); d["schema_version"] = 2; json.dump(d, open(sys.argv[2], "w"))' \
  "$WORK/a.json" "$WORK/v2.json"
python3 -c 'import json, sys
d = json.load(open(sys.argv[1])); d["points"] = []; json.dump(d, open(sys.argv[2], "w"))' \
  "$WORK/a.json" "$WORK/nopoints.json"
bad_case() {  # bad_case WHAT EXPECTED ARGS...
  local what=$1 expected=$2
  shift 2
  run_compare "$@"
  [ "$STATUS" -eq 2 ] || fail "$what: exit code $STATUS, expected 2"
  [ "$(wc -l <"$WORK/cmp.err")" -eq 1 ] || fail "$what: not one line: $(cat "$WORK/cmp.err")"
  grep -q "^mpiwrite-compare: error: .*$expected" "$WORK/cmp.err" || fail "$what: $(cat "$WORK/cmp.err")"
  [ ! -s "$WORK/cmp.out" ] || fail "$what: printed a comparison"
}
bad_case "missing file" "absent.json: cannot read: No such file or directory" "$WORK/absent.json" "$WORK/b.json"
bad_case "not JSON" "truncated.json: not JSON" "$WORK/a.json" "$WORK/truncated.json"
bad_case "schema_version 2" "v2.json: schema_version 2 is not supported" "$WORK/v2.json" "$WORK/b.json"
bad_case "no points" "nopoints.json: the report has no points" "$WORK/a.json" "$WORK/nopoints.json"
bad_case "a directory" "cannot read: Is a directory" "$WORK" "$WORK/b.json"
bad_case "one file" "NEW is required" "$WORK/a.json"
bad_case "unknown format" "xml not in" --format xml "$WORK/a.json" "$WORK/b.json"
bad_case "a report without the phase" "a.json: the report has no stat phase (it timed: write;" \
  --phase stat "$WORK/a.json" "$WORK/b.json"
bad_case "a phase neither timed" "b.json: the report has no read phase (it timed: write, stat;" \
  --phase read "$WORK/b.json" "$WORK/b.json"
bad_case "an unknown phase" "--phase: stats not in" --phase stats "$WORK/b.json" "$WORK/b.json"

note "hostile reports (issue 21 §6): exit 2 and one line naming the field, never a crash"
python3 - "$WORK/a.json" "$WORK" <<'PY'
import json, sys
src, work = sys.argv[1:]
text = open(src).read()
def edited(name, edit):
    d = json.loads(text)
    for rep in d["points"][0]["repetitions"]:
        edit(rep)
    open(f"{work}/{name}.json", "w").write(json.dumps(d))
open(f"{work}/deep.json", "w").write(text.rstrip()[:-1] + ', "unknown": ' + "[" * 50000 + "]" * 50000 + "}")
open(f"{work}/overflow.json", "w").write(text.replace('"makespan_s": ', '"makespan_s": 1e400, "x": ', 1))
edited("cut_short", lambda r: r.update(time_limit={"cut_short": "yes", "files_at_limit": 1, "files_asked": 50}))
edited("zero", lambda r: r.update(makespan_s=0))
edited("fractional", lambda r: r.update(files=2.5, time_limit={"cut_short": True, "files_at_limit": 2, "files_asked": 50}))
edited("nofile", lambda r: r.update(files=0, time_limit={"cut_short": True, "files_at_limit": 0, "files_asked": 50}))
d = json.loads(text)
d["config"].update(overwrite=True, wear_out=True, slow_ranks=[0])
open(f"{work}/workload.json", "w").write(json.dumps(d))
PY
bad_case "50,000 nested arrays" "deep.json: arrays and objects nested deeper than 64 levels" "$WORK/a.json" "$WORK/deep.json"
bad_case "1e400" "overflow.json: not JSON (number overflow parsing '1e400')" "$WORK/overflow.json" "$WORK/b.json"
bad_case "cut_short \"yes\"" 'cut_short.json: points\[0\].repetitions\[0\].time_limit.cut_short: expected true or false, got "yes"' \
  "$WORK/a.json" "$WORK/cut_short.json"
bad_case "makespans of 0" "zero.json: points\[0\].repetitions\[0\].makespan_s: expected seconds between 1e-09 and 1e+09, got 0" \
  "$WORK/a.json" "$WORK/zero.json"
bad_case "2.5 files" "fractional.json: points\[0\].repetitions\[0\].files: expected a whole number" "$WORK/a.json" "$WORK/fractional.json"
# Cut short before the first file: compared, but that point draws no verdict; no nan or inf.
for format in table markdown json; do
  run_compare --format "$format" "$WORK/a.json" "$WORK/nofile.json"
  [ "$STATUS" -eq 0 ] || fail "cut short at 0 files, $format: exit code $STATUS: $(cat "$WORK/cmp.err")"
  grep -q "not comparable" "$WORK/cmp.out" || fail "cut short at 0 files, $format: no 'not comparable'"
  ! grep -Eiq '(^|[^a-z])-?(nan|inf)([^a-z]|$)' "$WORK/cmp.out" || fail "$format prints nan or inf: $(cat "$WORK/cmp.out")"
done
run_compare --format json "$WORK/a.json" "$WORK/workload.json"
python3 -c 'import json, sys
keys = [d["key"] for d in json.load(open(sys.argv[1]))["workload_differences"]]
assert keys == ["overwrite", "slow_ranks", "wear_out"], keys' "$WORK/cmp.out" || fail "workload keys not flagged"

# An endless input (found by a hostile review): refused at its first byte, not read until
# memory runs out.
run_compare "$WORK/a.json" /dev/zero
[ "$STATUS" -eq 2 ] || fail "/dev/zero: exit code $STATUS"
[ "$(wc -l <"$WORK/cmp.err")" -eq 1 ] && grep -q "not JSON (it starts with byte 0)" "$WORK/cmp.err" ||
  fail "/dev/zero: $(cat "$WORK/cmp.err")"

run_compare --help
[ "$STATUS" -eq 0 ] && grep -q "too few repetitions" "$WORK/cmp.out" || fail "--help"
echo "PASS"
