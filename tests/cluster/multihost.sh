#!/usr/bin/env bash
# mpiwrite across two hosts for real: tests/testbed/netns-up.sh makes mpihostA and
# mpihostB (network + UTS namespaces joined by a veth pair, 10.77.0.2/.3, names in
# /etc/hosts), mpirun runs on mpihostA and starts mpihostB's orted through
# tests/testbed/netns-rsh (Open MPI's plm_rsh_agent), and ranks on different hosts talk
# over TCP. Checked: exit code, every file, the JSON report's hosts with their rank counts
# and per-host aggregates, the table's per-host section, with 1 and 2 threads per rank, and
# that the hosts really are apart (without the tcp BTL the job cannot run). Everything it
# made (namespaces, veths, mounts, /etc/hosts lines, processes) is removed on any exit.
# Needs root and namespaces (exit 77 otherwise). Environment (CTest): MPIWRITE. About 5 s.
# shellcheck source-path=SCRIPTDIR source=../e2e/lib.sh
TMPDIR=/tmp source "$(dirname "$0")/../e2e/lib.sh"   # WORK: shared by both hosts

# shellcheck source=two_hosts.sh
source "$(dirname "$0")/two_hosts.sh"
start_two_hosts

[ "$("$CLUSTER/netns-exec" mpihostB hostname)" = mpihostB ] || fail "mpihostB has no hostname of its own"
[ "$(hostname)" != mpihostA ] && [ "$(hostname)" != mpihostB ] || fail "the machine's hostname changed"

export NETNS_RSH_LOG=$WORK/rsh.log

# mpirun on mpihostA (the "head node"), 4 ranks over both hosts; a hang is a failure.
# Sets STATUS; stdout/stderr in $WORK/out, $WORK/err.
run_across() {
  set +e
  timeout --kill-after=5 60 "$CLUSTER/netns-exec" mpihostA \
    mpirun --hostfile "$WORK/hostfile" -np 4 --map-by node "$@" >"$WORK/out" 2>"$WORK/err"
  STATUS=$?
  set -e
  [ "$STATUS" -ne 124 ] && [ "$STATUS" -ne 137 ] || { cat "$WORK/err" >&2; fail "mpirun hung: $*"; }
}

note "4 ranks --map-by node over mpihostA and mpihostB, the seed workload, JSON report"
run_across --mca btl_base_verbose 30 "$MPIWRITE" -d "$WORK/seed" --format json -o "$WORK/report.json"
expect_status 0
expect_files "$WORK/seed" 100 100 "Hello, world!"
grep -q "orted" "$WORK/rsh.log" && grep -q " mpihostB " "$WORK/rsh.log" ||
  fail "mpirun did not start mpihostB's orted through netns-rsh"
grep -Eq '^\[mpihostA:[0-9]+\] mca: bml: Using tcp btl for send to .* on node mpihostB' "$WORK/err" ||
  fail "ranks on mpihostA did not use TCP to reach mpihostB"
python3 - "$WORK/report.json" <<'PY' || fail "the report's hosts"
import json, sys
doc = json.load(open(sys.argv[1]))
def check(cond, what):
    if not cond:
        sys.exit(f"FAIL: {what}: {json.dumps(doc['context']['hosts'])}")
ctx = doc["context"]
check(ctx["ranks"] == 4, "context.ranks")
hosts = {h["host"]: h for h in ctx["hosts"]}
check(sorted(hosts) == ["mpihostA", "mpihostB"], "context.hosts names both hosts")
check(hosts["mpihostA"]["rank_count"] == 2 and hosts["mpihostB"]["rank_count"] == 2, "2 ranks each")
check(hosts["mpihostA"]["rank_ids"] == [0, 2] and hosts["mpihostB"]["rank_ids"] == [1, 3], "--map-by node: A,B,A,B")
rep = doc["points"][0]["repetitions"][0]
agg = {h["host"]: h for h in rep["hosts"]}
check(len(rep["hosts"]) == 2 and sorted(agg) == ["mpihostA", "mpihostB"], "per-host aggregates of both hosts")
check(sum(h["files"] for h in rep["hosts"]) == 100, "per-host files add up to 100")
check(sum(h["bytes"] for h in rep["hosts"]) == rep["bytes"] == 140000, "per-host bytes add up")
elapsed = {r["rank"]: r["elapsed_s"] for r in rep["per_rank"]}
for name, h in agg.items():
    check(h["files"] == sum(r["files"] for r in rep["per_rank"] if r["rank"] in h["rank_ids"]), f"{name}: files of its ranks")
    check(h["slowest_rank_s"] == max(elapsed[r] for r in h["rank_ids"]), f"{name}: slowest_rank_s is its slowest rank")
print("hosts:", ", ".join(f"{n} ranks {h['rank_ids']} files {agg[n]['files']}" for n, h in sorted(hosts.items())))
PY

note "clock offsets between the hosts (one kernel, so the truth is 0): within the stated bound"
run_across -x MPIWRITE_CLOCK_BY_HOST=1 "$MPIWRITE" -d "$WORK/clock" -n 40 -l 10 -r 3 --format json -o "$WORK/clock.json"
expect_status 0
python3 - "$WORK/clock.json" <<'PY' || fail "clock offsets"
import json, sys
doc = json.load(open(sys.argv[1]))
clock = doc["clock"]
print(f"-- clock: {clock['domains']} domains, largest offset {clock['largest_offset_s'] * 1e6:.1f} us, "
      f"error bound {clock['offset_error_s'] * 1e6:.1f} us")
if clock["domains"] != 2:
    sys.exit(f"FAIL: {clock['domains']} clock domains, expected 2")
if not 0 < clock["offset_error_s"] < 0.005:
    sys.exit("FAIL: no plausible error bound (half a TCP round trip)")
if clock["largest_offset_s"] > clock["offset_error_s"]:
    sys.exit("FAIL: an offset larger than its bound on one kernel")
for rep in doc["points"][0]["repetitions"]:
    if min(r["start_s"] for r in rep["per_rank"]) != 0 or rep["makespan_s"] < rep["slowest_rank_s"] - clock["offset_error_s"]:
        sys.exit("FAIL: the common axis")
PY

note "the same with --threads 2 per rank, table report with its per-host section"
run_across --bind-to none "$MPIWRITE" -d "$WORK/threads" -n 60 -l 10 -t 2
expect_status 0
expect_files "$WORK/threads" 60 10 "Hello, world!"
grep -q "^mpiwrite .*: 4 ranks x 2 threads on 2 hosts" "$WORK/out" || fail "header: $(head -n 1 "$WORK/out")"
grep -q "^per host" "$WORK/out" || { cat "$WORK/out"; fail "no per-host section in the table"; }
grep -Eq '^ *mpihostA +0,2 +30 ' "$WORK/out" && grep -Eq '^ *mpihostB +1,3 +30 ' "$WORK/out" ||
  { cat "$WORK/out"; fail "the per-host rows"; }

note "the hosts are really apart: without the tcp BTL the job cannot run"
OMPI_MCA_btl=vader,self run_across "$MPIWRITE" -d "$WORK/no-tcp" -n 4 -l 1
[ "$STATUS" -ne 0 ] || fail "a job without TCP ran across both hosts"
# Open MPI usually says "unable to reach each other"; sometimes its help text is lost on the
# way to mpirun and the first collective fails with MPI_ERR_INTERN instead. Either shows the
# ranks could not talk without TCP; anything else is a different failure.
grep -Eq "unable to reach each other|MPI_ERR_INTERN" "$WORK/err" ||
  { cat "$WORK/err" >&2; fail "unexpected failure"; }
for ((i = 0; i < 50; i++)); do   # the failed job's processes end on their own
  [ -z "$(ip netns pids mpihostA)$(ip netns pids mpihostB)" ] && break
  sleep 0.1
done
echo "PASS"
