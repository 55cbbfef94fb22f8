#!/usr/bin/env python3
"""The summary of a report that the job scripts (slurm/mpiwrite.sbatch, pbs/mpiwrite.pbs)
print into the job output; the report itself holds everything.

Usage: job_summary.py REPORT.json

    run: 2 ranks on node1 (1 ranks), node2 (1 ranks)
    directory: /scratch/mpiwrite-data-123 (lustre)
    point     2x4 (run): 2 ranks x 4 threads, makespan mean 0.012 s, median 0.011 s over 5
      repetitions; last: 10000 files, 830000.0 files/s        (one line in the output)
      host node1: 5000 files, 7000000 B, slowest rank 0.011 s  (per host, with several)

Each point's line gives the point's own ranks and threads (a sweep's or comparison's points
each have theirs; the config's threads are none of theirs). A point an interrupted run never
measured says so. Standard library only, through mpiwrite_report.py beside this file: a
job's node need not have matplotlib. Exit status: 0 printed; 2 a report that cannot be read
(one line on stderr).
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
import mpiwrite_report as mr  # noqa: E402


def fixed(value, digits=6):
    """A figure as the summary prints it; '?' where the report has none."""
    return "?" if value is None else f"{value:.{digits}f}"


def plural(n, word):
    return f"{'?' if n is None else n} {word}{'' if n == 1 else 's'}"


def host_list(doc):
    return ", ".join(f"{name} ({'?' if n is None else n} ranks)" for name, n in mr.hosts(doc))


def point_lines(p, several_hosts):
    """The lines of one measured point: its figures, then its hosts' when there are several."""
    label = p.label if p.label is not None else "?"
    mode = p.mode if isinstance(p.mode, str) else "?"
    line = (f"point {label:>7} ({mode}): {plural(p.ranks, 'rank')} x "
            f"{plural(p.threads, 'thread')}, makespan mean {fixed(p.mean)} s, "
            f"median {fixed(p.median)} s over {plural(p.count, 'repetition')}")
    if p.last is not None:
        line += (f"; last: {'?' if p.last.files is None else p.last.files} files, "
                 f"{fixed(p.last.files_per_s, 1)} files/s")
    lines = [line]
    for host, files, size, slowest in (p.last.hosts if p.last and several_hosts else []):
        lines.append(f"  host {host}: {'?' if files is None else files} files, "
                     f"{'?' if size is None else size} B, slowest rank {fixed(slowest)} s")
    return lines


def summary(doc):
    """The summary's lines for a checked report."""
    ctx = mr.dict_at(doc, "context")
    kind = mr.kind_of(doc)
    ranks = mr.positive_int(ctx.get("ranks"))
    directory, fs = ctx.get("directory"), ctx.get("filesystem")
    lines = [f"{kind if isinstance(kind, str) else '?'}: {plural(ranks, 'rank')} on "
             f"{host_list(doc) or 'unknown hosts'}",
             f"directory: {directory if isinstance(directory, str) else '?'} "
             f"({fs if isinstance(fs, str) else '?'})"]
    several_hosts = len(mr.hosts(doc)) > 1
    for p in mr.read_points(doc):
        lines += point_lines(p, several_hosts)
    for label, mode, ranks, threads in mr.read_unmeasured(doc):
        lines.append(f"point {label or '?':>7} ({mode if isinstance(mode, str) else '?'}): "
                     f"{plural(ranks, 'rank')} x {plural(threads, 'thread')}, not measured "
                     "(the run was interrupted)")
    return lines


def main(argv):
    if len(argv) != 1:
        print("usage: job_summary.py REPORT.json", file=sys.stderr)
        return 2
    try:
        doc = mr.load(argv[0])
    except mr.ReportError as e:
        print(f"job_summary.py: error: {e}", file=sys.stderr)
        return 2
    print("\n".join(summary(doc)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
