#!/usr/bin/env bash
# Sets the round-trip time between the hosts of tests/testbed/netfs-up.sh DIR while it runs:
# netdelay holds each packet for RTT/2 in each direction; on SIGHUP it re-reads DIR/delay_us.
# Connections stay up (no reconnects): a running job just sees the new latency.
# Usage: tests/testbed/netfs-rtt.sh DIR RTT_US     (0: no added delay)
set -euo pipefail
dir=${1:?usage: netfs-rtt.sh DIR RTT_US}
rtt=${2:?usage: netfs-rtt.sh DIR RTT_US}
[[ $rtt =~ ^[0-9]+$ ]] || { echo "netfs-rtt: RTT_US must be a whole number of microseconds" >&2; exit 2; }
pid=$(awk '$2 == "netdelay" {print $1}' "$dir/pids")
[ "$(cat "/proc/$pid/comm" 2>/dev/null)" = netdelay ] || { echo "netfs-rtt: netdelay is not running" >&2; exit 1; }
echo $((rtt / 2)) >"$dir/delay_us.tmp" && mv "$dir/delay_us.tmp" "$dir/delay_us"
kill -HUP "$pid"
