#!/usr/bin/env bash
# Per-operation latency adds up (docs/metrics.md, "Per-operation latency"): on real runs of
# the posix and uring engines, with and without --fsync (and uring's --overwrite and
# --slow-rank paths), every repetition's create, writes, fsync and close histograms count
# exactly the files written, fsync is null without --fsync, and the operations' summed time is
# at most the files' summed open-to-close latency. The table and CSV carry the figures too.
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

check_report() {  # REPORT FILES FSYNC(0|1) WHAT
  python3 - "$@" <<'PY'
import json, sys
path, files, fsync, what = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1", sys.argv[4]
doc = json.load(open(path))
def check(cond, text):
    if not cond:
        sys.exit(f"FAIL ({what}): {text}")
reps = doc["points"][0]["repetitions"]
check(len(reps) == 2, "two repetitions")
for rep in reps:
    i = rep["index"]
    lat, ops = rep["latency_us"], rep["operations_us"]
    check(rep["files"] == files and lat["count"] == files, f"rep {i}: latency counts the files")
    check(list(ops) == ["create", "writes", "fsync", "close"], f"rep {i}: the operations, in order")
    measured = ["create", "writes", "close"] + (["fsync"] if fsync else [])
    if not fsync:
        check(ops["fsync"] is None, f"rep {i}: fsync is null without --fsync")
    for name in measured:
        op = ops[name]
        check(op["count"] == files, f"rep {i}: {name} counts {op['count']}, not the {files} files")
        check(0 <= op["p50"] <= op["p90"] <= op["p99"] <= op["max"], f"rep {i}: {name} percentiles ordered")
        check(op["max"] <= lat["max"], f"rep {i}: {name} max within the latency's max")
    total = sum(ops[name]["total_ns"] for name in measured)
    check(0 < total <= lat["total_ns"],
          f"rep {i}: operations sum to {total} ns, latency total {lat['total_ns']} ns")
    # posix reads the clock around the writes; uring's completions of a file's open and last
    # write may come in one batch, one clock read (0: documented).
    if what.startswith("posix"):
        check(ops["writes"]["total_ns"] > 0, f"rep {i}: writes took time")
PY
}

# Each launch costs a second or more on a loaded CI machine, so the runs share them: the
# reports in other formats (the table on standard output, --json, --csv) come from runs made
# for the figures anyway, and the first uring run is the probe of io_uring.
engines=("posix" "uring")
n=0
for engine in posix uring; do
  extra=()
  [ "$engine" = uring ] && extra=(--engine uring -q 8)
  for fsync in 0 1; do
    n=$((n + 1))
    flags=("${extra[@]}")
    [ "$fsync" -eq 1 ] && flags+=(--fsync)
    # posix without --fsync: the default table on standard output (its per-operation line,
    # no fsync); with --fsync: the CSV too.
    formats=(--format json)
    [ "$engine/$fsync" = posix/0 ] && formats=(--format table)
    [ "$engine/$fsync" = posix/1 ] && formats+=(--csv "$WORK/csv.csv")
    note "$engine, fsync $fsync, $RANKS ranks x 2 threads, line mode"
    run_mpiwrite -d "$WORK/d$n" -n 120 -l 5 -t 2 -r 2 --warmup 0 "${flags[@]}" "${formats[@]}" \
      --json "$WORK/d$n.json"
    if [ "$engine" = uring ] && [ "$STATUS" -eq 2 ] &&
      grep -Eq "cannot run here|built without io_uring" "$WORK/err"; then
      echo "note: io_uring is not usable here, the uring runs are skipped: $(cat "$WORK/err")"
      engines=("posix")
      break
    fi
    expect_status 0
    check_report "$WORK/d$n.json" 120 "$fsync" "$engine fsync=$fsync"
    [ "$engine/$fsync" = posix/0 ] && cp "$WORK/out" "$WORK/table.txt"
  done
done

note "whole mode, --overwrite (the rewrite open is the create), csv and table"
for engine in "${engines[@]}"; do
  extra=()
  [ "$engine" = uring ] && extra=(--engine uring -q 4)
  # posix: the --wide table on standard output (no --fsync).
  formats=(--format json)
  [ "$engine" = posix ] && formats=(--format table --wide)
  run_mpiwrite -d "$WORK/ow-$engine" -n 60 -l 3 --write-mode whole -r 2 --warmup 0 --overwrite \
    "${extra[@]}" "${formats[@]}" --json "$WORK/ow-$engine.json"
  expect_status 0
  check_report "$WORK/ow-$engine.json" 60 0 "$engine whole --overwrite"
  expect_files "$WORK/ow-$engine" 60 3 "Hello, world!"
  [ "$engine" = posix ] && cp "$WORK/out" "$WORK/table-wide.txt"
done

note "--slow-rank 0: its sleep before each close is in the latency, in no operation"
for engine in "${engines[@]}"; do
  extra=()
  [ "$engine" = uring ] && extra=(--engine uring -q 2)
  run_mpiwrite -d "$WORK/slow-$engine" -n 24 -l 2 -r 2 --warmup 0 --slow-rank 0 \
    --slow-delay-us 2000 "${extra[@]}" --format json
  expect_status 0
  check_report "$WORK/out" 24 0 "$engine --slow-rank"
  python3 - "$WORK/out" "$engine" <<'PY' || fail "$engine: the --slow-rank sleep counted in an operation"
import json, sys
for rep in json.load(open(sys.argv[1]))["points"][0]["repetitions"]:
    ops = rep["operations_us"]
    summed = sum(ops[n]["total_ns"] for n in ("create", "writes", "close"))
    # rank 0's files slept 2 ms each, between two clock reads of its thread with posix. With
    # uring a span ends when the thread sees the completion; on a loaded machine it may see the
    # last write's only with the delay's, and the sleep then falls in the writes: at least one
    # sleep's worth still shows (and none would if the sleep were counted in the close).
    slept = rep["per_rank"][0]["files"] * 2_000_000 if sys.argv[2] == "posix" else 2_000_000
    assert summed + slept <= rep["latency_us"]["total_ns"], (summed, slept, rep["latency_us"])
PY
done

note "the CSV, the table and the --wide table of the runs above: their per-operation figures"
python3 - "$WORK/csv.csv" <<'PY' || fail "the CSV's per-operation columns"
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["row"] == "repetition"]
assert len(rows) == 2, rows
for r in rows:
    for op in ("create", "writes", "fsync", "close"):
        assert float(r[f"{op}_p50_us"]) <= float(r[f"{op}_max_us"]), (op, r)
        assert float(r[f"{op}_mean_us"]) > 0 or op != "writes", (op, r)
PY
# The default table says each operation's mean per file on one line; --wide has its rows.
# (One line, broken between its operations to fit 100 columns.)
grep -q "^per operation" "$WORK/table.txt" &&
  tr '\n' ' ' <"$WORK/table.txt" |
  grep -Eq "per operation[^:]*: create [0-9.]+ \([0-9.]+%\), +writes [0-9.]+ \([0-9.]+%\), +close " ||
  fail "the table has no per-operation line: $(cat "$WORK/table.txt")"
grep -q "fsync" "$WORK/table.txt" && fail "the table shows fsync without --fsync"
grep -q "^per operation" "$WORK/table-wide.txt" || fail "the wide table has no per-operation block"
grep -Eq "^ +1 +create " "$WORK/table-wide.txt" || fail "the wide table has no create row"
grep -q " fsync " "$WORK/table-wide.txt" && fail "the wide table shows fsync without --fsync"
note "ok"
