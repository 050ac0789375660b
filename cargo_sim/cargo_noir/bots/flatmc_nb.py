"""`flatmc`: flat Monte Carlo over the options of each decision.

Every option of the decision (searchkit_nb.options_nb: legal answers, bid
buckets, the heuristic family's trade and discard proposals) is played out
`rollouts` times to the end of the game by the assumed bots. Common random
numbers: playout r of every option starts from the same determinization (the
same chance stream), so the options are compared on the same futures. The
option with the highest mean reward is answered (the first one on a tie).
"""
import numpy as np
from numba import njit

from ...rng_nb import seat_stream_nb
from ..forward_nb import determinize_nb, view_digest_nb
from .searchkit_nb import (SP_BIDS, SP_BUDGET, SP_VP_WEIGHT, apply_option_nb, begin_search_nb,
                           clone_into_nb, dummy_log_nb, end_search_nb, game_buffer_nb, log_ptr_nb,
                           option_buffers_nb, options_nb, playout_models_nb, reward_nb,
                           search_param_nb)


@njit(cache=True)
def flatmc_decide_nb(p, kind, seat):
    rollouts = max(1, int(search_param_nb(p, seat, SP_BUDGET)))
    n_bids = max(1, int(search_param_nb(p, seat, SP_BIDS)))
    vp_weight = search_param_nb(p, seat, SP_VP_WEIGHT)
    stream = view_digest_nb(p, seat)          # before the search touches the state
    root = game_buffer_nb()
    base = game_buffer_nb()
    log = dummy_log_nb()
    plog = log_ptr_nb(log)
    if not begin_search_nb(p, seat, root, base):
        clone_into_nb(p, root)
        return -999999
    rows, key, ans, bid, vec = option_buffers_nb()
    n, is_vec = options_nb(p, seat, n_bids, rows, key, ans, bid, vec)
    if n == 0:                                # no option found: the engine stops the game
        clone_into_nb(p, root)
        return -999999
    best = 0
    if n > 1:
        total = np.zeros(n)
        for r in range(rollouts):
            seed = seat_stream_nb(stream, seat, r)
            for k in range(n):
                clone_into_nb(p, base)
                determinize_nb(p, seat, seed)
                apply_option_nb(p, plog, k, ans, bid, vec, is_vec)
                playout_models_nb(p, plog)
                total[k] += reward_nb(p, seat, vp_weight)
        for k in range(1, n):
            if total[k] > total[best]:
                best = k
    out = end_search_nb(p, root, best, ans, bid, vec, is_vec)
    return out if log[0, 0] == 0 else out     # `log` outlives plog
