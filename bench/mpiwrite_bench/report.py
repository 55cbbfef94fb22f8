"""The results: bench-<UTC stamp>.json and .md in the results directory, the Markdown also on
standard output.

JSON schema "mpiwrite-bench/16" (schema_version 16). What changed from /15: the floor's
parameters gain "passes" (--floor-passes: the whole sweep of cells that many times; its
"floor_sizes" runs count every pass); each floor record gains "pass" (its "run" numbers
continue across passes); with more than one pass each cell gains "passes" {by_pass (per pass:
pass, runs, mpiwrite_paired_ratio_median, and with the control mpiwrite_vs_both_floors_median),
min, max, straddle_goal} and the floor's "summary" gains "passes" {cells, passes,
cells_meeting_goal_in_every_pass, cells_meeting_goal_in_no_pass, cells_straddling_goal,
largest_spread}; every other figure pools a cell's runs of all passes. Every other key is as
in /15.
/15 changed from /14: with
--floor-control 1 the floor's "programs" gain "floor-again" (the floor run once more,
interleaved: a control); each floor cell then gains "floor-again" (its summary),
"floor-again_ratio_of_medians", "floor-again_paired_ratio" and "control" {paired_ratio_median,
interval, meets_goal, resolution (the farther end of the control's 95 % interval from 1),
resolves_goal, mpiwrite_vs_both_floors (a summary with "interval" of each run's mpiwrite time
over the geometric mean of its two floor times)}, and the floor's "summary" gains "control"
{cells, control_cells_meeting_goal, cells_resolving_goal, mpiwrite_geometric_mean,
control_geometric_mean, mpiwrite_vs_both_floors_geometric_mean,
cells_meeting_goal_vs_both_floors, by_phase_vs_both_floors, max_control_paired_ratio,
goal_ratio}. Every other key is as in /14.
/14 changed from /13: the floor's file
systems may include "ext4" (a fresh ext4 per run, fresh_ext4.py); each floor cell gains
"goal_met_paired" (the median paired ratio <= the goal: issue 23 §5 states its goal on that
measure, "goal_met" stays the ratio of medians) and the floor's "summary" gains
"cells_meeting_goal_paired". Every other key is as in /13.
/13 changed from /12: the floor's
parameters gain "tree_walk" (safe or path: how the floor's tree cells reach a parent); each
cell's "<program>_paired_ratio" gains "interval" ({low, high, coverage}: the median's
distribution-free 95 % interval, null under 6 runs) and each cell "goal_clearly_missed" (the
goal missed and that interval wholly above it); "summary" gains
"cells_clearly_missing_goal". Every other key is as in /12.
/12 changed from /11: the section "auto"
(issue 26: -r 100 against -r auto on the seed's table) and its key "auto": {"parameters",
"runs" (each round: "order", and per variant "fixed"/"auto" the "wall_s" (the whole mpirun),
"timed_s" (the sum of every repetition's makespan), "steps", "points" (label, mode,
concurrency, repetitions, stopped_by, precision, median_s), "verdicts" per concurrency (label,
outcome, p_value, ratio), "rounds_begun", "seed", "text" (the default report); "startup":
"wall_s"), "summary" ("variants": per variant the summaries of wall_s, timed_s, steps,
repetitions, precision, the stopped_by counts, outside_per_step_ms; ratio_of_medians,
paired_ratios, timed_ratio_of_medians, "agreement" {rows, fixed_vs_auto, fixed_vs_fixed,
all_same}, goal_ratio, goal_met)}. Every other key is as in /11.
/11 changed from /10: the floor times
every phase of issue 23 (--floor-phases): its parameters gain "phases", "tree_branch", "shift"
and "trees" (per size: depth, branch, directories_per_tree); each cell gains "phase" (write in
a run of the write phase alone) and "items" (per program, the items its phase did: files, or
directories in a tree cell; null where the program does not say), and mode "tree" names a tree
cell; "summary" gains "by_phase" (as "by_files", per phase). Every other key is as in /10.
/10 changed from /9: the section
"progress" (issue 14: what --progress costs the write phase) and its key "progress":
{"parameters", "runs" (each round: "order", and per variant "off"/"on" the "seconds" (median
of the run's repetitions), "makespans_s", "progress_lines"), "summary" (ratio_of_medians,
paired_ratios, makespan_on, makespan_off, progress_lines_per_run, goal_ratio, goal_met)}.
Every other key is as in /9. /9 changed from /8: the section "netfs"
(issue 13: mpiwrite on the GlusterFS testbed) and its key "netfs": {"parameters", "title",
"cells" (each: part clients|matrix|line, name, rtt_us, mode, files, ranks or concurrency,
variants, "figures" per variant: makespan_s summary, ms_per_file, files_per_s,
latency_p50_ms, speedup_vs_1x1; "ratios"; the raw "runs"), "removal" (the --cleanup runs),
"warmup", "testbed_times", "summary" (the headline rank/shared ratio and its goal)}. Every
other key is as in /8. /8 (schema_version 8; the bash script's last was "mpiwrite-bench/7",
which had no schema_version key) changed from /7:
  - every section's data sits under its own key (overhead, startup, alloc, floor, dynamic,
    dynamic_hosts, uring, scale) as {"parameters", ..., "summary"}; /7 kept the floor's
    "cells" and "summary" at the top level and its parameters (goal_ratio, goal_min_files,
    floor_sizes, modes, layouts, floor_idle_threads) in the top-level "parameters", and the
    top-level "programs"; they are now in "floor".
  - the dynamic section's "files" and "runs" moved from the top-level "parameters" into
    "dynamic.parameters" (and "dynamic_hosts.parameters").
  - the top-level "parameters" keep what every section shares: lines, text, file_size_bytes,
    mpirun, mpirun_flags, warmup_runs_per_filesystem, drop_caches_permitted, plus "smoke".
  - "invocation": the command line; startup's clock is Python's time.perf_counter (was bash
    EPOCHREALTIME).
The cells, runs and summaries inside each section keep /7's names and meanings."""
import json
import os
import sys

SCHEMA = "mpiwrite-bench/16"
SCHEMA_VERSION = 16


def key_of(section):
    """The JSON key of a section: dynamic-hosts -> dynamic_hosts."""
    return section.replace("-", "_")


def new_meta(h, sections, started_utc, argv, smoke, software, machine):
    return {"schema": SCHEMA, "schema_version": SCHEMA_VERSION, "sections": sections,
            "started_utc": started_utc, "invocation": argv,
            "parameters": {
                "lines": h.lines, "text": h.text, "file_size_bytes": h.file_size,
                "mpirun": h.mpirun, "mpirun_flags": h.mpirun_flags,
                "warmup_runs_per_filesystem": h.warmup, "smoke": smoke},
            "software": software, "machine": machine}


def footer(meta):
    """The machine line and the notes under the tables."""
    m, p = meta["machine"], meta["parameters"]
    fss = m.get("filesystems", {})
    journal = {True: " with a journal", False: " without a journal"}
    sw = meta["software"]
    md = [f"Machine: {m.get('cpu', '?')}, nproc {m['nproc']}, kernel {m['kernel']}, "
          f"{m.get('os', '?')}; local: {fss.get('local', {}).get('fstype', '?')}"
          f"{journal.get(fss.get('local', {}).get('has_journal'), '')}, "
          f"shm: {fss.get('shm', {}).get('fstype', '?')}. {sw['mpi']}, "
          f"mpirun flags: `{' '.join(p['mpirun_flags'])}`. "
          f"mpiwrite {sw.get('git_commit') or '?'}"
          f"{' (with uncommitted changes)' if sw.get('git_dirty') else ''}.", ""]
    return md + [f"- {n}" for n in meta["notes"]]


def write(meta, md, out_dir, stamp):
    """Writes both files, prints the Markdown; returns the two paths."""
    os.makedirs(out_dir, exist_ok=True)
    text = "\n".join(md + footer(meta)) + "\n"
    json_path = os.path.join(out_dir, f"bench-{stamp}.json")
    md_path = os.path.join(out_dir, f"bench-{stamp}.md")
    with open(json_path, "w") as f:
        json.dump(meta, f, indent=2, ensure_ascii=False)
        f.write("\n")
    with open(md_path, "w") as f:
        f.write(text)
    sys.stdout.write(text)
    return json_path, md_path
