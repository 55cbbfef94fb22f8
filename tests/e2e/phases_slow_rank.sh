#!/usr/bin/env bash
# Two of issue 23's leftovers, each run checking both (one launch per engine: CI's time):
#  (a) --slow-rank 1 --slow-delay-us D delays every item of every phase on rank 1, not only the
#      write phase's files: in each phase (tree-create, write, stat, read, remove, tree-remove)
#      the slowest rank took at least its items x D (uring: over its queue depth, here 2) and
#      the phase's imbalance is > 1;
#  (b) without --cleanup, a --dir this run made, whose remove phase removed every file, is gone
#      afterwards with every directory the run made in it (posix: the tree went by tree-remove;
#      uring: no tree-remove, so the layout's empty directories go at the run's end), while the
#      report written outside stays. A --dir that was there before, and a directory holding a
#      file the run did not write, stay: phases_life.sh (b).
# Usage: phases_slow_rank.sh RANKS (registered for 2: rank 1 slow against rank 0).
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
[ "$RANKS" -ge 2 ] || fail "usage: phases_slow_rank.sh RANKS (at least 2)"

F=6            # files per rank
DELAY=50000    # µs per item on rank 1: 3 tree directories + 4 x 6 files + 3 = 1.5 s
tree=(--layout rank --tree-depth 1 --branch 2)  # rank<r> and rank<r>/t0, t1: 3 per rank

# Each phase of the JSON report $1: the slowest rank's own time covers rank 1's items x D
# (sleeps and timeouts never end early; uring's queue depth Q overlaps Q items' delays, as its
# write phase's), and imbalance > 1.
check_slow() {
  python3 - "$1" "$F" "$DELAY" <<'PY' || fail "$1: $(head -c 2000 "$1")"
import json, sys
report, files, delay_s = json.load(open(sys.argv[1])), int(sys.argv[2]), int(sys.argv[3]) / 1e6
depth = report["points"][0]["queue_depth"]
phases = report["points"][0]["repetitions"][0]["phases"]
assert set(phases) == set(report["config"]["phases"]), (list(phases), report["config"]["phases"])
for name, p in phases.items():
    # rank 1's items: its own tree (3 directories), its files (6), or another rank's (stat, read)
    items = 3 if name.startswith("tree") else files
    rounds = -(-items // depth)
    assert p["slowest_rank_s"] >= rounds * delay_s, (name, p["slowest_rank_s"], rounds * delay_s)
    assert p["imbalance"] > 1 and p["fastest_rank_s"] < p["slowest_rank_s"], (name, p)
print("every phase slowed on rank 1:", {n: round(p["imbalance"], 1) for n, p in phases.items()})
PY
}

note "(a)+(b) posix: every phase, --dir made by the run, rank 1 slowed by $DELAY us per item"
D=$WORK/made-posix
run_mpiwrite -d "$D" --phases tree-create,write,stat,read,remove,tree-remove "${tree[@]}" \
  --files-per-rank "$F" --slow-rank 1 --slow-delay-us "$DELAY" --format json \
  -o "$WORK/posix.json"
expect_status 0
check_slow "$WORK/posix.json"
[ ! -e "$D" ] || fail "(b) posix: the emptied --dir the run made is left: $(find "$D" | head -5)"

note "(a)+(b) uring: no tree-remove, --dir made by the run, rank 1 slowed"
if ! uring_built; then
  skip_uring_case "uring"
  exit 0
fi
D=$WORK/made-uring
run_mpiwrite -d "$D" --phases tree-create,write,stat,read,remove "${tree[@]}" \
  --files-per-rank "$F" --slow-rank 1 --slow-delay-us "$DELAY" --engine uring -q 2 --format json \
  -o "$WORK/uring.json"
if [ "$STATUS" -eq 2 ] && grep -Eq "cannot run here|built without io_uring" "$WORK/err"; then
  echo "SKIP (uring part only): $(cat "$WORK/err")"
  exit 0
fi
expect_status 0
check_slow "$WORK/uring.json"
[ ! -e "$D" ] || fail "(b) uring: the emptied --dir and its layout are left: $(find "$D" | head -5)"
echo "phases_slow_rank: ok"
