"""The netfs section's pure parts: its cells, the directory check, the figures."""
import os

import pytest

from mpiwrite_bench.scratch import BenchError
from mpiwrite_bench.sections import netfs


def test_default_cells_and_order():
    p = netfs.Params()
    cs = netfs.cells(p)
    names = [c["name"] for c in cs]
    # The headline first, then the 2 ms matrix, the line cells, the 0.5 ms matrix.
    assert names[:2] == ["clients-4x1", "clients-8x1"]
    assert names[2:7] == [f"matrix-2000us-c{c}" for c in (1, 2, 4, 8, 16)]
    assert names[7:10] == [f"line-2000us-c{c}" for c in (1, 4, 16)]
    assert names[10:] == [f"matrix-500us-c{c}" for c in (1, 2, 4, 8, 16)]
    head = cs[0]
    assert [v.name for v in head["variants"]] == ["1c-shared", "1c-rank", "2c-shared", "2c-rank"]
    assert head["rtt_us"] == 2000 and head["files"] == 2000 and head["mode"] == "whole"
    assert netfs.estimate_s(p) < 25 * 60


def test_matrix_variants_are_the_fair_layouts():
    p = netfs.Params()
    one = {v.name: v for v in netfs.kind_variants(1, p)}
    assert sorted(one) == ["procs-shared", "uring"]  # 1x1 is procs = threads
    vs = {v.name: v for v in netfs.kind_variants(8, p)}
    assert vs["procs-own"].layout == "rank" and vs["procs-own"].dirs == 8
    assert vs["threads-own"].layout == "thread" and vs["threads-own"].dirs == 8
    assert vs["threads-shared"].dirs == 1
    u = vs["uring"]
    assert (u.ranks, u.threads, u.engine, u.queue_depth, u.dirs) == (1, 1, "uring", 8, 1)
    assert vs["uring-fpd1"].options()[-2:] == ["--files-per-dir", "1"]
    assert "--layout" not in vs["procs-shared"].options()


def test_local_mode_has_one_client_and_no_rtt():
    p = netfs.Params(local_dir="/tmp")
    cs = netfs.cells(p)
    assert all(c["rtt_us"] == 0 for c in cs)
    assert all(v.clients == 1 for c in cs for v in c["variants"])
    assert len({c["name"] for c in cs}) == len(cs)


def test_bad_params():
    with pytest.raises(BenchError):
        netfs.Params(concurrency=[0, 2])
    with pytest.raises(BenchError):
        netfs.Params(rounds=0)


def make_tree(root, layout):
    """write1..6.txt in 1 (shared) or 2 (rank) directories."""
    dirs = [root] if layout == "shared" else [os.path.join(root, f"rank{r}") for r in (0, 1)]
    for d in dirs:
        os.makedirs(d, exist_ok=True)
    for i in range(1, 7):
        with open(os.path.join(dirs[(i - 1) * len(dirs) // 6], f"write{i}.txt"), "w") as f:
            f.write("x")


def test_check_run_dir(tmp_path):
    shared = tmp_path / "s"
    make_tree(str(shared), "shared")
    netfs.check_run_dir(str(shared), 6, netfs.Variant("a", 2))
    with pytest.raises(BenchError):  # the files in one directory, rank layout expects 2
        netfs.check_run_dir(str(shared), 6, netfs.Variant("a", 2, layout="rank"))
    with pytest.raises(BenchError):
        netfs.check_run_dir(str(shared), 7, netfs.Variant("a", 2))
    ranked = tmp_path / "r"
    make_tree(str(ranked), "rank")
    netfs.check_run_dir(str(ranked), 6, netfs.Variant("a", 2, layout="rank"))
    os.remove(ranked / "rank1" / "write6.txt")
    with open(ranked / "rank1" / "write7.txt", "w"):
        pass
    with pytest.raises(BenchError):  # right count, wrong name
        netfs.check_run_dir(str(ranked), 6, netfs.Variant("a", 2, layout="rank"))


def rec(seconds, p50=1000.0):
    return {"makespan_s": seconds, "latency_us": {"p50": p50}}


def test_summarize_ratios_and_goal():
    p = netfs.Params()
    runs = [{"run": k, "1c-shared": rec(s), "1c-rank": rec(r), "2c-shared": rec(s / 2),
             "2c-rank": rec(r / 2)} for k, (s, r) in enumerate([(10, 5), (12, 5), (11, 6)], 1)]
    m1 = [{"run": 1, "procs-shared": rec(30), "uring": rec(29)}]
    m8 = [{"run": 1, "procs-shared": rec(11), "procs-own": rec(4), "threads-shared": rec(11),
           "threads-own": rec(5), "uring": rec(10), "uring-fpd1": rec(6)}]
    records = {"cells": [
        {"part": "clients", "name": "clients-4x1", "rtt_us": 2000, "mode": "whole",
         "files": 2000, "ranks": 4, "variants": ["1c-shared", "1c-rank", "2c-shared", "2c-rank"],
         "runs": runs, "seconds": 1, "clean_s": 1},
        {"part": "matrix", "name": "matrix-2000us-c1", "rtt_us": 2000, "mode": "whole",
         "files": 500, "concurrency": 1, "variants": ["procs-shared", "uring"], "runs": m1,
         "seconds": 1, "clean_s": 1},
        {"part": "matrix", "name": "matrix-2000us-c8", "rtt_us": 2000, "mode": "whole",
         "files": 500, "concurrency": 8, "variants": list(m8[0])[1:], "runs": m8,
         "seconds": 1, "clean_s": 1}],
        "removal": [{"variant": "removal-shared", "layout": "shared", "ranks": 4,
                     "rtt_us": 2000, "files": 2000, "makespan_s": 10, "removal_s": 11,
                     "wall_s": 25}],
        "warmup": [], "testbed": {"up_s": 5, "down_s": 6, "total_s": 600}}
    sec = {"parameters": netfs.parameters(p, None), "title": "t"}
    md = netfs.summarize({}, sec, records)
    s = sec["summary"]
    assert s["rank_speedup_over_shared"] == 11 / 5 and s["goal_met"] is True
    assert s["rank_speedup_paired"] == 2.0  # 2.0, 2.4, 1.83
    head = sec["cells"][0]["ratios"]
    assert head["shared_1c_over_2c"] == 2.0 and head["rank_1c_over_2c"] == 2.0
    c8 = sec["cells"][2]
    assert c8["ratios"]["uring/threads-own"] == 2.0
    assert c8["figures"]["procs-own"]["speedup_vs_1x1"] == 30 / 4
    assert c8["figures"]["procs-own"]["ms_per_file"] == 8.0
    assert sec["removal"][0]["removal_ms_per_file"] == 5.5
    figs = netfs.figures(sec)
    assert figs and all(isinstance(x, (int, float)) for x in figs)
    text = "\n".join(md)
    assert "2.20x faster than shared" in text and "met" in text
    assert "| 8 | 11.00 (2.7x) | 4.00 (7.5x)" in text
