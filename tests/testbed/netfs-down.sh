#!/usr/bin/env bash
# Removes the testbed of tests/testbed/netfs-up.sh DIR, leaving nothing behind:
#  1. unmounts every FUSE mount (head and client hosts) and stops the FUSE clients by PID;
#  2. stops the bricks (glusterfsd) and glusterds by PID;
#  3. kills, by PID, anything still inside one of the hosts (a hung job's orted and ranks);
#  4. stops netdelay by PID, unmounts the brick file systems (their loop devices go with them),
#     removes the namespaces, the TUN device, the /etc/hosts lines, and DIR.
# "By PID": each from DIR/pids, and only if that process still runs the program it was
# (a stale file must not kill a stranger); TERM, KILL after 5 s.
# Safe to re-run and after a half-finished netfs-up.sh. KEEP_LOGS=1 keeps DIR/hosts/*/log.
# Exit status 0 when nothing is left, 1 otherwise (it says what).
set -uo pipefail
dir=${1:?usage: netfs-down.sh DIR}
ifname=tnetfs0
mnt=/mnt/netfs
hosts=(netfsA netfsB netfsC netfsD)
marker="# mpiwrite-netfs-test"
status=0
start=$(date +%s%N)

inhost() {
  local h=$1
  shift
  nsenter --net="/run/netns/$h" --uts="$dir/ns/uts-$h" --mount="$dir/ns/mnt-$h" -- "$@"
}
# PIDs recorded for WHAT (a prefix of the name in DIR/pids) whose program is still PROGRAM.
pids_of() {
  local pid what
  [ -f "$dir/pids" ] || return 0
  while read -r pid what; do
    case $what in "$1"*) [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$2" ] && echo "$pid" ;; esac
  done <"$dir/pids"
}
stop_pids() {   # TERM, wait up to 5 s, KILL
  local left i
  [ $# -gt 0 ] || return 0
  kill -TERM "$@" 2>/dev/null
  for ((i = 0; i < 50; i++)); do
    left=$(for p in "$@"; do kill -0 "$p" 2>/dev/null && echo "$p"; done)
    [ -z "$left" ] && return 0
    sleep 0.1
  done
  echo "netfs-down: still alive after 5 s, KILL: $(tr '\n' ' ' <<<"$left")" >&2
  # shellcheck disable=SC2086
  kill -KILL $left 2>/dev/null
  sleep 0.2
}
unmount() {   # unmount [ENTER COMMAND...]: /mnt/netfs where the command enters
  # umount waits for the FUSE client; if that does not answer within 5 s, detach lazily.
  "$@" /bin/sh -c "mountpoint -q $mnt || exit 0; timeout -k 1 5 umount $mnt 2>/dev/null || umount -l $mnt"
}

# 0. A network frozen by a test (tests/cluster/netfs.sh: the servers' links down, or netdelay
# stopped) is thawed first: FUSE requests waiting for a server are answered, so nothing below
# waits on them, and a stopped netdelay takes the TERM below.
for h in netfsA netfsB; do [ -e "/run/netns/$h" ] && ip -n "$h" link set "$ifname" up 2>/dev/null; done
# shellcheck disable=SC2046
[ -z "$(pids_of netdelay netdelay)" ] || kill -CONT $(pids_of netdelay netdelay) 2>/dev/null

# 1. FUSE clients: after the unmount the client exits by itself; stop it anyway.
unmount env
for h in netfsC netfsD; do [ -e "$dir/ns/mnt-$h" ] && unmount inhost "$h"; done
# shellcheck disable=SC2046
stop_pids $(pids_of glusterfs@ glusterfs)

# 2. The bricks and the glusterds, all at once: the volume is thrown away with its bricks, so
# there is nothing to stop cleanly (`gluster volume stop` would add 2 s, stopping them one after
# the other 2 s more); glusterfsd and glusterd shut down on TERM.
# shellcheck disable=SC2046
stop_pids $(pids_of glusterfsd@ glusterfsd) $(pids_of glusterd@ glusterd)

# 3. Whatever still runs inside a host is the testbed's (only it and its jobs live there).
for h in "${hosts[@]}"; do
  [ -e "/run/netns/$h" ] || continue
  left=$(ip netns pids "$h" 2>/dev/null | tr '\n' ' ')
  [ -z "$left" ] || { echo "netfs-down: stopping processes left in $h: $left" >&2; # shellcheck disable=SC2086
    stop_pids $left; }
done
# shellcheck disable=SC2046
stop_pids $(pids_of netdelay netdelay)

# 4. Bricks, namespaces, TUN device, /etc/hosts, loop devices, DIR.
for h in netfsA netfsB; do
  [ -e "$dir/ns/mnt-$h" ] && nsenter --mount="$dir/ns/mnt-$h" -- /bin/sh -c 'mountpoint -q /srv && umount /srv' 2>/dev/null
done
for h in "${hosts[@]}"; do
  for kind in mnt uts; do
    f=$dir/ns/$kind-$h
    [ -e "$f" ] && { umount "$f" 2>/dev/null; rm -f "$f"; }
  done
  [ ! -e "/run/netns/$h" ] || ip netns del "$h" || status=1
done
ip link del "$ifname" 2>/dev/null
mountpoint -q "$dir/ns" 2>/dev/null && umount "$dir/ns"
for img in "$dir"/hosts/*.xfs; do
  [ -e "$img" ] || continue
  for loop in $(losetup -j "$img" -O NAME -n 2>/dev/null); do losetup -d "$loop" 2>/dev/null; done
done
if grep -q -- "$marker\$" /etc/hosts; then
  # Rewritten in place: /etc/hosts may be a bind mount, where sed -i's rename fails.
  tmp=$(mktemp) && grep -v -- "$marker\$" /etc/hosts >"$tmp"
  cat "$tmp" >/etc/hosts || status=1
  rm -f "$tmp"
fi
if [ "${KEEP_LOGS:-0}" = 1 ]; then
  rm -rf "$dir/ns" "$dir/netdelay" "$dir/pids" "$dir"/hosts/*.xfs
else
  rm -rf "$dir"
fi
rmdir "$mnt" 2>/dev/null

# Verify.
for h in "${hosts[@]}"; do
  [ ! -e "/run/netns/$h" ] || { echo "netfs-down: namespace $h is still there" >&2; status=1; }
done
! ip link show "$ifname" >/dev/null 2>&1 || { echo "netfs-down: $ifname is still there" >&2; status=1; }
! grep -q -e " $mnt " -e " ${dir}[/ ]" /proc/self/mountinfo || { echo "netfs-down: something is still mounted" >&2; status=1; }
! losetup -a 2>/dev/null | grep -qF "$dir/" || { echo "netfs-down: a loop device is still attached" >&2; status=1; }
! grep -q -- "$marker\$" /etc/hosts || { echo "netfs-down: /etc/hosts still has test lines" >&2; status=1; }
echo "netfs-down: done in $((($(date +%s%N) - start) / 1000000)) ms"
exit $status
