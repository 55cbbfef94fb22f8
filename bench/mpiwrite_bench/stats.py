"""Pure figures over run times: no I/O, no printing (tests/bench/test_stats.py)."""
import math
import statistics


def summary(xs):
    """Median, min, max, mean and count of a non-empty list of numbers."""
    return {"median": statistics.median(xs), "min": min(xs), "max": max(xs),
            "mean": statistics.fmean(xs), "n": len(xs)}


def median(xs):
    return statistics.median(xs)


def median_interval(xs, level=0.95):
    """A distribution-free interval of the median of xs: the order statistics x_(k) and
    x_(n+1-k) (1-based, sorted), k the largest with P(Binomial(n, 1/2) < k) <= (1 - level) / 2,
    so that it covers the median with at least `level` (mpiwrite's own median_ci is built the
    same way). Returns (low, high, coverage); None when n is too small for any such k (n < 6
    at 95 %)."""
    xs = sorted(xs)
    n = len(xs)
    tail, k = 0.0, 0
    while k < n:
        nxt = tail + math.comb(n, k) / 2 ** n  # P(B <= k)
        if nxt > (1 - level) / 2:
            break
        tail, k = nxt, k + 1
    if k == 0:
        return None
    return xs[k - 1], xs[n - k], 1 - 2 * tail


def summary_with_interval(xs):
    """summary(xs) and "interval": the median's 95 % interval as {low, high, coverage}, or
    None under 6 values (median_interval)."""
    band = median_interval(xs)
    return summary(xs) | {"interval": ({"low": band[0], "high": band[1], "coverage": band[2]}
                                       if band else None)}


def ratio_of_medians(a, b):
    """median(a) / median(b): the figure every goal is stated on."""
    return statistics.median(a) / statistics.median(b)


def paired_ratios(runs, a, b):
    """runs[i][a] / runs[i][b] for every run holding both keys: the same run's two variants
    ran back to back, so their ratio cancels drift that the medians cannot."""
    return [r[a] / r[b] for r in runs if a in r and b in r]


def paired_differences(runs, a, b):
    """runs[i][a] - runs[i][b] for every run holding both keys."""
    return [r[a] - r[b] for r in runs if a in r and b in r]


def difference_of_medians(a, b):
    return statistics.median(a) - statistics.median(b)


def slope(x0, y0, x1, y1):
    """(y1 - y0) / (x1 - x0), None when x1 <= x0: what one more x costs in y."""
    return (y1 - y0) / (x1 - x0) if x1 > x0 else None


def ms(s):
    """'median [min–max]' in ms of a summary() in seconds; 3 decimals below 10 ms (a 100-file
    write phase lasts well under 10 ms), else 1."""
    d = 3 if s["min"] < 0.01 else 1
    return f"{s['median'] * 1e3:.{d}f} [{s['min'] * 1e3:.{d}f}–{s['max'] * 1e3:.{d}f}]"


def ms_of(seconds):
    """One time in ms for the progress lines, as the bash printed it."""
    return f"{seconds * 1e3:.3f}" if seconds < 0.01 else f"{seconds * 1e3:.1f}"
