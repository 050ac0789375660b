"""Statistics the library itself reports: one formula, one place.

``analyses.stats`` builds its pipelines on these; the CLI, the aggregates, the
tournament, sweeps and tuning use them directly. Every interval is 95 %.
"""
import numpy as np
from scipy import stats as _st

__all__ = ["LEVEL", "Z95", "wilson_interval", "proportion", "newcombe_diff_ci", "t_quantile",
           "mean_row", "mean_ci", "mean_from_sums", "clustered_mean", "clustered_diff", "chi2_equal"]

LEVEL = 0.95
Z95 = 1.959963984540054          # standard normal quantile for a two-sided 95% interval


# ---- proportions ------------------------------------------------------------
def wilson_interval(successes, n, z: float = Z95):
    """Wilson score interval ``(lo, hi)`` for the proportion ``successes / n``.

    centre = (p + z^2/2n) / (1 + z^2/n),
    half   = z sqrt(p(1-p)/n + z^2/4n^2) / (1 + z^2/n),   p = successes/n.
    Works elementwise on arrays and on scalars (then returns floats);
    fractional successes (shared wins) are allowed; ``n == 0`` gives NaN.
    """
    x = np.asarray(successes, dtype=float)
    n = np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = x / n
        z2 = z * z
        den = 1.0 + z2 / n
        centre = (p + z2 / (2 * n)) / den
        half = z * np.sqrt(np.clip(p * (1 - p), 0.0, None) / n + z2 / (4 * n * n)) / den
        lo = np.where(n > 0, np.clip(centre - half, 0.0, 1.0), np.nan)
        hi = np.where(n > 0, np.clip(centre + half, 0.0, 1.0), np.nan)
    if lo.ndim == 0:
        return float(lo), float(hi)
    return lo, hi


def proportion(successes, n, name: str = "p") -> dict:
    """n, successes, <name> = successes / n (NaN where n == 0) and its Wilson
    interval ci_lo, ci_hi, as arrays."""
    x = np.asarray(successes, dtype=float)
    nn = np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.where(nn > 0, x / nn, np.nan)
    lo, hi = wilson_interval(x, nn)
    return {"n": nn.astype(np.int64), "successes": x, name: p, "ci_lo": np.asarray(lo),
            "ci_hi": np.asarray(hi)}


def newcombe_diff_ci(x1, n1, x2, n2, z: float = Z95):
    """p1 - p2 and its interval (Newcombe's hybrid score method 10, from the
    two Wilson intervals):  d - sqrt((p1-l1)^2 + (u2-p2)^2),
    d + sqrt((u1-p1)^2 + (p2-l2)^2)."""
    x1, n1, x2, n2 = (np.asarray(a, dtype=float) for a in (x1, n1, x2, n2))
    with np.errstate(invalid="ignore", divide="ignore"):
        p1, p2 = x1 / n1, x2 / n2
    l1, u1 = wilson_interval(x1, n1, z)
    l2, u2 = wilson_interval(x2, n2, z)
    d = p1 - p2
    lo = d - np.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    hi = d + np.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return d, lo, hi


# ---- means -----------------------------------------------------------------
def t_quantile(n):
    """t(0.975, n-1), the factor of a 95 % t interval; NaN for n < 2."""
    n = np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore"):
        return _st.t.ppf(0.5 + LEVEL / 2, np.where(n >= 2, n - 1, np.nan))


def mean_row(n, mean, sd) -> dict:
    """n, mean, sd, se = sd/sqrt(n) and the 95 % t interval mean +- t(0.975, n-1) se
    (arrays, or Python numbers when the inputs are scalars)."""
    n = np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        se = np.where(n >= 2, sd / np.sqrt(n), np.nan)
    half = t_quantile(n) * se
    out = {"n": n.astype(np.int64), "mean": mean, "sd": sd, "se": se,
           "ci_lo": mean - half, "ci_hi": mean + half}
    if np.ndim(out["se"]) == 0:
        out = {k: (int(v) if k == "n" else float(v)) for k, v in out.items()}
    return out


def mean_ci(values) -> dict:
    """n, mean, sd (ddof 1), se and 95 % t interval of one sample (NaN values dropped)."""
    v = np.asarray(values, dtype=float)
    v = v[~np.isnan(v)]
    n = len(v)
    mean = float(v.mean()) if n else np.nan
    sd = float(v.std(ddof=1)) if n >= 2 else np.nan
    return mean_row(n, mean, sd)


def mean_from_sums(n, total, total_sq) -> dict:
    """mean_row from the count, sum and sum of squares of a sample (counters
    folded without keeping the values): mean = total/n,
    var = (total_sq - n mean^2) / (n - 1)."""
    n = np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(n > 0, np.asarray(total, dtype=float) / n, np.nan)
        var = (np.asarray(total_sq, dtype=float) - n * mean * mean) / (n - 1)
        sd = np.where(n >= 2, np.sqrt(np.clip(var, 0, None)), np.nan)
    return mean_row(n, mean, sd)


def clustered_mean(values, clusters) -> dict:
    """n, mean, se and 95 % interval of the mean of ``values`` whose rows come in
    ``clusters`` (e.g. the players of one game, whose wins are not independent):
    the linearised (sandwich) se of a ratio mean, sqrt(C/(C-1) sum_c (Y_c - mean N_c)^2) / n
    over the C clusters' sums Y_c and sizes N_c, with t(0.975, C-1). ``clusters``
    (the cluster count) is returned too; NaN values are dropped."""
    v = np.asarray(values, dtype=float)
    codes = np.unique(np.asarray(clusters), return_inverse=True)[1].ravel()
    keep = ~np.isnan(v)
    v, codes = v[keep], codes[keep]
    n = len(v)
    if n == 0:
        return {"n": 0, "mean": np.nan, "se": np.nan, "ci_lo": np.nan, "ci_hi": np.nan, "clusters": 0}
    codes = np.unique(codes, return_inverse=True)[1].ravel()
    c = int(codes.max()) + 1
    tot = np.bincount(codes, weights=v, minlength=c)
    cnt = np.bincount(codes, minlength=c).astype(float)
    mean = float(v.sum() / n)
    se = float(np.sqrt(c / (c - 1) * np.sum((tot - mean * cnt) ** 2)) / n) if c >= 2 else np.nan
    half = float(t_quantile(c)) * se
    return {"n": n, "mean": mean, "se": se, "ci_lo": mean - half, "ci_hi": mean + half, "clusters": c}


def clustered_diff(values, group, clusters) -> dict:
    """The difference of means ``values[group] - values[~group]`` and its 95 % interval
    when rows come in ``clusters`` (both groups may share a cluster: the players of one
    game with a trait and those without); the sandwich se from each cluster's
    linearised contribution (Y1_c - m1 N1_c)/n1 - (Y0_c - m0 N0_c)/n0, t(0.975, C-1)."""
    v = np.asarray(values, dtype=float)
    g = np.asarray(group, dtype=bool)
    codes = np.unique(np.asarray(clusters), return_inverse=True)[1].ravel()
    n1, n0 = int(g.sum()), int((~g).sum())
    out = {"n1": n1, "n0": n0, "diff": np.nan, "ci_lo": np.nan, "ci_hi": np.nan}
    if n1 == 0 or n0 == 0:
        return out
    c = int(codes.max()) + 1
    m1, m0 = float(v[g].mean()), float(v[~g].mean())
    y1 = np.bincount(codes[g], weights=v[g], minlength=c)
    y0 = np.bincount(codes[~g], weights=v[~g], minlength=c)
    k1 = np.bincount(codes[g], minlength=c)
    k0 = np.bincount(codes[~g], minlength=c)
    infl = (y1 - m1 * k1) / n1 - (y0 - m0 * k0) / n0
    se = float(np.sqrt(c / (c - 1) * np.sum(infl ** 2))) if c >= 2 else np.nan
    half = float(t_quantile(c)) * se
    out.update(diff=m1 - m0, ci_lo=m1 - m0 - half, ci_hi=m1 - m0 + half)
    return out


# ---- tests ------------------------------------------------------------------
def chi2_equal(observed) -> dict:
    """Pearson chi-square test that k categories are equally likely:
    expected = sum/k each, chi2 = sum (o - e)^2 / e, dof = k - 1."""
    o = np.asarray(observed, dtype=float)
    k = len(o)
    total = o.sum()
    if k < 2 or total <= 0:
        return {"chi2": np.nan, "dof": max(k - 1, 0), "p_value": np.nan}
    e = total / k
    chi2 = float(((o - e) ** 2 / e).sum())
    return {"chi2": chi2, "dof": k - 1, "p_value": float(_st.chi2.sf(chi2, k - 1))}
