#!/usr/bin/env bash
# One GlusterFS testbed (tests/testbed/netfs-up.sh) shared by cluster.netfs_slurm and
# cluster.netfs: CTest's fixture netfs_bed runs `up` before them and `down` after them, also
# when one fails or is killed by its TIMEOUT. Bringing the bed up and down took 10-14 s per
# test; the two tests used the same bed, made the same way.
#
# Usage: tests/cluster/netfs_bed.sh up|down STATE
#   up    makes BED=/tmp/mpiwrite-netfs-XXXXXX, the testbed in BED/netfs (ping timeout 2 s,
#         netfs.sh's), and writes BED's path to STATE. A test then reads STATE (NETFS_SHARED
#         in its environment) and makes its WORK inside BED: BED is what the client hosts see
#         of this machine's /tmp (netfs-up.sh binds DIR's parent), so their ranks and slurmds
#         reach the test's reports, logs and Slurm config there.
#   down  netfs-down.sh BED/netfs, removes BED and STATE; safe when up failed or never ran.
# A reaper (tests/testbed/reaper.sh) ties the bed to the process that ran `up` -- CTest itself,
# or the shell of whoever ran it by hand -- so a CTest killed before `down` leaves nothing.
# Needs root and the packages of tools/install-deps.sh --test (exit 77 without root or
# namespaces, as the tests). Environment (CTest): MPIWRITE (its directory stays visible on the
# client hosts).
set -euo pipefail
action=${1:?usage: netfs_bed.sh up|down STATE}
state=${2:?usage: netfs_bed.sh up|down STATE}
CLUSTER=$(cd "$(dirname "$0")/../testbed" && pwd)
owner=$PPID   # the process the bed lives with (CTest): the reaper watches it

case $action in
  up)
    [ "$(id -u)" -eq 0 ] || { echo "SKIP: the GlusterFS testbed needs root"; exit 77; }
    unshare --net --uts --mount true 2>/dev/null ||
      { echo "SKIP: cannot create namespaces here"; exit 77; }
    { [ -c /dev/fuse ] && [ -c /dev/net/tun ]; } ||
      { echo "SKIP: no /dev/fuse or /dev/net/tun here"; exit 77; }
    : "${MPIWRITE:?set MPIWRITE to the mpiwrite binary}"
    if [ -s "$state" ]; then   # a bed of an earlier run whose down never came
      echo "-- removing the bed of an earlier run: $(cat "$state")"
      "$0" down "$state"
    fi
    bed=$(mktemp -d /tmp/mpiwrite-netfs-XXXXXX)
    chmod 755 "$bed"   # the ranks on the client hosts and munged traverse it
    echo "$bed" >"$state"
    # shellcheck disable=SC2016
    "$CLUSTER/reaper.sh" "$bed/reaper.pid" "$owner" bash -c \
      '"$1" "$2/netfs"; rm -rf "$2" "$3"' reaper-teardown \
      "$CLUSTER/netfs-down.sh" "$bed" "$state" ||
      { echo "FAIL: the reaper did not start" >&2; rm -rf "$bed" "$state"; exit 1; }
    t0=$(date +%s%N)
    # The volume's network.ping-timeout: netfs.sh's 2 s (why there); netfs_slurm needs no other.
    if ! NETFS_PING_TIMEOUT=2 NETFS_VISIBLE=$(dirname "$MPIWRITE") \
      "$CLUSTER/netfs-up.sh" "$bed/netfs"; then
      echo "FAIL: netfs-up.sh could not make the testbed" >&2
      "$0" down "$state"
      exit 1
    fi
    echo "-- shared testbed up in $((($(date +%s%N) - t0) / 1000000)) ms: $bed/netfs"
    ;;
  down)
    [ -s "$state" ] || { echo "-- no shared testbed (up skipped or failed)"; exit 0; }
    bed=$(cat "$state")
    case $bed in
      /tmp/mpiwrite-netfs-?*) ;;
      *) echo "FAIL: $state names no bed: $bed" >&2; exit 1 ;;
    esac
    # Disarm the reaper first (by PID, only if it is still the reaper of this bed): the
    # teardown below is the one.
    if [ -s "$bed/reaper.pid" ]; then
      pid=$(cat "$bed/reaper.pid")
      if tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null |
        grep -q "reaper.sh --child $bed/reaper.pid "; then
        kill -TERM "$pid" 2>/dev/null || true
      fi
    fi
    t0=$(date +%s%N)
    status=0
    [ ! -d "$bed/netfs" ] || "$CLUSTER/netfs-down.sh" "$bed/netfs" ||
      { echo "FAIL: netfs-down.sh left something behind" >&2; status=1; }
    rm -rf "$bed" "$state"
    echo "-- shared testbed down in $((($(date +%s%N) - t0) / 1000000)) ms"
    exit "$status"
    ;;
  *) echo "usage: netfs_bed.sh up|down STATE" >&2; exit 2 ;;
esac
