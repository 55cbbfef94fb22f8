#!/usr/bin/env bash
# mpiwrite on a real networked file system: tests/testbed/netfs-up.sh makes a GlusterFS
# testbed (two server hosts, a distribute volume, FUSE mounts on the head -- this machine's
# namespaces -- and on two client hosts netfsC/netfsD, each in its own network, UTS and mount
# namespace). mpirun runs on the head and starts 4 ranks on the client hosts (--map-by node:
# C, D, C, D), each writing through its own host's mount of the same volume. Checked:
#   - the seed workload: exit 0, and the files exact (count, sizes, content) as seen from the
#     head's mount, which wrote none of them, and spread over both bricks (a real distribute);
#   - --verify with -r 2: every file read back by another rank, i.e. on the other host;
#   - the report names both client hosts and the file system as FUSE;
#   - --layout rank, thread and shared with --files-per-dir, --verify: every file in the
#     directory the layouts' model says, exact, seen from the head's mount;
#   - the network to both servers frozen mid-run (their links down; ping timeout 2 s): without
#     --timeout exit 1 within seconds, each failing rank's path and ENOTCONN; with --timeout 4
#     (ping timeout raised to 8 s) exit 124, the stuck ranks named, mpirun over within 8 s of
#     the freeze; no mpiwrite/orted/prted left on the client hosts; healed, the run passes;
#   - at 2 ms RTT, netfsA's brick killed mid-run: exit 1 within seconds, one error line per
#     failing rank with the file's path and strerror, no incomplete file left.
# The testbed is tied to this script by tests/testbed/reaper.sh: if CTest's timeout kills it,
# the reaper stops every daemon by PID and removes the mounts and namespaces.
# Needs root and the packages of tools/install-deps.sh --test (exit 77 without root or
# namespaces). Environment (CTest): MPIWRITE, and NETFS_SHARED: the state file of the bed of
# tests/cluster/netfs_bed.sh (CTest's fixture netfs_bed), used instead of a bed of its own.
# This test kills a brick and raises the ping timeout: the last user of a shared bed (CTest:
# DEPENDS cluster.netfs_slurm). About 38 s (set-up 4-6 s, teardown 5.5-6 s, the network
# faults about 20 s); on a shared bed, without its own set-up and teardown.
SHARED_BED=""
if [ -n "${NETFS_SHARED:-}" ]; then
  # No state: cluster.netfs_bed_up skipped (no root, namespaces, FUSE or TUN here), and CTest
  # runs a fixture's tests after a skipped setup. A failed setup runs none of them.
  [ -s "$NETFS_SHARED" ] || { echo "SKIP: no shared testbed ($NETFS_SHARED: none made)"; exit 77; }
  SHARED_BED=$(cat "$NETFS_SHARED")
  [ -d "$SHARED_BED/netfs/ns" ] || { echo "FAIL: no shared testbed in $SHARED_BED" >&2; exit 1; }
fi
# shellcheck source-path=SCRIPTDIR source=../e2e/lib.sh
TMPDIR=${SHARED_BED:-/tmp} source "$(dirname "$0")/../e2e/lib.sh"
# shellcheck source=reaper_lib.sh
source "$(dirname "$0")/reaper_lib.sh"

[ "$(id -u)" -eq 0 ] || { echo "SKIP: the GlusterFS testbed needs root"; exit 77; }
unshare --net --uts --mount true 2>/dev/null || { echo "SKIP: cannot create namespaces here"; exit 77; }
[ -c /dev/fuse ] && [ -c /dev/net/tun ] || { echo "SKIP: no /dev/fuse or /dev/net/tun here"; exit 77; }
for tool in glusterd glusterfs gluster mkfs.xfs cc mpirun ip nsenter; do
  command -v "$tool" >/dev/null || fail "$tool not found: run tools/install-deps.sh --test"
done
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CLUSTER=$ROOT/tests/testbed
TESTBED=${SHARED_BED:-$WORK}/netfs   # netfs-up.sh's DIR (removed by netfs-down.sh)
MNT=/mnt/netfs
DATA=$MNT/mpiwrite-test-$$   # one path on every host

on_exit() {
  local status=$?
  if [ "$status" -ne 0 ] && [ -d "$TESTBED/hosts" ]; then
    echo "---- last lines of the GlusterFS logs ----" >&2
    tail -n 8 "$TESTBED"/hosts/*/log/*.log >&2 2>/dev/null || true
  fi
  # A check that failed with the network frozen: thaw it, or rm and umount wait for it.
  for h in netfsA netfsB; do [ -e "/run/netns/$h" ] && ip -n "$h" link set tnetfs0 up 2>/dev/null; done
  # The volume goes with the bricks; be tidy while it is up. On a shared bed, still up after
  # the brick's death, half of DATA cannot go: not a failure of this test.
  timeout 20 rm -rf "$DATA" 2>/dev/null || true
  if [ -z "$SHARED_BED" ]; then   # a shared bed is netfs_bed.sh's to remove
    "$CLUSTER/netfs-down.sh" "$TESTBED" >/dev/null || { echo "FAIL: netfs-down.sh left something behind" >&2; status=1; }
    stop_reaper
  fi
  cleanup_work
  exit "$status"
}
trap on_exit EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
chmod 755 "$WORK"   # the ranks on the client hosts write their logs nowhere else
# The volume's network.ping-timeout: how long a client waits for a silent server before it
# fails the pending calls with ENOTCONN. Gluster accepts 0 (no ping timer: a frozen server
# hangs the client until TCP gives up) up to 1013; 2 s ends a frozen run a few seconds after
# the freeze (5 s: about 15 s) and has been stable at RTT 0-2 ms here. (netfs_bed.sh sets the
# same.)
export NETFS_PING_TIMEOUT=2
if [ -n "$SHARED_BED" ]; then
  note "the shared testbed $TESTBED"
else
  # shellcheck disable=SC2016
  start_reaper bash -c '"$1" "$2/netfs"; rm -rf "$2"' reaper-teardown "$CLUSTER/netfs-down.sh" "$WORK"
  t0=$(date +%s%N)
  # The client hosts have their own /tmp: the binary's directory must stay visible there
  # (netfs-up.sh keeps this repository visible; BUILD_DIR may be elsewhere).
  NETFS_VISIBLE=$(dirname "$MPIWRITE") "$CLUSTER/netfs-up.sh" "$TESTBED" ||
    fail "netfs-up.sh could not make the testbed"
  note "testbed up in $((($(date +%s%N) - t0) / 1000000)) ms"
fi

export NETNS_STATE=$TESTBED/ns   # netns-rsh / netns-exec: the testbed's hosts
export OMPI_MCA_plm_rsh_agent=$CLUSTER/netns-rsh
export OMPI_MCA_oob_tcp_if_include=10.78.0.0/24 OMPI_MCA_btl_tcp_if_include=10.78.0.0/24
export OMPI_MCA_btl=vader,self,tcp

[ "$("$CLUSTER/netns-exec" netfsC hostname)" = netfsC ] || fail "netfsC has no hostname of its own"
for h in netfsC netfsD; do
  [ "$("$CLUSTER/netns-exec" "$h" stat -f -c %T "$MNT")" = fuseblk ] || fail "$h: $MNT is not its FUSE mount"
done

# mpirun on the head, 4 ranks on netfsC and netfsD; a hang is a failure. Sets STATUS.
run_on_clients() {
  set +e
  timeout --kill-after=5 60 mpirun --hostfile "$TESTBED/hostfile" -np 4 --map-by node \
    "$MPIWRITE" "$@" >"$WORK/out" 2>"$WORK/err"
  STATUS=$?
  set -e
  [ "$STATUS" -ne 124 ] && [ "$STATUS" -ne 137 ] || { cat "$WORK/err" >&2; fail "mpirun hung: $*"; }
}

mkdir "$DATA"   # through the head's mount: the client hosts see it at once
note "the seed workload from 4 ranks on netfsC and netfsD into $DATA/seed"
run_on_clients -d "$DATA/seed" --format json -o "$WORK/seed.json"
expect_status 0
# From the head's own mount: it wrote none of these files, so it reads them from the servers.
expect_files "$DATA/seed" 100 100 "Hello, world!"
sizes=$(stat -c %s "$DATA"/seed/write*.txt | sort -u)
[ "$sizes" = 1400 ] || fail "file sizes seen from the head: $sizes, expected 1400 each"
# A distribute volume spreads the files over both bricks (by name hash); each brick's own
# file system (in its server's mount namespace) holds some and together all of them.
total=0
for h in netfsA netfsB; do
  n=$(nsenter --mount="$TESTBED/ns/mnt-$h" -- find "/srv/brick/${DATA#"$MNT"/}/seed" -maxdepth 1 -name 'write*.txt' | wc -l)
  [ "$n" -gt 0 ] || fail "brick of $h holds none of the files: not a distribute volume over both"
  note "brick on $h: $n files"
  total=$((total + n))
done
[ "$total" -eq 100 ] || fail "the bricks hold $total files together, expected 100"
python3 - "$WORK/seed.json" <<'PY' || fail "the seed report"
import json, sys
doc = json.load(open(sys.argv[1]))
ctx = doc["context"]
hosts = {h["host"]: h for h in ctx["hosts"]}
assert sorted(hosts) == ["netfsC", "netfsD"], f"hosts: {sorted(hosts)}"
assert hosts["netfsC"]["rank_ids"] == [0, 2] and hosts["netfsD"]["rank_ids"] == [1, 3], ctx["hosts"]
assert "fuse" in json.dumps(ctx).lower(), "the report does not say the file system is FUSE"
rep = doc["points"][0]["repetitions"][0]
assert rep["files"] == 100 and rep["bytes"] == 140000, (rep["files"], rep["bytes"])
where = ", ".join(f"{n} {h['rank_ids']}" for n, h in sorted(hosts.items()))
print(f"report: ranks on {where}, 100 files")
PY

note "--verify -r 2 -n 60: every file read back by another rank, on the other host"
run_on_clients -d "$DATA/verify" -n 60 -l 20 -r 2 --verify
expect_status 0
[ "$(error_lines)" -eq 0 ] || { cat "$WORK/err" >&2; fail "--verify reported errors"; }
grep -qi "verif" "$WORK/out" || { cat "$WORK/out" >&2; fail "the table does not mention the verification"; }
expect_files "$DATA/verify" 60 20 "Hello, world!"

# Every file phase through io_uring on the FUSE mount, from both client hosts: the read phase
# opens with O_NONBLOCK (docs/uring.md) and --verify checks each file's content there, read by
# the rank on the other host (--shift 1). Nothing is left: the remove phase emptied the --dir
# this run made, which then goes too.
if uring_built; then
  note "--engine uring --phases write,stat,read,remove --verify: every phase via io_uring on FUSE"
  run_on_clients -d "$DATA/uring" -n 60 -l 20 --engine uring -q 8 \
    --phases write,stat,read,remove --verify -r 2 --format json -o "$WORK/uring.json"
  expect_status 0
  [ "$(error_lines)" -eq 0 ] || { cat "$WORK/err" >&2; fail "uring phases on FUSE reported errors"; }
  [ ! -e "$DATA/uring" ] || fail "the uring run left $DATA/uring: $(ls -A "$DATA/uring" | head -3)"
  python3 - "$WORK/uring.json" <<'PY' || fail "the uring phases' report"
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["config"]["engine"] == "uring", doc["config"]["engine"]
for rep in doc["points"][0]["repetitions"]:
    phases = rep["phases"]
    assert list(phases) == ["write", "stat", "read", "remove"], list(phases)
    for name, p in phases.items():
        assert p["files"] == 60 and p["files_per_s"] > 0, (name, p)
    assert phases["read"]["verified"] and phases["read"]["mismatches"] == 0, phases["read"]
    reads = phases["read"]["operations_us"]
    assert reads["open"]["count"] == 60 and reads["close"]["count"] == 60, reads
print("uring on FUSE: every phase 60 files, read verified, 2 repetitions")
PY
else
  skip_uring_case "the uring phases on FUSE"
fi

# Each layout from 4 ranks on both client hosts, checked from the head's mount against the
# layouts' model (tests/e2e/expect_layout.py): every file in its directory, exact, nothing else.
for layout in "rank 1 0 block" "thread 2 4 cyclic" "shared 2 8 block"; do
  read -r name threads per_dir partition <<<"$layout"
  options=(--layout "$name" -t "$threads" --partition "$partition")
  [ "$per_dir" -eq 0 ] || options+=(--files-per-dir "$per_dir")
  note "${options[*]} --verify"
  run_on_clients -d "$DATA/layout-$name" -n 40 -l 5 "${options[@]}" --verify
  expect_status 0
  python3 "$ROOT/tests/e2e/expect_layout.py" "$DATA/layout-$name" 4 "$threads" "$name" \
    "$per_dir" "$partition" 40 5 || fail "--layout $name: the files seen from the head"
done

# --time-limit on the shared file system: each rank counts from its own start on its own
# host; --wear-out brings every rank to the largest count; what the head's mount holds is
# exactly what the report says was written.
note "--time-limit 1 --wear-out --layout rank --verify: equal counts on both hosts, fewer than asked"
run_on_clients -d "$DATA/limited" -n 100000 --layout rank --time-limit 1 --wear-out --verify \
  --format json -o "$WORK/limited.json"
expect_status 0
python3 - "$WORK/limited.json" "$DATA/limited" <<'PY' || fail "the time-limited run on the testbed"
import json, os, sys
doc = json.load(open(sys.argv[1]))
rep = doc["points"][0]["repetitions"][0]
counts = [r["files"] for r in rep["per_rank"]]
assert len(set(counts)) == 1 and 0 < rep["files"] < 100000, counts
assert rep["time_limit"]["cut_short"], rep["time_limit"]
assert rep["verify"]["files_checked"] == rep["files"] and rep["verify"]["mismatches"] == 0, rep["verify"]
on_disk = sum(len(files) for _, _, files in os.walk(sys.argv[2]))
assert on_disk == rep["files"], (on_disk, rep["files"])
print(f"time-limited: {counts[0]} files per rank ({rep['time_limit']['files_at_limit']} at the limit, "
      f"{rep['files']} after wear-out) in {rep['makespan_s']:.2f} s, all on the head's mount")
PY
note "--time-limit 0.5 --partition dynamic -r 2 --cleanup: removal by the writers' records, nothing left"
mkdir "$DATA/limited-dyn"
run_on_clients -d "$DATA/limited-dyn" -n 100000 --partition dynamic --time-limit 0.5 -r 2 --cleanup
expect_status 0
[ -z "$(ls -A "$DATA/limited-dyn")" ] || fail "a limited dynamic run left files: $(ls -A "$DATA/limited-dyn" | head -3)"

# ---- the network to the file servers frozen mid-run --------------------------------------
# "Frozen": both servers' TUN links go down, so every packet to or from netfsA/netfsB is
# dropped (netdelay's write to a downed TUN fails) -- no RST, no ICMP, the clients just hear
# nothing, as from a hung server. The compute network (mpirun <-> orteds, the ranks' TCP)
# stays up. Stopping netdelay itself (SIGSTOP) freezes that too: measured, mpirun then never
# hears of the watchdog's MPI_Abort (not even its message comes through) and hangs until
# SIGCONT, after which everything ends within 3 s -- not a fault mpiwrite can report.
freeze() { for h in netfsA netfsB; do ip -n "$h" link set tnetfs0 down; done; FROZE=$(date +%s%N); }
heal() { for h in netfsA netfsB; do ip -n "$h" link set tnetfs0 up; done; }
since_freeze() { echo $((($(date +%s%N) - FROZE) / 1000000)); }
# Healed when, on every host's FUSE client, the last event of each brick connection is
# "Connected" (a client that was idle through the freeze never disconnected). Up to 30 s.
wait_healed() {
  local i log c ok
  for ((i = 0; i < 300; i++)); do
    ok=1
    for log in "$TESTBED"/hosts/{netfshead,netfsC,netfsD}/log/fuse.log; do
      for c in 0 1; do
        grep "conn-name=netfs-client-${c}[},]" "$log" | tail -n 1 | grep -q "Connected, attached" || ok=0
      done
    done
    [ "$ok" -eq 1 ] && return 0
    sleep 0.1
  done
  fail "the FUSE clients did not reconnect within 30 s of the heal"
}
# PIDs of mpiwrite/orted/prted inside the client hosts (recorded while alive: a zombie whose
# thread still waits in FUSE has lost its namespace links).
job_pids() {
  local h p
  for h in netfsC netfsD; do
    for p in $(ip netns pids "$h"); do
      case $(cat "/proc/$p/comm" 2>/dev/null) in mpiwrite | orted | prted) echo "$p" ;; esac
    done
  done
}
# Waits up to 20 s until none of PIDS is left; prints how long after the freeze.
wait_gone() {
  local i p left
  for ((i = 0; i < 200; i++)); do
    left=""
    for p in "$@"; do
      case $(cat "/proc/$p/comm" 2>/dev/null) in mpiwrite | orted | prted) left+="$p " ;; esac
    done
    [ -z "$left" ] && { note "no mpiwrite/orted/prted left on netfsC/netfsD $(since_freeze) ms after the freeze"; return 0; }
    sleep 0.1
  done
  ps -o pid,stat,comm -p "${left// /,}" >&2 || true
  fail "processes left 20 s later: $left"
}
# run_frozen DIR [mpiwrite options]: starts 4 ranks writing 400 files, freezes the network
# once 50 are there (mid-run), waits for mpirun. Sets STATUS, TOOK_MS (freeze -> mpirun's end),
# PIDS (the job's processes on the client hosts).
run_frozen() {
  local out=$1 i
  shift
  set +e
  timeout --kill-after=5 60 mpirun --hostfile "$TESTBED/hostfile" -np 4 --map-by node \
    "$MPIWRITE" -d "$out" -n 400 "$@" >"$WORK/out" 2>"$WORK/err" &
  local job=$!
  for ((i = 0; i < 300; i++)); do
    [ "$(find "$out" -name 'write*.txt' 2>/dev/null | wc -l)" -ge 50 ] && break
    sleep 0.05
  done
  PIDS=$(job_pids)
  freeze
  wait "$job"
  STATUS=$?
  TOOK_MS=$(since_freeze)
  set -e
  # timeout's 124/137 (mpiwrite's watchdog also exits 124: told apart by the time taken)
  [ "$STATUS" -ne 137 ] && [ "$TOOK_MS" -lt 55000 ] || { cat "$WORK/err" >&2; fail "mpirun hung with the network frozen: $*"; }
}
TIMEOUT_S=4   # the unfrozen run needs about 1-2 s (checked below: it passes with the same limit)
# The ping timeout for each check: first the test's 2 s (no --timeout: the client's error
# ends the run), then 8 s (set while the clients run; raising it takes effect, measured),
# so that the watchdog, whose limit ends about 3.5 s after the freeze, speaks first.
ping_timeout() {
  nsenter --net=/run/netns/netfsA --uts="$TESTBED/ns/uts-netfsA" --mount="$TESTBED/ns/mnt-netfsA" -- \
    timeout 30 gluster --mode=script volume set netfs network.ping-timeout "$1" >/dev/null ||
    fail "gluster volume set network.ping-timeout $1"
}

note "network frozen mid-run, no --timeout: the client's error after the ping timeout, exit 1, no hang"
t0=$(date +%s%N)
run_frozen "$DATA/frozen2"
note "mpirun ended $TOOK_MS ms after the freeze with exit $STATUS (ping timeout $NETFS_PING_TIMEOUT s)"
grep '^mpiwrite: error:' "$WORK/err" | head -n 4
expect_status 1
n=$(error_lines)
[ "$n" -ge 1 ] && [ "$n" -le 4 ] || { cat "$WORK/err" >&2; fail "$n error lines, expected one per failing rank (1-4)"; }
grep '^mpiwrite: error:' "$WORK/err" |
  grep -v -E "^mpiwrite: error: rank [0-3]: $DATA/frozen2/write[0-9]+\.txt: [a-z]+: Transport endpoint is not connected$" &&
  fail "an error line lacks the rank, the file's path or strerror (ENOTCONN)"
[ "$TOOK_MS" -le 20000 ] || fail "the job ended $TOOK_MS ms after the freeze: the ping timeout is $NETFS_PING_TIMEOUT s"
# shellcheck disable=SC2086
wait_gone $PIDS
heal
wait_healed
note "healed $(since_freeze) ms after the freeze; this check took $((($(date +%s%N) - t0) / 1000000)) ms"

ping_timeout 8
note "network to the servers frozen mid-run (ping timeout 8 s), --timeout $TIMEOUT_S: the stuck ranks named, the job over near the limit"
t0=$(date +%s%N)
run_frozen "$DATA/frozen1" --timeout "$TIMEOUT_S"
note "mpirun ended $TOOK_MS ms after the freeze with exit $STATUS"
grep '^mpiwrite: error:' "$WORK/err" | head -n 4
expect_status 124
# A stuck rank names itself and its step; a rank waiting for it may say so too ("waited for").
n=$(grep -c -E "^mpiwrite: error: rank [0-3] \(netfs[CD]\): the write phase( of [0-9]+x[0-9]+ (rep|warm-up) [0-9]+)? has not finished after $TIMEOUT_S s \(--timeout $TIMEOUT_S\); aborting the job$" "$WORK/err" || true)
[ "$n" -ge 1 ] || { cat "$WORK/err" >&2; fail "no stuck rank named itself"; }
w=$(grep -c -E "^mpiwrite: error: rank [0-3] \(netfs[CD]\): .* has not finished after $TIMEOUT_S s \(--timeout $TIMEOUT_S\); (waited [^;]*; )?aborting the job$" "$WORK/err" || true)
[ "$(error_lines)" -eq "$w" ] || { cat "$WORK/err" >&2; fail "error lines other than the watchdog's"; }
[ "$TOOK_MS" -le $(((TIMEOUT_S + 4) * 1000)) ] || fail "the job ended $TOOK_MS ms after the freeze: not near the ${TIMEOUT_S} s limit"
# The stuck ranks outlive mpirun: each waits in a FUSE call the kernel cannot interrupt, until
# glusterfs answers it (with ENOTCONN after the ping timeout, here 8 s: measured, all gone
# 16.8 s after the freeze) or the network is back. Healed at once: they must then go.
left=0
for p in $PIDS; do [ "$(cat "/proc/$p/comm" 2>/dev/null)" = mpiwrite ] && left=$((left + 1)); done
note "$left rank process(es) still stuck in FUSE when mpirun ended; healing the network"
heal
# shellcheck disable=SC2086
wait_gone $PIDS
wait_healed
note "healed: every FUSE client reconnected $(since_freeze) ms after the freeze; this check took $((($(date +%s%N) - t0) / 1000000)) ms"

# The point is that the next run passes, not how fast: a loaded CI machine took over 4 s for
# these 400 files, so the limit here is generous. One write per file (--write-mode whole, the
# same 100 lines): 100 line writes each through FUSE took 21 s on a loaded 2-core VM.
note "after the heal the next run passes (--timeout 60): exit 0, files exact"
t0=$(date +%s%N)
run_on_clients -d "$DATA/healed" -n 400 --write-mode whole --timeout 60
expect_status 0
expect_files "$DATA/healed" 400 100 "Hello, world!"
note "took $((($(date +%s%N) - t0) / 1000000)) ms"
rm -rf "$DATA/frozen1" "$DATA/frozen2" "$DATA/healed"

note "a brick server killed mid-run: exit 1, each failing rank names its path and strerror, no hang"
# At 2 ms RTT 4 ranks need several seconds for 2,000 files: the brick of netfsA dies in between.
# Files that hash to it then fail (the distribute volume has no copy); the others succeed.
"$CLUSTER/netfs-rtt.sh" "$TESTBED" 2000
set +e
SECONDS=0
timeout --kill-after=5 60 mpirun --hostfile "$TESTBED/hostfile" -np 4 --map-by node \
  "$MPIWRITE" -d "$DATA/fault" -n 2000 --write-mode whole >"$WORK/out" 2>"$WORK/err" &
job=$!
# The brick dies once the run writes: a fixed 2 s was before mpiwrite had made its directory
# on a loaded machine (mpirun's start alone took that), and the run then failed at its mkdir
# with no rank in the line, or had not begun and succeeded.
for _ in $(seq 300); do
  [ -z "$(find "$DATA/fault" -maxdepth 1 -type f -print -quit 2>/dev/null)" ] || break
  sleep 0.1
done
brick=$(awk '$2 == "glusterfsd@netfsA" {print $1}' "$TESTBED/pids")
[ "$(cat "/proc/$brick/comm" 2>/dev/null)" = glusterfsd ] || fail "no brick process of netfsA to kill"
kill -KILL "$brick"
wait "$job"
STATUS=$?
set -e
took=$SECONDS
note "ended after $took s with exit $STATUS"
[ "$STATUS" -ne 124 ] && [ "$STATUS" -ne 137 ] || { cat "$WORK/err" >&2; fail "the run hung after the brick died"; }
expect_status 1
n=$(error_lines)
[ "$n" -ge 1 ] && [ "$n" -le 4 ] || { cat "$WORK/err" >&2; fail "$n error lines, expected one per failing rank (1-4)"; }
grep '^mpiwrite: error:' "$WORK/err" |
  grep -v -E "^mpiwrite: error: rank [0-3]: $DATA/fault/write[0-9]+\.txt: [a-z]+: [A-Z][a-z]" &&
  fail "an error line lacks the rank, the file's path or strerror"
grep '^mpiwrite: error:' "$WORK/err" | head -n 4
[ "$took" -le 30 ] || fail "the run took $took s after the brick died: too long"
# What is still reachable (on netfsB's brick) is whole: a file that failed is not left half-written.
bad=$(find "$DATA/fault" -type f ! -size 1400c 2>/dev/null | head -n 3)
[ -z "$bad" ] || fail "incomplete files left after the fault: $bad"
"$CLUSTER/netfs-rtt.sh" "$TESTBED" 0

t0=$(date +%s%N)
rm -rf "$DATA" 2>/dev/null || true   # half of it is on the dead brick
if [ -z "$SHARED_BED" ]; then
  "$CLUSTER/netfs-down.sh" "$TESTBED" || fail "netfs-down.sh left something behind"
  note "testbed down in $((($(date +%s%N) - t0) / 1000000)) ms"
fi
echo "PASS"
