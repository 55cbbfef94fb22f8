#!/usr/bin/env bash
# Makes two emulated hosts on this machine for multi-host MPI tests, as root:
#
#   mpihostA  10.77.0.2/24  network namespace mpihostA + its own UTS namespace (hostname)
#   mpihostB  10.77.0.3/24  the same for B
#
# joined by one veth pair (mpihostA:eth0 <-> mpihostB:eth0), loopback up in each, IPv6 off,
# no default route: from inside, only 10.77.0.0/24 is reachable, and nothing in this
# machine's own network namespace changes (no interface, address or route is added there),
# so MPI traffic between the hosts stays on them. The names go into /etc/hosts, marked
# "# mpiwrite-netns-test" (mpirun resolves every hostfile name). The file system, PIDs and
# everything else stay shared: a directory under /tmp is visible to both hosts.
#
# Run a command on a host:   tests/testbed/netns-exec mpihostA hostname
# Open MPI's rsh agent:      OMPI_MCA_plm_rsh_agent=tests/testbed/netns-rsh
# Remove everything:         tests/testbed/netns-down.sh   (safe to re-run; also after a
#                            half-finished netns-up.sh)
# State (the UTS namespace files, bind mounts): $NETNS_STATE, default /run/mpiwrite-netns.
# Needs iproute2 and util-linux (unshare, nsenter), CAP_NET_ADMIN and CAP_SYS_ADMIN.
# Exit status: 0 made, 1 failed (run netns-down.sh), 2 not root or already there.
set -euo pipefail
state=${NETNS_STATE:-/run/mpiwrite-netns}
net=10.77.0
hosts=(mpihostA mpihostB)
marker="# mpiwrite-netns-test"

[ "$(id -u)" -eq 0 ] || { echo "netns-up: must run as root" >&2; exit 2; }
for h in "${hosts[@]}"; do
  if [ -e "/run/netns/$h" ] || ip link show "veth-$h" >/dev/null 2>&1 || [ -e "$state/uts-$h" ]; then
    echo "netns-up: $h exists already (tests/testbed/netns-down.sh removes it)" >&2
    exit 2
  fi
done

mkdir -p "$state"
for h in "${hosts[@]}"; do
  ip netns add "$h"                                   # /run/netns/$h
  ip netns exec "$h" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
  ip -n "$h" link set lo up    # required: each orted talks to its ranks over 127.0.0.1;
                               # with lo down the job hangs without a word
  touch "$state/uts-$h"        # a persistent UTS namespace: nsfs bind-mounted on this file
  unshare --uts="$state/uts-$h" hostname "$h"
done
# The veth pair is made in the root namespace and its ends moved at once; the temporary
# names (veth-mpihostA/B) are what netns-down.sh looks for if this stops half-way.
ip link add "veth-${hosts[0]}" type veth peer name "veth-${hosts[1]}"
i=2
for h in "${hosts[@]}"; do
  ip link set "veth-$h" netns "$h"
  ip -n "$h" link set "veth-$h" name eth0
  ip -n "$h" addr add "$net.$i/24" dev eth0
  ip -n "$h" link set eth0 up
  i=$((i + 1))
done

# /etc/hosts is rewritten in place (it may be a bind mount, where sed -i's rename fails).
tmp=$(mktemp)
{ grep -v -- "$marker\$" /etc/hosts || true
  echo "$net.2 mpihostA  $marker"
  echo "$net.3 mpihostB  $marker"; } >"$tmp"
cat "$tmp" >/etc/hosts
rm -f "$tmp"

echo "netns-up: mpihostA ($net.2) and mpihostB ($net.3) are up"
