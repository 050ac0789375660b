"""Shipwrights' `random` bot: a uniformly random legal answer, from the seat's own stream."""
from ....core import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit

from ....core.layout import M_BOT_RNG
from ....core.rng_nb import rand_below_at_nb
from ..engine_nb import legal_nb
from ..enums import MAX_LEGAL, SCRATCH


@njit(cache=True)
def random_at_nb(kind, s, seat, at):
    """A uniformly random legal answer drawn from the stream in word ``at``."""
    out = s[SCRATCH:SCRATCH + MAX_LEGAL]      # the state's scratch: no allocation a decision
    n = legal_nb(s, out)
    if n == 0:
        return -1
    return out[rand_below_at_nb(s, at, n)]


@njit(cache=True)
def random_decide_nb(kind, s, seat):
    return random_at_nb(kind, s, seat, M_BOT_RNG)
