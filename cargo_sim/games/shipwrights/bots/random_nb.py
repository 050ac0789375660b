"""Shipwrights' `random` bot: a uniformly random legal answer, from the seat's own stream."""
from ....core import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit

from ....core.layout import M_BOT_RNG
from ....core.rng_nb import rand_below_at_nb
from ..engine_nb import legal_nb, pb
from ..enums import D_DRAFT, D_RETURN, D_START, G_PACKET_N, G_SEAT, MAX_LEGAL, NG, P_GOODS, SCRATCH


@njit(cache=True)
def random_at_nb(kind, s, seat, at):
    """A uniformly random legal answer drawn from the stream in word ``at``: the
    ``rand_below(n)``-th of legal_nb's n answers. A draft's answers are the packet's
    slots, the setup's every goods kind and a mill return's the kinds the seat holds,
    so those three draw the slot or kind itself (the same answer without listing them)."""
    if kind == D_DRAFT:
        n = s[G_PACKET_N]
        return rand_below_at_nb(s, at, n) if n > 0 else -1
    if kind == D_START:
        return rand_below_at_nb(s, at, NG)
    if kind == D_RETURN:
        b = pb(s[G_SEAT]) + P_GOODS             # legal_nb's seat
        n = 0
        for g in range(NG):
            n += 1 if s[b + g] > 0 else 0
        if n == 0:
            return -1
        k = rand_below_at_nb(s, at, n)
        for g in range(NG):                   # the k-th kind held, in increasing order
            if s[b + g] > 0:
                if k == 0:
                    return g
                k -= 1
        return -1                             # not reached (k < n)
    out = s[SCRATCH:SCRATCH + MAX_LEGAL]      # the state's scratch: no allocation a decision
    n = legal_nb(s, out)
    if n == 0:
        return -1
    return out[rand_below_at_nb(s, at, n)]


@njit(cache=True)
def random_decide_nb(kind, s, seat):
    return random_at_nb(kind, s, seat, M_BOT_RNG)
