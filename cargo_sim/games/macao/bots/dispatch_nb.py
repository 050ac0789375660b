"""Macao's table kernel: the core's plumbed bots (user and search) first, then the built-ins."""
import numpy as np
from ....core import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit

from ....core.borrow_nb import state_ptr_nb
from ....core.dispatch_nb import NOT_PLUMBED, plumbed_nb
from ....core.layout import BOT_FAULT, BOTS, R_USER_BASE
from ..enums import G_DECK, G_DECK_TOP, K_N_DECK, MAX_DECK
from ..forward_nb import unseen_in_card_order_nb
from .greedy_nb import greedy_decide_nb
from .random_nb import random_decide_nb


@njit(cache=True)
def user_call_nb(kind, p, seat):
    """A user bot's call with the deck's unrevealed cards in card order: which cards they
    are is public, their order is not (a user bot may read raw state words); the real
    order is put back after the call."""
    top, n = p[G_DECK_TOP], p[K_N_DECK]
    keep = np.empty(MAX_DECK, np.int64)
    for i in range(top, n):
        keep[i] = p[G_DECK + i]
    unseen_in_card_order_nb(p)
    ans = plumbed_nb(kind, p, seat)
    for i in range(top, n):
        p[G_DECK + i] = keep[i]
    return ans


@njit(cache=True)
def table_decide_nb(kind, s, seat):
    p = state_ptr_nb(s)
    if p[R_USER_BASE] > 0 and p[BOTS + seat] >= p[R_USER_BASE]:
        return user_call_nb(kind, p, seat)
    ans = plumbed_nb(kind, p, seat)
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
