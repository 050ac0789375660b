"""Macao's chunk kernel: every game of a chunk, asking the table's bots (the runner's
loop). The table kernel is an argument of the core's first-class function type
(core.dispatch_nb.DecideType): one cached kernel for every table, user bots' included."""
from ...core import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit, types

from ...core.borrow_nb import keep_nb, state_ptr_nb
from ...core.dispatch_nb import DecideType, ask_nb
from ...core.layout import BOT_FAULT, M_DECISIONS, R_N_PLAYERS
from . import enums as E
from .engine_nb import answer_nb, begin_nb, ok_nb, pb
from .enums import ERR_EVENTS, ERR_GAME


@njit(cache=True)
def stats_nb(s, out_games, out_players, g):
    n = s[R_N_PLAYERS]
    out_games[g, 0], out_games[g, 1], out_games[g, 3] = n, s[E.G_ROUND], s[E.G_WINNERS]
    out_games[g, 4], out_games[g, 5] = s[M_DECISIONS], s[E.K_N_DECK] - s[E.G_DECK_TOP]
    out_games[g, 2] = -1
    for q in range(n):
        if s[pb(q) + E.P_WON] and s[E.G_WINNERS] == 1:
            out_games[g, 2] = q
    for q in range(n):
        b = pb(q)
        cubes = 0
        for c in range(E.NC):
            cubes += s[b + E.P_ROSE + c]
        row = (s[b + E.P_VP], s[b + E.P_RANK], s[b + E.P_WON], s[b + E.P_COINS], s[b + E.P_WALL],
               s[b + E.P_SHIP], s[b + E.P_CITY], s[b + E.P_GROUP], s[b + E.P_DELIV], s[b + E.P_DELIV_PTS],
               s[b + E.P_TRIB_PAID], s[b + E.P_TRIB_PTS], s[b + E.P_CARD_PTS], s[b + E.P_END_PTS],
               s[b + E.P_PEN_PTS], s[b + E.P_MARK_PEN], s[b + E.P_ZERO_PEN], s[b + E.P_OVERFLOW],
               s[b + E.P_TAB_LEFT], s[b + E.P_COMPLETED], s[b + E.P_DRAFTED], s[b + E.P_CUBES_IN],
               s[b + E.P_WASTED], s[b + E.P_JOKERS_USED], s[b + E.P_COINS_IN])
        for k in range(len(row)):
            out_players[g, q, k] = row[k]


@njit(types.boolean(types.int64[::1], DecideType, types.uint64[::1], types.int64[:, ::1],
                    types.int32[:, :, ::1], types.int64[:, ::1], types.int64[::1]), cache=True, nogil=True)
def run_games_nb(template, decide, seeds, out_games, out_players, log, err):
    """Every game of the chunk in a copy of the table's template, asking the table's bots
    (the state and the log travel as pointers: engine_nb's note)."""
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
                err[ERR_GAME], err[1], err[2], err[3], err[4] = g, p[E.G_ASK], seat, a, p[E.G_ROUND]
                err[5] = 1 if a == BOT_FAULT else 0
                ok = False
                break
            answer_nb(p, a, lp)
        if not ok:
            break
        stats_nb(p, out_games, out_players, g)
        n_events = p[E.G_NEV]
    err[ERR_EVENTS] = p[E.G_NEV] if not ok else n_events
    keep_nb(s)                 # s and log outlive their pointers
    keep_nb(log)
    return ok
