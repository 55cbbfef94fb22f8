#!/usr/bin/env python3
"""Per-phase makespans pooled over the repetitions of several rounds (same run names).

Usage: pooled.py ROUND_DIR...  Prints one markdown row per phase: for each run, the median
makespan of all its repetitions [min-max] and items / median makespan.
"""
import glob
import json
import os
import statistics
import sys

PHASES = ["tree-create", "write", "stat", "read", "remove", "tree-remove"]


def main(folders):
    runs = {}
    for folder in folders:
        for path in glob.glob(os.path.join(folder, "*.json")):
            point = json.load(open(path))["points"][0]
            name = os.path.basename(path)[:-5]
            for rep in point["repetitions"]:
                for phase, fig in rep["phases"].items():
                    items = fig.get("files", fig.get("directories"))
                    runs.setdefault(name, {}).setdefault(phase, []).append(
                        (fig["makespan_s"], items))
    names = sorted(runs)
    print("| phase | " + " | ".join(names) + " |")
    print("|---|" + "---|" * len(names))
    for phase in PHASES + ["total"]:
        cells = []
        for name in names:
            if phase == "total":
                per_rep = [sum(v[i][0] for v in runs[name].values())
                           for i in range(len(runs[name]["write"]))]
                m = statistics.median(per_rep)
                cells.append(f"{m:.2f} [{min(per_rep):.2f}-{max(per_rep):.2f}]")
                continue
            values = runs[name][phase]
            times = [t for t, _ in values]
            m = statistics.median(times)
            cells.append(f"{m:.3f} [{min(times):.3f}-{max(times):.3f}] {values[0][1] / m:.0f}/s"
                         f" (n={len(times)})" if phase == "write" else
                         f"{m:.3f} [{min(times):.3f}-{max(times):.3f}] {values[0][1] / m:.0f}/s")
        print(f"| {phase} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main(sys.argv[1:])
