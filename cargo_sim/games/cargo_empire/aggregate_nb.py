"""Cargo Empire's statistics of many games folded inside compiled code (no per-event rows kept).

``aggregate_games_nb(template, decide, seeds, log, acc, err)`` plays a chunk of games
like ``chunk_nb.run_games_nb`` (the same bots asked the same way, so the same games),
but each game's events go to the start of ``log`` (re-used by the next game): after
each game its players-table rows (``chunk_nb.stats_nb``) and its events are folded
into ``acc``, ONE flat int64 array laid out by ``SECTIONS`` (the same size for every
rules set, map and player count). Merging two runs is a sum (core/aggregate.py).

Every counter is an integer: counts, sums and sums of squares, histograms (values
beyond the last bin land in it). The ranking breaks every tie, so a game has one
winner. Deliveries are kept by city pair: the tables read the route length from the
map of the run's rules.
"""
import numpy as np
from ...core import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit, types

from ...core.borrow_nb import keep_nb, state_ptr_nb
from ...core.counters_nb import (game_sections, seat_sections, bin_nb, fold_game_stats_nb, fold_seats_nb, hist_add_nb, illegal_nb,
                                 layout_id, overflowed_nb, section_offsets)
from ...core.dispatch_nb import DecideType, ask_nb
from ...core.layout import R_N_PLAYERS
from . import enums as E
from .chunk_nb import stats_nb
from .engine_nb import answer_nb, begin_nb, ok_nb
from .enums import MAX_COL, MAX_MISSIONS, MAX_SEATS, MAX_SLOTS, MAXC, N_VEH

# ---- bounds (values beyond go to the last bin) -----------------------------------------
VP_BINS = 160           # final points 0..159
PAY_BINS = 8            # cards of one vehicle paid for a delivery
CARD_BINS = 16          # transport cards paid for a delivery
MISSION_BINS = 16       # missions completed by a seat
N_REWARDS = 6           # rules.REWARDS: none, truck, train, ship, city, mission

N_PLAYER_FIELDS = len(E.PLAYER_FIELDS)
GAME_STATS = ("decisions", "lv3_cities", "upgrades", "passes")
ORDER_FIELDS = ("players", "wins", "vp_sum", "vp_sumsq")
N_GAME_STATS = len(GAME_STATS)
ORDER_W = len(ORDER_FIELDS)
TRACK_BINS = MAX_SLOTS + 1      # development slot reached (MAX_SLOTS: the score spaces' row)

SECTIONS = seat_sections(MAX_SEATS, N_PLAYER_FIELDS) + (
    ("vp_hist", (MAX_SEATS, VP_BINS), "player-games by seat and final points"),
    ("missions_hist", (MAX_SEATS, MISSION_BINS), "player-games by seat and missions completed"),
) + game_sections(N_GAME_STATS) + (
    ("routes", (MAXC, MAXC), "deliveries by supply city and target city"),
    ("colours", (MAX_COL,), "deliveries by goods colour"),
    ("pay_hist", (N_VEH, PAY_BINS), "deliveries by vehicle and cards of it paid"),
    ("cards_hist", (CARD_BINS,), "deliveries by transport cards paid (all vehicles)"),
    ("upgrades", (2, 2), "upgrades by the level reached (2, 3) and perfect (0 no, 1 yes)"),
    ("upgrade_cities", (MAXC, 2), "upgrades by city: to level 2, to level 3"),
    ("steps", (MAX_SEATS, N_VEH, 2),
     "development steps by seat and vehicle: sum over games, sum of squares"),
    ("rewards", (N_VEH, N_REWARDS), "development spaces entered by vehicle and reward (rules.REWARDS)"),
    ("track_end", (N_VEH, TRACK_BINS),
     "player-games by vehicle and the development slot its marker ended on"),
    ("missions", (MAX_MISSIONS,), "missions kept, by mission"),
    ("passes", (MAX_SEATS, 2), "forced passes by seat: took three cards, refilled a city"),
    ("cards_gained", (MAX_SEATS, N_VEH), "transport cards gained by seat and vehicle"),
    ("order", (MAX_SEATS, ORDER_W),
     "player-games by place in the first round's order (0: start player): ORDER_FIELDS"),
)

OFFSETS, ACC_SIZE = section_offsets(SECTIONS)
LAYOUT_ID = layout_id("cargo_empire.aggregates/1", SECTIONS)

O_GAMES, O_WINS = OFFSETS["games"], OFFSETS["wins"]
O_PLAYER_SUM, O_PLAYER_SUMSQ = OFFSETS["player_sum"], OFFSETS["player_sumsq"]
O_WINNER_SUM, O_VP_HIST, O_MISSIONS_HIST = OFFSETS["winner_sum"], OFFSETS["vp_hist"], OFFSETS["missions_hist"]
O_GAME_SUM, O_GAME_SUMSQ = OFFSETS["game_sum"], OFFSETS["game_sumsq"]
O_ROUTES, O_COLOURS, O_PAY_HIST, O_CARDS_HIST = (OFFSETS[k] for k in ("routes", "colours", "pay_hist",
                                                                      "cards_hist"))
O_UPGRADES, O_UPGRADE_CITIES, O_STEPS = OFFSETS["upgrades"], OFFSETS["upgrade_cities"], OFFSETS["steps"]
O_REWARDS, O_TRACK_END, O_MISSIONS = OFFSETS["rewards"], OFFSETS["track_end"], OFFSETS["missions"]
O_PASSES, O_CARDS_GAINED, O_ORDER = OFFSETS["passes"], OFFSETS["cards_gained"], OFFSETS["order"]

F_VP = E.PLAYER_FIELDS.index("vp")
F_WON = E.PLAYER_FIELDS.index("won")
F_MISS_DONE = E.PLAYER_FIELDS.index("missions_done")
GAME_COLS = tuple(E.GAME_FIELDS.index(f) for f in GAME_STATS)

# event-log columns (enums.EVENT_FIELDS)
C_ROUND, C_SEAT, C_ACTION, C_A, C_B, C_C, C_D = (E.EVENT_FIELDS.index(f) for f in
                                                 ("round", "seat", "action", "a", "b", "c", "d"))


@njit(cache=True)
def fold_results_nb(og, op, n, acc):
    """End-of-game statistics: the games and players rows stats_nb wrote (row 0)."""
    acc[O_GAMES] += 1
    fold_game_stats_nb(og, GAME_COLS, acc, O_GAME_SUM, O_GAME_SUMSQ)
    # one winner a game (the ranking breaks every tie): no win shares
    fold_seats_nb(op, n, acc, F_WON, O_WINS, O_PLAYER_SUM, O_PLAYER_SUMSQ, O_WINNER_SUM, 0, 1, -1, -1)
    for q in range(n):
        hist_add_nb(acc, O_VP_HIST + q * VP_BINS, VP_BINS, np.int64(op[0, q, F_VP]))
        hist_add_nb(acc, O_MISSIONS_HIST + q * MISSION_BINS, MISSION_BINS, np.int64(op[0, q, F_MISS_DONE]))


@njit(cache=True)
def fold_events_nb(log, n_ev, op, n, acc, steps, tile, place):
    """The game's events (rows 0 .. n_ev - 1 of log) into acc; ``steps`` and ``tile``
    (seat, vehicle) and ``place`` (seat) are the game's scratch, reset here."""
    for q in range(MAX_SEATS):
        place[q] = -1
        for v in range(N_VEH):
            steps[q, v], tile[q, v] = 0, 0
    for i in range(n_ev):
        q, ev = log[i, C_SEAT], log[i, C_ACTION]
        a, b, c = log[i, C_A], log[i, C_B], log[i, C_C]
        if ev == E.EV_DELIVER:
            acc[O_ROUTES + a * MAXC + b] += 1
            acc[O_COLOURS + log[i, C_D]] += 1
            cards = 0
            for v in range(N_VEH):
                k = (c >> (8 * v)) & 255
                cards += k
                acc[O_PAY_HIST + v * PAY_BINS + bin_nb(k, PAY_BINS)] += 1
            acc[O_CARDS_HIST + bin_nb(cards, CARD_BINS)] += 1
        elif ev == E.EV_UPGRADE:
            acc[O_UPGRADES + (b - 2) * 2 + c] += 1
            acc[O_UPGRADE_CITIES + a * 2 + b - 2] += 1
        elif ev == E.EV_STEP:
            steps[q, a] += 1
            tile[q, a] = c
            acc[O_REWARDS + a * N_REWARDS + b] += 1
        elif ev == E.EV_MISSION:
            acc[O_MISSIONS + a] += 1
        elif ev == E.EV_PASS:
            acc[O_PASSES + q * 2 + (0 if a == 0 else 1)] += 1
        elif ev == E.EV_CARD:
            acc[O_CARDS_GAINED + q * N_VEH + a] += b
        elif ev == E.EV_ORDER and log[i, C_ROUND] == 0:
            place[q] = a
    for q in range(n):
        for v in range(N_VEH):
            x = steps[q, v]
            acc[O_STEPS + (q * N_VEH + v) * 2] += x
            acc[O_STEPS + (q * N_VEH + v) * 2 + 1] += x * x
            acc[O_TRACK_END + v * TRACK_BINS + bin_nb(tile[q, v], TRACK_BINS)] += 1
        i = place[q]
        if i >= 0:
            vp = np.int64(op[0, q, F_VP])
            acc[O_ORDER + i * ORDER_W] += 1
            acc[O_ORDER + i * ORDER_W + 1] += op[0, q, F_WON]
            acc[O_ORDER + i * ORDER_W + 2] += vp
            acc[O_ORDER + i * ORDER_W + 3] += vp * vp


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
    steps = np.zeros((MAX_SEATS, N_VEH), np.int64)
    tile = np.zeros((MAX_SEATS, N_VEH), np.int64)
    place = np.zeros(MAX_SEATS, np.int64)
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
        fold_events_nb(log, n_ev, op, n, acc, steps, tile, place)
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
