#!/usr/bin/python3
"""Golden values for tests/unit/statistics_test.cpp, computed by SciPy and NumPy, never by
mpiwrite's own code: the Mann-Whitney U test (scipy.stats.mannwhitneyu, two-sided, method
"auto"), type-7 quartiles (numpy.quantile), the order-statistic median interval
(scipy.stats.binom), Tukey's fences and outliers, mean and sample standard deviation.

The contract is SciPy 1.10 (Debian bookworm's python3-scipy): later SciPy versions changed
what method="auto" chooses. Run it with /usr/bin/python3, whose SciPy is the system one, not
with a python3 of pyenv or a virtual environment.

Regenerate, after an intended change of the cases below, and commit the result:
    /usr/bin/python3 tests/tools/make_statistics_golden.py
Check that the committed file is what this SciPy says (the CTest statistics.golden_scipy):
    /usr/bin/python3 tests/tools/make_statistics_golden.py --check
Exit status: 0 written or equal; 1 differs; 77 no NumPy/SciPy 1.10 here (the test is skipped).
"""

import json
import math
import os
import sys
import tempfile

SKIP = 77
GOLDEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "golden", "statistics.json")
LEVEL = 0.95
# --check compares numbers to this relative tolerance, not byte for byte: another NumPy may sum
# a mean in another order, moving the last bit. Far tighter than the C++ test's 1e-12 and 1e-9.
CHECK_TOLERANCE = 1e-14

try:
    import numpy as np
    import scipy
    from scipy.stats import binom, mannwhitneyu
    # What method="auto" calls to choose (SciPy 1.10): the golden states the choice, so the
    # C++ test checks that it is made the same way.
    from scipy.stats._mannwhitneyu import _mwu_choose_method
except ImportError as missing:
    print(f"make_statistics_golden: skipped, {missing}")
    sys.exit(SKIP)

if not scipy.__version__.startswith("1.10."):
    print(f"make_statistics_golden: skipped, SciPy {scipy.__version__} is not the 1.10 of the contract")
    sys.exit(SKIP)


def lognormal(seed, n, median=1.0, spread=0.05):
    """Continuous values: no ties."""
    rng = np.random.default_rng(seed)
    return (median * np.exp(rng.normal(0.0, spread, n))).tolist()


def small_integers(seed, n, high=5):
    """Integers 1..high: many ties."""
    rng = np.random.default_rng(seed)
    return rng.integers(1, high + 1, n).astype(float).tolist()


def cases():
    yield "exact_1v1", [1.5], [2.5]
    yield "exact_1v5", lognormal(1, 1), lognormal(2, 5)
    yield "exact_2v2", lognormal(3, 2), lognormal(4, 2)
    yield "exact_2v7", lognormal(5, 2), lognormal(6, 7, 1.1)
    yield "exact_3v3_separated", [1.0, 2.0, 3.0], [10.0, 11.0, 12.0]
    yield "exact_3v3", lognormal(7, 3), lognormal(8, 3)
    yield "exact_3v4", lognormal(9, 3), lognormal(10, 4, 1.05)
    yield "exact_4v4_separated", [4.0, 3.0, 2.0, 1.0], [5.5, 6.5, 7.5, 8.5]
    yield "exact_5v5", lognormal(11, 5), lognormal(12, 5)
    yield "exact_5v8", lognormal(13, 5), lognormal(14, 8, 1.03)
    yield "exact_6v6", lognormal(15, 6), lognormal(16, 6, 1.04)
    yield "exact_7v7", lognormal(17, 7), lognormal(18, 7)
    yield "exact_8v8", lognormal(19, 8), lognormal(20, 8, 1.05)
    yield "exact_8v30", lognormal(21, 8), lognormal(22, 30, 1.02)
    yield "exact_2v100", lognormal(23, 2), lognormal(24, 100)
    # U = nx ny / 2: the exact tail includes the mass at U, so twice it exceeds 1 before the cap.
    yield "exact_centre_capped", [1.0, 4.0], [2.0, 3.0]
    yield "ties_1v1_equal", [2.0], [2.0]
    yield "ties_3v3", small_integers(25, 3), small_integers(26, 3)
    yield "ties_5v5", small_integers(27, 5), small_integers(28, 5)
    yield "ties_8v8", small_integers(29, 8), small_integers(30, 8)
    yield "ties_12v10", small_integers(31, 12, 8), small_integers(32, 10, 8)
    yield "asymptotic_9v9", lognormal(33, 9), lognormal(34, 9, 1.02)
    yield "large_20v20", lognormal(35, 20), lognormal(36, 20)
    yield "large_20v20_shifted", lognormal(37, 20), lognormal(38, 20, 1.2)
    yield "large_50v50", lognormal(39, 50), lognormal(40, 50, 1.01)
    yield "large_50v50_far", lognormal(41, 50), lognormal(42, 50, 2.0)
    yield "large_200v200", lognormal(43, 200), lognormal(44, 200, 1.005)
    yield "large_200v180_shifted", lognormal(45, 200, 1.0, 0.2), lognormal(46, 180, 1.1, 0.2)
    same = lognormal(47, 10)
    yield "equal_series", same, list(same)
    yield "all_identical", [3.0] * 7, [3.0] * 7
    yield "identical_x", [2.0] * 6, lognormal(48, 6, 2.0)
    yield "unequal_1v40", lognormal(49, 1), lognormal(50, 40)
    yield "unequal_9v30", lognormal(51, 9), lognormal(52, 30, 1.03)
    yield "unequal_15v4", lognormal(53, 15), lognormal(54, 4, 0.97)
    yield "unequal_100v7", lognormal(55, 100), lognormal(56, 7)
    outliers = lognormal(57, 20)
    outliers[3], outliers[11] = 5.0, 0.1
    yield "outliers_20v20", outliers, lognormal(58, 20)


def median_interval(sorted_values):
    """The largest j with P(B < j) <= (1 - level) / 2, B ~ Binomial(n, 1/2): [x(j), x(n+1-j)]."""
    n = len(sorted_values)
    tail = (1 - LEVEL) / 2
    j = 0
    while j < n and binom.cdf(j, n, 0.5) <= tail:  # P(B < j + 1) = P(B <= j)
        j += 1
    if j == 0:
        return None
    return {"low": sorted_values[j - 1], "high": sorted_values[n - j],
            "level": float(1 - 2 * binom.cdf(j - 1, n, 0.5))}


def series(values):
    n = len(values)
    q1, median, q3 = (float(q) for q in np.quantile(values, [0.25, 0.5, 0.75]))
    mean = float(np.mean(values))
    stddev = float(np.std(values, ddof=1)) if n > 1 else 0.0
    fences, outliers = None, []
    if n >= 4:
        iqr = q3 - q1
        fences = {"low": q1 - 1.5 * iqr, "high": q3 + 1.5 * iqr}
        outliers = [i for i, v in enumerate(values) if v < fences["low"] or v > fences["high"]]
    return {"values": values, "count": n, "min": min(values), "max": max(values),
            "q1": q1, "median": median, "q3": q3,
            "median_ci": median_interval(sorted(values)), "fences": fences, "outliers": outliers,
            "mean": mean, "stddev": stddev, "cv": stddev / mean if mean != 0 else 0.0}


def golden():
    out = []
    for name, x, y in cases():
        result = mannwhitneyu(x, y, alternative="two-sided", method="auto")
        method = _mwu_choose_method(len(x), len(y), np.concatenate([x, y]), "auto")
        out.append({"name": name, "x": series(x), "y": series(y),
                    "u": float(result.statistic), "p": float(result.pvalue), "method": method})
    return {"generator": "tests/tools/make_statistics_golden.py", "scipy": scipy.__version__,
            "level": LEVEL, "cases": out}


def write(data, path):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1)
        f.write("\n")


def differences(expected, actual, where="$"):
    """Where actual is not expected: structure and strings exactly, numbers to CHECK_TOLERANCE."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        if expected.keys() != actual.keys():
            return [f"{where}: keys {sorted(expected)} != {sorted(actual)}"]
        return [d for k in expected for d in differences(expected[k], actual[k], f"{where}.{k}")]
    if isinstance(expected, list) and isinstance(actual, list):
        if len(expected) != len(actual):
            return [f"{where}: {len(expected)} items != {len(actual)}"]
        return [d for i, (e, a) in enumerate(zip(expected, actual))
                for d in differences(e, a, f"{where}[{i}]")]
    numbers = (int, float)
    if (isinstance(expected, numbers) and isinstance(actual, numbers)
            and not isinstance(expected, bool) and not isinstance(actual, bool)):
        if math.isclose(expected, actual, rel_tol=CHECK_TOLERANCE, abs_tol=0.0):
            return []
        return [f"{where}: committed {expected!r}, SciPy now {actual!r}"]
    return [] if expected == actual else [f"{where}: committed {expected!r}, now {actual!r}"]


def main(argv):
    if argv[1:] == ["--check"]:
        with tempfile.TemporaryDirectory() as scratch:
            fresh = os.path.join(scratch, "statistics.json")
            write(golden(), fresh)
            with open(fresh, encoding="utf-8") as f:
                actual = json.load(f)
        with open(GOLDEN, encoding="utf-8") as f:
            committed = json.load(f)
        found = differences(committed, actual)
        for line in found[:40]:
            print(line)
        print(f"make_statistics_golden: {len(found)} differences from {os.path.relpath(GOLDEN)}")
        return 1 if found else 0
    if argv[1:]:
        print(__doc__)
        return 2
    write(golden(), GOLDEN)
    print(f"make_statistics_golden: wrote {os.path.relpath(GOLDEN)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
