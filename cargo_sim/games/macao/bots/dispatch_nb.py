"""Macao's table kernel: the core's plumbed bots (user and search) first, then the built-ins."""
from ....core import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit

from ....core.borrow_nb import state_ptr_nb
from ....core.dispatch_nb import NOT_PLUMBED, plumbed_nb
from ....core.layout import BOT_FAULT, BOTS
from .greedy_nb import greedy_decide_nb
from .random_nb import random_decide_nb


@njit(cache=True)
def table_decide_nb(kind, s, seat):
    ans = plumbed_nb(kind, state_ptr_nb(s), seat)
    if ans != NOT_PLUMBED:
        return ans
    if s[BOTS + seat] == 0:
        return random_decide_nb(kind, s, seat)
    return greedy_decide_nb(kind, s, seat)


@njit(cache=True)
def random_table_nb(kind, s, seat):
    return random_decide_nb(kind, s, seat)


@njit(cache=True)
def bot_fault_nb(kind, p, seat):
    """A user bot raised: its answer is BOT_FAULT, which the engine finds illegal."""
    return BOT_FAULT
