"""Shared statistics: every formula used by the pipelines lives here, once.

Conventions of every table the pipelines return:

* ``n`` — the sample size the statistic is computed from (games, players,
  events... the docstring of each pipeline says which);
* proportions: ``p`` (or a named rate), ``se`` = sqrt(p(1-p)/n) and the 95%
  Wilson score interval ``ci_lo``/``ci_hi`` (``wilson_ci``);
* means: ``mean``, ``sd``, ``se`` = sd/sqrt(n) and the 95% t interval
  ``mean +- t(0.975, n-1) * se`` (``mean_ci``);
* medians and other quantiles: percentile-bootstrap 95% intervals
  (``bootstrap_ci``).

A shared win (tie) counts as 1/k of a win (``win_share``); its Wilson interval
uses the fractional number of wins, which is exact when there are no ties and
a close approximation otherwise (ties are rare).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from cargo_sim.core.stats import (LEVEL, Z95, chi2_equal, mean_ci, mean_from_sums,  # noqa: F401
                             mean_row, newcombe_diff_ci, proportion, t_quantile,
                             wilson_interval)

Z = Z95      # 1.959964...
# Below this sample size an interval is not shown (report tables print "n too
# small", figures leave the point out): see docs/figures.md.
MIN_N = 30


# ---- proportions ------------------------------------------------------------
# 95% Wilson score interval (lo, hi) of ``successes`` out of ``n``: the library's one
# formula, under the pipelines' name
wilson_ci = wilson_interval


def half_width(p, n) -> float:
    """Half-width of the normal-approximation 95% interval of a proportion p of n
    (for planning sample sizes; intervals of results are Wilson's)."""
    return float(Z * np.sqrt(max(p * (1 - p), 1e-12) / max(n, 1)))


def proportion_se(p, n):
    """Standard error of a proportion: sqrt(p(1-p)/n)."""
    p = np.asarray(p, dtype=float)
    n = np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(n > 0, np.sqrt(np.clip(p * (1 - p), 0, None) / n), np.nan)


def proportion_frame(successes, n, name: str = "p") -> pd.DataFrame:
    """Columns n, successes, <name>, se, ci_lo, ci_hi for aligned arrays/Series."""
    d = proportion(successes, n, name)
    d["se"] = proportion_se(d[name], d["n"])
    return pd.DataFrame({k: d[k] for k in ("n", "successes", name, "se", "ci_lo", "ci_hi")})


def grouped_proportion(df: pd.DataFrame, by, col: str, name: str = "p") -> pd.DataFrame:
    """Proportion of ``col`` (0/1 or a fractional share such as win_share) per
    group: n = rows in the group, successes = sum(col)."""
    by = as_list(by)
    if len(df) == 0:
        return empty_frame(by, ["n", "successes", name, "se", "ci_lo", "ci_hi"])
    g = df.groupby(by, observed=True, sort=True)[col].agg(["size", "sum"])
    out = proportion_frame(g["sum"].to_numpy(), g["size"].to_numpy(), name)
    out.index = g.index
    return out.reset_index()


# ---- means -----------------------------------------------------------------
def grouped_mean(df: pd.DataFrame, by, col: str) -> pd.DataFrame:
    """Per group: n, mean, sd, se, ci_lo, ci_hi of ``col`` (NaN values dropped)."""
    by = as_list(by)
    d = df[by + [col]].dropna(subset=[col])
    if len(d) == 0:
        return empty_frame(by, ["n", "mean", "sd", "se", "ci_lo", "ci_hi"])
    vals = d[col].astype(float)
    g = vals.groupby([d[b] for b in by], observed=True, sort=True).agg(["count", "mean", "std"])
    row = mean_row(g["count"].to_numpy(), g["mean"].to_numpy(), g["std"].to_numpy())
    out = pd.DataFrame(row, index=g.index)
    return out.reset_index()


# ---- bootstrap --------------------------------------------------------------
def bootstrap_ci(values, stat=np.median, n_boot: int = 1000, seed: int = 0):
    """Percentile-bootstrap 95% interval of ``stat`` (resampling ``values`` with
    replacement ``n_boot`` times; deterministic for a given seed)."""
    v = np.asarray(values, dtype=float)
    v = v[~np.isnan(v)]
    if len(v) < 2:
        return (np.nan, np.nan)
    rng = np.random.default_rng(seed)
    uniq, counts = np.unique(v, return_counts=True)
    if stat is np.median and len(uniq) <= 2000:
        # discrete data: a resample is a multinomial draw of the value counts
        draws = rng.multinomial(len(v), counts / len(v), size=n_boot)
        reps = _median_from_counts(uniq, np.cumsum(draws, axis=1), len(v))
    else:
        idx = rng.integers(0, len(v), size=(n_boot, len(v)))
        reps = np.apply_along_axis(stat, 1, v[idx]) if stat is not np.median else np.median(v[idx], axis=1)
    a = (1 - LEVEL) / 2
    return float(np.quantile(reps, a)), float(np.quantile(reps, 1 - a))


def _median_from_counts(values, cum, n):
    """Medians of samples given as cumulative counts over sorted ``values``
    (rows of ``cum``): the mean of the order statistics (n-1)//2 and n//2."""
    lo = np.array([np.searchsorted(c, (n - 1) // 2, side="right") for c in cum])
    hi = np.array([np.searchsorted(c, n // 2, side="right") for c in cum])
    return (values[lo] + values[hi]) / 2


def grouped_median(df: pd.DataFrame, by, col: str, n_boot: int = 1000, seed: int = 0,
                   max_n: int = 20000) -> pd.DataFrame:
    """Per group: n, median and its bootstrap 95% interval (groups larger than
    ``max_n`` are bootstrapped from a random subsample of ``max_n`` rows, which
    only widens the interval)."""
    by = as_list(by)
    rows = []
    for key, d in df.dropna(subset=[col]).groupby(by, observed=True, sort=True):
        v = d[col].to_numpy(float)
        sub = v
        if len(v) > max_n:
            sub = np.random.default_rng(seed).choice(v, max_n, replace=False)
        lo, hi = bootstrap_ci(sub, np.median, n_boot, seed)
        key = key if isinstance(key, tuple) else (key,)
        rows.append(dict(zip(by, key), n=len(v), median=float(np.median(v)), ci_lo=lo, ci_hi=hi))
    if not rows:
        return empty_frame(by, ["n", "median", "ci_lo", "ci_hi"])
    return pd.DataFrame(rows)


# ---- distributions ----------------------------------------------------------
def value_counts_frame(df: pd.DataFrame, by, col: str, name: str = "share") -> pd.DataFrame:
    """Distribution of the values of ``col`` per group: count, n (group size),
    share = count/n with its Wilson interval."""
    by = as_list(by)
    if len(df) == 0:
        return empty_frame(by + [col], ["count", "n", name, "ci_lo", "ci_hi"])
    counts = df.groupby(by + [col], observed=True, sort=True).size().rename("count").reset_index()
    totals = df.groupby(by, observed=True).size().rename("n").reset_index()
    out = counts.merge(totals, on=by)
    out[name] = out["count"] / out["n"]
    out["ci_lo"], out["ci_hi"] = wilson_ci(out["count"].to_numpy(), out["n"].to_numpy())
    return out


# ---- small helpers ----------------------------------------------------------
def as_list(by) -> list:
    if by is None:
        return []
    return [by] if isinstance(by, str) else list(by)


def empty_frame(by, cols) -> pd.DataFrame:
    return pd.DataFrame({c: pd.Series(dtype=float) for c in list(by) + list(cols)})
