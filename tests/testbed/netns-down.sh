#!/usr/bin/env bash
# Removes what tests/testbed/netns-up.sh made: kills, by PID, every process still inside
# the emulated hosts (a hung job's orted and ranks), deletes their network namespaces (the
# veth pair goes with them), unmounts and deletes the UTS namespace files and removes the
# marked /etc/hosts lines. Safe to re-run, and after a half-finished netns-up.sh.
# Exit status 0 when nothing is left, 1 otherwise (it says what).
set -uo pipefail
state=${NETNS_STATE:-/run/mpiwrite-netns}
hosts=(mpihostA mpihostB)
marker="# mpiwrite-netns-test"
status=0

for h in "${hosts[@]}"; do
  if [ -e "/run/netns/$h" ]; then
    pids=$(ip netns pids "$h" 2>/dev/null | paste -sd' ' -)
    if [ -n "$pids" ]; then
      echo "netns-down: stopping processes left in $h: $pids" >&2
      # shellcheck disable=SC2086
      kill -TERM $pids 2>/dev/null
      for ((i = 0; i < 20; i++)); do [ -z "$(ip netns pids "$h" 2>/dev/null)" ] && break; sleep 0.1; done
      pids=$(ip netns pids "$h" 2>/dev/null | paste -sd' ' -)
      # shellcheck disable=SC2086
      [ -z "$pids" ] || { kill -KILL $pids 2>/dev/null; sleep 0.2; }
    fi
    ip netns del "$h" || status=1
  fi
  ip link del "veth-$h" 2>/dev/null   # only there if netns-up.sh stopped half-way
  if [ -e "$state/uts-$h" ]; then
    umount "$state/uts-$h" 2>/dev/null
    rm -f "$state/uts-$h" || status=1
  fi
done
if grep -q -- "$marker\$" /etc/hosts; then
  # Rewritten in place: /etc/hosts may be a bind mount, where sed -i's rename fails.
  tmp=$(mktemp) && grep -v -- "$marker\$" /etc/hosts >"$tmp"
  cat "$tmp" >/etc/hosts || status=1
  rm -f "$tmp"
fi
rmdir "$state" 2>/dev/null

# Verify.
for h in "${hosts[@]}"; do
  [ ! -e "/run/netns/$h" ] || { echo "netns-down: namespace $h is still there" >&2; status=1; }
  ! ip link show "veth-$h" >/dev/null 2>&1 || { echo "netns-down: veth-$h is still there" >&2; status=1; }
  ! grep -q " $state/uts-$h " /proc/self/mountinfo || { echo "netns-down: $state/uts-$h is still mounted" >&2; status=1; }
done
! grep -q -- "$marker\$" /etc/hosts || { echo "netns-down: /etc/hosts still has test lines" >&2; status=1; }
exit $status
