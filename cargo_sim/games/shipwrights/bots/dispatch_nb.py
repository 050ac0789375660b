"""Shipwrights' table kernel: the core's plumbed bots (user and search) first, then the
built-ins. A user bot is called with what its seat cannot know sorted into a canonical
order (forward_nb.regroup_nb): it may read raw state words, so the hidden cards must
tell it nothing; the real order is put back after the call."""
from ....core import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit

from ....core.borrow_nb import state_ptr_nb
from ....core.dispatch_nb import NOT_PLUMBED, plumbed_nb
from ....core.layout import BOT_FAULT, BOTS, R_USER_BASE
from ..enums import RULES_END, STATE_SIZE
from ..forward_nb import regroup_nb
from .heuristic_nb import heuristic_decide_nb
from .random_nb import random_decide_nb


@njit(cache=True)
def user_call_nb(kind, s, seat):
    keep = s[RULES_END:STATE_SIZE].copy()
    regroup_nb(s, seat, False)
    ans = plumbed_nb(kind, state_ptr_nb(s), seat)
    s[RULES_END:STATE_SIZE] = keep
    return ans


@njit(cache=True)
def table_decide_nb(kind, s, seat):
    if s[R_USER_BASE] > 0 and s[BOTS + seat] >= s[R_USER_BASE]:
        return user_call_nb(kind, s, seat)
    ans = plumbed_nb(kind, state_ptr_nb(s), seat)
    if ans != NOT_PLUMBED:
        return ans
    if s[BOTS + seat] == 0:
        return random_decide_nb(kind, s, seat)
    return heuristic_decide_nb(kind, s, seat)


@njit(cache=True)
def random_table_nb(kind, s, seat):
    return random_decide_nb(kind, s, seat)


@njit(cache=True)
def bot_fault_nb(kind, p, seat):
    """A user bot raised: its answer is BOT_FAULT, which the engine finds illegal."""
    return BOT_FAULT
