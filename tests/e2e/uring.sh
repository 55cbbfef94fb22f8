#!/usr/bin/env bash
# --engine uring: the same files as the posix engine (line and whole mode, several chains per
# file, fsync, dynamic partition, threads), the async column of --compare, the option rules,
# and the refusal, once and with exit 2, where io_uring is blocked (a real seccomp filter).
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
no_kill_grace  # its failing runs end by themselves; none is signalled (lib.sh)
: "${DENY_IO_URING:?set DENY_IO_URING to the deny_io_uring tool}"

note "--queue-depth without --engine uring is a usage error, and nothing is created"
run_mpiwrite -d "$WORK/qd" -n 10 --queue-depth 4
expect_status 2
[ "$(error_lines)" -eq 1 ] || fail "expected one error line: $(cat "$WORK/err")"
grep -q -- "--queue-depth needs --engine uring" "$WORK/err" || fail "unclear message: $(cat "$WORK/err")"
[ ! -e "$WORK/qd" ] || fail "a refused run created its directory"

note "io_uring blocked by seccomp: one message naming the reason, exit 2, nothing created"
MPIEXEC_PLAIN=$MPIEXEC
MPIEXEC="$DENY_IO_URING $MPIEXEC_PLAIN"
run_mpiwrite -d "$WORK/denied" -n 10 --engine uring
expect_status 2
[ "$(error_lines)" -eq 1 ] || fail "expected one error line: $(cat "$WORK/err")"
grep -Eq "not permitted \(a seccomp filter|io_uring_disabled" "$WORK/err" ||
  fail "the message does not name the reason: $(cat "$WORK/err")"
[ ! -e "$WORK/denied" ] || fail "a refused run created its directory"
note "... and the posix engine still runs there (the filter denies only io_uring)"
run_mpiwrite -d "$WORK/denied-posix" -n 10 -l 2
expect_status 0
expect_files "$WORK/denied-posix" 10 2 "Hello, world!"
MPIEXEC=$MPIEXEC_PLAIN

# The rest needs io_uring on this machine.
run_mpiwrite -d "$WORK/probe" -n 1 --engine uring
if [ "$STATUS" -eq 2 ] && grep -Eq "cannot run here|built without io_uring" "$WORK/err"; then
  echo "SKIP: io_uring is not usable here: $(cat "$WORK/err")"
  exit 77
fi
expect_status 0

note "the seed workload with 8 files in flight per rank"
run_mpiwrite -d "$WORK/seed" --engine uring -q 8 --format csv
expect_status 0
expect_files "$WORK/seed" 100 100 "Hello, world!"
grep -q '^repetition,run,.*,uring,8,' "$WORK/out" || fail "CSV lacks engine and queue depth: $(cat "$WORK/out")"

note "600 lines per file (three linked chains each), fsync, verify, 2 threads"
run_mpiwrite -d "$WORK/long" --engine uring -q 4 -t 2 -n 24 -l 600 --fsync --verify
expect_status 0
expect_files "$WORK/long" 24 600 "Hello, world!"
grep -q "24 ok" "$WORK/out" || fail "verification did not pass: $(cat "$WORK/out")"

note "whole mode, dynamic partition, queue depth deeper than the files"
run_mpiwrite -d "$WORK/whole" --engine uring -q 64 -n 37 -l 5 --write-mode whole \
  --partition dynamic --chunk 3 -r 2
expect_status 0
expect_files "$WORK/whole" 37 5 "Hello, world!"

note "--compare with the async column: 1x1qC at every concurrency, the rest posix"
run_mpiwrite -d "$WORK/compare" -n 16 -l 2 --compare --engine uring --max-concurrency 4 \
  --format json --output "$WORK/compare.json"
expect_status 0
python3 - "$WORK/compare.json" "$RANKS" <<'PY'
import json, sys
doc, ranks = json.load(open(sys.argv[1])), int(sys.argv[2])
def check(cond, what):
    if not cond: sys.exit(f"FAIL: {what}")
points = doc["points"]
asyncs = sorted((p for p in points if p["mode"] == "async"), key=lambda p: p["queue_depth"])
check([p["label"] for p in asyncs] == ["1x1q1", "1x1q2", "1x1q4"], "async points")
for p in asyncs:
    check(p["engine"] == "uring" and p["ranks"] == 1 and p["threads"] == 1, "async is 1x1 uring")
    check(p["concurrency"] == p["queue_depth"], "in-flight files are the concurrency")
    check(all(r["files"] == 16 for r in p["repetitions"]), "every async repetition wrote all files")
    check(p["repetitions"][0]["latency_us"]["p50"] > 0, "per-file latency measured")
for p in points:
    if p["mode"] != "async":
        check(p["engine"] == "posix" and p["queue_depth"] == 1, f"{p['label']} runs posix")
rows = doc["comparison"]
check([r["concurrency"] for r in rows] == [1, 2, 4], "a row per concurrency")
check(all(r["async"] is not None for r in rows), "an async cell in every row")
check(rows[0]["processes"]["label"] == "1x1", "the posix 1x1 is the baseline")
check(doc["cleanup"]["files_removed"] > 0, "scratch files removed")
print("compare json ok")
PY
[ -z "$(ls -A "$WORK/compare")" ] || fail "the comparison left files"

note "the table's comparison has the async point (a row of its own; --wide: a column)"
run_mpiwrite -d "$WORK/compare-table" -n 8 -l 1 --compare --engine uring --max-concurrency 2
expect_status 0
grep -Eq '^concurrency +winner +mode +point +files/s ' "$WORK/out" ||
  fail "no long-form grid: $(cat "$WORK/out")"
grep -Eq '^( +2 +[a-z]+)? +async +1x1q2 +[0-9.]+ ' "$WORK/out" ||
  fail "no 1x1q2 row at concurrency 2: $(cat "$WORK/out")"
run_mpiwrite -d "$WORK/compare-table" -n 8 -l 1 --compare --engine uring --max-concurrency 2 --wide
expect_status 0
grep -Eq '^concurrency +processes .* async +median \[s\] +speedup \[95% CI\] +efficiency +winner +test ' "$WORK/out" ||
  fail "no async column: $(cat "$WORK/out")"
grep -Eq '^ +2 .* 1x1q2 ' "$WORK/out" || fail "no 1x1q2 cell: $(cat "$WORK/out")"
echo "PASS"
