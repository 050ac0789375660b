"""`flatmc`: flat Monte Carlo over the options of each decision.

Every option of the decision (searchkit_nb.options_nb: legal answers, bid
buckets, the heuristic family's trade and discard proposals) is played out
`rollouts` times to the end of the game by the assumed bots. Common random
numbers: playout r of every option starts from the same determinization (the
same chance stream), so the options are compared on the same futures. The
option with the highest mean reward is answered (the first one on a tie).
"""
import numpy as np
from ....core import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit

from ....core.rng_nb import seat_stream_nb
from ..forward_nb import determinize_nb
from .searchkit_nb import (NO_ANSWER, SP_BUDGET, SP_VP_WEIGHT, apply_option_nb, clone_into_nb,
                           end_search_nb, log_ptr_nb, playout_models_nb, reward_nb,
                           search_buffers_nb, search_param_nb, start_search_nb)


@njit(cache=True)
def flatmc_decide_nb(p, kind, seat):
    root, base, log, rows, key, ans, bid, vec = search_buffers_nb()
    plog = log_ptr_nb(log)
    n, is_vec, stream = start_search_nb(p, seat, root, base, rows, key, ans, bid, vec)
    if n == 0:
        return NO_ANSWER
    rollouts = max(1, int(search_param_nb(root, seat, SP_BUDGET)))
    vp_weight = search_param_nb(root, seat, SP_VP_WEIGHT)
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
