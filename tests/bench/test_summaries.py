"""The sections' summarize() on hand-made records: the figures the goals are stated on."""
from mpiwrite_bench.sections import alloc, floor, startup

META = {"started_utc": "2026-12-01T00:00:00Z",
        "parameters": {"lines": 100, "text": "Hello, world!", "file_size_bytes": 1400,
                       "mpirun": "mpirun", "warmup_runs_per_filesystem": 1}}


def floor_record(run, position, program, seconds, files=10000):
    return {"fs": "shm", "fs_type": "tmpfs", "files": files, "mode": "line", "layout": "1x1",
            "run": run, "position": position, "program": program, "seconds": seconds}


def test_floor_ratio_of_medians_and_goal():
    records = [floor_record(1, 1, "floor", 1.0), floor_record(1, 2, "mpiwrite", 1.04),
               floor_record(2, 1, "mpiwrite", 1.10), floor_record(2, 2, "floor", 1.0),
               floor_record(3, 1, "floor", 2.0), floor_record(3, 2, "mpiwrite", 1.02)]
    sec = {"parameters": {"goal_ratio": 1.05, "goal_min_files": 10000,
                          "programs": ["floor", "mpiwrite"], "floor_idle_threads": 0,
                          "floor_sizes": [{"files": 10000, "runs": 3}]}}
    md = floor.summarize(META, sec, records)
    c = sec["cells"][0]
    assert c["ratio_of_medians"] == 1.04  # medians 1.04 / 1.0
    assert c["mpiwrite_paired_ratio"]["median"] == 1.04  # pairs 1.04, 1.10, 0.51
    assert c["goal_met"] is True and sec["summary"]["cells_meeting_goal"] == 1
    assert any("| 1.040 |" in line for line in md)


def test_floor_goal_on_the_paired_ratio_is_said_beside_the_ratio_of_medians():
    # Medians 1.04 (mpiwrite) and 1.0 (floor): met; the run-by-run ratios 1.06, 1.04, 1.2 have
    # the median 1.06: missed on the measure issue 23 §5 states its goal on.
    records = [floor_record(1, 1, "floor", 1.0), floor_record(1, 2, "mpiwrite", 1.06),
               floor_record(2, 1, "mpiwrite", 1.04), floor_record(2, 2, "floor", 1.0),
               floor_record(3, 1, "floor", 0.5), floor_record(3, 2, "mpiwrite", 0.6)]
    sec = {"parameters": {"goal_ratio": 1.05, "goal_min_files": 10000,
                          "programs": ["floor", "mpiwrite"], "floor_idle_threads": 0,
                          "floor_sizes": [{"files": 10000, "runs": 3}]}}
    md = floor.summarize(META, sec, records)
    c = sec["cells"][0]
    assert c["goal_met"] is True and c["goal_met_paired"] is False
    assert sec["summary"]["cells_meeting_goal"] == 1
    assert sec["summary"]["cells_meeting_goal_paired"] == 0
    assert any("issue 23 §5's measure) instead: goal met in 0 of 1" in line for line in md)


def test_floor_control_is_the_floor_against_itself():
    # Six runs of three programs: mpiwrite 1.10 x the floor in every run (a clear miss); the
    # floor again strays 0.90..1.20 (median 1.04): within the goal, but its interval (the
    # extreme pairs of 6 runs) reaches 0.90 and 1.20, so the cell does not resolve 5 %.
    strays = [1.0, 1.2, 0.9, 1.04, 1.04, 1.1]
    records = []
    for run, again in enumerate(strays, 1):
        records += [floor_record(run, 1, "floor", 1.0), floor_record(run, 2, "mpiwrite", 1.10),
                    floor_record(run, 3, "floor-again", again)]
    sec = {"parameters": {"goal_ratio": 1.05, "goal_min_files": 10000,
                          "programs": ["floor", "mpiwrite", "floor-again"],
                          "floor_idle_threads": 0, "floor_sizes": [{"files": 10000, "runs": 6}]}}
    md = floor.summarize(META, sec, records)
    k = sec["cells"][0]["control"]
    assert abs(k["paired_ratio_median"] - 1.04) < 1e-12
    assert k["meets_goal"] is True
    assert k["interval"]["low"] == 0.9 and k["interval"]["high"] == 1.2
    assert abs(k["resolution"] - 0.2) < 1e-12 and k["resolves_goal"] is False
    s = sec["summary"]["control"]
    assert s["control_cells_meeting_goal"] == 1 and s["cells_resolving_goal"] == 0
    assert abs(s["mpiwrite_geometric_mean"] - 1.10) < 1e-12
    assert any("the floor against itself" in line and "0 of 1 cells resolve" in line
               for line in md)
    assert any("| 1.040 (0.900–1.200) |" in line for line in md)
    # Against both floors: 1.10 / sqrt(1.0 * again) per run; the median of the six.
    both = sorted(1.10 / again ** 0.5 for again in strays)
    b = k["mpiwrite_vs_both_floors"]
    assert abs(b["median"] - (both[2] + both[3]) / 2) < 1e-12
    assert s["cells_meeting_goal_vs_both_floors"] == 0
    assert abs(s["by_phase_vs_both_floors"]["write"] - b["median"]) < 1e-12


def test_floor_control_is_a_third_interleaved_program():
    assert floor.Params(control=True).programs == ["floor", "mpiwrite", "floor-again"]
    assert floor.Params().programs == ["floor", "mpiwrite"]


def test_floor_passes_pool_a_cells_runs_and_say_each_pass():
    # Two passes of three runs: mpiwrite 1.02 x the floor in the first, 1.08 in the second
    # (a cell that moved between passes). The cell's figures pool all six runs; each pass's
    # median is said, and the two straddle the goal.
    records = []
    for run, (pass_no, ratio) in enumerate([(1, 1.02)] * 3 + [(2, 1.08)] * 3, 1):
        records += [floor_record(run, 1, "floor", 1.0) | {"pass": pass_no},
                    floor_record(run, 2, "mpiwrite", ratio) | {"pass": pass_no}]
    sec = {"parameters": {"goal_ratio": 1.05, "goal_min_files": 10000,
                          "programs": ["floor", "mpiwrite"], "floor_idle_threads": 0,
                          "floor_sizes": [{"files": 10000, "runs": 6}], "passes": 2}}
    md = floor.summarize(META, sec, records)
    c = sec["cells"][0]
    assert c["runs_per_program"] == 6
    assert abs(c["mpiwrite_paired_ratio"]["median"] - 1.05) < 1e-12  # (1.02 + 1.08) / 2
    q = c["passes"]
    assert [x["pass"] for x in q["by_pass"]] == [1, 2]
    assert [x["runs"] for x in q["by_pass"]] == [3, 3]
    assert abs(q["by_pass"][0]["mpiwrite_paired_ratio_median"] - 1.02) < 1e-12
    assert abs(q["by_pass"][1]["mpiwrite_paired_ratio_median"] - 1.08) < 1e-12
    assert q["straddle_goal"] is True
    s = sec["summary"]["passes"]
    assert (s["cells_meeting_goal_in_every_pass"], s["cells_meeting_goal_in_no_pass"],
            s["cells_straddling_goal"]) == (0, 0, 1)
    assert abs(s["largest_spread"] - 0.06) < 1e-12
    assert any("| 1.020, 1.080 |" in line for line in md)
    assert any("the passes straddle it in 1" in line for line in md)


def test_floor_one_pass_says_no_passes():
    records = [floor_record(1, 1, "floor", 1.0), floor_record(1, 2, "mpiwrite", 1.0)]
    sec = {"parameters": {"goal_ratio": 1.05, "goal_min_files": 10000,
                          "programs": ["floor", "mpiwrite"], "floor_idle_threads": 0,
                          "floor_sizes": [{"files": 10000, "runs": 1}]}}
    md = floor.summarize(META, sec, records)
    assert "passes" not in sec["cells"][0] and "passes" not in sec["summary"]
    assert not any("by pass" in line for line in md)


def test_floor_passes_plan_every_cell_once_per_pass():
    class H:
        warmup = 1
    p = floor.Params(files=[10000], runs=[3], fs=["shm"], modes=["line"], layouts=["1x1", "2x1"],
                     passes=3)
    cells = floor.plan(p, H())["cells"]
    assert [(c["pass"], c["layout"]) for c in cells] == [
        (1, "1x1"), (1, "2x1"), (2, "1x1"), (2, "2x1"), (3, "1x1"), (3, "2x1")]


def test_floor_small_cells_have_no_goal():
    records = [floor_record(1, 1, "floor", 1.0, 100), floor_record(1, 2, "mpiwrite", 3.0, 100)]
    sec = {"parameters": {"goal_ratio": 1.05, "goal_min_files": 10000,
                          "programs": ["floor", "mpiwrite"], "floor_idle_threads": 0,
                          "floor_sizes": [{"files": 100, "runs": 1}]}}
    floor.summarize(META, sec, records)
    assert sec["cells"][0]["goal_met"] is None and sec["summary"]["cells_with_goal"] == 0


def alloc_record(files, total):
    return {"engine": "posix", "layout": "2x1", "ranks": 2, "threads": 1, "files": files,
            "allocs_total": total, "allocs_per_process": [total // 2, total - total // 2]}


def test_alloc_per_extra_file():
    sec = {"parameters": {"goal_allocs_per_file": 0.001, "mode": "whole"}}
    alloc.summarize(META, sec, [alloc_record(100000, 59230), alloc_record(1000, 59220)])
    c = sec["cells"][0]
    assert abs(c["allocs_per_extra_file"] - 10 / 99000) < 1e-12 and c["goal_met"]


def test_startup_differences_over_the_baseline():
    raw = {"variants": ["true", "mpiwrite"],
           "runs": [{"run": 1, "order": ["true", "mpiwrite"], "true": 0.1, "mpiwrite": 0.5},
                    {"run": 2, "order": ["mpiwrite", "true"], "true": 0.2, "mpiwrite": 0.4}]}
    sec = {"parameters": {"np": 2, "runs": 2, "warmup": 1, "fs": "shm", "fs_type": "tmpfs"}}
    startup.summarize(META, sec, raw)
    d = sec["over_baseline"]["mpiwrite"]
    assert abs(d["difference_of_medians_s"] - 0.3) < 1e-12  # 0.45 - 0.15
    assert sorted(round(x, 9) for x in (d["paired_difference_s"]["min"],
                                        d["paired_difference_s"]["max"])) == [0.2, 0.4]
