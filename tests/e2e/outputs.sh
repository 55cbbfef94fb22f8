#!/usr/bin/env bash
# Every format in one run (issue 24 §3; docs/errors.md "The report's outputs"): -o FILE takes
# its format from the extension when --format is not given; --json, --csv and --markdown FILE
# each get the report in their format beside standard output's, checked before the run (a bad
# one is exit 2 with nothing created) and written as -o is (atomically; a failure is exit 1
# naming it while every other output still gets the report); an interrupted run writes each.
# One launch per case, a few files each. Usage: outputs.sh RANKS
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
no_kill_grace  # its failing runs end by themselves; (e), signalled, keeps the default (lib.sh)

SMALL=(-n $((3 * RANKS)) -l 2)
fresh() { mktemp -u "$WORK/data-XXXXXX"; }  # a --dir path not taken yet

# check_formats JSON CSV MARKDOWN: each file holds a whole report in its format, for FILES
# files in one point.
check_formats() {
  python3 - "$1" "$2" "$3" "$((3 * RANKS))" <<'PY' || fail "a report is not in its format"
import csv, json, sys
report_json, report_csv, report_md, files = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
doc = json.load(open(report_json))
assert doc["config"]["files"] == files, doc["config"]["files"]
assert len(doc["points"]) == 1 and doc["points"][0]["repetitions"], "no repetition in the JSON"
rows = list(csv.reader(open(report_csv, newline="")))
assert len(rows) >= 2 and len(rows[0]) > 3, f"CSV: {rows[:2]}"
assert all(len(r) == len(rows[0]) for r in rows), "CSV rows of unequal length"
md = open(report_md).read()
assert md.lstrip().startswith("#") and "\n|" in md, f"markdown: {md[:200]!r}"
for text in (open(report_csv).read(), md):
    assert not text.lstrip().startswith("{"), "JSON where another format belongs"
PY
}

note "(a) all four at once: -o (table), --json, --csv, --markdown"
dir=$(fresh)
run_mpiwrite -d "$dir" "${SMALL[@]}" -o "$WORK/r.txt" --json "$WORK/r.json" --csv "$WORK/r.csv" \
  --markdown "$WORK/r.md"
expect_status 0
cmp -s "$WORK/out" "$WORK/r.txt" || fail "-o r.txt is not what standard output got"
head -c 1 "$WORK/out" | grep -q '{' && fail "standard output is JSON, expected the table"
check_formats "$WORK/r.json" "$WORK/r.csv" "$WORK/r.md"
[ "$(stat -c %a "$WORK/r.csv")" = "$(printf '%o' $((0666 & ~8#$(umask) & 0644)))" ] ||
  fail "--csv's new file has mode $(stat -c %a "$WORK/r.csv")"
leftover=$(find "$WORK" -name '.mpiwrite-report-*' | head -n 1)
[ -z "$leftover" ] || fail "a temporary report file was left: $leftover"
[ ! -s "$WORK/err" ] || fail "stderr is not empty: $(cat "$WORK/err")"

note "(b) -o by extension: x.json is JSON, x.csv is CSV (on standard output too)"
run_mpiwrite -d "$(fresh)" "${SMALL[@]}" -o "$WORK/x.json"
expect_status 0
python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$WORK/x.json" ||
  fail "-o x.json does not hold JSON: $(head -c 200 "$WORK/x.json")"
cmp -s "$WORK/out" "$WORK/x.json" || fail "-o x.json: standard output is not the same report"
# An existing report is replaced atomically, its mode kept, as -o's.
printf 'old\n' >"$WORK/x.csv"
chmod 600 "$WORK/x.csv"
run_mpiwrite -d "$(fresh)" "${SMALL[@]}" -o "$WORK/x.csv" --markdown "$WORK/x.md" --json "$WORK/y.json"
expect_status 0
cmp -s "$WORK/out" "$WORK/x.csv" || fail "-o x.csv: standard output is not the same report"
check_formats "$WORK/y.json" "$WORK/x.csv" "$WORK/x.md"
[ "$(stat -c %a "$WORK/x.csv")" = 600 ] || fail "-o x.csv did not keep the old file's mode"

note "(c) bad outputs: exit 2 before the run, one line, nothing created"
refused() {  # refused TEXT ARGS...: exit 2, one error line containing TEXT, no --dir, no file
  local text=$1 dir
  shift
  dir=$(fresh)
  run_mpiwrite -d "$dir" "${SMALL[@]}" "$@"
  expect_status 2
  [ "$(error_lines)" -eq 1 ] || fail "$*: $(error_lines) error lines: $(cat "$WORK/err")"
  grep -qF -- "$text" "$WORK/err" || fail "$*: expected '$text' in: $(cat "$WORK/err")"
  [ ! -s "$WORK/out" ] || fail "$*: standard output is not empty"
  [ ! -e "$dir" ] || fail "$*: --dir was created"
}
# The five refused runs side by side (a failing launch mostly waits on mpiexec): each in a
# subshell with its own WORK (its out, err and --dir), checked by refused as before.
W=$WORK
refusing=()
refused_beside() {
  (
    trap - EXIT
    WORK=$(mktemp -d "$W/refused-XXXXXX")
    refused "$@"
  ) &
  refusing+=($!)
}
mkdir "$W/ro"
ln -s "$W/ro" "$W/rolink"
refused_beside "--csv /proc/r.csv: no file can be created in /proc" --json "$W/ro/a.json" --csv /proc/r.csv
refused_beside "--csv $W/nowhere/r.csv: its directory $W/nowhere does not exist" --csv "$W/nowhere/r.csv"
refused_beside "--markdown $W/ro: is a directory" --markdown "$W/ro"
refused_beside "the extension .csv names the csv format, not json" -o "$W/ro/r.csv" --format json
refused_beside "name the same file" --json "$W/ro/s.json" -o "$W/rolink/s.json"
failed=0
for pid in "${refusing[@]}"; do wait "$pid" || failed=1; done
[ "$failed" -eq 0 ] || fail "a refused case failed (above)"
[ ! -e "$W/ro/a.json" ] || fail "--json was written although --csv was refused"
[ -z "$(ls -A "$W/ro")" ] || fail "a refused run left files in $W/ro: $(ls -A "$W/ro")"

note "(d) an output that fails at the end: exit 1 naming it, every other output written"
run_mpiwrite -d "$(fresh)" "${SMALL[@]}" --json /dev/full --csv "$WORK/d.csv"
expect_status 1
grep -qF 'mpiwrite: error: /dev/full: write: No space left on device' "$WORK/err" ||
  fail "the failing --json is not named with its strerror: $(cat "$WORK/err")"
[ "$(error_lines)" -eq 1 ] || fail "$(error_lines) error lines, expected 1"
[ -s "$WORK/out" ] || fail "standard output got no report"
python3 -c 'import csv, sys; assert len(list(csv.reader(open(sys.argv[1])))) >= 2' "$WORK/d.csv" ||
  fail "--csv did not get its report"

note "(e) interrupted: every output holds the report marked interrupted"
kill_grace
dir=$WORK/interrupted
LIMIT=60 start_bg interrupted -d "$dir" -n $((100 * RANKS)) -r 2 --slow-rank 0 \
  --slow-delay-us 20000 --json "$WORK/i.json" --csv "$WORK/i.csv" --markdown "$WORK/i.md"
for ((k = 0; k < 3000; k++)); do
  compgen -G "$dir/write*.txt" >/dev/null && break
  kill -0 "$BG" 2>/dev/null || { cat "$ERR" >&2; fail "the run ended before its last repetition"; }
  sleep 0.01
done
sleep 0.3
kill -TERM "$MPIRUN_PID"
set +e
wait "$BG"
STATUS=$?
set -e
[ "$STATUS" -ne 0 ] || fail "SIGTERM: exit code 0 (the run was not interrupted: too fast?)"
[ "$STATUS" -ne 124 ] && [ "$STATUS" -ne 137 ] || fail "the interrupted run hung"
python3 - "$WORK/i.json" "$WORK/i.csv" "$WORK/i.md" <<'PY' || fail "an output is not the interrupted report"
import csv, json, sys
doc = json.load(open(sys.argv[1]))
assert doc["interrupted"] in ("SIGINT", "SIGTERM"), doc.get("interrupted")
rows = list(csv.reader(open(sys.argv[2], newline="")))
assert any("interrupted" in r for r in rows), "CSV: no interrupted row"
assert "INTERRUPTED" in open(sys.argv[3]).read().upper(), "markdown: not marked interrupted"
PY
# Standard output's format (the table) has its saved copy in --dir, as without the extras.
compgen -G "$dir/mpiwrite-interrupted-*.txt" >/dev/null || fail "no saved copy of the table in --dir"
note "all outputs checked"
