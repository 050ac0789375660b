"""Macao's statistics of many games folded inside compiled code (no per-event rows kept).

``aggregate_games_nb(template, decide, seeds, log, acc, err)`` plays a chunk of games
like ``chunk_nb.run_games_nb``, but each game's events go to the start of ``log`` (a
buffer re-used by the next game): after each game its end-of-game statistics (the
players table's row, ``chunk_nb.stats_nb``) and its events are *folded* into ``acc``,
ONE flat int64 array with the fixed layout ``SECTIONS`` below (the same size for every
rules set, player count and game count). Merging two runs is an elementwise sum, so
results do not depend on chunking or the number of threads (core/aggregate.py).

Every counter is an integer: counts, sums and sums of squares (means and their
intervals) and histograms. Values beyond a histogram's range land in its last bin
(below it, in bin 0; the points histogram starts at VP_MIN); rounds from
``MAX_ROUNDS - 1`` on share the last round row.
A shared win counts 1 in ``wins`` and ``tied_wins`` and ``WIN_SHARE_SCALE / k`` in
``win12`` (k winners; 12 is divisible by 1..4, so shares stay exact).

A game whose events overflow the buffer stops the chunk (err[0] = the game, err[1] =
-1, err[7] = its events): the core replays the chunk with a larger buffer.
"""
import numpy as np
from ...core import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit, types

from ...core.borrow_nb import keep_nb, state_ptr_nb
from ...core.counters_nb import (game_sections, seat_sections, bin_nb, fold_game_stats_nb, fold_seats_nb, hist_add_nb, illegal_nb,
                                 layout_id, overflowed_nb, section_offsets, winner_share_nb)
from ...core.dispatch_nb import DecideType, ask_nb
from ...core.layout import R_N_PLAYERS
from . import enums as E
from .chunk_nb import stats_nb
from .engine_nb import answer_nb, begin_nb, ok_nb
from .enums import MAX_CT, MAX_GOODS, MAX_PORTS, MAX_Q, MAX_SEATS, NC

# ---- bounds (values beyond go to the last bin) -----------------------------------------
MAX_ROUNDS = 32         # round rows 0..31 (0 = setup); rounds >= 31 share row 31
VP_MIN = -128           # final points VP_MIN .. VP_MIN + VP_BINS - 1 (random bots score below 0)
VP_BINS = 384           # bin i holds points VP_MIN + i (the first and last bins take those beyond)
CITY_BINS = 64          # quarters (markers) in the city at the end; a largest group
WALL_BINS = 32          # wall space at the end
WIN_SHARE_SCALE = 12    # a win shared by k players adds 12 / k to win12

N_PLAYER_FIELDS = len(E.PLAYER_FIELDS)
GAME_STATS = ("rounds", "decisions", "deck_left")        # GAME_FIELDS 1, 4, 5
ROUND_FIELDS = ("tributes", "tribute_points", "tribute_coins", "wall_steps", "wall_cubes",
                "sails", "deliveries", "delivery_points", "goods", "completions",
                "wasted_cubes", "zero_cubes")
LOT_FIELDS = ("lots", "cubes")
CARD_FIELDS = ("offered", "drafted", "start_drafted", "completed", "discarded", "activations",
               "end_points")
HOLDER_FIELDS = ("players", "win12", "vp_sum")
QUARTER_FIELDS = ("taken", "round_sum")
DELIVERY_FIELDS = ("deliveries", "points")
PENALTY_FIELDS = ("zero_cube", "overflow", "markers", "marker_points", "tableau_cards",
                  "tableau_points")
N_GAME_STATS = len(GAME_STATS)
ROUND_W = len(ROUND_FIELDS)
CARD_W = len(CARD_FIELDS)
PENALTY_W = len(PENALTY_FIELDS)

# name, shape, meaning (the axes' labels are in the meaning)
SECTIONS = seat_sections(MAX_SEATS, N_PLAYER_FIELDS, WIN_SHARE_SCALE) + (
    ("vp_hist", (MAX_SEATS, VP_BINS), "player-games by seat and final points - VP_MIN"),
) + game_sections(N_GAME_STATS) + (
    ("rounds_hist", (MAX_ROUNDS,), "games by rounds played"),
    ("round_stats", (MAX_ROUNDS, ROUND_W, 2),
     "all seats' ROUND_FIELDS by round: sum over games, sum of squares of the game's value"),
    ("dice_pairs", (MAX_SEATS, NC, NC),
     "dice choices by seat and the colours of its two lots (first lot, second lot)"),
    ("lots", (MAX_SEATS, NC, 2), "lots placed on the rose by seat and colour: LOT_FIELDS"),
    ("cards", (MAX_CT, CARD_W),
     "by card: CARD_FIELDS (offered and drafted in the rounds' offers; start_drafted: at setup, "
     "whose cards are not offered events; end_points: points of end-game cards)"),
    ("card_holders", (MAX_CT, 3),
     "player-games that completed the card at least once: HOLDER_FIELDS"),
    ("quarters", (MAX_Q, 2), "goods tiles taken by quarter: QUARTER_FIELDS"),
    ("city_hist", (MAX_SEATS, CITY_BINS), "player-games by seat and quarters held at the end"),
    ("group_hist", (MAX_SEATS, CITY_BINS), "player-games by seat and largest connected group"),
    ("wall_hist", (MAX_SEATS, WALL_BINS), "player-games by seat and wall space at the end"),
    ("deliveries", (MAX_PORTS, MAX_GOODS, 2), "deliveries by port and good: DELIVERY_FIELDS"),
    ("penalties", (MAX_SEATS, PENALTY_W, 2),
     "penalties by seat and cause (PENALTY_FIELDS): sum over games, sum of squares"),
)

OFFSETS, ACC_SIZE = section_offsets(SECTIONS)
LAYOUT_ID = layout_id("macao.aggregates/1", SECTIONS)

O_GAMES = OFFSETS["games"]
O_TIES = OFFSETS["ties"]
O_WINS = OFFSETS["wins"]
O_TIED_WINS = OFFSETS["tied_wins"]
O_WIN12 = OFFSETS["win12"]
O_PLAYER_SUM = OFFSETS["player_sum"]
O_PLAYER_SUMSQ = OFFSETS["player_sumsq"]
O_WINNER_SUM = OFFSETS["winner_sum"]
O_VP_HIST = OFFSETS["vp_hist"]
O_GAME_SUM = OFFSETS["game_sum"]
O_GAME_SUMSQ = OFFSETS["game_sumsq"]
O_ROUNDS_HIST = OFFSETS["rounds_hist"]
O_ROUND_STATS = OFFSETS["round_stats"]
O_DICE_PAIRS = OFFSETS["dice_pairs"]
O_LOTS = OFFSETS["lots"]
O_CARDS = OFFSETS["cards"]
O_CARD_HOLDERS = OFFSETS["card_holders"]
O_QUARTERS = OFFSETS["quarters"]
O_CITY_HIST = OFFSETS["city_hist"]
O_GROUP_HIST = OFFSETS["group_hist"]
O_WALL_HIST = OFFSETS["wall_hist"]
O_DELIVERIES = OFFSETS["deliveries"]
O_PENALTIES = OFFSETS["penalties"]

# column of a PLAYER_FIELDS statistic in the players-table row
F_VP = E.PLAYER_FIELDS.index("vp")
F_WON = E.PLAYER_FIELDS.index("won")
F_WALL = E.PLAYER_FIELDS.index("wall")
F_CITY = E.PLAYER_FIELDS.index("quarters")
F_GROUP = E.PLAYER_FIELDS.index("group")
GAME_COLS = (E.GAME_FIELDS.index("rounds"), E.GAME_FIELDS.index("decisions"),
             E.GAME_FIELDS.index("deck_left"))
N_WINNERS = E.GAME_FIELDS.index("n_winners")

# event-log columns (enums.EVENT_FIELDS)
C_ROUND, C_SEAT, C_ACTION, C_A, C_B, C_C, C_POINTS, C_COINS = 1, 2, 3, 4, 5, 6, 7, 8


@njit(cache=True)
def fold_results_nb(og, op, n, acc):
    """End-of-game statistics: the games and players rows stats_nb wrote (row 0)."""
    acc[O_GAMES] += 1
    k = og[0, N_WINNERS]
    if k > 1:
        acc[O_TIES] += 1
    fold_game_stats_nb(og, GAME_COLS, acc, O_GAME_SUM, O_GAME_SUMSQ)
    hist_add_nb(acc, O_ROUNDS_HIST, MAX_ROUNDS, og[0, GAME_COLS[0]])
    fold_seats_nb(op, n, acc, F_WON, O_WINS, O_PLAYER_SUM, O_PLAYER_SUMSQ, O_WINNER_SUM,
                  k, WIN_SHARE_SCALE, O_WIN12, O_TIED_WINS)
    for q in range(n):
        hist_add_nb(acc, O_VP_HIST + q * VP_BINS, VP_BINS, np.int64(op[0, q, F_VP]) - VP_MIN)
        hist_add_nb(acc, O_CITY_HIST + q * CITY_BINS, CITY_BINS, np.int64(op[0, q, F_CITY]))
        hist_add_nb(acc, O_GROUP_HIST + q * CITY_BINS, CITY_BINS, np.int64(op[0, q, F_GROUP]))
        hist_add_nb(acc, O_WALL_HIST + q * WALL_BINS, WALL_BINS, np.int64(op[0, q, F_WALL]))


@njit(cache=True)
def round_add_nb(rs, r, field, x):
    rs[bin_nb(r, MAX_ROUNDS), field] += x


@njit(cache=True)
def fold_events_nb(log, n_ev, op, n, acc, held, pending, rs, pen):
    """The game's events (rows 0 .. n_ev - 1 of log) into acc; ``held`` (seat, card),
    ``pending`` (seat), ``rs`` (round, field) and ``pen`` (seat, cause) are the game's
    scratch, reset here (the game's totals give the sums of squares)."""
    for q in range(MAX_SEATS):
        pending[q] = -1
        for c in range(MAX_CT):
            held[q, c] = 0
        for f in range(PENALTY_W):
            pen[q, f] = 0
    for t in range(MAX_ROUNDS):
        for f in range(ROUND_W):
            rs[t, f] = 0
    for i in range(n_ev):
        r, q, ev = log[i, C_ROUND], log[i, C_SEAT], log[i, C_ACTION]
        a, b, c = log[i, C_A], log[i, C_B], log[i, C_C]
        pts, coins = log[i, C_POINTS], log[i, C_COINS]
        if ev == E.EV_LOT:
            # a dice choice places its two lots in a row: pair them by seat
            acc[O_LOTS + (q * NC + a) * 2] += 1
            acc[O_LOTS + (q * NC + a) * 2 + 1] += c
            if pending[q] < 0:
                pending[q] = a
            else:
                acc[O_DICE_PAIRS + (q * NC + pending[q]) * NC + a] += 1
                pending[q] = -1
        elif ev == E.EV_OFFER:
            if 0 <= a < MAX_CT:
                acc[O_CARDS + a * CARD_W] += 1
        elif ev == E.EV_DRAFT:
            if 0 <= a < MAX_CT:
                acc[O_CARDS + a * CARD_W + (1 if r > 0 else 2)] += 1
        elif ev == E.EV_COMPLETE:
            acc[O_CARDS + a * CARD_W + 3] += 1
            held[q, a] = 1
            round_add_nb(rs, r, 9, 1)
        elif ev == E.EV_DISCARD:
            acc[O_CARDS + a * CARD_W + 4] += 1
            pen[q, 1] += 1
        elif ev == E.EV_ACTIVATE:
            if 0 <= a < MAX_CT:
                acc[O_CARDS + a * CARD_W + 5] += 1
        elif ev == E.EV_END_CARD:
            acc[O_CARDS + a * CARD_W + 6] += pts
        elif ev == E.EV_TRIBUTE:
            round_add_nb(rs, r, 0, 1)
            round_add_nb(rs, r, 1, pts)
            round_add_nb(rs, r, 2, -coins)
        elif ev == E.EV_WALL:
            round_add_nb(rs, r, 3, 1)
            round_add_nb(rs, r, 4, b)
        elif ev == E.EV_SAIL:
            round_add_nb(rs, r, 5, 1)
        elif ev == E.EV_DELIVER:
            round_add_nb(rs, r, 6, 1)
            round_add_nb(rs, r, 7, pts)
            acc[O_DELIVERIES + (a * MAX_GOODS + b) * 2] += 1
            acc[O_DELIVERIES + (a * MAX_GOODS + b) * 2 + 1] += pts
        elif ev == E.EV_GOODS:
            round_add_nb(rs, r, 8, 1)
            acc[O_QUARTERS + a * 2] += 1
            acc[O_QUARTERS + a * 2 + 1] += r
        elif ev == E.EV_WASTED:
            round_add_nb(rs, r, 10, a)
        elif ev == E.EV_ZERO:
            round_add_nb(rs, r, 11, 1)
            pen[q, 0] += 1
        elif ev == E.EV_MARKERS:
            pen[q, 2] += a
            pen[q, 3] -= pts
        elif ev == E.EV_TABLEAU:
            pen[q, 4] += a
            pen[q, 5] -= pts
    for t in range(MAX_ROUNDS):
        for f in range(ROUND_W):
            x = rs[t, f]
            acc[O_ROUND_STATS + (t * ROUND_W + f) * 2] += x
            acc[O_ROUND_STATS + (t * ROUND_W + f) * 2 + 1] += x * x
    for q in range(n):
        for f in range(PENALTY_W):
            x = pen[q, f]
            acc[O_PENALTIES + (q * PENALTY_W + f) * 2] += x
            acc[O_PENALTIES + (q * PENALTY_W + f) * 2 + 1] += x * x
    for q in range(n):
        for c in range(MAX_CT):
            if held[q, c]:
                acc[O_CARD_HOLDERS + c * 3] += 1
                if op[0, q, F_WON]:
                    acc[O_CARD_HOLDERS + c * 3 + 1] += winner_share_nb(op, n, F_WON, WIN_SHARE_SCALE)
                acc[O_CARD_HOLDERS + c * 3 + 2] += np.int64(op[0, q, F_VP])


# The kernel's one signature (decide as the core's first-class function type), compiled on
# first use by ensure_compiled(): `import cargo_sim` does not pay for it.
AGGREGATE_SIG = types.boolean(types.int64[::1], DecideType, types.uint64[::1],
                              types.int64[:, ::1], types.int64[::1], types.int64[::1])


@njit(cache=True, nogil=True)
def aggregate_games_nb(template, decide, seeds, log, acc, err):
    """Play len(seeds) games from the template and add their statistics to acc
    (ACC_SIZE counters, layout SECTIONS); ``log`` is the per-game event buffer
    (re-used). Returns False on an illegal decision (err as run_games_nb) or when a
    game's events overflowed the buffer (err[0] = game, err[1] = -1, err[7] = its
    events): then acc holds part of the chunk and must be discarded."""
    s = template.copy()
    p = state_ptr_nb(s)
    lp = state_ptr_nb(log)
    rows = log.shape[0]
    n = s[R_N_PLAYERS]
    og = np.zeros((1, len(E.GAME_FIELDS)), np.int64)
    op = np.zeros((1, MAX_SEATS, N_PLAYER_FIELDS), np.int32)
    held = np.zeros((MAX_SEATS, MAX_CT), np.int64)
    pending = np.zeros(MAX_SEATS, np.int64)
    rs = np.zeros((MAX_ROUNDS, ROUND_W), np.int64)
    pen = np.zeros((MAX_SEATS, PENALTY_W), np.int64)
    ok = True
    for g in range(seeds.shape[0]):
        begin_nb(p, seeds[g], g, lp, 0, rows)
        while p[E.G_ASK] >= 0:
            seat = p[E.G_SEAT]
            a = ask_nb(decide, p[E.G_ASK], p, seat)
            if not ok_nb(p, a):
                illegal_nb(err, g, p[E.G_ASK], seat, a, p[E.G_ROUND])
                ok = False
                break
            answer_nb(p, a, lp)
        if not ok:
            break
        n_ev = p[E.G_NEV]
        if overflowed_nb(err, g, n_ev, rows):
            ok = False
            break
        stats_nb(p, og, op, 0)
        fold_results_nb(og, op, n, acc)
        fold_events_nb(log, n_ev, op, n, acc, held, pending, rs, pen)
    keep_nb(s)                 # s and log outlive their pointers
    keep_nb(log)
    return ok


def ensure_compiled() -> None:
    """Compile (or load from the cache) aggregate_games_nb for AGGREGATE_SIG only, so
    that every bot table shares it (decide converts to the function type)."""
    if not _KERNEL.signatures:
        _KERNEL.compile(AGGREGATE_SIG)
        _KERNEL.disable_compile()


_KERNEL = aggregate_games_nb
