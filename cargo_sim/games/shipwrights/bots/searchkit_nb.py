"""Shipwrights' search kit: what the core's search bots (``core.search.flatmc_nb``,
``core.search.ismcts_nb``) need from the game, on its forward model.

A search works in the state it is asked with (a pointer, viewed as an array so the
engine's one compiled form serves): it keeps the game in ``root``, seats the assumed
models (the searcher's `rollout` bot at its own seat, `opponent` at the others, with
their default parameters from the table's model rows ``K_MODELS``), keeps that in
``base`` (every iteration starts from it) and puts the game back before it answers.
Options are the pending decision's legal answers (all, or the model's answer and the
first ``max_options`` - 1 others). The searcher's stream comes from its key and the
decision counter, never the game's chance stream; a determinization resamples what the
seat cannot know (``forward_nb.determinize_nb``). A `random` model draws from the
copy's chance stream.
"""
import numpy as np
from ....core import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit

from ....core.borrow_nb import state_array_nb
from ....core.layout import (BOTS, M_DECISIONS, M_RNG, M_SEAT_KEY, N_PARAMS, PARAM_SCALE, PARAMS,
                             R_LEN, R_N_MODELS, R_N_PLAYERS)
from ....core.rng_nb import keyed_stream_nb
from ....core.search.models_nb import seat_models_nb
from ....core.search.params import SP_GAME, SP_OPPONENT, SP_ROLLOUT
from ..engine_nb import answer_nb, legal_nb, ok_nb, pb
from ..enums import (G_ASK, G_LOG_CAP, G_PHASE, G_SEAT, G_WINNERS, K_MODELS, MAX_LEGAL,
                     N_EVENT_FIELDS, P_VP, P_WON, PH_OVER, STATE_SIZE)
from ..forward_nb import clone_into_nb, determinize_nb
from .heuristic_nb import heuristic_decide_nb
from .random_nb import random_at_nb

SP_MAX_OPTIONS = SP_GAME


@njit(cache=True)
def arr_nb(p):
    return state_array_nb(p, p[R_LEN])


@njit(cache=True)
def model_decide_nb(s, seat):
    """The seat's assumed bot's answer (in a search's copy its BOTS word is a model)."""
    kind = s[G_ASK]
    if s[BOTS + seat] == 0:
        return random_at_nb(kind, s, seat, M_RNG)
    return heuristic_decide_nb(kind, s, seat)


@njit(cache=True)
def kit_buffers_nb():
    """(root, base, log, answers, keys): the search's arrays, allocated once a decision."""
    return (np.empty(STATE_SIZE, np.int64), np.empty(STATE_SIZE, np.int64),
            np.zeros((0, N_EVENT_FIELDS), np.int64), np.empty(MAX_LEGAL + 1, np.int64),
            np.empty(MAX_LEGAL + 1, np.int64))


@njit(cache=True)
def kit_param_nb(bufs, seat, i):
    return bufs[0][PARAMS + seat * N_PARAMS + i] / PARAM_SCALE


@njit(cache=True)
def options_nb(s, seat, searcher, bufs):
    ans, keys = bufs[3], bufs[4]
    n = legal_nb(s, ans)
    if n == 0:
        return 0, False, 0
    rng = s[M_RNG]                       # the model's pick moves no chance
    a = model_decide_nb(s, seat)
    s[M_RNG] = rng
    pk = 0
    for k in range(n):
        if ans[k] == a:
            pk = k
            break
    cap = int(kit_param_nb(bufs, searcher, SP_MAX_OPTIONS))
    if 0 < cap < n:
        if pk >= cap:                    # the model's answer takes the last place
            ans[cap - 1] = ans[pk]
            pk = cap - 1
        n = cap
    kind = s[G_ASK]
    for k in range(n):
        keys[k] = kind * 65536 + ans[k]
    return n, False, pk


@njit(cache=True)
def kit_options_nb(p, seat, searcher, bufs):
    return options_nb(arr_nb(p), seat, searcher, bufs)


@njit(cache=True)
def kit_start_nb(p, seat, bufs):
    """Keep the game, seat the models, list the root's options: (n, is_vector, stream);
    n = 0 (the game put back) when no search is possible."""
    s = arr_nb(p)
    root, base = bufs[0], bufs[1]
    stream = keyed_stream_nb(s[M_SEAT_KEY], s[M_DECISIONS])
    root[:] = s[:STATE_SIZE]
    own = int(kit_param_nb(bufs, seat, SP_ROLLOUT))
    opp = int(kit_param_nb(bufs, seat, SP_OPPONENT))
    if not (0 <= own < s[R_N_MODELS] and 0 <= opp < s[R_N_MODELS]) or s[G_ASK] < 0:
        return 0, False, stream
    seat_models_nb(s, seat, own, opp, K_MODELS)
    s[G_LOG_CAP] = 0
    clone_into_nb(base, s)
    n, is_vec, pk = options_nb(s, seat, seat, bufs)
    if n == 0:
        kit_end_nb(p, bufs, 0, False)
    return n, is_vec, stream


@njit(cache=True)
def kit_log_nb(bufs):
    return bufs[2]


@njit(cache=True)
def kit_restore_nb(p, bufs):
    clone_into_nb(arr_nb(p), bufs[1])


@njit(cache=True)
def kit_determinize_nb(p, seat, seed):
    determinize_nb(arr_nb(p), seat, seed)


@njit(cache=True)
def kit_apply_nb(p, plog, k, bufs, is_vec):
    answer_nb(arr_nb(p), bufs[3][k], plog)


@njit(cache=True)
def kit_models_until_nb(p, plog, seat):
    """The modelled bots answer until ``seat`` decides or the game ends."""
    s = arr_nb(p)
    while s[G_ASK] >= 0 and s[G_SEAT] != seat:
        a = model_decide_nb(s, s[G_SEAT])
        if not ok_nb(s, a):
            break
        answer_nb(s, a, plog)


@njit(cache=True)
def kit_playout_nb(p, plog):
    kit_models_until_nb(p, plog, -1)


@njit(cache=True)
def kit_reward_nb(p, seat, vp_weight):
    """Win share + vp_weight x (own points - the best other's) of a finished game, else 0."""
    s = arr_nb(p)
    if s[G_PHASE] != PH_OVER:
        return 0.0
    best = -(2**62)
    for q in range(s[R_N_PLAYERS]):
        if q != seat and s[pb(q) + P_VP] > best:
            best = s[pb(q) + P_VP]
    share = s[pb(seat) + P_WON] / max(s[G_WINNERS], 1)
    return share + vp_weight * (s[pb(seat) + P_VP] - best)


@njit(cache=True)
def kit_end_nb(p, bufs, k, is_vec):
    """Put the game back; answer option k."""
    s = arr_nb(p)
    s[:STATE_SIZE] = bufs[0]
    return bufs[3][k]


@njit(cache=True)
def kit_key_nb(bufs, k):
    return bufs[4][k]


@njit(cache=True)
def kit_mover_nb(p):
    s = arr_nb(p)
    return s[G_SEAT] if s[G_ASK] >= 0 else -1
