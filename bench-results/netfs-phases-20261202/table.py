#!/usr/bin/env python3
"""Per-phase table of the netfs-phases runs: median makespan [min-max] and rate at the median.

Usage: table.py DIR  (reads DIR/*.json, mpiwrite's --format json reports; prints markdown)
"""
import glob
import json
import os
import sys

PHASES = ["tree-create", "write", "stat", "read", "remove", "tree-remove"]


def main(folder):
    print("| run | ranks x threads | phase | items | makespan median [s] | min-max [s] | "
          "rate at median [/s] | p50 / p99 per item [ms] |")
    print("|---|---|---|---|---|---|---|---|")
    for path in sorted(glob.glob(os.path.join(folder, "*.json"))):
        report = json.load(open(path))
        name = os.path.basename(path)[:-5]
        for point in report["points"]:
            shape = f'{point.get("ranks", "?")}x{point.get("threads", "?")}'
            summary = point["summary"]["phases"]
            reps = point["repetitions"]
            for phase in PHASES:
                if phase not in summary:
                    continue
                s = summary[phase]
                items = s.get("files", s.get("directories"))
                m = s["makespan_s"]
                rate = s.get("files_per_s", s.get("directories_per_s"))["at_median"]
                p50 = sorted(r["phases"][phase]["latency_us"]["p50"] for r in reps)
                p99 = sorted(r["phases"][phase]["latency_us"]["p99"] for r in reps)
                mid = len(reps) // 2
                print(f'| {name} | {shape} | {phase} | {items} | {m["median"]:.3f} | '
                      f'{m["min"]:.3f}-{m["max"]:.3f} | {rate:.0f} | '
                      f'{p50[mid] / 1000:.1f} / {p99[mid] / 1000:.1f} |')


if __name__ == "__main__":
    main(sys.argv[1])
