"""Cargo Empire's `random` bot: a uniformly random legal answer from the seat's own
stream (counted, then the k-th taken: no answer list is allocated)."""
from ....core import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit

from ....core.layout import M_BOT_RNG
from ....core.rng_nb import rand_below_at_nb
from ..engine_nb import COUNT, answers_below_nb, deliveries_nb, ok_nb, scan_nb
from ..enums import D_DELIVER


@njit(cache=True)
def random_at_nb(kind, s, seat, at):
    """A uniformly random legal answer drawn from the stream in word ``at``."""
    if kind == D_DELIVER:
        n = deliveries_nb(s, seat, s, COUNT)
        return scan_nb(s, seat, s, rand_below_at_nb(s, at, n)) if n > 0 else -1
    hi = answers_below_nb(s, kind)
    n = 0
    for a in range(hi):
        n += ok_nb(s, a)
    if n == 0:
        return -1
    k = rand_below_at_nb(s, at, n)
    for a in range(hi):
        if ok_nb(s, a):
            if k == 0:
                return a
            k -= 1
    return -1


@njit(cache=True)
def random_decide_nb(kind, s, seat):
    return random_at_nb(kind, s, seat, M_BOT_RNG)
