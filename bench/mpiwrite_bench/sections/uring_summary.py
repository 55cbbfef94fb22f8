"""The uring section's figures and Markdown (sections/uring.py runs it): part A's cells with
the goal's ratio uring / posix threads, and part B's probe variants against blocking posix."""
from ..stats import ms, paired_ratios, summary

FS_NAME = {"local": "local", "shm": "shm"}


def summarize(meta, sec, raw):
    """Fills sec (engine_cells, probe_cells, summary); returns the Markdown lines."""
    up = sec["parameters"]
    md = [f"## --engine uring — {meta['started_utc']}", ""]
    out, summ = _engine_cells(up, raw["engine"])
    sec["engine_cells"] = out
    if out:
        md += _engine_md(meta, up, out, summ)
    sec["probe_cells"] = _probe_cells(up, raw["probe"])
    if sec["probe_cells"]:
        md += _probe_md(meta, up, sec["probe_cells"], summ)
    sec["summary"] = summ
    return md


def _engine_cells(up, records):
    goal, files = up["goal_ratio"], up["files"]
    cells = {}
    for r in records:
        key = (r["fs"], r["mode"], r["in_flight"])
        c = cells.setdefault(key, {"fs": r["fs"], "fs_type": r["fs_type"], "mode": r["mode"],
                                   "in_flight": r["in_flight"], "runs": {}})
        run = c["runs"].setdefault(r["run"], {"run": r["run"], "order": []})
        run["order"].append(r["variant"])
        run[r["variant"] + "_s"] = r["makespan_s"]
    out = []
    for c in cells.values():  # in the order they ran: file system, mode, in flight
        runs = [c["runs"][k] for k in sorted(c["runs"])]
        c["runs"] = runs
        c["variants"] = [v for v in ("posix-threads", "uring", "posix-procs")
                         if any(v + "_s" in r for r in runs)]
        for v in c["variants"]:
            st = summary([r[v + "_s"] for r in runs if v + "_s" in r])
            st["us_per_file_median"] = st["median"] / files * 1e6
            c[v] = st
        c["uring_over_posix_threads"] = c["uring"]["median"] / c["posix-threads"]["median"]
        c["paired_uring_over_posix_threads"] = summary(
            paired_ratios(runs, "uring_s", "posix-threads_s"))
        if "posix-procs" in c:
            c["uring_over_posix_procs"] = c["uring"]["median"] / c["posix-procs"]["median"]
        c["goal_applies"] = c["fs"] == "shm"
        c["goal_met"] = c["uring_over_posix_threads"] <= goal if c["goal_applies"] else None
        out.append(c)
    for c in out:  # against one plain posix thread: the c = 1 cell's posix-threads median
        one = cells.get((c["fs"], c["mode"], 1))
        c["uring_over_one_posix_thread"] = (c["uring"]["median"] / one["posix-threads"]["median"]
                                            if one else None)
    with_goal = [c for c in out if c["goal_applies"]]
    beats = {}
    for c in out:
        k = f"{c['fs']}/{c['mode']}"
        x = c["uring_over_one_posix_thread"]
        if x is not None and x < 1 and k not in beats:
            beats[k] = c["in_flight"]
    summ = {"engine_cells": len(out), "engine_cells_with_goal": len(with_goal),
            "engine_cells_meeting_goal": sum(bool(c["goal_met"]) for c in with_goal),
            "goal_ratio": goal,
            "max_ratio_on_tmpfs": max((c["uring_over_posix_threads"] for c in with_goal),
                                      default=None),
            "least_in_flight_beating_one_posix_thread": beats}
    return out, summ


def _engine_md(meta, up, out, summ):
    goal, files, mp = up["goal_ratio"], up["files"], meta["parameters"]
    head = ["cell", "runs", "posix threads ms median [min–max]", "uring ms median [min–max]",
            "posix 2 procs ms median [min–max]", "posix threads µs/file", "uring µs/file",
            "uring / posix threads (ratio of medians)", "paired ratio median [min–max]",
            "uring / posix procs", "uring / 1 posix thread", f"≤ {goal}× (tmpfs)"]
    md = [f"### A. The engine at equal in-flight files (goal: uring ≤ {goal}× posix threads on "
          f"tmpfs)", "",
          f"{files:,} files × {mp['lines']} lines of {mp['text']!r} per run; {up['runs']} runs "
          f"per variant and cell, interleaved (first variant rotating), after "
          f"{mp['warmup_runs_per_filesystem']} untimed warm-up run(s) per variant and file "
          f"system; time = makespan of the write phase. c files in flight: posix threads = "
          f"`mpirun -np 1 mpiwrite -t c`; uring = `mpirun -np 1 mpiwrite --engine uring -q c` "
          f"(one thread); posix 2 procs = `mpirun -np 2 mpiwrite` (c = 2 only). uring / 1 posix "
          f"thread: against the posix-threads median at c = 1 of the same file system and mode. "
          f"Local disk: no goal, for information.", "",
          "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for c in out:
        pr = c["paired_uring_over_posix_threads"]
        one = c["uring_over_one_posix_thread"]
        verdict = "info only" if not c["goal_applies"] else "yes" if c["goal_met"] else "**no**"
        md.append("| " + " | ".join([
            f"{FS_NAME.get(c['fs'], c['fs'])} ({c['fs_type']}) · {c['mode']} · "
            f"{c['in_flight']} in flight",
            str(len(c["runs"])), ms(c["posix-threads"]), ms(c["uring"]),
            ms(c["posix-procs"]) if "posix-procs" in c else "—",
            f"{c['posix-threads']['us_per_file_median']:.1f}",
            f"{c['uring']['us_per_file_median']:.1f}",
            f"{c['uring_over_posix_threads']:.3f}",
            f"{pr['median']:.3f} [{pr['min']:.3f}–{pr['max']:.3f}]",
            f"{c['uring_over_posix_procs']:.3f}" if "uring_over_posix_procs" in c else "—",
            f"{one:.3f}" if one is not None else "—", verdict]) + " |")
    md.append("")
    if summ["engine_cells_with_goal"]:
        md.append(f"Goal met in {summ['engine_cells_meeting_goal']} of "
                  f"{summ['engine_cells_with_goal']} tmpfs cells (largest ratio "
                  f"{summ['max_ratio_on_tmpfs']:.3f}).")
    beats = summ["least_in_flight_beating_one_posix_thread"]
    order = [(c["fs"], c["mode"]) for c in out]
    for fs, mode, fstype in sorted({(c["fs"], c["mode"], c["fs_type"]) for c in out},
                                   key=lambda g: order.index(g[:2])):
        k = f"{fs}/{mode}"
        if k in beats:
            md.append(f"{FS_NAME.get(fs, fs)} ({fstype}) · {mode}: uring is first faster than "
                      f"one posix thread at {beats[k]} file{'s' if beats[k] > 1 else ''} in flight.")
        elif any(c["fs"] == fs and c["mode"] == mode and c["in_flight"] == 1 for c in out):
            md.append(f"{FS_NAME.get(fs, fs)} ({fstype}) · {mode}: uring does not beat one posix "
                      f"thread at any depth measured.")
    md.append("")
    return md


def _probe_cells(up, records):
    pfiles = up["probe_files"]
    probe = {}
    for x in records:
        m = probe.setdefault(x["mode"], {"mode": x["mode"], "runs": {}})
        r = m["runs"].setdefault(x["run"], {"run": x["run"], "order": []})
        key = f"{x['variant']}@{x['queue_depth']}"
        r["order"].append(key)
        r[key] = x["seconds"]
    cells = []
    for m in probe.values():
        runs = [m["runs"][k] for k in sorted(m["runs"])]
        base = summary([r["posix@1"] for r in runs if "posix@1" in r])
        rows = []
        for qd in up["probe_depths"]:
            for v in up["probe_variants"]:
                xs = [r[f"{v}@{qd}"] for r in runs if f"{v}@{qd}" in r]
                if not xs:
                    continue
                st = summary(xs)
                rows.append({"queue_depth": qd, "variant": v, "seconds": st,
                             "us_per_file_median": st["median"] / pfiles * 1e6,
                             "us_per_file_min": st["min"] / pfiles * 1e6,
                             "us_per_file_max": st["max"] / pfiles * 1e6,
                             "ratio_to_posix": st["median"] / base["median"]})
        cells.append({"mode": m["mode"], "files": pfiles, "runs": runs,
                      "posix": base | {"us_per_file_median": base["median"] / pfiles * 1e6},
                      "rows": rows})
    return cells


def _probe_md(meta, up, probe_cells, summ):
    pfiles, lines = up["probe_files"], meta["parameters"]["lines"]
    best = {}
    for pc in probe_cells:
        b = min(pc["rows"], key=lambda x: x["seconds"]["median"], default=None)
        if b:
            best[pc["mode"]] = {"variant": b["variant"], "queue_depth": b["queue_depth"],
                                "ratio_to_posix": b["ratio_to_posix"]}
    summ["probe_fastest"] = best
    depths = up["probe_depths"]
    md = ["### B. What makes io_uring fast or slow (mpiwrite_uring_probe, tmpfs)", "",
          f"One thread, one ring, no MPI: `mpiwrite_uring_probe DIR {pfiles} {lines} MODE QD "
          f"VARIANT [MODIFIER...]` ({pfiles:,} files of {lines} lines of 'Hello, world!'), "
          f"{up['probe_runs']} runs per variant and depth, all of a mode interleaved in one cell "
          f"(first rotating), after {up['probe_warmup']} untimed warm-up round(s); time = the "
          f"probe's wall time of its loop (ring set-up and teardown included); every run into a "
          f"fresh directory on tmpfs. posix = blocking openat/write/close (QD 1); regular = "
          f"openat into a regular descriptor, then writes + close; split = openat into a direct "
          f"descriptor, then writes + close; direct = one linked chain openat → writes → close "
          f"(mpiwrite's). Modifiers: skip = CQE_SKIP_SUCCESS, coop = COOP_TASKRUN, defer = "
          f"SINGLE_ISSUER|DEFER_TASKRUN, async = IOSQE_ASYNC, regbuf = WRITE_FIXED, sqpoll = "
          f"SQPOLL, spin = poll the completion queue. × posix = ratio of medians "
          f"(below 1: faster than posix).", ""]
    for pc in probe_cells:
        b = pc["posix"]
        head = ["variant"] + [x for qd in depths for x in (f"QD {qd} µs/file median [min–max]",
                                                            f"QD {qd} × posix")]
        md += [f"{pc['mode']} mode: posix {b['us_per_file_median']:.1f} µs/file "
               f"[{b['min'] / pfiles * 1e6:.1f}–{b['max'] / pfiles * 1e6:.1f}].", "",
               "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        for v in up["probe_variants"]:
            row = [v]
            for qd in depths:
                x = next((x for x in pc["rows"] if x["variant"] == v and x["queue_depth"] == qd),
                         None)
                row += ([f"{x['us_per_file_median']:.1f} [{x['us_per_file_min']:.1f}–"
                         f"{x['us_per_file_max']:.1f}]", f"{x['ratio_to_posix']:.2f}"]
                        if x else ["—", "—"])
            md.append("| " + " | ".join(row) + " |")
        md.append("")
        if pc["mode"] in best:
            bb = best[pc["mode"]]
            md += [f"Fastest in {pc['mode']} mode: {bb['variant']} at QD {bb['queue_depth']}, "
                   f"{bb['ratio_to_posix']:.2f}× posix.", ""]
    return md


def figures(sec):
    return ([c["uring_over_posix_threads"] for c in sec.get("engine_cells", [])]
            + [x["ratio_to_posix"] for pc in sec.get("probe_cells", []) for x in pc["rows"]])
