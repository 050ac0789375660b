"""What the user-bot kernel (``registry.user_table``) does around a user bot's call.

Always: the other seats' bots and parameters (``s[BOTS...]``, ``s[PARAMS...]``)
and the table's search-bot marks (``s[R_SEARCH]``) read 0 during the call
(``hide_nb`` / ``show_nb``), so raw indexing reveals nothing of who the bot
plays. Checked mode (``check_bots=True``): the game part of the state is kept
before the call and compared after (``begin_check_nb`` / ``end_check_nb``): a
write outside the bot's own area -- its answer (``OUT...``), its notes
(``SCRATCH...``), its stream (``M_BOT_RNG``) and the workspace after the
tables -- stops the game as a bot fault naming the offset (enums.FAULT_WRITE);
the tables after the state are summed at the bot's first call of a game and
checked at the game's end (engine_nb.play_on_nb, enums.FAULT_TABLES).
"""
import numpy as np
from ....core import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit

from ..engine_nb import bot_fault_nb, tables_sum_nb
from ..enums import (BOTS, FAULT_BUDGET, FAULT_WRITE, M_BOT_RNG, M_FAULT, M_FAULT_ARG, M_TABLE_SUM,
                     MAX_SEATS, N_PARAMS, OUT, PARAMS, R_SEARCH, SCRATCH, SCRATCH_W, STATE_SIZE)
from .budget_nb import BUDGET_STEPS, budget_spent_nb, reset_budget_nb

KEEP = MAX_SEATS * (N_PARAMS + 1) + 1


@njit(cache=True)
def hide_nb(p, seat):
    """Zero the other seats' bots and parameters and R_SEARCH; returns what they were."""
    keep = np.empty(KEEP, np.int64)
    keep[KEEP - 1] = p[R_SEARCH]
    p[R_SEARCH] = 0
    for q in range(MAX_SEATS):
        if q != seat:
            keep[q] = p[BOTS + q]
            p[BOTS + q] = 0
            for i in range(N_PARAMS):
                keep[MAX_SEATS + q * N_PARAMS + i] = p[PARAMS + q * N_PARAMS + i]
                p[PARAMS + q * N_PARAMS + i] = 0
    return keep


@njit(cache=True)
def show_nb(p, seat, keep):
    p[R_SEARCH] = keep[KEEP - 1]
    for q in range(MAX_SEATS):
        if q != seat:
            p[BOTS + q] = keep[q]
            for i in range(N_PARAMS):
                p[PARAMS + q * N_PARAMS + i] = keep[MAX_SEATS + q * N_PARAMS + i]


@njit(cache=True)
def begin_check_nb(p, budget_addr):
    """Checked mode, before the call: the tables' sum (once a game), a fresh
    loop budget, and a copy of the game part."""
    if p[M_TABLE_SUM] == 0:
        p[M_TABLE_SUM] = tables_sum_nb(p)
    reset_budget_nb(budget_addr, BUDGET_STEPS)
    snap = np.empty(STATE_SIZE, np.int64)
    for i in range(STATE_SIZE):
        snap[i] = p[i]
    return snap


@njit(cache=True)
def own_area_nb(i):
    """The state words a bot may write during its call."""
    return (OUT <= i < SCRATCH + SCRATCH_W) or i == M_BOT_RNG or i == M_FAULT or i == M_FAULT_ARG


@njit(cache=True)
def end_check_nb(p, snap, kind, seat, ans):
    """Checked mode, after the call: the answer, or a bot fault at the first
    word written outside the bot's own area (the game part put back as it was
    before the call, so the error reports the game's turn, not the bot's)."""
    for i in range(STATE_SIZE):
        if p[i] != snap[i] and not own_area_nb(i):
            for j in range(STATE_SIZE):
                p[j] = snap[j]
            p[M_FAULT] = FAULT_WRITE
            p[M_FAULT_ARG] = i
            return bot_fault_nb(kind, p, seat)
    return ans


@njit(cache=True)
def checked_fault_nb(kind, p, seat, budget_addr):
    """Checked mode: a bot's exception, marked as a spent budget when it was one."""
    if budget_spent_nb(budget_addr):
        p[M_FAULT] = FAULT_BUDGET
        p[M_FAULT_ARG] = BUDGET_STEPS
    return bot_fault_nb(kind, p, seat)
