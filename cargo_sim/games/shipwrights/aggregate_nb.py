"""Shipwrights' statistics of many games folded inside compiled code (no per-event rows kept).

``aggregate_games_nb(template, decide, seeds, log, acc, err)`` plays a chunk of games
like ``chunk_nb.run_games_nb`` (the same bots asked the same way, so the same games),
but each game's events go to the start of ``log`` (re-used by the next game): after
each game its players-table rows (``chunk_nb.stats_nb``) and its events are folded
into ``acc``, ONE flat int64 array laid out by ``SECTIONS`` (the same size for every
rules set and player count). Merging two runs is a sum (core/aggregate.py).

Every counter is an integer: counts, sums and sums of squares, histograms (values
beyond the last bin land in it). A win shared by k players counts 1 in ``wins`` and
``tied_wins`` and ``WIN_SHARE_SCALE / k`` in ``win60`` (60 is divisible by 1..5).
Cards are counted by face (``Rules.card_names``); a townsfolk's victims are read from
its ``arg`` (the face's effect in the template's rules words) and from the ``lose_gold``
rows that precede it.
"""
import numpy as np
from ...core import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit, types

from ...core.counters_nb import (game_sections, seat_sections, fold_game_stats_nb, fold_seats_nb, hist_add_nb, illegal_nb, layout_id,
                                 overflowed_nb, section_offsets, winner_share_nb)
from ...core.dispatch_nb import DecideType, ask_keyed_nb, seat_oneway_nb
from ...core.layout import R_N_PLAYERS
from . import enums as E
from .chunk_nb import stats_nb
from .engine_nb import answer_nb, begin_nb, ok_nb
from .enums import MAX_FACES, MAX_SEATS, NG

# ---- bounds (values beyond go to the last bin) -----------------------------------------
VP_BINS = 128           # final points 0..127
DAY_BINS = 64           # days played (the rules bound them by max_days, 60 by default)
SHIP_BINS = 16          # ships completed by a seat
WIN_SHARE_SCALE = 60    # a win shared by k players adds 60 / k to win60

N_PLAYER_FIELDS = len(E.PLAYER_FIELDS)
GAME_STATS = ("days", "decisions", "reshuffles", "capped")
CARD_FIELDS = ("drafted", "drawn", "played", "discarded", "gold")
SHIP_FIELDS = ("started", "completed", "points", "tool_used")
HOLDER_FIELDS = ("players", "win60", "vp_sum")
MILITARY_GAMES = ("one_holder", "shared", "nobody")
N_GAME_STATS = len(GAME_STATS)
CARD_W = len(CARD_FIELDS)
SHIP_W = len(SHIP_FIELDS)

SECTIONS = seat_sections(MAX_SEATS, N_PLAYER_FIELDS, WIN_SHARE_SCALE) + (
    ("vp_hist", (MAX_SEATS, VP_BINS), "player-games by seat and final points"),
    ("ships_hist", (MAX_SEATS, SHIP_BINS), "player-games by seat and ships completed"),
) + game_sections(N_GAME_STATS) + (
    ("days_hist", (DAY_BINS,), "games by days played"),
    ("cards", (MAX_FACES, CARD_W),
     ("by card face: CARD_FIELDS (drafted in the mornings, drawn by townsfolk, played: a tool "
      "bought, a craftsman hired, a ship started, a building constructed, a townsfolk played; "
      "discarded from hand; gold: the gold column of its play and completion rows)")),
    ("card_holders", (MAX_FACES, 3),
     "player-games that drafted the face at least once: HOLDER_FIELDS"),
    ("ships", (MAX_FACES, SHIP_W),
     "by ship face: SHIP_FIELDS (tool_used: completions that ignored a goods kind with a tool)"),
    ("attacks", (MAX_SEATS, MAX_SEATS), "take-that attacks by attacking seat and victim seat"),
    ("attack_faces", (MAX_FACES, 2), "by townsfolk face: victims, gold the victims lost"),
    ("military", (MAX_SEATS, 2), "military token by seat: taken, of which shared"),
    ("military_games", (3,), "games by the military token: MILITARY_GAMES"),
    ("goods", (NG, 2), "goods bought by kind: purchases, goods received"),
)

OFFSETS, ACC_SIZE = section_offsets(SECTIONS)
LAYOUT_ID = layout_id("shipwrights.aggregates/1", SECTIONS)

O_GAMES, O_TIES, O_WINS = OFFSETS["games"], OFFSETS["ties"], OFFSETS["wins"]
O_TIED_WINS, O_WIN60 = OFFSETS["tied_wins"], OFFSETS["win60"]
O_PLAYER_SUM, O_PLAYER_SUMSQ = OFFSETS["player_sum"], OFFSETS["player_sumsq"]
O_WINNER_SUM, O_VP_HIST, O_SHIPS_HIST = OFFSETS["winner_sum"], OFFSETS["vp_hist"], OFFSETS["ships_hist"]
O_GAME_SUM, O_GAME_SUMSQ, O_DAYS_HIST = OFFSETS["game_sum"], OFFSETS["game_sumsq"], OFFSETS["days_hist"]
O_CARDS, O_CARD_HOLDERS, O_SHIPS = OFFSETS["cards"], OFFSETS["card_holders"], OFFSETS["ships"]
O_ATTACKS, O_ATTACK_FACES = OFFSETS["attacks"], OFFSETS["attack_faces"]
O_MILITARY, O_MILITARY_GAMES, O_GOODS = OFFSETS["military"], OFFSETS["military_games"], OFFSETS["goods"]

F_VP = E.PLAYER_FIELDS.index("vp")
F_WON = E.PLAYER_FIELDS.index("won")
F_SHIPS = E.PLAYER_FIELDS.index("ships")
GAME_COLS = tuple(E.GAME_FIELDS.index(f) for f in GAME_STATS)
N_WINNERS = E.GAME_FIELDS.index("n_winners")

# event-log columns (enums.EVENT_FIELDS)
C_SEAT, C_ACTION, C_A, C_B, C_C, C_POINTS, C_GOLD = (E.EVENT_FIELDS.index(f) for f in
                                                     ("seat", "action", "a", "b", "c", "points", "gold"))


@njit(cache=True)
def fold_results_nb(og, op, n, acc):
    """End-of-game statistics: the games and players rows stats_nb wrote (row 0)."""
    acc[O_GAMES] += 1
    k = og[0, N_WINNERS]
    if k > 1:
        acc[O_TIES] += 1
    fold_game_stats_nb(og, GAME_COLS, acc, O_GAME_SUM, O_GAME_SUMSQ)
    hist_add_nb(acc, O_DAYS_HIST, DAY_BINS, og[0, GAME_COLS[0]])
    fold_seats_nb(op, n, acc, F_WON, O_WINS, O_PLAYER_SUM, O_PLAYER_SUMSQ, O_WINNER_SUM,
                  k, WIN_SHARE_SCALE, O_WIN60, O_TIED_WINS)
    for q in range(n):
        hist_add_nb(acc, O_VP_HIST + q * VP_BINS, VP_BINS, np.int64(op[0, q, F_VP]))
        hist_add_nb(acc, O_SHIPS_HIST + q * SHIP_BINS, SHIP_BINS, np.int64(op[0, q, F_SHIPS]))


@njit(cache=True)
def victim_nb(s, face, arg):
    """The seat a take-that townsfolk's ``arg`` names (-1: not a one-victim attack)."""
    e = s[E.K_TOWN + s[E.K_IDX + face] * E.TOWN_W + E.TF_EFFECT]
    if e == E.TF_REMOVE_CRAFT or e == E.TF_REMOVE_SHIP or e == E.TF_STEAL_CRAFT \
            or e == E.TF_STEAL_GOODS:
        return arg // 8
    if e == E.TF_DESTROY_TOOL:
        return arg
    return -1


@njit(cache=True)
def fold_events_nb(s, log, n_ev, op, n, acc, drafted, pend):
    """The game's events (rows 0 .. n_ev - 1 of log) into acc; ``drafted`` (seat, face)
    and ``pend`` (seat: victims, gold lost, of the attack being played) are scratch."""
    for q in range(MAX_SEATS):
        pend[q, 0], pend[q, 1] = 0, 0
        for f in range(MAX_FACES):
            drafted[q, f] = 0
    holders = 0
    for i in range(n_ev):
        q, ev = log[i, C_SEAT], log[i, C_ACTION]
        a, b, c = log[i, C_A], log[i, C_B], log[i, C_C]
        if ev == E.EV_DRAFT:
            acc[O_CARDS + a * CARD_W] += 1
            drafted[q, a] = 1
        elif ev == E.EV_DRAW:
            acc[O_CARDS + a * CARD_W + 1] += 1
        elif ev == E.EV_DISCARD:
            acc[O_CARDS + a * CARD_W + 3] += 1
        elif ev == E.EV_TOOL or ev == E.EV_HIRE or ev == E.EV_START_SHIP or ev == E.EV_BUILD \
                or ev == E.EV_TOWNSFOLK:
            acc[O_CARDS + a * CARD_W + 2] += 1
            acc[O_CARDS + a * CARD_W + 4] += log[i, C_GOLD]
            if ev == E.EV_START_SHIP:
                acc[O_SHIPS + a * SHIP_W] += 1
            elif ev == E.EV_TOWNSFOLK:
                t = victim_nb(s, a, b)
                if t >= 0 and t != q:
                    acc[O_ATTACKS + q * MAX_SEATS + t] += 1
                    pend[q, 0] += 1
                acc[O_ATTACK_FACES + a * 2] += pend[q, 0]
                acc[O_ATTACK_FACES + a * 2 + 1] += pend[q, 1]
                pend[q, 0], pend[q, 1] = 0, 0
        elif ev == E.EV_COMPLETE:
            acc[O_CARDS + a * CARD_W + 4] += log[i, C_GOLD]
            acc[O_SHIPS + a * SHIP_W + 1] += 1
            acc[O_SHIPS + a * SHIP_W + 2] += log[i, C_POINTS]
            if c >= 0:
                acc[O_SHIPS + a * SHIP_W + 3] += 1
        elif ev == E.EV_LOSE_GOLD:
            # a = the attacker; its townsfolk row follows (gold-from-all and raid effects)
            if a != q:
                acc[O_ATTACKS + a * MAX_SEATS + q] += 1
                pend[a, 0] += 1
                pend[a, 1] -= log[i, C_GOLD]
        elif ev == E.EV_MILITARY:
            acc[O_MILITARY + q * 2] += 1
            if b > 1:
                acc[O_MILITARY + q * 2 + 1] += 1
            holders += 1
        elif ev == E.EV_BUY_GOODS:
            acc[O_GOODS + a * 2] += 1
            acc[O_GOODS + a * 2 + 1] += b
    acc[O_MILITARY_GAMES + (0 if holders == 1 else (1 if holders > 1 else 2))] += 1
    share = winner_share_nb(op, n, F_WON, WIN_SHARE_SCALE)
    for q in range(n):
        for f in range(MAX_FACES):
            if drafted[q, f]:
                acc[O_CARD_HOLDERS + f * 3] += 1
                if op[0, q, F_WON]:
                    acc[O_CARD_HOLDERS + f * 3 + 1] += share
                acc[O_CARD_HOLDERS + f * 3 + 2] += np.int64(op[0, q, F_VP])


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
    oneway = np.zeros(8, np.int64)
    rows = log.shape[0]
    n = s[R_N_PLAYERS]
    og = np.zeros((1, len(E.GAME_FIELDS)), np.int64)
    op = np.zeros((1, MAX_SEATS, N_PLAYER_FIELDS), np.int32)
    drafted = np.zeros((MAX_SEATS, MAX_FACES), np.int64)
    pend = np.zeros((MAX_SEATS, 2), np.int64)
    ok = True
    for g in range(seeds.shape[0]):
        begin_nb(s, seeds[g], g, log, 0, rows)
        for q in range(n):
            oneway[q] = seat_oneway_nb(s, q)
        while s[E.G_ASK] >= 0:
            seat = s[E.G_SEAT]
            a = ask_keyed_nb(decide, s[E.G_ASK], s, seat, oneway[seat])
            if not ok_nb(s, a):
                illegal_nb(err, g, s[E.G_ASK], seat, a, s[E.G_DAY])
                ok = False
                break
            answer_nb(s, a, log)
        if not ok:
            break
        n_ev = s[E.G_NEV]
        if overflowed_nb(err, g, n_ev, rows):
            ok = False
            break
        stats_nb(s, og, op, 0)
        fold_results_nb(og, op, n, acc)
        fold_events_nb(s, log, n_ev, op, n, acc, drafted, pend)
    return ok


def ensure_compiled() -> None:
    """Compile (or load from the cache) aggregate_games_nb for AGGREGATE_SIG only, so
    that every bot table shares it (decide converts to the function type)."""
    if not _KERNEL.signatures:
        _KERNEL.compile(AGGREGATE_SIG)
        _KERNEL.disable_compile()


_KERNEL = aggregate_games_nb
