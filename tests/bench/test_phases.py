"""The floor's phases (mpiwrite_bench/phases.py) and the floor section's cells per phase."""
import pytest

from mpiwrite_bench import phases as ph
from mpiwrite_bench.scratch import BenchError
from mpiwrite_bench.sections import floor

META = {"started_utc": "2026-12-02T00:00:00Z",
        "parameters": {"lines": 100, "text": "Hello, world!", "file_size_bytes": 1400,
                       "mpirun": "mpirun", "warmup_runs_per_filesystem": 1}}


def test_check_orders_and_refuses():
    assert ph.check(["remove", "write", "stat"]) == ["write", "stat", "remove"]
    assert ph.check(["tree-remove", "write", "tree-create"]) == ["tree-create", "write",
                                                                 "tree-remove"]
    for bad in (["stat"], ["write", "write"], ["write", "open"], ["write", "tree-remove"]):
        with pytest.raises(BenchError):
            ph.check(bad)


def test_tree_depth_holds_the_files():
    assert ph.tree_depth(10_000, 10) == 4 and ph.tree_directories(4, 10) == 11_111
    assert ph.tree_depth(100_000, 10) == 5 and ph.tree_depth(100, 10) == 2
    assert ph.tree_depth(1, 3) == 1 and ph.tree_depth(5, 1) == 4
    with pytest.raises(BenchError):
        ph.tree_depth(10, 0)


def test_program_words():
    assert ph.floor_args(["write"]) == [] and ph.mpiwrite_args(["write"]) == []
    assert ph.floor_args(["write", "stat"], shift=1) == ["--phases", "write,stat", "--shift", "1"]
    assert ph.floor_args(["write", "remove"], shift=1) == ["--phases", "write,remove"]
    assert ph.mpiwrite_args(["write", "read"], shift=0) == ["--phases", "write,read", "--shift",
                                                            "0"]
    assert ph.floor_args(["tree-create"], tree=(2, 3)) == ["--phases", "tree-create", "--tree",
                                                           "2,3", "--tree-walk", "safe"]
    assert ph.floor_args(["tree-create"], tree=(2, 3), walk="path")[-2:] == ["--tree-walk", "path"]
    assert ph.tree_run_phases(["tree-create", "tree-remove"]) == [
        "tree-create", "write", "remove", "tree-remove"]
    assert ph.mpiwrite_args(["tree-create", "write"], tree=(2, 3))[2:] == [
        "--layout", "rank", "--tree-depth", "2", "--branch", "3"]


def test_parse_floor():
    assert ph.parse_floor("0.5\n", ["write"]) == {"write": {"seconds": 0.5, "items": None}}
    out = ph.parse_floor("write 0.5 10\nstat 0.25 10\n", ["write", "stat"])
    assert out["stat"] == {"seconds": 0.25, "items": 10}
    with pytest.raises(BenchError):
        ph.parse_floor("write 0.5 10\n", ["write", "stat"])


def test_mpiwrite_times_per_phase_and_the_old_write():
    rep = {"makespan_s": 2.0, "files": 10,
           "phases": {"write": {"makespan_s": 2.0, "items": 10}, "stat": {"makespan_s": 0.5}}}
    out = ph.mpiwrite_times(rep, ["write", "stat"], "run")
    assert out == {"write": {"seconds": 2.0, "items": 10}, "stat": {"seconds": 0.5, "items": None}}
    assert ph.mpiwrite_times({"makespan_s": 1.0, "files": 3}, ["write"], "run") == {
        "write": {"seconds": 1.0, "items": 3}}
    as_list = {"phases": [{"phase": "read", "makespan_s": 0.5, "items": 4}]}
    assert ph.mpiwrite_times(as_list, ["read"], "run") == {"read": {"seconds": 0.5, "items": 4}}
    with pytest.raises(BenchError):
        ph.mpiwrite_times({"makespan_s": 1.0}, ["write", "read"], "run")


def record(run, position, program, phase, seconds, items=10000, mode="line"):
    return {"fs": "shm", "fs_type": "tmpfs", "files": 10000, "mode": mode, "layout": "1x1",
            "run": run, "position": position, "program": program, "phase": phase,
            "seconds": seconds, "items": items}


def test_floor_summary_has_a_cell_per_phase():
    records = []
    for run, (fw, mw, fs_, ms_) in enumerate([(1.0, 1.02, 0.1, 0.2), (1.0, 1.04, 0.1, 0.2)], 1):
        records += [record(run, 1, "floor", "write", fw), record(run, 1, "floor", "stat", fs_),
                    record(run, 2, "mpiwrite", "write", mw),
                    record(run, 2, "mpiwrite", "stat", ms_, items=9999)]
    records += [record(1, 1, "floor", "tree-create", 0.5, 11111, "tree"),
                record(1, 2, "mpiwrite", "tree-create", 0.5, 11111, "tree")]
    sec = {"parameters": {"goal_ratio": 1.05, "goal_min_files": 10000,
                          "programs": ["floor", "mpiwrite"], "floor_idle_threads": 0,
                          "phases": ["tree-create", "write", "stat"],
                          "floor_sizes": [{"files": 10000, "runs": 2}]}}
    md = floor.summarize(META, sec, records)
    cells = {(c["mode"], c["phase"]): c for c in sec["cells"]}
    assert set(cells) == {("line", "write"), ("line", "stat"), ("tree", "tree-create")}
    assert abs(cells[("line", "write")]["ratio_of_medians"] - 1.03) < 1e-12
    assert cells[("line", "stat")]["goal_met"] is False
    assert cells[("tree", "tree-create")]["floor"]["us_per_file_median"] == 0.5 / 11111 * 1e6
    by = sec["summary"]["by_phase"]
    assert list(by) == ["tree-create", "write", "stat"] and by["stat"]["cells_meeting_goal"] == 0
    assert any("**stat** (items: floor 10,000, mpiwrite 9,999)" in line for line in md)
    assert any(line.startswith("stat: goal met in 0 of 1 cells") for line in md)


def test_floor_params_and_plan_with_phases():
    p = floor.Params(files=[100], runs=[2], modes=["line"], layouts=["1x1"],
                     phases=["remove", "write", "tree-create", "tree-remove"])
    assert p.phases == ["tree-create", "write", "remove", "tree-remove"]
    assert floor.modes_of(p) == ["line", "tree"]

    class Scratch:
        shm_fs, local_fs = "tmpfs", "ext4"
    from mpiwrite_bench import harness
    h = harness.Harness(harness.Binaries("m", "f", "l", "p"), Scratch(), warmup=1)
    plan = floor.plan(p, h)
    assert len(plan["cells"]) == 4  # 2 file systems x (line, tree)
    assert plan["need"].local_files == 0  # every run removes what it made
