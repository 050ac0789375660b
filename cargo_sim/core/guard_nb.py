"""What the user-bot kernel (``core.userbots.user_table``) does around a user bot's call.

Always: the other seats' bots and parameters (``s[BOTS...]``, ``s[PARAMS...]``)
and the table's search-bot marks (``s[R_SEARCH]``) read 0 during the call
(``hide_nb`` / ``show_nb``), so raw indexing reveals nothing of who the bot
plays. Checked mode (``check_bots=True``): the game part of the state is kept
before the call and compared after (``snapshot_nb`` / ``write_fault_nb``): a
write outside the bot's own area -- the game's answer and notes words (its
``own`` range), its stream (``M_BOT_RNG``),
its fault words (a game's workspace lies outside the state) -- stops the game as
a bot fault naming the offset (``FAULT_WRITE``); the game sums the table's shared
array (core.shared_nb.shared_sum_nb) at the bot's first call of a game and checks
it at the game's end (``FAULT_TABLES``). Written once for every game: the game hands its state size
and own area as numbers.
"""
import numpy as np
from . import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit

from .budget_nb import BUDGET_STEPS, budget_spent_nb, reset_budget_nb
from .layout import (BOTS, FAULT_BUDGET, FAULT_WRITE, M_BOT_RNG, M_FAULT, M_FAULT_ARG, N_PARAMS,
                     PARAMS, R_SEARCH, SEATS)

KEEP = SEATS * (N_PARAMS + 1) + 1


@njit(cache=True)
def hide_nb(p, seat):
    """Zero the other seats' bots and parameters and R_SEARCH; returns what they were."""
    keep = np.empty(KEEP, np.int64)
    keep[KEEP - 1] = p[R_SEARCH]
    p[R_SEARCH] = 0
    for q in range(SEATS):
        if q != seat:
            keep[q] = p[BOTS + q]
            p[BOTS + q] = 0
            for i in range(N_PARAMS):
                keep[SEATS + q * N_PARAMS + i] = p[PARAMS + q * N_PARAMS + i]
                p[PARAMS + q * N_PARAMS + i] = 0
    return keep


@njit(cache=True)
def show_nb(p, seat, keep):
    p[R_SEARCH] = keep[KEEP - 1]
    for q in range(SEATS):
        if q != seat:
            p[BOTS + q] = keep[q]
            for i in range(N_PARAMS):
                p[PARAMS + q * N_PARAMS + i] = keep[SEATS + q * N_PARAMS + i]


@njit(cache=True)
def snapshot_nb(p, budget_addr, state_size):
    """Checked mode, before the call: a fresh loop budget and a copy of the state's
    first state_size words (the game's part)."""
    reset_budget_nb(budget_addr, BUDGET_STEPS)
    snap = np.empty(state_size, np.int64)
    for i in range(state_size):
        snap[i] = p[i]
    return snap


@njit(cache=True)
def own_area_nb(i, own_lo, own_hi):
    """The state words a bot may write during its call."""
    return (own_lo <= i < own_hi) or i == M_BOT_RNG or i == M_FAULT or i == M_FAULT_ARG


@njit(cache=True)
def write_fault_nb(p, snap, own_lo, own_hi):
    """Checked mode, after the call: True at the first word written outside the
    bot's own area (the game part put back as it was before the call, so the
    error reports the game's turn, not the bot's; M_FAULT says why)."""
    n = snap.shape[0]
    for i in range(n):
        if p[i] != snap[i] and not own_area_nb(i, own_lo, own_hi):
            for j in range(n):
                p[j] = snap[j]
            p[M_FAULT] = FAULT_WRITE
            p[M_FAULT_ARG] = i
            return True
    return False


@njit(cache=True)
def budget_fault_nb(p, budget_addr):
    """Checked mode: a bot's exception, marked as a spent budget when it was one."""
    if budget_spent_nb(budget_addr):
        p[M_FAULT] = FAULT_BUDGET
        p[M_FAULT_ARG] = BUDGET_STEPS
