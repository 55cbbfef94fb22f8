"""The auto section's pure parts: the points of --compare, the options of each variant, what
one report says, the verdict pairs and the figures."""
import pytest

from mpiwrite_bench.scratch import BenchError
from mpiwrite_bench.sections import auto

META = {"started_utc": "2026-12-02T00:00:00Z"}


def test_point_count_matches_mpiwrites_compare():
    # c = 1: 1x1; 2: 2x1 1x2; 4: + 2x2; 8: + 2x4 4x2; ... 64: 2 + 5 hybrids.
    assert [auto.point_count(c) for c in (1, 2, 4, 8, 64)] == [1, 3, 6, 10, 28]
    assert auto.point_count(6) == 6  # c = 1, 2, 4 only
    assert auto.concurrencies(64) == [1, 2, 4, 8, 16, 32, 64]


def test_options_differ_only_in_the_repetitions():
    p = auto.Params(max_concurrency=8, precision="1%", max_time_s=30.0, equivalence="0.05")
    fixed, auto_ = auto.mpiwrite_options(p, "fixed"), auto.mpiwrite_options(p, "auto")
    head = ["--compare", "--max-concurrency", "8", "--equivalence", "0.05"]
    assert fixed == head + ["--repetitions", "100"]
    assert auto_ == head + ["--repetitions", "auto", "--precision", "1%", "--max-time", "30"]
    assert "--compare" not in auto.mpiwrite_options(p, "startup")
    # Not given: mpiwrite's own defaults, so nothing is passed.
    assert auto.mpiwrite_options(auto.Params(), "auto")[-2:] == ["--repetitions", "auto"]


def test_bad_parameters_are_refused():
    with pytest.raises(BenchError):
        auto.Params(fs="local")  # the inode trap: see the module's docstring
    with pytest.raises(BenchError):
        auto.Params(rounds=0)
    assert auto.Params(startup=False).variants == ["fixed", "auto"]


def verdict(v, fastest="processes"):
    return {"verdict": v, "fastest": fastest, "outcome": "x", "p_value": 0.01,
            "ratio": {"estimate": 1.5}}


def report(stopped_by, makespans, verdicts, repetitions=100):
    """A --compare report: one point per list of makespans, a row per concurrency."""
    return {"seed": 7, "config": {"repetitions": repetitions},
            "points": [{"label": f"p{i}", "mode": "processes", "concurrency": 1,
                        "repetitions": [{"makespan_s": x} for x in xs],
                        "summary": {"stopped_by": stopped_by, "precision": 0.01,
                                    "makespan_s": {"median": xs[len(xs) // 2]}}}
                       for i, xs in enumerate(makespans)],
            "comparison": [{"concurrency": c, "verdict": v} for c, v in verdicts]}


def test_run_figures_sum_every_makespan_and_label_the_verdicts():
    r = report("budget", [[0.1, 0.2], [0.3, 0.4, 0.5]],
               [(1, None), (2, verdict("faster", "threads")), (4, verdict("equivalent"))])
    f = auto.run_figures(r)
    assert f["timed_s"] == pytest.approx(1.5) and f["steps"] == 5
    assert [p["repetitions"] for p in f["points"]] == [2, 3]
    assert f["points"][0]["stopped_by"] == "budget"
    assert {c: v["label"] for c, v in f["verdicts"].items()} == {
        "1": None, "2": "threads faster", "4": "equivalent"}


def test_pairs_of_verdicts():
    assert auto.pair_kind("threads faster", "threads faster") == "same"
    assert auto.pair_kind("threads faster", "undecided") == "one undecided"
    assert auto.pair_kind("threads faster", "processes faster") == "contradict"
    assert auto.pair_kind("equivalent", "threads faster") == "contradict"
    assert auto.pair_kind(None, "undecided") is None


def run_of(labels, wall, timed=1.0, stopped_by="fixed"):
    verdicts = {"1": {"label": None}}
    verdicts.update({str(c): {"label": v} for c, v in labels.items()})
    return {"wall_s": wall, "timed_s": timed, "steps": 10, "verdicts": verdicts,
            "points": [{"repetitions": 5, "stopped_by": stopped_by, "precision": 0.03}]}


def test_agreement_by_round_and_the_fixed_reference():
    rounds = [{"fixed": run_of({2: "threads faster", 4: "undecided"}, 30),
               "auto": run_of({2: "threads faster", 4: "equivalent"}, 10)},
              {"fixed": run_of({2: "threads faster", 4: "equivalent"}, 40),
               "auto": run_of({2: "processes faster", 4: "equivalent"}, 10)}]
    a = auto.agreement(rounds)
    assert [r["concurrency"] for r in a["rows"]] == [2, 4]  # c = 1 decides nothing
    assert a["rows"][0]["pairs"] == ["same", "contradict"]
    assert a["rows"][1]["pairs"] == ["one undecided", "same"]
    assert a["fixed_vs_auto"] == {"same": 2, "contradict": 1, "one undecided": 1}
    assert a["fixed_vs_fixed"] == {"same": 1, "one undecided": 1}
    assert a["all_same"] is False


def test_summary_ratio_and_goal():
    rounds = [{"fixed": run_of({2: "threads faster"}, 30.0, 20.0),
               "auto": run_of({2: "threads faster"}, 9.0, 5.0, "precision"),
               "startup": {"wall_s": 5.0}},
              {"fixed": run_of({2: "threads faster"}, 36.0, 20.0),
               "auto": run_of({2: "threads faster"}, 11.0, 5.0, "precision"),
               "startup": {"wall_s": 5.0}}]
    sec = {"parameters": auto.parameters(auto.Params(max_concurrency=2), None)}
    md = auto.summarize(META, sec, rounds)
    sm = sec["summary"]
    assert sm["ratio_of_medians"] == pytest.approx(10.0 / 33.0)
    assert sm["goal_met"] is True
    assert sm["variants"]["auto"]["stopped_by"] == {"precision": 2}
    # (33 - 5 - 20) s over 10 steps
    assert sm["variants"]["fixed"]["outside_per_step_ms"] == pytest.approx(800.0)
    assert any("**0.303**" in line for line in md)
    assert auto.figures(sec) == [sm["ratio_of_medians"], sm["timed_ratio_of_medians"]]
