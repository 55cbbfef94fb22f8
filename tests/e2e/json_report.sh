#!/usr/bin/env bash
# The JSON report parses, names the ranks and threads, and its totals match the files on disk.
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

note "json report, $RANKS ranks x 3 threads"
run_mpiwrite -d "$WORK/data" -n 250 -l 7 -t 3 -r 2 --format json --output "$WORK/report.json"
expect_status 0
expect_files "$WORK/data" 250 7 "Hello, world!"
cmp -s "$WORK/out" "$WORK/report.json" || fail "--output differs from standard output"
ls "$WORK"/report.json.tmp-* >/dev/null 2>&1 && fail "temporary report file left behind"
python3 - "$WORK/report.json" "$RANKS" "$WORK/data" <<'PY'
import json, os, sys
path, ranks, data = sys.argv[1], int(sys.argv[2]), sys.argv[3]
doc = json.load(open(path))
def check(cond, what):
    if not cond:
        sys.exit(f"FAIL: {what}")
check(doc["schema_version"] == 5, "schema_version")
check(doc["kind"] == "run" and len(doc["points"]) == 1, "a run is one point")
point = doc["points"][0]
check(point["ranks"] == ranks and point["threads"] == 3, "the point's ranks and threads")
ctx = doc["context"]
check(ctx["ranks"] == ranks, "context.ranks")
check(ctx["threads_per_rank"] == 3, "context.threads_per_rank")
check(sum(h["rank_count"] for h in ctx["hosts"]) == ranks, "hosts cover every rank")
check(ctx["directory"] == os.path.realpath(data), "context.directory")
check(ctx["filesystem"] != "", "context.filesystem")
check("Open MPI" in ctx["mpi_library"], "context.mpi_library")
check(doc["config"]["files"] == 250 and doc["config"]["lines"] == 7, "config")
reps = point["repetitions"]
check(len(reps) == 2, "two repetitions")
on_disk = sum(os.path.getsize(os.path.join(data, f)) for f in os.listdir(data))
for rep in reps:
    check(rep["files"] == 250, "files per repetition")
    check(rep["bytes"] == 250 * 7 * 14 == on_disk, "bytes match the files on disk")
    check(len(rep["per_rank"]) == ranks, "one entry per rank")
    check(sum(r["files"] for r in rep["per_rank"]) == 250, "per-rank files add up")
    check(max(r["elapsed_s"] for r in rep["per_rank"]) == rep["slowest_rank_s"], "slowest rank is the max")
    check(min(r["start_s"] for r in rep["per_rank"]) == 0, "the common start is the earliest rank's")
    check(abs(max(r["start_s"] + r["elapsed_s"] for r in rep["per_rank"]) - rep["makespan_s"]) < 1e-12,
          "makespan: common start to the last end")
    check(rep["makespan_s"] >= rep["slowest_rank_s"], "makespan covers every rank")
    check(rep["last_done_s"] == rep["makespan_s"] and rep["first_done_s"] <= rep["makespan_s"],
          "first and last done")
    check(abs(rep["files_per_s"] - 250 / rep["makespan_s"]) < 1e-6 * rep["files_per_s"],
          "rate = files / makespan")
    lat = rep["latency_us"]
    check(0 < lat["p50"] <= lat["p90"] <= lat["p99"] <= lat["max"], "latency percentiles ordered")
summary = point["summary"]["makespan_s"]
check(summary["count"] == 2, "summary count")
check(summary["min"] <= summary["median"] <= summary["max"], "summary ordered")
print("json ok")
PY
echo "PASS"
