"""Shipwrights' chunk kernels: every game of a chunk, asking the table's bots (the
runner's loop). ``run_games_nb`` calls the table kernel as the core's first-class
function type (core.dispatch_nb.DecideType): one cached kernel for every table.
``run_random_games_nb`` is the kernel of tables whose every seat is `random`
(simulate.chunk_kernel picks it): the bot and the answer inlined, the same games."""
import numpy as np
from ...core import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit, types

from ...core.borrow_nb import borrow_nb, keep_nb
from ...core.dispatch_nb import DecideType, ask_keyed_nb, seat_oneway_nb
from ...core.layout import BOT_FAULT, M_BOT_RNG, M_DECISIONS, R_N_PLAYERS
from ...core.rng_nb import bot_stream_at_nb
from . import enums as E
from .bots.random_nb import random_at_nb
from .engine_nb import answer_nb, begin_nb, goods_total_nb, ok_nb, pb
from .enums import ERR_EVENTS, ERR_GAME


@njit(cache=True)
def stats_nb(s, out_games, out_players, g):
    """A finished game's row and its seats' rows (enums.GAME_FIELDS, PLAYER_FIELDS)."""
    n = s[R_N_PLAYERS]
    capped = 0
    for q in range(n):
        capped += s[pb(q) + E.P_GOLD_CAPPED]
    out_games[g, 0], out_games[g, 1], out_games[g, 3] = n, s[E.G_DAY], s[E.G_WINNERS]
    out_games[g, 4], out_games[g, 5], out_games[g, 6] = s[M_DECISIONS], s[E.G_RESHUFFLES], capped
    out_games[g, 2] = -1
    for q in range(n):
        if s[pb(q) + E.P_WON] and s[E.G_WINNERS] == 1:
            out_games[g, 2] = q
    for q in range(n):
        b = pb(q)
        row = (s[b + E.P_VP], s[b + E.P_RANK], s[b + E.P_WON], s[b + E.P_GOLD], s[b + E.P_WORKERS],
               goods_total_nb(s, q), s[b + E.P_N_DONE], s[b + E.P_MIL], s[b + E.P_CIVIL],
               s[b + E.P_SHIP_PTS], s[b + E.P_BLD_PTS], s[b + E.P_MIL_PTS], s[b + E.P_N_BLD],
               s[b + E.P_CRAFT_N], s[b + E.P_BOUGHT], s[b + E.P_TOWN_PLAYED], s[b + E.P_ATTACKS],
               s[b + E.P_ATTACKED], s[b + E.P_DISCARDED], s[b + E.P_STARTED], s[b + E.P_LOST_SHIPS],
               s[b + E.P_RETURNED], s[b + E.P_HIRED], s[b + E.P_TOOLS], s[b + E.P_GOLD_CAPPED])
        for k in range(len(row)):
            out_players[g, q, k] = row[k]


@njit(types.boolean(types.int64[::1], DecideType, types.uint64[::1], types.int64[:, ::1],
                    types.int32[:, :, ::1], types.int64[:, ::1], types.int64[::1]), cache=True, nogil=True)
def run_games_nb(template, decide, seeds, out_games, out_players, log, err):
    """Every game of the chunk in a copy of the table's template, asking the table's bots
    (the state and the log passed on as borrowed views, as in run_random_games_nb)."""
    own = template.copy()
    s = borrow_nb(own)
    log = borrow_nb(log)
    oneway = np.zeros(8, np.int64)                 # each seat's key, once a game (ask_keyed_nb)
    rows = log.shape[0]
    n_events = 0
    ok = True
    for g in range(seeds.shape[0]):
        begin_nb(s, seeds[g], g, log, n_events, rows)
        for q in range(s[R_N_PLAYERS]):
            oneway[q] = seat_oneway_nb(s, q)
        while s[E.G_ASK] >= 0:
            seat = s[E.G_SEAT]
            a = ask_keyed_nb(decide, s[E.G_ASK], s, seat, oneway[seat])
            if not ok_nb(s, a):
                err[ERR_GAME], err[1], err[2], err[3], err[4] = g, s[E.G_ASK], seat, a, s[E.G_DAY]
                err[5] = 1 if a == BOT_FAULT else 0
                ok = False
                break
            answer_nb(s, a, log)
        if not ok:
            break
        stats_nb(s, out_games, out_players, g)
        n_events = s[E.G_NEV]
    err[ERR_EVENTS] = s[E.G_NEV] if not ok else n_events
    keep_nb(own)
    return ok


# The direct kernel's own copies of the per-decision calls (numba's inlining): each
# non-inlined call costs ~12 ns of prologue and reference counting, a thousand times a
# game; the cached functions stay for every other caller.
answer_inline_nb = njit(inline="always")(answer_nb.py_func)
random_at_inline_nb = njit(inline="always")(random_at_nb.py_func)


@njit(types.boolean(types.int64[::1], types.uint64[::1], types.int64[:, ::1], types.int32[:, :, ::1],
                    types.int64[:, ::1], types.int64[::1]), cache=True, nogil=True)
def run_random_games_nb(template, seeds, out_games, out_players, log, err):
    """run_games_nb of a table whose every seat is `random`: the bot called directly with
    the stream ask_keyed_nb would give it (bot_stream_at_nb of its seat's one-way key
    and the decisions so far; the random bot reads nothing else that asking hides),
    and no second check of its answers (legal_nb's answers are ones ok_nb accepts).
    The state and the log go to every call as borrowed views (core.borrow_nb): numba
    reference-counts each array argument of each call, an atomic add and subtract that
    were a third of this kernel's time."""
    own = template.copy()
    s = borrow_nb(own)
    log = borrow_nb(log)
    oneway = np.zeros(8, np.int64)
    rows = log.shape[0]
    n_events = 0
    for g in range(seeds.shape[0]):
        begin_nb(s, seeds[g], g, log, n_events, rows)
        for q in range(s[R_N_PLAYERS]):
            oneway[q] = seat_oneway_nb(s, q)
        while s[E.G_ASK] >= 0:
            seat = s[E.G_SEAT]
            s[M_BOT_RNG] = bot_stream_at_nb(oneway[seat], s[M_DECISIONS])
            a = random_at_inline_nb(s[E.G_ASK], s, seat, M_BOT_RNG)
            if a < 0:                               # no legal answer: a broken rule set
                err[ERR_GAME], err[1], err[2], err[3], err[4], err[5] = g, s[E.G_ASK], seat, a, s[E.G_DAY], 0
                err[ERR_EVENTS] = s[E.G_NEV]
                keep_nb(own)
                return False
            answer_inline_nb(s, a, log)
        stats_nb(s, out_games, out_players, g)
        n_events = s[E.G_NEV]
    err[ERR_EVENTS] = n_events
    keep_nb(own)                                    # the view's owner lives until here
    return True
