"""Cargo Empire's table kernel: the core's plumbed bots (user bots) first, then the
built-ins (0: random, else the heuristic family with the seat's weights)."""
import numpy as np
from ....core import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit

from ....core.borrow_nb import state_ptr_nb
from ....core.dispatch_nb import NOT_PLUMBED, plumbed_nb
from ....core.layout import BOT_FAULT, BOTS, R_N_PLAYERS, R_USER_BASE
from ..engine_nb import pb
from ..enums import MAX_KEEP, MAX_SEATS, NO_CARD, P_MISS, P_NMISS, P_SECRET
from ..forward_nb import hidden_restore_nb, hidden_save_nb
from .greedy_nb import greedy_decide_nb
from .random_nb import random_decide_nb


@njit(cache=True)
def user_call_nb(kind, p, seat):
    """A user bot's call with what its seat cannot see hidden: the other seats' missions
    and unrevealed city cards read -1 / NO_CARD, the decks' unseen orders are sorted;
    put back after the call."""
    n = p[R_N_PLAYERS]
    keep = np.empty(MAX_SEATS * (MAX_KEEP + 1), np.int64)
    for q in range(n):
        if q == seat:
            continue
        b = pb(q)
        keep[q * (MAX_KEEP + 1)] = p[b + P_SECRET]
        p[b + P_SECRET] = NO_CARD
        for i in range(p[b + P_NMISS]):
            keep[q * (MAX_KEEP + 1) + 1 + i] = p[b + P_MISS + i]
            p[b + P_MISS + i] = -1
    saved = hidden_save_nb(p)
    ans = plumbed_nb(kind, p, seat)
    hidden_restore_nb(p, saved)
    for q in range(n):
        if q == seat:
            continue
        b = pb(q)
        p[b + P_SECRET] = keep[q * (MAX_KEEP + 1)]
        for i in range(p[b + P_NMISS]):
            p[b + P_MISS + i] = keep[q * (MAX_KEEP + 1) + 1 + i]
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
