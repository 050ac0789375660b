"""Statistics the library itself reports (numpy only): one formula, one place.

``analyses.stats`` builds its pipelines on these; the CLI and the tournament
use them directly.
"""
import numpy as np

__all__ = ["Z95", "wilson_interval"]

Z95 = 1.959963984540054          # standard normal quantile for a two-sided 95% interval


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
