"""Macao's search kit: what the core's search bots (``core.search.flatmc_nb``,
``core.search.ismcts_nb``) need from the game, on Macao's forward model.

A search works in the state it is asked with (a pointer): it keeps the game in
``root``, seats the assumed models (the searcher's `rollout` bot at its own seat,
`opponent` at the others, with their default parameters from the table's model rows
``K_MODELS``), keeps that in ``base`` (every iteration starts from it), and puts the
game back before it answers. Options are the pending decision's legal answers (all of
them, or the model's answer and the first ``max_options`` - 1 others). The searcher's
stream comes from its key and the decision counter (never the game's chance stream);
a determinization resamples the deck order, the dice and the bots' seed
(``forward_nb.determinize_nb``). A `random` model draws from the copy's chance stream.
"""
import numpy as np
from ....core import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit

from ....core.borrow_nb import state_array_nb, state_ptr_nb
from ....core.layout import (BOTS, HEADER_LEN, M_DECISIONS, M_RNG, M_SEAT_KEY, N_PARAMS, PARAM_SCALE,
                             PARAMS, R_LEN, R_N_MODELS, R_N_PLAYERS)
from ....core.rng_nb import keyed_stream_nb
from ....core.search.models_nb import seat_models_nb
from ....core.search.params import SP_GAME, SP_OPPONENT, SP_ROLLOUT
from ..engine_nb import answer_nb, legal_nb, ok_nb, pb
from ..enums import (G_ASK, G_LOG_CAP, G_PHASE, G_SEAT, G_WINNERS, K_MODELS, MAX_LEGAL,
                     N_EVENT_FIELDS, P_VP, P_WON, PH_OVER, RULES_END, STATE_SIZE)
from ..forward_nb import clone_into_nb
from .greedy_nb import greedy_decide_nb
from .random_nb import random_at_nb

SP_MAX_OPTIONS = SP_GAME     # Macao's option parameter: options tried per decision (0: all)


@njit(cache=True)
def model_decide_nb(p, seat):
    """The seat's assumed bot's answer (in a search's copy: its BOTS word is a model)."""
    kind = p[G_ASK]
    if p[BOTS + seat] == 0:
        return random_at_nb(kind, p, seat, M_RNG)
    return greedy_decide_nb(kind, state_array_nb(p, p[R_LEN]), seat)


@njit(cache=True)
def kit_buffers_nb():
    """(root, base, log, answers, keys): the search's arrays, allocated once a decision."""
    return (np.empty(STATE_SIZE, np.int64), np.empty(STATE_SIZE, np.int64),
            np.zeros(N_EVENT_FIELDS, np.int64), np.empty(MAX_LEGAL + 1, np.int64),
            np.empty(MAX_LEGAL + 1, np.int64))


@njit(cache=True)
def kit_param_nb(bufs, seat, i):
    """The searcher's parameter i, read from the kept game (root)."""
    return bufs[0][PARAMS + seat * N_PARAMS + i] / PARAM_SCALE


@njit(cache=True)
def kit_options_nb(p, seat, searcher, bufs):
    """The options of ``seat``'s pending decision (legal answers; at most the searcher's
    max_options, the model's answer kept) and which one the seat's model answers."""
    ans, keys = bufs[3], bufs[4]
    n = legal_nb(p, ans)
    if n == 0:
        return 0, False, 0
    rng = p[M_RNG]                       # the model's pick moves no chance
    a = model_decide_nb(p, seat)
    p[M_RNG] = rng
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
    kind = p[G_ASK]
    for k in range(n):
        keys[k] = kind * 8192 + ans[k]
    return n, False, pk


@njit(cache=True)
def kit_start_nb(p, seat, bufs):
    """Keep the game, seat the models, list the root's options: (n, is_vector, stream);
    n = 0 (the game put back) when no search is possible."""
    root, base = bufs[0], bufs[1]
    stream = keyed_stream_nb(p[M_SEAT_KEY], p[M_DECISIONS])     # never the game's stream
    for i in range(STATE_SIZE):
        root[i] = p[i]
    own = int(kit_param_nb(bufs, seat, SP_ROLLOUT))
    opp = int(kit_param_nb(bufs, seat, SP_OPPONENT))
    if not (0 <= own < p[R_N_MODELS] and 0 <= opp < p[R_N_MODELS]) or p[G_ASK] < 0:
        return 0, False, stream
    seat_models_nb(p, seat, own, opp, K_MODELS)
    p[G_LOG_CAP] = 0
    clone_into_nb(base, p)
    n, is_vec, pk = kit_options_nb(p, seat, seat, bufs)
    if n == 0:
        kit_end_nb(p, bufs, 0, False)
    return n, is_vec, stream


@njit(cache=True)
def kit_log_nb(bufs):
    return state_ptr_nb(bufs[2])


@njit(cache=True)
def kit_restore_nb(p, bufs):
    clone_into_nb(p, bufs[1])


@njit(cache=True)
def kit_apply_nb(p, plog, k, bufs, is_vec):
    answer_nb(p, bufs[3][k], plog)


@njit(cache=True)
def kit_models_until_nb(p, plog, seat):
    """The modelled bots answer until ``seat`` decides or the game ends."""
    while p[G_ASK] >= 0 and p[G_SEAT] != seat:
        a = model_decide_nb(p, p[G_SEAT])
        if not ok_nb(p, a):
            break                        # (never: the models answer legally) reward 0
        answer_nb(p, a, plog)


@njit(cache=True)
def kit_playout_nb(p, plog):
    kit_models_until_nb(p, plog, -1)


@njit(cache=True)
def kit_reward_nb(p, seat, vp_weight):
    """Win share + vp_weight x (own points - the best other's) of a finished game, else 0."""
    if p[G_PHASE] != PH_OVER:
        return 0.0
    best = -(2**62)
    for q in range(p[R_N_PLAYERS]):
        if q != seat and p[pb(q) + P_VP] > best:
            best = p[pb(q) + P_VP]
    share = p[pb(seat) + P_WON] / max(p[G_WINNERS], 1)
    return share + vp_weight * (p[pb(seat) + P_VP] - best)


@njit(cache=True)
def kit_end_nb(p, bufs, k, is_vec):
    """Put the game back; answer option k."""
    root = bufs[0]
    for i in range(STATE_SIZE):
        p[i] = root[i]
    return bufs[3][k]


@njit(cache=True)
def kit_key_nb(bufs, k):
    return bufs[4][k]


@njit(cache=True)
def kit_mover_nb(p):
    return p[G_SEAT] if p[G_ASK] >= 0 else -1


# (the rules' words are never written: a restore copies the header and the game part)
_ = (HEADER_LEN, RULES_END)
