"""Macao's `random` bot: a uniformly random legal answer, from the seat's own stream."""
from ....core import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit

from ....core.borrow_nb import state_ptr_nb
from ....core.layout import M_BOT_RNG
from ....core.rng_nb import rand_below_at_nb
from ..engine_nb import legal_nb
from ..table_nb import stack_words_nb
from ..enums import MAX_LEGAL


@njit(cache=True)
def random_at_nb(kind, s, seat, at):
    """A uniformly random legal answer drawn from the stream in word ``at``."""
    out = stack_words_nb(MAX_LEGAL)          # the answers, on the stack (no allocation)
    n = legal_nb(state_ptr_nb(s), out)
    if n == 0:
        return -1
    return out[rand_below_at_nb(s, at, n)]


@njit(cache=True)
def random_decide_nb(kind, s, seat):
    return random_at_nb(kind, s, seat, M_BOT_RNG)
