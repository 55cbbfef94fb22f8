"""mpiwrite_bench.stats against answers worked out by hand."""
import math

import pytest

from mpiwrite_bench import stats


def test_summary_of_odd_count():
    s = stats.summary([3.0, 1.0, 2.0])
    assert s == {"median": 2.0, "min": 1.0, "max": 3.0, "mean": 2.0, "n": 3}


def test_summary_median_of_even_count_is_the_mean_of_the_middle_two():
    assert stats.summary([4.0, 1.0, 3.0, 2.0])["median"] == 2.5


def test_summary_of_one():
    assert stats.summary([0.25]) == {"median": 0.25, "min": 0.25, "max": 0.25, "mean": 0.25,
                                     "n": 1}


def test_summary_of_nothing_fails():
    with pytest.raises(ValueError):
        stats.summary([])


def test_ratio_of_medians():
    # medians 0.2 and 0.1: the outlier 9.0 does not move them
    assert stats.ratio_of_medians([0.1, 0.2, 9.0], [0.1, 0.1, 0.3]) == pytest.approx(2.0)


def test_paired_ratios_skip_runs_missing_either():
    runs = [{"a": 2.0, "b": 1.0}, {"a": 3.0}, {"b": 1.0}, {"a": 1.0, "b": 4.0}]
    assert stats.paired_ratios(runs, "a", "b") == [2.0, 0.25]


def test_paired_differences():
    runs = [{"x": 0.5, "y": 0.125}, {"x": 0.25, "y": 0.5}]
    assert stats.paired_differences(runs, "x", "y") == [0.375, -0.25]


def test_difference_of_medians():
    assert stats.difference_of_medians([1.0, 5.0, 3.0], [1.0, 2.0]) == pytest.approx(1.5)


def test_slope_is_the_cost_of_one_more():
    # 30,626 allocations at 1,000 files, 30,726 at 101,000: 0.001 per file
    assert stats.slope(1000, 30626, 101000, 30726) == pytest.approx(0.001)
    assert stats.slope(5, 1, 5, 2) is None


def test_ms_uses_three_decimals_below_ten_ms():
    assert stats.ms({"median": 0.0012345, "min": 0.001, "max": 0.002}) == "1.234 [1.000–2.000]"
    assert stats.ms({"median": 0.5, "min": 0.25, "max": 1.0}) == "500.0 [250.0–1000.0]"


def test_ms_of():
    assert stats.ms_of(0.0051) == "5.100"
    assert stats.ms_of(0.0123) == "12.3"


def test_mean_is_exact_for_floats():
    assert math.isclose(stats.summary([0.1] * 10)["mean"], 0.1)


def test_median_interval_is_the_binomial_order_statistics():
    # n = 15 at 95 %: P(B <= 3) = 576/32768 = 0.0176 <= 0.025 < P(B <= 4) = 0.0592, so k = 4:
    # x_(4) and x_(12), covering with 1 - 2 * 0.0176 = 0.96484375 (mpiwrite's median_ci at 15).
    low, high, coverage = stats.median_interval(list(range(15, 0, -1)))
    assert (low, high) == (4, 12) and coverage == 0.96484375
    assert stats.median_interval(list(range(1, 101)))[:2] == (40, 61)
    assert stats.median_interval([1.0] * 6)[2] == 1 - 2 / 64  # n = 6: the extremes, 96.9 %


def test_median_interval_needs_six_values_at_95_percent():
    assert stats.median_interval([1, 2, 3, 4, 5]) is None
    assert stats.median_interval([]) is None


def test_summary_with_interval_has_one_only_from_six_values():
    assert stats.summary_with_interval([1.0, 2.0, 3.0, 4.0, 5.0])["interval"] is None
    s = stats.summary_with_interval([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
    assert s["median"] == 3.5
    assert s["interval"]["low"] == 1.0 and s["interval"]["high"] == 6.0
    assert s["interval"]["coverage"] > 0.95
