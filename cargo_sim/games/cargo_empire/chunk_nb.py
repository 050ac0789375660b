"""Cargo Empire's chunk kernels: every game of a chunk and each finished game's statistics
into the result buffers. ``run_games_nb`` asks the table's bots (the runner's loop);
``run_random_games_nb`` plays tables whose every seat is `random` with the bot called
directly (simulate.chunk_kernel picks it: the same streams, the same answers, the same
games)."""
import numpy as np
from ...core import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit, types

from ...core.borrow_nb import keep_nb, state_ptr_nb
from ...core.dispatch_nb import DecideType, ask_close_nb, ask_nb, ask_open_nb, seat_oneway_nb
from ...core.layout import BOT_FAULT, M_BOT_RNG, M_DECISIONS, R_N_PLAYERS
from ...core.rng_nb import rand_below_at_nb
from . import enums as E
from .bots.random_nb import random_at_nb
from .engine_nb import LIST, answer_nb, begin_nb, ok_nb, pb, scan_nb


@njit(cache=True)
def stats_nb(s, out_games, out_players, g):
    n = s[R_N_PLAYERS]
    lv3, ups, passes = 0, 0, 0
    for c in range(s[E.K_NC]):
        lv3 += s[E.G_LV + c] == 3
    for q in range(n):
        ups += s[pb(q) + E.P_UPGRADES]
        passes += s[pb(q) + E.P_PASSES]
    out_games[g, 0], out_games[g, 1], out_games[g, 2] = n, s[E.G_WINNER], s[M_DECISIONS]
    out_games[g, 3], out_games[g, 4], out_games[g, 5] = lv3, ups, passes
    for q in range(n):
        b = pb(q)
        cards = s[b + E.P_BLANKS]
        m = s[b + E.P_CARDS]
        while m:
            m &= m - 1
            cards += 1
        row = (s[b + E.P_VP], s[b + E.P_RANK], s[b + E.P_WON], s[b + E.P_DEV_VP], s[b + E.P_LV3_VP],
               s[b + E.P_CARD_VP], s[b + E.P_MISS_VP], s[b + E.P_MISS_DONE], s[b + E.P_NMISS], cards,
               s[b + E.P_DELIV], s[b + E.P_PERFECT], s[b + E.P_UPGRADES], s[b + E.P_PASSES],
               s[b + E.P_STEPS], s[b + E.P_CITY_BONUS], s[b + E.P_PLAYED], s[b + E.P_PLAYED + 1],
               s[b + E.P_PLAYED + 2], s[b + E.P_HAND] + s[b + E.P_HAND + 1] + s[b + E.P_HAND + 2])
        for k in range(len(row)):
            out_players[g, q, k] = row[k]


@njit(types.boolean(types.int64[::1], DecideType, types.uint64[::1], types.int64[:, ::1],
                    types.int32[:, :, ::1], types.int64[:, ::1], types.int64[::1]), cache=True, nogil=True)
def run_games_nb(template, decide, seeds, out_games, out_players, log, err):
    """Every game of the chunk in a copy of the table's template, asking the table's bots."""
    s = template.copy()
    p = state_ptr_nb(s)
    lp = state_ptr_nb(log)
    rows = log.shape[0]
    n_events = 0
    ok = True
    for g in range(seeds.shape[0]):
        begin_nb(p, seeds[g], g, lp, n_events, rows)
        while p[E.G_ASK] >= 0:
            seat = p[E.G_SEAT]
            a = ask_nb(decide, p[E.G_ASK], p, seat)
            if not ok_nb(p, a):
                err[E.ERR_GAME], err[1], err[2], err[3], err[4] = g, p[E.G_ASK], seat, a, p[E.G_ROUND]
                err[5] = 1 if a == BOT_FAULT else 0
                ok = False
                break
            answer_nb(p, a, lp)
        if not ok:
            break
        stats_nb(p, out_games, out_players, g)
        n_events = p[E.G_NEV]
    err[E.ERR_EVENTS] = p[E.G_NEV] if not ok else n_events
    keep_nb(s)
    keep_nb(log)
    return ok


# the direct kernel's own inlined copies of the per-decision calls (numba's call prologue
# ~110 times a game; the cached functions stay for every other caller)
answer_inline_nb = njit(inline="always")(answer_nb.py_func)
random_at_inline_nb = njit(inline="always")(random_at_nb.py_func)


@njit(types.boolean(types.int64[::1], types.uint64[::1], types.int64[:, ::1], types.int32[:, :, ::1],
                    types.int64[:, ::1], types.int64[::1]), cache=True, nogil=True)
def run_random_games_nb(template, seeds, out_games, out_players, log, err):
    """run_games_nb of a table whose every seat is `random`, the bot called directly:
    no first-class call, each seat's one-way key computed once a game, and a delivery
    drawn from one list of the seat's deliveries (run_nb has just built the demand masks
    to ask it) instead of a count and a second scan to the k-th: the same answers."""
    s = template.copy()
    p = state_ptr_nb(s)
    lp = state_ptr_nb(log)
    rows = log.shape[0]
    answers = np.empty(E.MAX_LEGAL, np.int64)
    oneway = np.empty(E.MAX_SEATS, np.int64)
    n = p[R_N_PLAYERS]
    n_events = 0
    ok = True
    for g in range(seeds.shape[0]):
        begin_nb(p, seeds[g], g, lp, n_events, rows)
        for q in range(n):
            oneway[q] = seat_oneway_nb(p, q)
        while p[E.G_ASK] >= 0:
            kind = p[E.G_ASK]
            seat = p[E.G_SEAT]
            rng, bot_seed = ask_open_nb(p, seat, oneway[seat])
            if kind == E.D_DELIVER:
                k = scan_nb(p, seat, answers, LIST)
                a = answers[rand_below_at_nb(p, M_BOT_RNG, k)] if k > 0 else -1
            else:
                a = random_at_inline_nb(kind, p, seat, M_BOT_RNG)
            ask_close_nb(p, rng, bot_seed)
            if a < 0:
                err[E.ERR_GAME], err[1], err[2], err[3], err[4] = g, kind, seat, a, p[E.G_ROUND]
                err[5] = 0
                ok = False
                break
            answer_inline_nb(p, a, lp)
        if not ok:
            break
        stats_nb(p, out_games, out_players, g)
        n_events = p[E.G_NEV]
    err[E.ERR_EVENTS] = p[E.G_NEV] if not ok else n_events
    keep_nb(s)
    keep_nb(log)
    keep_nb(answers)
    return ok
