"""Opponent modelling from public play, for any game: which of a set of candidate
policies explains each seat's answers so far, and a model per seat drawn from that.

The game keeps, per (seat, candidate), how often the candidate's own answer at one
of the seat's past decisions differed from what the seat answered: a *miss* (a
different kind of answer) or a *near* miss (the same kind, another amount: the game decides).
It counts them at every answer of the game (``core.dispatch_nb.observe_nb``, called
as an answer is applied), replaying each candidate on the state the seat answered
in, which holds only what every player sees (the chance stream reads 0, and a
candidate reads its own parameters, never the seat's): so a count depends on the
seat's public answers alone. The words live in the game's state (a counts row and a
sampling row per seat, ``candidates`` words each); candidate c is the game's model
row c (its search models).

The posterior of candidate c for a seat: prior(c) x tremble^misses x
sqrt(tremble)^nears, normalised; prior = `prior` for the search's `opponent`
bot, the rest shared evenly. A search turns it into a sampling row
(``model_cdf_nb``, once per decision) and draws a candidate per seat in each
determinization (``sample_nb``), or takes the most likely one (MAP).
See docs/forward.md, "Opponent models".
"""
import numpy as np
from .. import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit

from .params import MODEL_MAP

NEAR = 1                # a near miss adds 1 to the candidate's word
MISS = 1 << 24          # a miss adds MISS (so a word = misses * MISS + nears)
CDF_ONE = 1 << 32       # the sampling row's fixed point: cumulative probability x 2^32


@njit(cache=True)
def count_nb(p, at, level):
    """Record one observation in the word p[at] (level: 0 match, 1 near miss, 2 miss)."""
    if level == 2:
        p[at] += MISS
    elif level == 1:
        p[at] += NEAR


@njit(cache=True)
def posterior_nb(p, at, first, n, favourite, prior, tremble, out):
    """The posterior of candidates first..n-1 from their words p[at + c] into out[c]
    (0 elsewhere): prior `prior` for `favourite`, the rest shared evenly."""
    others = n - first - (1 if first <= favourite < n else 0)
    log_miss = np.log(max(tremble, 1e-12))
    top = -1e300
    for c in range(first, n):
        w = prior if c == favourite else ((1.0 - prior) / others if others > 0 else 0.0)
        ll = -1e300
        if w > 0.0:
            ll = np.log(w) + (p[at + c] // MISS) * log_miss + (p[at + c] % MISS) * 0.5 * log_miss
        out[c] = ll
        if ll > top:
            top = ll
    total = 0.0
    for c in range(out.shape[0]):
        if first <= c < n and out[c] > -1e299:
            out[c] = np.exp(out[c] - top)
            total += out[c]
        else:
            out[c] = 0.0
    for c in range(first, n):
        out[c] /= total
    return out


@njit(cache=True)
def model_cdf_nb(p, at, cdf_at, first, n, favourite, prior, tremble, mode, work):
    """Write the sampling row p[cdf_at + c] (cumulative, x CDF_ONE) of the posterior
    (mode MODEL_MAP: all of it on the most likely candidate, the first on a tie)."""
    posterior_nb(p, at, first, n, favourite, prior, tremble, work)
    if mode == MODEL_MAP:
        best = first
        for c in range(first, n):
            if work[c] > work[best]:
                best = c
        for c in range(first, n):
            work[c] = 1.0 if c == best else 0.0
    acc = 0.0
    for c in range(first, n):
        acc += work[c]
        p[cdf_at + c] = min(CDF_ONE, int(acc * CDF_ONE + 0.5))
    p[cdf_at + n - 1] = CDF_ONE


@njit(cache=True)
def sample_nb(p, cdf_at, first, n, u):
    """The candidate the sampling row gives for u in [0, CDF_ONE)."""
    for c in range(first, n):
        if u < p[cdf_at + c]:
            return c
    return n - 1
