"""Macao's chunk kernels: every game of a chunk, asking the table's bots (the runner's
loop; simulate.chunk_kernel picks the kernel of the table)."""
from ...core import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit

from ...core.borrow_nb import state_ptr_nb
from ...core.dispatch_nb import ask_nb
from ...core.layout import BOT_FAULT, M_DECISIONS, R_N_PLAYERS
from . import enums as E
from .bots.dispatch_nb import random_table_nb, table_decide_nb
from .engine_nb import answer_nb, begin_nb, ok_nb, pb
from .enums import ERR_EVENTS, ERR_GAME


# The core's ask_nb, inlined into Macao's kernel (numba IR inlining: no overload of ask_nb
# for Macao's table is compiled or cached). A cached overload would go into the core's
# cache index, shared by every game: re-saving that index pickles every game's table types
# again, and numba keeps only a few rebuilt dispatchers alive, so a process that has not
# imported the other games fails with "ReferenceError: underlying object has vanished".
ask_inline_nb = njit(inline="always")(ask_nb.py_func)


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


@njit(inline="always")
def chunk_body_nb(s, decide, seeds, out_games, out_players, log, err):
    """Every game of the chunk in ``s`` (a copy of the table's template, which the caller
    keeps alive: the kernels hold only a pointer to it), asking the table's bots (the state
    and the log travel as pointers: engine_nb's note)."""
    p = state_ptr_nb(s)
    lp = state_ptr_nb(log)
    rows = log.shape[0]
    n_events = 0
    for g in range(seeds.shape[0]):
        begin_nb(p, seeds[g], g, lp, n_events, rows)
        while p[E.G_ASK] >= 0:
            seat = p[E.G_SEAT]
            a = ask_inline_nb(decide, p[E.G_ASK], p, seat)
            if not ok_nb(p, a):
                err[ERR_GAME], err[1], err[2], err[3], err[4] = g, p[E.G_ASK], seat, a, p[E.G_ROUND]
                err[5] = 1 if a == BOT_FAULT else 0
                err[ERR_EVENTS] = p[E.G_NEV]
                return False
            answer_nb(p, a, lp)
        stats_nb(p, out_games, out_players, g)
        n_events = p[E.G_NEV]
    err[ERR_EVENTS] = n_events
    return True


# One cached kernel per table kernel, the table kernel a global (a constant), not an
# argument: numba's cache index cannot hold a function-typed argument across processes (a
# second overload saved later pickles the first one's dead reference: "ReferenceError:
# underlying object has vanished"). Macao's tables have these two (bots.dispatch_nb).
@njit(cache=True, nogil=True)
def run_table_nb(template, seeds, out_games, out_players, log, err):
    return chunk_body_nb(template, table_decide_nb, seeds, out_games, out_players, log, err)


@njit(cache=True, nogil=True)
def run_random_nb(template, seeds, out_games, out_players, log, err):
    return chunk_body_nb(template, random_table_nb, seeds, out_games, out_players, log, err)
