"""`flatmc`: flat Monte Carlo over the options of each decision, for any game.

Every option of the decision (the game's kit lists them) is played out
`rollouts` times to the end of the game by the assumed bots. Common random
numbers: playout r of every option starts from the same determinization (the
same seed from the searcher's stream), so the options are compared on the same
futures. The option with the highest mean reward is answered (the first one on
a tie).

The game's search kit, passed as arguments (numba compiles one specialisation
per kit and caches it):

* ``buffers() -> bufs``: the search's arrays (opaque to the core);
* ``start(p, seat, bufs) -> (n, is_vec, stream)``: keep the game, set the models,
  list the root's options (n = 0: no search possible, the game put back);
* ``param(bufs, seat, i) -> float``: the searcher's parameter slot i (params.SP_*);
* ``log(bufs)``: the playouts' event-log pointer;
* ``restore(p, bufs)``: the state every playout starts from (the models set);
* ``determinize(p, seat, seed)``: resample what the seat cannot know;
* ``apply(p, plog, k, bufs, is_vec)``: answer with option k, run to the next decision;
* ``playout(p, plog)``: play to the end with the modelled bots;
* ``reward(p, seat, vp_weight) -> float``: the seat's reward of a finished game;
* ``end(p, bufs, k, is_vec) -> answer``: put the game back, answer option k.
"""
import numpy as np
from .. import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit

from ..rng_nb import seat_stream_nb
from .params import SP_BUDGET, SP_VP_WEIGHT

NO_ANSWER = -999999     # answered when no search is possible: the engine stops the game


# inline: the kit's functions are arguments, and a compiled caller that passes them
# would hold their addresses (not cacheable); inlined, they are plain calls
@njit(cache=True, inline="always")
def flatmc_nb(p, seat, buffers, start, param, log, restore, determinize, apply, playout,
              reward, end):
    bufs = buffers()
    plog = log(bufs)
    n, is_vec, stream = start(p, seat, bufs)
    if n == 0:
        return NO_ANSWER
    rollouts = max(1, int(param(bufs, seat, SP_BUDGET)))
    vp_weight = param(bufs, seat, SP_VP_WEIGHT)
    best = 0
    if n > 1:
        total = np.zeros(n)
        for r in range(rollouts):
            seed = seat_stream_nb(stream, seat, r)
            for k in range(n):
                restore(p, bufs)
                determinize(p, seat, seed)
                apply(p, plog, k, bufs, is_vec)
                playout(p, plog)
                total[k] += reward(p, seat, vp_weight)
        for k in range(1, n):
            if total[k] > total[best]:
                best = k
    return end(p, bufs, best, is_vec)      # (bufs, and the log in it, outlive plog)
