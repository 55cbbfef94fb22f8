"""The pure parts of the harness, the options and the sections' plans (no mpirun)."""
import os

import pytest

from mpiwrite_bench import __main__ as cli
from mpiwrite_bench import harness, sections
from mpiwrite_bench.scratch import BenchError
from mpiwrite_bench.sections import dynamic, dynamic_hosts, floor, uring


class FakeScratch:
    shm_fs = "tmpfs"
    local_fs = "ext4"


def fake_harness(warmup=1):
    return harness.Harness(harness.Binaries("mpiwrite", "floor", "lib.so", "probe"),
                           FakeScratch(), warmup=warmup)


def test_rotate():
    assert harness.rotate(["a", "b", "c"], 0) == ["a", "b", "c"]
    assert harness.rotate(["a", "b", "c"], 1) == ["b", "c", "a"]
    assert harness.rotate(["a", "b", "c"], 5) == ["c", "a", "b"]


def test_first_variant_alternates_by_run_and_by_cell():
    firsts = [harness.rotate(["floor", "mpiwrite"], harness.rotation(run, cell))[0]
              for cell in (1, 2) for run in (1, 2)]
    assert firsts == ["floor", "mpiwrite", "mpiwrite", "floor"]


def test_order_of_two_variants_is_the_rotation():
    assert [harness.order_of(["a", "b"], k) for k in range(4)] == [
        ["a", "b"], ["b", "a"], ["a", "b"], ["b", "a"]]


def test_order_of_three_variants_balances_places_and_predecessors():
    # floor, mpiwrite, floor-again: with rotation alone floor-again always followed mpiwrite.
    items = ["floor", "mpiwrite", "floor-again"]
    for start in range(6):  # any 6 consecutive runs
        orders = [harness.order_of(items, k) for k in range(start, start + 6)]
        places = {(o[i], i) for o in orders for i in range(3)}
        assert all(sum(o[i] == v for o in orders) == 2 for v in items for i in range(3))
        assert len(places) == 9
        pairs = [(o[i], o[i + 1]) for o in orders for i in range(2)]
        assert all(pairs.count((a, b)) == 2 for a in items for b in items if a != b)


def test_layout():
    assert harness.layout("4x2") == (4, 2)


def test_floor_runs_per_size_default_and_given():
    assert floor.Params(files=[100000, 100, 10000]).runs_per_size == {100: 15, 10000: 7,
                                                                     100000: 5}
    p = floor.Params(files=[100000, 100], runs=[3, 9])  # one per size, in the order given
    assert p.files == [100, 100000] and p.runs_per_size == {100000: 3, 100: 9}
    with pytest.raises(BenchError):
        floor.Params(files=[1, 2, 3], runs=[1, 2])


def test_floor_plan_keeps_every_local_run_until_the_end():
    p = floor.Params(files=[100], runs=[2], modes=["line"], layouts=["1x1", "2x1"])
    plan = floor.plan(p, fake_harness(warmup=1))
    assert len(plan["cells"]) == 4  # 2 file systems x 2 layouts
    # (2 runs x 2 layouts + 1 warm-up) x 2 programs, local disk only
    assert plan["need"].local_runs == 10 and plan["need"].local_files == 1000


def test_dynamic_hosts_plan():
    p = dynamic_hosts.Params(chunks=[8, 64])
    assert p.variants == ["block", "dynamic-c8", "dynamic-c64", "dynamic-c8-nopf"]
    plan = dynamic_hosts.plan(p, fake_harness())
    assert [c["part"] for c in plan["cells"]] == ["overhead", "slow"]
    assert all(c["fs"] == "shm" and c["layout"] == "2x1" for c in plan["cells"])
    flags, env = dynamic_hosts.launch("/repo", "mpirun", "/h")
    assert flags[:4] == ["mpihostA", "mpirun", "--hostfile", "/h"]
    assert "--map-by" in flags and env["OMPI_MCA_btl"] == "vader,self,tcp"


def test_dynamic_variants_and_chunk_names():
    p = dynamic.Params()
    assert p.variants == ["block", "dynamic-c8", "dynamic-c64"]
    assert p.slow_variants == ["block", "dynamic-c8"]
    assert dynamic.chunk_of("dynamic-c64-nopf") == 64
    with pytest.raises(BenchError):
        dynamic.Params(slow_layouts=["1x1"])


def test_uring_probe_items_put_posix_first():
    p = uring.Params(probe_depths=[8, 1], probe_variants=["direct  skip", "regular"])
    assert uring.probe_items(p) == [("posix", 1), ("direct skip", 1), ("regular", 1),
                                    ("direct skip", 8), ("regular", 8)]
    with pytest.raises(BenchError):
        uring.Params(probe_variants=["posix"])


def test_options_override_defaults_and_smoke_sizes():
    args = cli.parser().parse_args(["--smoke", "--floor-files", "100,1000", "--runs", "3"])
    ps = cli.params(args, cli.chosen(["floor", "dynamic"]))
    assert ps["floor"].files == [100, 1000] and ps["floor"].runs_per_size == {100: 2, 1000: 2}
    assert ps["dynamic"].runs == 3 and ps["dynamic"].files == dynamic.Params.smoke().files


def test_sections_run_in_the_fixed_order_and_hosts_only_when_named():
    assert cli.chosen(None) == sections.DEFAULT and "dynamic-hosts" not in sections.DEFAULT
    assert cli.chosen(["scale", "overhead"]) == ["overhead", "scale"]
    with pytest.raises(BenchError):
        cli.chosen(["nope"])


GOLDEN_RUN = os.path.join(os.path.dirname(__file__), "..", "golden", "report.json")


def test_reports_are_read_by_the_one_reader():
    """mpiwrite's report goes through scripts/mpiwrite_report.py: hostile text is refused with
    the run named, and the layout is each point's own ranks x threads."""
    with open(GOLDEN_RUN, encoding="utf-8") as f:
        report = harness.parse_report(f.read(), "mpiwrite in /x")
    harness.check_layout(report, 2, 1, "mpiwrite in /x")
    with pytest.raises(BenchError, match="unexpected repetitions"):  # -r 2: not a plain run
        harness.one_repetition(report, 100, 2, 1)
    with pytest.raises(BenchError, match=r"mpiwrite in /x: ran 2x1, expected 2x2"):
        harness.check_layout(report, 2, 2, "mpiwrite in /x")
    for text, message in (("NaN", "NaN is not a number"), ("{}", "no schema_version"),
                          ('{"schema_version": 4, "n": 1e400}', "beyond a double")):
        with pytest.raises(BenchError, match=message):
            harness.parse_report(text, "mpiwrite in /x")
