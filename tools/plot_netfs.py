#!/usr/bin/env python3
"""Plot the netfs section of a benchmark result (bench-results/bench-*.json, schema
mpiwrite-bench/9 or later, with a "netfs" key).

Usage: tools/plot_netfs.py BENCH.json [-o out.png]   (default: bench-results/netfs-<UTC>.png
beside the input, <UTC> from the result's started_utc)

Panels: files/s (median over the rounds; bars: min-max) against concurrency, one line per
variant (processes, threads, uring; shared directory dashed, a directory per writer solid),
for each (part, RTT) of the matrix and line cells; and one panel of bars for the clients
cells (1 and 2 client hosts, --layout shared and rank, per rank count).
Exit status: 0 written; 2 bad input (no netfs section); 3 no matplotlib.
"""
import argparse
import json
import os
import sys

STYLE = {  # colour, line style, marker
    "procs-shared": ("tab:blue", "--", "o"), "procs-own": ("tab:blue", "-", "o"),
    "threads-shared": ("tab:orange", "--", "s"), "threads-own": ("tab:orange", "-", "s"),
    "uring": ("tab:red", "-", "D"),
}
LABEL = {"procs-shared": "processes, shared dir", "procs-own": "processes, dir per rank",
         "threads-shared": "threads, shared dir", "threads-own": "threads, dir per thread",
         "uring": "uring 1x1 -q c (one dir)"}


def rate(f, files):
    m = f["makespan_s"]
    return files / m["median"], files / m["max"], files / m["min"]


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("report")
    ap.add_argument("-o", "--output")
    a = ap.parse_args(argv)
    try:
        with open(a.report) as f:
            doc = json.load(f)
        sec = doc["netfs"]
        cells = sec["cells"]
    except (OSError, ValueError, KeyError) as e:
        print(f"plot_netfs: {a.report}: no netfs section ({e})", file=sys.stderr)
        return 2
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("plot_netfs: matplotlib is not installed (apt-get install python3-matplotlib)",
              file=sys.stderr)
        return 3
    out = a.output or os.path.join(
        os.path.dirname(os.path.abspath(a.report)),
        "netfs-" + doc.get("started_utc", "x").replace("-", "").replace(":", "") + ".png")
    groups = {}
    for c in cells:
        if c["part"] in ("matrix", "line"):
            groups.setdefault((c["part"], c["rtt_us"]), []).append(c)
    clients = [c for c in cells if c["part"] == "clients"]
    n = len(groups) + (1 if clients else 0)
    cols = 2 if n > 1 else 1
    rows = (n + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(6.4 * cols, 4.6 * rows), squeeze=False)
    panels = iter(axes.flat)
    for (part, rtt), cs in groups.items():
        ax = next(panels)
        cs = sorted(cs, key=lambda c: c["concurrency"])
        names = [v for v in STYLE] + sorted({v for c in cs for v in c["variants"]
                                             if v.startswith("uring-fpd")})
        for name in names:
            xs, ys, lo, hi = [], [], [], []
            for c in cs:
                f = c["figures"].get(name)
                if f is None and c["concurrency"] == 1 and not name.startswith("uring"):
                    f = c["figures"].get("procs-shared")  # 1x1: both layouts, both kinds
                if f is None:
                    continue
                y, ylo, yhi = rate(f, c["files"])
                xs.append(c["concurrency"])
                ys.append(y)
                lo.append(y - ylo)
                hi.append(yhi - y)
            if not xs:
                continue
            colour, ls, marker = STYLE.get(name, ("tab:purple", ":", "v"))
            label = LABEL.get(name, f"uring -q c, shared --files-per-dir {name[9:]}")
            ax.errorbar(xs, ys, yerr=[lo, hi], color=colour, linestyle=ls, marker=marker,
                        capsize=3, label=label)
        ax.set_xscale("log", base=2)
        ax.set_xticks([c["concurrency"] for c in cs], [str(c["concurrency"]) for c in cs])
        ax.set_xlabel("concurrency c (ranks, threads, or uring files in flight)")
        ax.set_ylabel("files/s (median; bars: min-max)")
        ax.set_ylim(bottom=0)
        ax.set_title(f"{cs[0]['files']} {cs[0]['mode']} files, RTT {rtt / 1000:g} ms, one client")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    if clients:
        ax = next(panels)
        names = ["1c-shared", "1c-rank", "2c-shared", "2c-rank"]
        colours = ["tab:gray", "tab:green", "silver", "yellowgreen"]
        width = 0.2
        for k, name in enumerate(names):
            xs, ys, lo, hi = [], [], [], []
            for i, c in enumerate(clients):
                f = c["figures"].get(name)
                if f is None:
                    continue
                y, ylo, yhi = rate(f, c["files"])
                xs.append(i + (k - 1.5) * width)
                ys.append(y)
                lo.append(y - ylo)
                hi.append(yhi - y)
            if xs:
                ax.bar(xs, ys, width, yerr=[lo, hi], capsize=3, color=colours[k],
                       label=name.replace("1c", "1 client").replace("2c", "2 clients")
                       .replace("-", ", --layout "))
        ax.set_xticks(range(len(clients)), [f"{c['ranks']} ranks" for c in clients])
        ax.set_ylabel("files/s (median; bars: min-max)")
        ax.set_title(f"{clients[0]['files']} whole files, RTT {clients[0]['rtt_us'] / 1000:g} ms: "
                     f"clients and layouts")
        ax.grid(alpha=0.3, axis="y")
        ax.legend(fontsize=7)
    for ax in panels:
        ax.axis("off")
    fig.suptitle("mpiwrite on GlusterFS (2 bricks, FUSE), emulated hosts, 2-core VM")
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
