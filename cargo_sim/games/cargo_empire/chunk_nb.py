"""Cargo Empire's chunk kernel: every game of a chunk, asking the table's bots (the
runner's loop), and each finished game's statistics into the result buffers."""
from ...core import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit, types

from ...core.borrow_nb import keep_nb, state_ptr_nb
from ...core.dispatch_nb import DecideType, ask_nb
from ...core.layout import BOT_FAULT, M_DECISIONS, R_N_PLAYERS
from . import enums as E
from .engine_nb import answer_nb, begin_nb, ok_nb, pb


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
