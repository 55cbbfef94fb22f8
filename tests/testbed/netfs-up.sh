#!/usr/bin/env bash
# A real networked file system on this machine, as root: GlusterFS across emulated hosts.
#
#   netfshead 10.78.0.1   this machine's own namespaces: FUSE mount of the volume at /mnt/netfs
#   netfsA    10.78.0.11  server: glusterd + brick 10.78.0.11:/srv/brick (XFS on a loop file)
#   netfsB    10.78.0.12  server: glusterd + brick 10.78.0.12:/srv/brick
#   netfsC    10.78.0.21  client (compute) host: its own FUSE mount at /mnt/netfs
#   netfsD    10.78.0.22  client (compute) host: its own FUSE mount at /mnt/netfs
#
# One distribute volume "netfs" over both bricks. Every host but the head has its own network,
# UTS and mount namespace, so each sees its own mount at the same path (--dir is one path for
# all ranks) and the two glusterds do not collide (each gets its own /run, /var/lib/glusterd and
# /var/log/glusterfs, bind mounts of DIR/hosts/H/...). The kernel here has no sch_netem, so the
# hosts are joined by TUN devices served by tests/testbed/netdelay.c (compiled into DIR), a
# user-space switch that holds each packet for RTT/2: tests/testbed/netfs-rtt.sh DIR US
# changes the round-trip time while everything runs. Only 10.78.0.0/24 is reachable inside.
#
# Usage: tests/testbed/netfs-up.sh DIR    (DIR: absolute, must not exist yet or be empty)
#   mpirun: OMPI_MCA_plm_rsh_agent=tests/testbed/netns-rsh with NETNS_STATE=DIR/ns, hostfile
#   DIR/hostfile (netfsC, netfsD); commands on a host: NETNS_STATE=DIR/ns netns-exec netfsC ...
#   tests/testbed/netfs-down.sh DIR       (stops every daemon by PID; safe to re-run)
# Environment: RTT_US (default 0), NETFS_PING_TIMEOUT (the volume's network.ping-timeout in s,
# default 10: a dead server is noticed within seconds, not Gluster's 42 s).
# Every daemon's PID is in DIR/pids ("PID what"). If any step fails, netfs-down.sh removes
# what was made and the exit status is 1. Packages: tools/install-deps.sh --test.
# Recipe, measurements and pitfalls: docs/cluster.md and ../shared/notes/netfs-gluster.md.
set -euo pipefail

dir=${1:?usage: netfs-up.sh DIR (absolute)}
case $dir in /*) ;; *) echo "netfs-up: DIR must be absolute: $dir" >&2; exit 2 ;; esac
[ "$(id -u)" -eq 0 ] || { echo "netfs-up: must run as root" >&2; exit 2; }
for tool in glusterd glusterfs gluster mkfs.xfs cc ip nsenter unshare; do
  command -v "$tool" >/dev/null || { echo "netfs-up: $tool not found (tools/install-deps.sh --test)" >&2; exit 2; }
done
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)   # this repository (netns-rsh, a build tree inside it)
net=10.78.0
ifname=tnetfs0
vol=netfs
mnt=/mnt/netfs
servers=(netfsA netfsB)
clients=(netfsC netfsD)
marker="# mpiwrite-netfs-test"
declare -A addr=([netfshead]=$net.1 [netfsA]=$net.11 [netfsB]=$net.12 [netfsC]=$net.21 [netfsD]=$net.22)

# One testbed at a time: the names, the subnet and /mnt/netfs are fixed.
if ip link show "$ifname" >/dev/null 2>&1 || [ -e /run/netns/netfsA ] || mountpoint -q "$mnt" 2>/dev/null; then
  echo "netfs-up: a netfs testbed exists already (tests/testbed/netfs-down.sh <its DIR>)" >&2
  exit 2
fi
[ ! -e "$dir/pids" ] || { echo "netfs-up: $dir/pids exists: run netfs-down.sh $dir first" >&2; exit 2; }

start=$(date +%s%N)
# From here on a failure (set -e: any command, also inside a function) removes everything made
# so far: the EXIT trap, disarmed at the end. (An ERR trap would miss failures in functions.)
remove_on_failure() {
  local status=$?
  [ "$status" -eq 0 ] && return 0
  echo "netfs-up: failed (exit $status), removing the testbed" >&2
  "$here/netfs-down.sh" "$dir" >&2 || true
  exit 1
}
trap remove_on_failure EXIT
mkdir -p "$dir/ns" "$dir/hosts" "$mnt"
: >"$dir/pids"
cc -O2 -Wall -Wextra -o "$dir/netdelay" "$here/netdelay.c"

# Namespace files (unshare --uts=FILE / --mount=FILE) must be on a private mount, or the
# kernel refuses to bind a mount namespace there.
mountpoint -q "$dir/ns" || { mount --bind "$dir/ns" "$dir/ns" && mount --make-private "$dir/ns"; }

# ---- network: one TUN device per host, switched (and delayed) by netdelay ----------------
ip tuntap add dev "$ifname" mode tun   # the head: this machine's namespace
sysctl -qw "net.ipv6.conf.$ifname.disable_ipv6=1"
ip addr add "${addr[netfshead]}/24" dev "$ifname"
ip link set "$ifname" up
ports=("/proc/self/ns/net:$ifname:${addr[netfshead]}")
for h in "${servers[@]}" "${clients[@]}"; do
  ip netns add "$h"
  ip netns exec "$h" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
  ip -n "$h" link set lo up   # Open MPI's orted talks to its ranks over 127.0.0.1
  ip -n "$h" tuntap add dev "$ifname" mode tun
  ip -n "$h" addr add "${addr[$h]}/24" dev "$ifname"   # no default route: the subnet only
  ip -n "$h" link set "$ifname" up
  touch "$dir/ns/uts-$h"
  unshare --uts="$dir/ns/uts-$h" hostname "$h"
  ports+=("/run/netns/$h:$ifname:${addr[$h]}")
done
echo $((${RTT_US:-0} / 2)) >"$dir/delay_us"
# setsid: netdelay is stopped by PID by netfs-down.sh, not by a signal to the caller's group.
setsid "$dir/netdelay" -f "$dir/delay_us" "${ports[@]}" </dev/null >"$dir/netdelay.log" 2>&1 &
echo "$! netdelay" >>"$dir/pids"

# /etc/hosts is rewritten in place (it may be a bind mount, where sed -i's rename fails).
tmp=$(mktemp)
{ grep -v -- "$marker\$" /etc/hosts || true
  for h in netfshead "${servers[@]}" "${clients[@]}"; do echo "${addr[$h]} $h  $marker"; done; } >"$tmp"
cat "$tmp" >/etc/hosts
rm -f "$tmp"

# ---- a private mount namespace per host, made before the head mounts anything ------------
# mkns HOST RUN [SHELL COMMANDS]: the new namespace gets its own /var/lib/glusterd (with the
# package's groups/ and hooks/) and /var/log/glusterfs, and with RUN=own its own /run (glusterd's
# socket and PID files; only the servers: on a client host /run must stay this machine's, where
# /run/netns lets Open MPI's rsh agent reach the other hosts), then runs the commands inside it.
# With RUN=own-tmp (the clients) the host keeps this machine's /run but gets its own /tmp
# (DIR/hosts/HOST/tmp), as a real compute node has: what Open MPI (/tmp/ompi.HOST.UID session directories) and Slurm's PMIx plugin
# (/tmp/spmix_appdir_UID_JOB.STEP, the same name on every node of a job) leave there is the
# host's and goes with DIR. What the jobs need from this machine's /tmp stays visible at its
# own path inside it: DIR's parent (the caller's scratch: a report written with -o there, a
# Slurm cluster's config and munge socket), this repository (netns-rsh, which the orteds on
# the hosts call too, and a build tree inside it: CI clones under /tmp), and the paths of
# NETFS_VISIBLE (colon-separated, e.g. the directory of the mpiwrite binary).
mkns() {
  local h=$1 d=$dir/hosts/$1 run="" tmp="" parent rel
  mkdir -p "$d/run/gluster" "$d/lib" "$d/log"
  chown gluster:gluster "$d/run/gluster" 2>/dev/null || true
  cp -a /var/lib/glusterd/groups /var/lib/glusterd/hooks "$d/lib/" 2>/dev/null || true
  case $2 in
    own) run="mount --bind '$d/run' /run" ;;
    own-tmp)
      mkdir -p "$d/tmp"
      chmod 1777 "$d/tmp"
      local visible=() bound=() path seen
      IFS=: read -r -a visible <<<"$(dirname "$dir"):$repo${NETFS_VISIBLE:+:$NETFS_VISIBLE}"
      for path in "${visible[@]}"; do
        case $path in /tmp/?*) ;; *) continue ;; esac
        for seen in "${bound[@]}"; do
          case $path/ in "$seen"/*) continue 2 ;; esac   # inside one bound already
        done
        bound+=("$path")
        # bound at the same path inside the host's /tmp, before /tmp is replaced
        rel=${path#/tmp/}
        mkdir -p "$d/tmp/$rel"
        tmp+="mount --bind '$path' '$d/tmp/$rel'; "
      done
      tmp+="mount --rbind '$d/tmp' /tmp" ;;
  esac
  touch "$dir/ns/mnt-$h"
  unshare --mount="$dir/ns/mnt-$h" --propagation private /bin/sh -ec "
    $run
    $tmp
    mount --bind '$d/lib' /var/lib/glusterd
    mount --bind '$d/log' /var/log/glusterfs
    ${3:-true}"
}
inhost() {
  local h=$1
  shift
  nsenter --net="/run/netns/$h" --uts="$dir/ns/uts-$h" --mount="$dir/ns/mnt-$h" -- "$@"
}
# wait_for SECONDS COMMAND...: polls every 0.1 s.
wait_for() {
  local i limit=$(($1 * 10))
  shift
  for ((i = 0; i < limit; i++)); do "$@" >/dev/null 2>&1 && return 0; sleep 0.1; done
  echo "netfs-up: gave up waiting for: $*" >&2
  return 1
}
pid_of_file() { [ -s "$1" ] && cat "$1"; }

for h in "${servers[@]}"; do
  # A sparse 2 GiB XFS brick (-i size=512: room for Gluster's extended attributes).
  truncate -s 2G "$dir/hosts/$h.xfs"
  mkfs.xfs -q -i size=512 "$dir/hosts/$h.xfs"
  mkns "$h" own "mount -o loop,noatime '$dir/hosts/$h.xfs' /srv && mkdir -p /srv/brick"
done
for h in "${clients[@]}"; do mkns "$h" own-tmp; done

# ---- servers: glusterd in each, then the volume ----------------------------------------
for h in "${servers[@]}"; do
  inhost "$h" glusterd -p /run/gluster/glusterd.pid -l /var/log/glusterfs/glusterd.log
  wait_for 10 pid_of_file "$dir/hosts/$h/run/gluster/glusterd.pid"
  echo "$(cat "$dir/hosts/$h/run/gluster/glusterd.pid") glusterd@$h" >>"$dir/pids"
done
# The gluster CLI talks to glusterd over its unix socket: it runs inside netfsA.
gl() { inhost netfsA timeout 60 gluster --mode=script "$@"; }
wait_for 20 gl peer status
gl peer probe "${addr[netfsB]}" >/dev/null
peer_connected() { gl peer status | grep -q 'Peer in Cluster (Connected)'; }
wait_for 20 peer_connected
gl volume create "$vol" transport tcp "${addr[netfsA]}:/srv/brick" "${addr[netfsB]}:/srv/brick" >/dev/null
gl volume set "$vol" network.ping-timeout "${NETFS_PING_TIMEOUT:-10}" >/dev/null
gl volume start "$vol" >/dev/null
for h in "${servers[@]}"; do   # the brick processes (glusterfsd)
  wait_for 10 compgen -G "$dir/hosts/$h/run/gluster/vols/$vol/*.pid"
  for f in "$dir/hosts/$h/run/gluster/vols/$vol/"*.pid; do
    wait_for 10 pid_of_file "$f"
    echo "$(cat "$f") glusterfsd@$h" >>"$dir/pids"
  done
done

# ---- FUSE clients: the head, then each client host ---------------------------------------
# glusterfs itself (not mount -t glusterfs) so that its PID file is ours.
fuse_mount() {   # fuse_mount HOST [ENTER COMMAND...]
  local h=$1 d=$dir/hosts/$1
  shift
  mkdir -p "$d/log"
  "$@" glusterfs --volfile-server="${addr[netfsA]}" --volfile-id="$vol" \
    --pid-file="$d/glusterfs.pid" --log-file="$d/log/fuse.log" "$mnt"
  wait_for 10 pid_of_file "$d/glusterfs.pid"
  echo "$(cat "$d/glusterfs.pid") glusterfs@$h" >>"$dir/pids"
}
mounted() { [ "$(stat -f -c %T "$mnt" 2>/dev/null)" = fuseblk ] && ls "$mnt"; }
fuse_mount netfshead env
wait_for 20 mounted
for h in "${clients[@]}"; do
  fuse_mount "$h" inhost "$h"
  wait_for 20 inhost "$h" /bin/sh -c "[ \"\$(stat -f -c %T $mnt)\" = fuseblk ] && ls $mnt"
done

printf '%s slots=4\n' "${clients[@]}" >"$dir/hostfile"
trap - EXIT
printf 'netfs-up: volume %s on %s and %s, mounted at %s on netfshead, %s; RTT %s us; up in %d ms\n' \
  "$vol" "${servers[@]}" "$mnt" "${clients[*]}" "${RTT_US:-0}" $((($(date +%s%N) - start) / 1000000))
