"""Cargo Noir's side of the opponent models from public play (``core.search.belief_nb``).

``observe_nb`` runs as the engine applies any answer at a table with a search seat
(``core.dispatch_nb.observe_nb``): each candidate (each search model row but
`random`) answers the same decision on the same state with its own parameters, and
is scored against the seat's answer: the same answer is a match; the same place at
another bid, another raise amount, another swap, another trade (both trading) or
another discard, or another resolution order is a near miss; anything else (another
destination, raise against abandon, a trade against none) a miss. The state holds
only public information then (the chance stream reads 0), and the seat's own
parameters are never read: its row is replaced by the candidate's for each replay
and put back. ``set_model_cdfs_nb`` and ``draw_models_nb`` are the search's use of
the counts (a model per seat and determinization).
"""
import numpy as np
from ....core import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit

from ....core.rng_nb import seat_stream_nb
from ....core.search.belief_nb import CDF_ONE, count_nb, model_cdf_nb, sample_nb
from ....core.search.params import MODEL_FIXED
from ....core.shared_nb import shared_ptr_nb
from ..enums import (BELIEF, BM_DRAW, BOTS, D_BLACK_MARKET, D_DISCARD, D_RAISE, D_SEND, D_TRADE,
                     LOC_PORT0, MAX_CAND, MODEL_CDF, MODEL_ON, N_PARAMS, OUT, OUT_W, PARAMS,
                     R_MODELS, R_N_MODELS, R_N_PLAYERS)
from .dispatch_nb import model_decide_nb

FIRST = 1            # candidates are model rows FIRST.. (row 0 is `random`)
KEEP = BELIEF - OUT  # the answer and the bots' notes (s[OUT...] up to the record)


@njit(cache=True)
def set_row_nb(p, seat, m):
    """Seat model row m (bot index and default parameters) at `seat`."""
    p[BOTS + seat] = m
    for i in range(N_PARAMS):
        p[PARAMS + seat * N_PARAMS + i] = shared_ptr_nb(p)[p[R_MODELS] + m * N_PARAMS + i]


@njit(cache=True)
def n_candidates_nb(p):
    return min(p[R_N_MODELS], MAX_CAND)


@njit(cache=True)
def level_nb(kind, ans, out, a, p):
    """0 match, 1 near miss, 2 miss: a candidate's answer `a` (vector in p[OUT...])
    against the seat's `ans` (vector in out)."""
    if kind == D_SEND:
        if a != ans:
            return 2
        return 1 if ans >= LOC_PORT0 and p[OUT] != out[0] else 0
    if kind == D_RAISE:
        if (a == 0) != (ans == 0):
            return 2
        return 0 if a == ans else 1
    if kind == D_BLACK_MARKET:
        if (a == BM_DRAW) != (ans == BM_DRAW):
            return 2
        return 0 if a == ans else 1
    if kind == D_TRADE or kind == D_DISCARD:
        if kind == D_TRADE and a != ans:
            return 2
        if kind == D_TRADE and ans == 0:
            return 0
        for i in range(OUT_W):
            if p[OUT + i] != out[i]:
                return 1
        return 0
    return 0 if a == ans else 1        # the order of resolution


@njit(cache=True)
def observe_nb(p, kind, seat, ans):
    """Count each candidate's match with `seat`'s answer `ans` (and s[OUT...]) at the
    pending decision; the game is left as it was, apart from the counts."""
    keep = np.empty(KEEP + 1 + N_PARAMS, np.int64)
    for i in range(KEEP):
        keep[i] = p[OUT + i]
    keep[KEEP] = p[BOTS + seat]
    for i in range(N_PARAMS):
        keep[KEEP + 1 + i] = p[PARAMS + seat * N_PARAMS + i]
    for m in range(FIRST, n_candidates_nb(p)):
        set_row_nb(p, seat, m)
        for i in range(KEEP):          # the answer area and the bots' notes as if fresh
            p[OUT + i] = 0
        a = model_decide_nb(kind, p, seat)
        count_nb(p, BELIEF + seat * MAX_CAND + m, level_nb(kind, ans, keep, a, p))
    for i in range(KEEP):
        p[OUT + i] = keep[i]
    p[BOTS + seat] = keep[KEEP]
    for i in range(N_PARAMS):
        p[PARAMS + seat * N_PARAMS + i] = keep[KEEP + 1 + i]
    return 0


@njit(cache=True)
def set_model_cdfs_nb(p, seat, mode, favourite, prior, tremble):
    """In a search's copy: every other seat's sampling row from its counts, and
    MODEL_ON (mode MODEL_FIXED: off, the `opponent` bot at every seat)."""
    p[MODEL_ON] = 0
    if mode == MODEL_FIXED:
        return
    n = n_candidates_nb(p)
    work = np.zeros(MAX_CAND)
    for q in range(p[R_N_PLAYERS]):
        if q != seat:
            model_cdf_nb(p, BELIEF + q * MAX_CAND, MODEL_CDF + q * MAX_CAND, FIRST, n, favourite,
                         prior, tremble, mode, work)
    p[MODEL_ON] = 1


@njit(cache=True)
def draw_models_nb(p, seat, rng_state):
    """In a determinization: each other seat's model drawn from its sampling row, from
    the searcher's stream for this determinization (never the game's)."""
    if p[MODEL_ON] == 0:
        return
    n = n_candidates_nb(p)
    for q in range(p[R_N_PLAYERS]):
        if q != seat:
            u = np.uint64(seat_stream_nb(rng_state, q, np.int64(0x0B5E)))
            m = sample_nb(p, MODEL_CDF + q * MAX_CAND, FIRST, n,
                          np.int64(u >> np.uint64(32)) % CDF_ONE)
            set_row_nb(p, q, m)
