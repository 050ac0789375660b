"""Cargo Noir's chunk kernels: a chunk of games played from a template into the result
buffers (``simulate.chunk_kernel`` picks one). ``run_games_nb`` asks every seat's bot
through the table's decide function; ``run_random_games_nb`` calls `random` directly
(tables whose every seat is `random`: the same games). The rules are ``engine_nb``'s.
"""
import numpy as np
from ...core import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit, types

from ...core.dispatch_nb import DecideType, ask_close_nb, ask_open_nb
from .bots.random_nb import random_decide_at_nb
from .engine_nb import (advance_nb, answer_nb, begin_game_nb, game_rows_nb, own_workspace_nb,
                        play_game_nb, seat_oneways_nb, start_state_nb)
from .enums import M_ASK, M_BOT_RNG, M_N_EVENTS, M_SEAT


@njit(types.boolean(types.int64[::1], DecideType, types.int64, types.uint64[::1], types.int64[:, ::1],
                    types.int32[:, :, ::1], types.int64[:, ::1], types.int64[::1]),
      cache=True, nogil=True)
def run_games_nb(template, decide, exact_fn, seeds, out_games, out_players, log, err):
    """Play len(seeds) games from the template (rules, table and trade tables
    filled); write one row per game and one per (game, seat): the statistics
    (enums.PLAYER_FIELDS), then cards held. Stops at the first illegal decision:
    err = [game, decision, seat, value, aux, turn] and returns False.
    Events are appended to `log` (give it 0 rows to log nothing)."""
    own = template.copy()       # `own` keeps the memory alive while `s` points into it
    work = own_workspace_nb(own)
    s, plog = start_state_nb(own, log, exact_fn)
    n_events = np.int64(0)     # not the literal 0: one compiled play_game_nb, not two
    for g in range(seeds.shape[0]):
        play_game_nb(s, plog, decide, np.int64(seeds[g]), g, n_events)
        n_events = s[M_N_EVENTS]
        if not game_rows_nb(s, g, out_games, out_players, err):
            return own[0] != own[0]
    err[6] = n_events
    return own[0] == own[0] and work[0] == work[0]   # uses after the loop keep both alive until here


# ---------------------------------------------------------------------------
# The chunk kernel of tables whose every seat is `random` (simulate.chunk_kernel
# picks it; tables of other built-ins stay on run_games_nb: a direct kernel of the
# heuristic family measured no faster and compiles the family into the whole engine
# again, docs/performance.md): run_games_nb asks
# every bot through a first-class function (ask_keyed_nb), an indirect call that
# also keeps the bots from being compiled into the game loop; these call the table's
# bots directly, asked through the same ask_open_nb / ask_close_nb pair (the same
# streams, the same answers: the same games). No checksum check: such a table has
# no user bot. `bot` is a jitted function, resolved when the kernel compiles (the
# two loops below are inlined into the kernel, never compiled on their own).
#
# The direct kernel's own copies of the per-decision calls (numba's inlining): an answer
# and a random decision each cost a call with numba's prologue (status and result slots,
# six saved registers) ~230 times a game; the cached functions stay for every other
# caller (the forward model, run_games_nb, the search), so only this kernel grows.
answer_inline_nb = njit(inline="always")(answer_nb.py_func)
random_decide_at_inline_nb = njit(inline="always")(random_decide_at_nb.py_func)


@njit(inline="always")
def random_direct_nb(kind, s, seat):
    """random_decide_nb, inlined into the direct kernel."""
    return random_decide_at_inline_nb(kind, s, seat, M_BOT_RNG)


@njit(inline="always")
def direct_play_on_nb(s, log, bot):
    """engine_nb.play_on_nb with bot(kind, s, seat) called directly."""
    advance_nb(s, log)
    oneway = seat_oneways_nb(s)
    while s[M_ASK] >= 0:
        kind = s[M_ASK]
        seat = s[M_SEAT]
        rng, bot_seed = ask_open_nb(s, seat, oneway[seat])
        ans = bot(kind, s, seat)
        ask_close_nb(s, rng, bot_seed)
        answer_inline_nb(s, log, ans)


@njit(inline="always")
def direct_games_nb(template, exact_fn, seeds, out_games, out_players, log, err, bot):
    """run_games_nb (the same arguments but `decide`) with direct_play_on_nb."""
    own = template.copy()       # `own` keeps the memory alive while `s` points into it
    work = own_workspace_nb(own)
    s, plog = start_state_nb(own, log, exact_fn)
    n_events = np.int64(0)
    for g in range(seeds.shape[0]):
        begin_game_nb(s, plog, np.int64(seeds[g]), g, n_events)
        direct_play_on_nb(s, plog, bot)
        n_events = s[M_N_EVENTS]
        if not game_rows_nb(s, g, out_games, out_players, err):
            return own[0] != own[0]
    err[6] = n_events
    return own[0] == own[0] and work[0] == work[0]   # uses after the loop keep both alive until here


@njit(cache=True, nogil=True)
def run_random_games_nb(template, exact_fn, seeds, out_games, out_players, log, err):
    """The chunk kernel of random_table_decide_nb's tables (every seat `random`)."""
    return direct_games_nb(template, exact_fn, seeds, out_games, out_players, log, err,
                           random_direct_nb)


@njit(cache=True)
def random_playout_nb(s, log, exact_fn):
    """forward_nb.table_playout_nb of a random_table_decide_nb table: the rest of the
    game through direct_play_on_nb (the same answers; a public playout's game then
    costs what it costs in simulate's kernel)."""
    p, plog = start_state_nb(s, log, exact_fn)
    direct_play_on_nb(p, plog, random_direct_nb)
