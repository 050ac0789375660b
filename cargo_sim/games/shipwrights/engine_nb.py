"""Shipwrights' rules as numba kernels: one place for every rule (docs/rules_shipwrights.md).

A resumable machine: ``begin_nb`` sets a game up and runs to the first decision;
``s[G_ASK]``/``s[G_SEAT]`` say which decision the game waits for (kind -1: over);
``ok_nb`` is the engine's one check of an answer, ``answer_nb`` applies it and runs
to the next decision, ``legal_nb`` lists answers ``ok_nb`` accepts. The chunk kernel
(``chunk_nb``) and the forward model (``forward_nb``) both loop "ask, check, answer".

Chance (deck order, first player) comes only from the game's stream ``M_RNG``.
Every change of a seat's gold is written to the event log's ``gold`` column.
"""
import numpy as np
from ...core import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit

from ...core.layout import MARKS, MARKS_END, M_BOT_SEED, M_DECISIONS, M_RNG, R_N_PLAYERS
from ...core.rng_nb import bot_seed_nb, rand_below_at_nb
from .enums import (
    A_COMPLETE, A_DISCARD, A_END, A_GOODS, A_PLAY, A_TOWN, BLD_MILL_OVER, BLD_PER_CIVIL,
    BLD_PER_GOLD, BLD_POINTS, BLD_W, B_ARG, B_EFFECT, B_GOLD, B_WORK, D_ACTION, D_DRAFT, D_RETURN,
    D_START, EV_BUILD, EV_COMPLETE, EV_DISCARD, EV_DRAFT, EV_DRAW, EV_FACEDOWN, EV_FIRST,
    EV_HIRE, EV_INCOME, EV_LOSE_GOLD, EV_MILITARY, EV_RANK, EV_RESHUFFLE, EV_RETURN,
    EV_SCORE, EV_START_GOODS, EV_START_SHIP, EV_TOOL, EV_TOWNSFOLK, EV_BUY_GOODS, G_ASK, G_DAY, G_DECK, G_DECK_N, G_DISC, G_DISC_N, G_ENDING, G_FD, G_FD_N, G_FD_ROUND, G_FIRST,
    G_GAME, G_IDX, G_LOG_CAP, G_NEV, G_NEXT_FIRST, G_PACKET, G_PACKET_N, G_PHASE, G_POS,
    G_RESHUFFLES, G_ROUND, G_SEAT, G_SUB, G_TOP_BACK, G_WINNERS, HAND_REF, KIND_BLD,
    KIND_CRAFT, KIND_SHIP, KIND_TOOL, KIND_TOWN, K_BACK, K_BLD, K_BOX, K_BOX_BACK, K_BUILDS,
    K_EVE_WORKERS, K_GOAL, K_GOLD_MAX, K_GOODS_GOLD, K_GOODS_WORK, K_IDX, K_KIND, K_MAX_CRAFT,
    K_MAX_DAYS, K_MILL_CAP, K_MIL_PTS, K_MIL_TIE, K_MIN_EVE, K_N_CARDS, K_N_SHIPS, K_ROUNDS,
    K_SHIP, K_START_GOLD, K_START_GOODS, K_START_WORK, K_TAKE_CART, K_TIE, K_TOOL, K_TOWN,
    K_VILLAGE_CAP, K_YARDS, MAX_BLD, MAX_BOARD, MAX_DONE, MAX_HAND, MAX_LEGAL, REFS, MAX_SHIPS, MAX_YARDS, MIL_ALL, NG,
    NO_REF, PH_AFTERNOON, PH_DRAFT, PH_EVENING, PH_OVER, PH_START, PL, PW, P_ATTACKED, P_ATTACKS,
    P_BLD, P_BLD_PTS, P_BOUGHT, P_CART, P_CIVIL, P_CRAFT, P_CRAFT_N, P_DISCARDED, P_DONE, P_SHIPS,
    P_FRONT, P_FRONT_N, P_GICON, P_GOLD, P_GOLD_CAPPED, P_GOLD_IN, P_GOLD_OUT, P_GOODS, P_HAND,
    P_HAND_N, P_HIRED, P_LOST_SHIPS, P_MICON, P_MIL, P_MIL_PTS, P_N_BLD, P_N_DONE, P_PROTECTED,
    P_RANK, P_RETURNED, P_SHIP_PTS, P_SRC, P_STARTED, P_TOOL, P_TOOLS, P_TOWN_PLAYED, P_VP,
    P_WICON, P_WON, P_WORKERS, P_YARD, ROUND_DRAWN, RULES_END, SHIP_W, STATE_SIZE, S_CRAFT,
    S_GICON, S_GOLD, S_GOODS, S_MICON, S_MIL, S_PTS, S_WICON, S_WORK, TF_DESTROY_TOOL,
    TF_DISCARD_DRAW, TF_DRAW, TF_EFFECT, TF_FIRST, TF_GAIN_GOLD, TF_GAIN_GOODS, TF_GAIN_WORKERS,
    TF_GOLD_ALL, TF_GOODS_FOR_WORKERS, TF_NAVIGATE, TF_PROTECT, TF_RAID, TF_REMOVE_CRAFT,
    TF_REMOVE_SHIP, TF_STEAL_CRAFT, TF_STEAL_GOODS, TF_SWAP_GOODS, TIE_GOLD, TOOL_CART, TOOL_W,
    TOWN_W, T_EFFECT, T_GOODS, T_PRICE, TOOL_IGNORE,
)


# ---- small helpers ------------------------------------------------------------------------
@njit(cache=True, inline="always")
def pb(q):
    return PL + q * PW


@njit(cache=True, inline="always")
def face_nb(s, c):
    return s[K_BOX + c]


@njit(cache=True, inline="always")
def kind_nb(s, c):
    return s[K_KIND + s[K_BOX + c]]


@njit(cache=True, inline="always")
def idx_nb(s, c):
    """A copy's index among the faces of its kind (ship x, craftsman k, ...)."""
    return s[K_IDX + s[K_BOX + c]]


@njit(cache=True, inline="always")
def ship_nb(s, x, f):
    return s[K_SHIP + x * SHIP_W + f]


@njit(cache=True, inline="always")
def town_nb(s, c, f):
    return s[K_TOWN + idx_nb(s, c) * TOWN_W + f]


@njit(cache=True, inline="always")
def tool_nb(s, c, f):
    return s[K_TOOL + idx_nb(s, c) * TOOL_W + f]


@njit(cache=True, inline="always")
def bld_nb(s, c, f):
    return s[K_BLD + idx_nb(s, c) * BLD_W + f]


@njit(cache=True)
def event_nb(s, log, q, action, a, b, c, points, gold):
    """One row of the event log (counted even when the log is full: the runner regrows it).
    Small enough to be inlined: a game without a log pays a count, not a call (~20 ns)."""
    i = s[G_NEV]
    s[G_NEV] = i + 1
    if i < s[G_LOG_CAP]:
        event_row_nb(s, log, i, q, action, a, b, c, points, gold)


@njit(cache=True)
def event_row_nb(s, log, i, q, action, a, b, c, points, gold):
    if i < log.shape[0]:
        log[i, 0], log[i, 1], log[i, 2], log[i, 3] = s[G_GAME], s[G_DAY], q, action
        log[i, 4], log[i, 5], log[i, 6], log[i, 7], log[i, 8] = a, b, c, points, gold


@njit(cache=True)
def gain_gold_nb(s, q, n):
    """Gold up to gold_max (the coastline ends at 12); returns what was gained."""
    b = pb(q)
    got = min(n, s[K_GOLD_MAX] - s[b + P_GOLD])
    got = max(got, 0)
    s[b + P_GOLD] += got
    s[b + P_GOLD_IN] += got
    s[b + P_GOLD_CAPPED] += n - got
    return got


@njit(cache=True)
def pay_gold_nb(s, q, n):
    """Lose up to n gold (never below 0); returns what was lost."""
    b = pb(q)
    n = min(n, s[b + P_GOLD])
    s[b + P_GOLD] -= n
    s[b + P_GOLD_OUT] += n
    return n


@njit(cache=True)
def protected_nb(s, q, t):
    """Seat t is shielded from seat q's attack (a Watchman played today; one's own
    board is never shielded from oneself)."""
    return t != q and s[pb(t) + P_PROTECTED] != 0


@njit(cache=True)
def goods_total_nb(s, q):
    b = pb(q) + P_GOODS
    return s[b] + s[b + 1] + s[b + 2]


@njit(cache=True)
def mill_cap_nb(s, q):
    return max(0, s[K_MILL_CAP] + s[pb(q) + P_MICON])


# ---- the cards ----------------------------------------------------------------------------
@njit(cache=True)
def set_top_nb(s):
    s[G_TOP_BACK] = s[K_BOX_BACK + s[G_DECK + s[G_DECK_N] - 1]] if s[G_DECK_N] > 0 else -1


@njit(cache=True)
def refill_nb(s, log):
    """An empty deck: the discard pile shuffled into a new deck (the test small enough
    to be inlined: the shuffle, once in a hundred draws, is a call)."""
    if s[G_DECK_N] == 0 and s[G_DISC_N] > 0:
        reshuffle_nb(s, log)


@njit(cache=True)
def reshuffle_nb(s, log):
    n = s[G_DISC_N]
    for i in range(n):
        s[G_DECK + i] = s[G_DISC + i]
    for i in range(n - 1, 0, -1):
        j = rand_below_at_nb(s, M_RNG, i + 1)
        t = s[G_DECK + i]
        s[G_DECK + i] = s[G_DECK + j]
        s[G_DECK + j] = t
    s[G_DECK_N], s[G_DISC_N] = n, 0
    s[G_RESHUFFLES] += 1
    event_nb(s, log, -1, EV_RESHUFFLE, n, 0, 0, 0, 0)
    set_top_nb(s)


@njit(cache=True)
def draw_nb(s, log):
    """The deck's top card (refilled from the discard pile when empty), -1 if none left."""
    refill_nb(s, log)
    if s[G_DECK_N] == 0:
        return -1
    s[G_DECK_N] -= 1
    c = s[G_DECK + s[G_DECK_N]]
    refill_nb(s, log)
    set_top_nb(s)
    return c


@njit(cache=True)
def discard_nb(s, c):
    s[G_DISC + s[G_DISC_N]] = c
    s[G_DISC_N] += 1


@njit(cache=True)
def take_hand_nb(s, q, slot):
    """Remove hand card ``slot`` (the later ones move up); returns it."""
    b = pb(q)
    c = s[b + P_HAND + slot]
    for i in range(slot, s[b + P_HAND_N] - 1):
        s[b + P_HAND + i] = s[b + P_HAND + i + 1]
        s[b + P_SRC + i] = s[b + P_SRC + i + 1]
    s[b + P_HAND_N] -= 1
    return c


@njit(cache=True)
def to_hand_nb(s, q, c, src):
    b = pb(q)
    s[b + P_HAND + s[b + P_HAND_N]] = c
    s[b + P_SRC + s[b + P_HAND_N]] = src
    s[b + P_HAND_N] += 1


@njit(cache=True)
def take_board_nb(s, q, i):
    """Remove craftsman ``i`` from the seat's board; returns it."""
    b = pb(q)
    c = s[b + P_CRAFT + i]
    for k in range(i, s[b + P_CRAFT_N] - 1):
        s[b + P_CRAFT + k] = s[b + P_CRAFT + k + 1]
    s[b + P_CRAFT_N] -= 1
    return c


@njit(cache=True)
def draw_to_hand_nb(s, q, n, log):
    for _ in range(n):
        if s[pb(q) + P_HAND_N] >= MAX_HAND:
            break
        c = draw_nb(s, log)
        if c < 0:
            break
        to_hand_nb(s, q, c, ROUND_DRAWN)
        event_nb(s, log, q, EV_DRAW, face_nb(s, c), 0, 0, 0, 0)


# ---- setup ------------------------------------------------------------------------------------
@njit(cache=True)
def begin_nb(s, seed, game, log, n_events, log_rows):
    """Set up game ``game`` (index in its chunk) from its seed and run to the first
    decision; event rows from row ``n_events`` of ``log`` on (at most ``log_rows``)."""
    for i in range(MARKS, MARKS_END):
        s[i] = 0
    for i in range(RULES_END, STATE_SIZE):
        s[i] = 0
    s[M_RNG] = np.int64(seed)
    s[M_BOT_SEED] = bot_seed_nb(np.int64(seed))
    s[G_GAME], s[G_NEV], s[G_LOG_CAP] = game, n_events, log_rows
    n = s[R_N_PLAYERS]
    nc = s[K_N_CARDS]
    for i in range(nc):
        s[G_DECK + i] = i
    for i in range(nc - 1, 0, -1):
        j = rand_below_at_nb(s, M_RNG, i + 1)
        t = s[G_DECK + i]
        s[G_DECK + i] = s[G_DECK + j]
        s[G_DECK + j] = t
    s[G_DECK_N] = nc
    set_top_nb(s)
    for q in range(n):
        b = pb(q)
        s[b + P_WORKERS] = s[K_START_WORK]
        gain_gold_nb(s, q, s[K_START_GOLD])
        s[b + P_TOOL] = -1
        for y in range(MAX_YARDS):
            s[b + P_YARD + y] = -1
        for k in range(MAX_BLD):
            s[b + P_BLD + k] = -1
    s[G_FIRST] = rand_below_at_nb(s, M_RNG, n)        # "any player" starts (seed line 7)
    s[G_NEXT_FIRST] = -1
    event_nb(s, log, s[G_FIRST], EV_FIRST, 0, 0, 0, 0, 0)
    s[G_PHASE], s[G_IDX], s[G_SUB] = PH_START, 0, 0
    advance_nb(s, log)


@njit(cache=True)
def begin_day_nb(s):
    s[G_DAY] += 1
    n = s[R_N_PLAYERS]
    for q in range(n):
        s[G_POS + q] = (q - s[G_FIRST] + n) % n
    s[G_PHASE], s[G_ROUND], s[G_IDX], s[G_SUB] = PH_DRAFT, 0, 0, 0
    s[G_FD_N] = 0


@njit(cache=True)
def end_day_nb(s, log):
    """The day's face-down discards go face up; Pioneer and Watchman leave; then the
    end, or the next first player (the Pioneer's, else clockwise)."""
    n = s[R_N_PLAYERS]
    for i in range(s[G_FD_N]):
        discard_nb(s, s[G_FD + i])
    s[G_FD_N] = 0
    for q in range(n):
        b = pb(q)
        for i in range(s[b + P_FRONT_N]):
            discard_nb(s, s[b + P_FRONT + i])
        s[b + P_FRONT_N] = 0
        s[b + P_PROTECTED] = 0
    if s[G_ENDING] or s[G_DAY] >= s[K_MAX_DAYS]:
        final_nb(s, log)
        s[G_PHASE] = PH_OVER
        return
    s[G_FIRST] = s[G_NEXT_FIRST] if s[G_NEXT_FIRST] >= 0 else (s[G_FIRST] + 1) % n
    s[G_NEXT_FIRST] = -1
    begin_day_nb(s)


@njit(cache=True)
def income_nb(s, q, log):
    """The evening: gold from the village's workers and the ships' gold icons, new
    workers (1 + up - down arrows, at least min_evening_workers), the village cut to
    its capacity."""
    b = pb(q)
    got = gain_gold_nb(s, q, s[b + P_WORKERS] + s[b + P_GICON])
    new = max(s[K_MIN_EVE], s[K_EVE_WORKERS] + s[b + P_WICON])
    s[b + P_WORKERS] = min(s[b + P_WORKERS] + new, s[K_VILLAGE_CAP])
    event_nb(s, log, q, EV_INCOME, got, new, 0, 0, got)


@njit(cache=True)
def only_goods_kind_nb(s, q):
    """The one goods kind the seat holds, -1 if it holds two or more kinds."""
    b = pb(q) + P_GOODS
    k = -1
    for g in range(NG):
        if s[b + g] > 0:
            if k >= 0:
                return -1
            k = g
    return k


# ---- the machine: run to the next decision --------------------------------------------------
@njit(cache=True)
def ask_set_nb(s, kind, seat):
    s[G_ASK] = kind
    s[G_SEAT] = seat


@njit(cache=True, inline="always")
def advance_nb(s, log):
    """Run to the next decision (inlined into answer_nb and begin_nb, its only callers:
    a call a decision saved)."""
    n = s[R_N_PLAYERS]
    while True:
        ph = s[G_PHASE]
        seat = s[G_FIRST] + s[G_IDX]                # (first + idx) % n without a division
        while seat >= n:                            # (first < n, idx at most n)
            seat -= n
        if ph == PH_START:
            if s[G_SUB] >= s[K_START_GOODS]:
                s[G_IDX] += 1
                s[G_SUB] = 0
            elif s[G_IDX] < n:
                ask_set_nb(s, D_START, seat)
                return
            if s[G_IDX] >= n:
                begin_day_nb(s)
        elif ph == PH_DRAFT:
            if s[G_SUB] == 0:                  # the first player draws players + 1 cards
                s[G_PACKET_N] = 0
                d = s[G_DECK_N]
                if d > n + 1:                  # no refill on the way: draw_nb's cards, at once
                    for i in range(n + 1):
                        s[G_PACKET + i] = s[G_DECK + d - 1 - i]
                    s[G_DECK_N] = d - n - 1
                    s[G_PACKET_N] = n + 1
                    set_top_nb(s)
                for _ in range(n + 1 - s[G_PACKET_N]):
                    c = draw_nb(s, log)
                    if c < 0:
                        break
                    s[G_PACKET + s[G_PACKET_N]] = c
                    s[G_PACKET_N] += 1
                s[G_SUB], s[G_IDX] = 1, 0
                continue
            if s[G_IDX] < n and s[G_PACKET_N] > 0:
                ask_set_nb(s, D_DRAFT, seat)
                return
            for i in range(s[G_PACKET_N]):     # the last card: face down until the evening
                s[G_FD + s[G_FD_N]] = s[G_PACKET + i]
                s[G_FD_ROUND + s[G_FD_N]] = s[G_ROUND]
                s[G_FD_N] += 1
                event_nb(s, log, (s[G_FIRST] + n - 1) % n, EV_FACEDOWN, -1, s[G_ROUND], 0, 0, 0)
            s[G_PACKET_N] = 0
            s[G_ROUND] += 1
            s[G_SUB], s[G_IDX] = 0, 0
            if s[G_ROUND] >= s[K_ROUNDS]:
                s[G_PHASE] = PH_AFTERNOON
        elif ph == PH_AFTERNOON:
            if s[G_IDX] < n:
                ask_set_nb(s, D_ACTION, seat)
                return
            s[G_PHASE], s[G_IDX], s[G_SUB] = PH_EVENING, 0, 0
        elif ph == PH_EVENING:
            if s[G_IDX] >= n:
                end_day_nb(s, log)
                continue
            if s[G_SUB] == 0:
                income_nb(s, seat, log)
                s[G_SUB] = 1
            if goods_total_nb(s, seat) > mill_cap_nb(s, seat):
                k = only_goods_kind_nb(s, seat)
                if k < 0:
                    ask_set_nb(s, D_RETURN, seat)
                    return
                over = goods_total_nb(s, seat) - mill_cap_nb(s, seat)
                return_goods_nb(s, seat, k, over, log)
            s[G_IDX] += 1
            s[G_SUB] = 0
        else:
            s[G_ASK], s[G_SEAT] = -1, -1
            return


@njit(cache=True)
def return_goods_nb(s, q, g, k, log):
    s[pb(q) + P_GOODS + g] -= k
    s[pb(q) + P_RETURNED] += k
    event_nb(s, log, q, EV_RETURN, g, k, 0, 0, 0)


# ---- checking answers -------------------------------------------------------------------------
@njit(cache=True)
def ref_card_nb(s, q, r):
    """The craftsman card a ref names (board 0..7, HAND_REF + hand slot), -1 if none."""
    b = pb(q)
    if 0 <= r < MAX_BOARD:
        return s[b + P_CRAFT + r] if r < s[b + P_CRAFT_N] else -1
    if HAND_REF <= r < HAND_REF + MAX_HAND and r - HAND_REF < s[b + P_HAND_N]:
        c = s[b + P_HAND + r - HAND_REF]
        return c if kind_nb(s, c) == KIND_CRAFT else -1
    return -1


@njit(cache=True)
def builds_nb(s, c, x):
    return c >= 0 and s[K_BUILDS + idx_nb(s, c) * MAX_SHIPS + x] != 0


@njit(cache=True)
def ignored_nb(s, q, tool):
    """The goods kind a used tool lets the ship ignore, -1 none (tool: 0 or 1)."""
    if tool == 0:
        return -1
    t = s[pb(q) + P_TOOL]
    if t < 0 or tool_nb(s, t, T_EFFECT) != TOOL_IGNORE:
        return -2                                   # no such tool: illegal
    for g in range(NG):
        if tool_nb(s, t, T_GOODS + g) > 0:
            return g
    return -2


@njit(cache=True)
def can_pay_ship_nb(s, q, x, ign):
    """Gold, workers and goods (one kind ignored, or -1) for ship x."""
    b = pb(q)
    # one test of all five (& not `and`): a random game's costs mispredict every early exit
    ok = (s[b + P_GOLD] >= ship_nb(s, x, S_GOLD)) & (s[b + P_WORKERS] >= ship_nb(s, x, S_WORK))
    for g in range(NG):
        ok &= (g == ign) | (s[b + P_GOODS + g] >= ship_nb(s, x, S_GOODS + g))
    return ok


@njit(cache=True)
def tool_pays_nb(s, q, x):
    """Seat q can pay ship x with its ignore tool, and the tool saves goods there."""
    ign = ignored_nb(s, q, 1)
    return ign >= 0 and ship_nb(s, x, S_GOODS + ign) != 0 and can_pay_ship_nb(s, q, x, ign)


@njit(cache=True)
def complete_ok_nb(s, q, code):
    v = code - A_COMPLETE
    j, i, yt = v % 32, (v // 32) % 32, v // 1024
    y, tool = yt // 2, yt % 2
    if not (0 <= y < s[K_YARDS]) or yt >= 2 * MAX_YARDS:
        return False
    c = s[pb(q) + P_YARD + y]
    if c < 0 or s[pb(q) + P_N_DONE] >= MAX_DONE:
        return False
    x = idx_nb(s, c)
    ign = ignored_nb(s, q, tool)
    if ign == -2 or (ign >= 0 and ship_nb(s, x, S_GOODS + ign) == 0):
        return False                                # a tool is used only where it saves goods
    if not can_pay_ship_nb(s, q, x, ign):
        return False
    if not builds_nb(s, ref_card_nb(s, q, i), x):
        return False
    if ship_nb(s, x, S_CRAFT) == 1:
        return j == NO_REF
    return j != NO_REF and j != i and builds_nb(s, ref_card_nb(s, q, j), x)


@njit(cache=True, inline="always")
def play_ok_nb(s, q, slot):
    """Hand card ``slot`` can be bought, hired, started or constructed."""
    b = pb(q)
    c = s[b + P_HAND + slot]
    k = kind_nb(s, c)
    if k == KIND_SHIP:
        for y in range(s[K_YARDS]):
            if s[b + P_YARD + y] < 0:
                return True
        return False
    if k == KIND_CRAFT:
        return s[b + P_CRAFT_N] < s[K_MAX_CRAFT]
    if k == KIND_TOOL:
        return s[b + P_GOLD] >= tool_nb(s, c, T_PRICE)
    if k == KIND_BLD:
        return (s[b + P_BLD + idx_nb(s, c)] < 0 and s[b + P_GOLD] >= bld_nb(s, c, B_GOLD)
                and s[b + P_WORKERS] >= bld_nb(s, c, B_WORK))
    return False


@njit(cache=True)
def town_ok_nb(s, q, slot, arg):
    """Townsfolk in hand ``slot`` played with ``arg`` (its target or choice)."""
    n = s[R_N_PLAYERS]
    b = pb(q)
    c = s[b + P_HAND + slot]
    if kind_nb(s, c) != KIND_TOWN:
        return False
    e = town_nb(s, c, TF_EFFECT)
    a0, a1, a2 = town_nb(s, c, 1), town_nb(s, c, 2), town_nb(s, c, 3)
    t, k = arg // 8, arg % 8
    if e == TF_REMOVE_CRAFT:
        return t < n and not protected_nb(s, q, t) and k < s[pb(t) + P_CRAFT_N]
    if e == TF_REMOVE_SHIP:
        return t < n and not protected_nb(s, q, t) and k < s[K_YARDS] and s[pb(t) + P_YARD + k] >= 0
    if e == TF_STEAL_CRAFT:
        return (t < n and t != q and not protected_nb(s, q, t) and k < s[pb(t) + P_CRAFT_N]
                and s[b + P_CRAFT_N] < s[K_MAX_CRAFT])
    if e == TF_STEAL_GOODS:
        return t < n and t != q and not protected_nb(s, q, t) and k < NG and s[pb(t) + P_GOODS + k] > 0
    if e == TF_RAID:
        return arg < n and arg != q and not protected_nb(s, q, arg)
    if e == TF_DESTROY_TOOL:
        return arg < n and arg != q and s[pb(arg) + P_TOOL] >= 0 and s[b + P_GOLD] >= a0
    if e == TF_DISCARD_DRAW:
        i, j = arg // 16, arg % 16
        hn = s[b + P_HAND_N]
        if i == slot or j == slot or i >= hn or (j != 15 and (j >= hn or j <= i)):
            return False
        gone = 1 if j == 15 else 2
        return a0 <= gone <= a1 and hn - 1 - gone + gone + a2 <= MAX_HAND
    if e == TF_GAIN_GOODS:
        return arg < NG
    if e == TF_SWAP_GOODS:
        g1, g2 = arg // 4, arg % 4
        return g1 < NG and g2 < NG and g1 != g2 and s[b + P_GOODS + g1] >= a0
    if e == TF_GOODS_FOR_WORKERS:
        return arg < NG and s[b + P_GOODS + arg] >= a0
    if e == TF_DRAW:
        return arg == 0 and s[b + P_HAND_N] - 1 + a0 <= MAX_HAND
    return arg == 0                                 # no target: first_player, protect, gold ...


@njit(cache=True)
def action_ok_nb(s, q, a):
    b = pb(q)
    hn = s[b + P_HAND_N]
    if a == A_END:
        return True
    if A_DISCARD <= a < A_DISCARD + hn:
        return True
    if A_GOODS <= a < A_GOODS + NG:
        return (s[b + P_GOLD] >= s[K_GOODS_GOLD] and s[b + P_WORKERS] >= s[K_GOODS_WORK]
                and s[G_DECK_N] + s[G_DISC_N] > 0)
    if A_PLAY <= a < A_PLAY + hn:
        return play_ok_nb(s, q, a - A_PLAY)
    if A_TOWN <= a < A_TOWN + MAX_HAND * 256:
        slot, arg = (a - A_TOWN) // 256, (a - A_TOWN) % 256
        return slot < hn and town_ok_nb(s, q, slot, arg)
    if A_COMPLETE <= a < A_COMPLETE + 2 * MAX_YARDS * 1024:
        return complete_ok_nb(s, q, a)
    return False


@njit(cache=True)
def ok_nb(s, a):
    """Is ``a`` a legal answer to the pending decision? (The engine's one check.)"""
    kind, q = s[G_ASK], s[G_SEAT]
    if kind == D_START:
        return 0 <= a < NG
    if kind == D_DRAFT:
        return 0 <= a < s[G_PACKET_N]
    if kind == D_RETURN:
        return 0 <= a < NG and s[pb(q) + P_GOODS + a] > 0
    if kind == D_ACTION:
        return action_ok_nb(s, q, a)
    return False


# ---- applying answers ---------------------------------------------------------------------------
@njit(cache=True)
def answer_nb(s, a, log):
    """Apply a legal answer (``ok_nb`` said so) and run to the next decision."""
    kind, q = s[G_ASK], s[G_SEAT]
    b = pb(q)
    s[M_DECISIONS] += 1
    if kind == D_START:
        s[b + P_GOODS + a] += 1
        event_nb(s, log, q, EV_START_GOODS, a, 0, 0, 0, 0)
        s[G_SUB] += 1
    elif kind == D_DRAFT:
        c = s[G_PACKET + a]
        for i in range(a, s[G_PACKET_N] - 1):
            s[G_PACKET + i] = s[G_PACKET + i + 1]
        s[G_PACKET_N] -= 1
        to_hand_nb(s, q, c, s[G_ROUND])
        event_nb(s, log, q, EV_DRAFT, face_nb(s, c), s[G_ROUND], 0, 0, 0)
        s[G_IDX] += 1
    elif kind == D_RETURN:
        return_goods_nb(s, q, a, 1, log)
    elif a == A_END:
        for i in range(s[b + P_HAND_N]):          # every card is played or discarded, in order
            c = s[b + P_HAND + i]
            discard_nb(s, c)
            s[b + P_DISCARDED] += 1
            event_nb(s, log, q, EV_DISCARD, face_nb(s, c), 0, 0, 0, 0)
        s[b + P_HAND_N] = 0
        s[G_IDX] += 1
    else:
        act_nb(s, q, a, log)
    advance_nb(s, log)


@njit(cache=True)
def act_nb(s, q, a, log):
    b = pb(q)
    if a < A_GOODS:
        c = take_hand_nb(s, q, a - A_DISCARD)
        discard_nb(s, c)
        s[b + P_DISCARDED] += 1
        event_nb(s, log, q, EV_DISCARD, face_nb(s, c), 0, 0, 0, 0)
    elif a < A_PLAY:
        buy_goods_nb(s, q, a - A_GOODS, log)
    elif a < A_TOWN:
        play_nb(s, q, a - A_PLAY, log)
    elif a < A_COMPLETE:
        town_nb_(s, q, (a - A_TOWN) // 256, (a - A_TOWN) % 256, log)
    else:
        complete_nb(s, q, a, log)


@njit(cache=True)
def buy_goods_nb(s, q, g, log):
    """2 gold + 2 workers: the goods the deck's top card's back shows; the cart adds one."""
    b = pb(q)
    refill_nb(s, log)
    paid = pay_gold_nb(s, q, s[K_GOODS_GOLD])
    s[b + P_WORKERS] -= s[K_GOODS_WORK]
    got = s[K_BACK + s[G_TOP_BACK] * NG + g] if s[G_TOP_BACK] >= 0 else 0
    t = s[b + P_TOOL]
    if s[K_TAKE_CART] and t >= 0 and tool_nb(s, t, T_EFFECT) == TOOL_CART and s[b + P_CART + g] > 0:
        s[b + P_CART + g] -= 1
        got += 1
        if s[b + P_CART] + s[b + P_CART + 1] + s[b + P_CART + 2] == 0:
            discard_nb(s, t)                        # an empty cart is discarded at once
            s[b + P_TOOL] = -1
    s[b + P_GOODS + g] += got
    s[b + P_BOUGHT] += 1
    event_nb(s, log, q, EV_BUY_GOODS, g, got, s[G_TOP_BACK], 0, -paid)


@njit(cache=True)
def play_nb(s, q, slot, log):
    b = pb(q)
    c = take_hand_nb(s, q, slot)
    k = kind_nb(s, c)
    if k == KIND_SHIP:
        for y in range(s[K_YARDS]):
            if s[b + P_YARD + y] < 0:
                s[b + P_YARD + y] = c
                s[b + P_STARTED] += 1
                event_nb(s, log, q, EV_START_SHIP, face_nb(s, c), y, 0, 0, 0)
                return
    elif k == KIND_CRAFT:
        s[b + P_CRAFT + s[b + P_CRAFT_N]] = c
        s[b + P_CRAFT_N] += 1
        s[b + P_HIRED] += 1
        event_nb(s, log, q, EV_HIRE, face_nb(s, c), 0, 0, 0, 0)
    elif k == KIND_TOOL:
        paid = pay_gold_nb(s, q, tool_nb(s, c, T_PRICE))
        if s[b + P_TOOL] >= 0:
            discard_nb(s, s[b + P_TOOL])            # one tool at a time
        s[b + P_TOOL] = c
        for g in range(NG):
            s[b + P_CART + g] = tool_nb(s, c, T_GOODS + g) if tool_nb(s, c, T_EFFECT) == TOOL_CART else 0
        s[b + P_TOOLS] += 1
        event_nb(s, log, q, EV_TOOL, face_nb(s, c), 0, 0, 0, -paid)
    else:
        paid = pay_gold_nb(s, q, bld_nb(s, c, B_GOLD))
        s[b + P_WORKERS] -= bld_nb(s, c, B_WORK)
        s[b + P_BLD + idx_nb(s, c)] = c
        s[b + P_N_BLD] += 1
        event_nb(s, log, q, EV_BUILD, face_nb(s, c), 0, 0, 0, -paid)


@njit(cache=True)
def complete_nb(s, q, a, log):
    """Pay gold, workers and goods (a tool's kind ignored: the tool is discarded), discard
    the craftsmen used, and the ship sails out of the yard."""
    b = pb(q)
    v = a - A_COMPLETE
    j, i, yt = v % 32, (v // 32) % 32, v // 1024
    y, tool = yt // 2, yt % 2
    c = s[b + P_YARD + y]
    x = idx_nb(s, c)
    ign = ignored_nb(s, q, tool)
    paid = pay_gold_nb(s, q, ship_nb(s, x, S_GOLD))
    s[b + P_WORKERS] -= ship_nb(s, x, S_WORK)
    for g in range(NG):
        if g != ign:
            s[b + P_GOODS + g] -= ship_nb(s, x, S_GOODS + g)
    if ign >= 0:
        discard_nb(s, s[b + P_TOOL])
        s[b + P_TOOL] = -1
    # the craftsmen: the higher ref first, so the lower one's place does not move
    hi, lo = (i, j) if (j == NO_REF or i > j) else (j, i)
    for r in (hi, lo):
        if r == NO_REF:
            continue
        if r < HAND_REF:
            discard_nb(s, take_board_nb(s, q, r))
        else:
            discard_nb(s, take_hand_nb(s, q, r - HAND_REF))
    s[b + P_YARD + y] = -1
    s[b + P_DONE + x] += 1
    s[b + P_SHIPS + min(s[b + P_N_DONE], MAX_DONE - 1)] = c
    s[b + P_N_DONE] += 1
    s[b + P_MIL] += ship_nb(s, x, S_MIL)
    s[b + P_CIVIL] += 1 if ship_nb(s, x, S_MIL) == 0 else 0
    s[b + P_GICON] += ship_nb(s, x, S_GICON)
    s[b + P_WICON] += ship_nb(s, x, S_WICON)
    s[b + P_MICON] += ship_nb(s, x, S_MICON)
    if s[b + P_N_DONE] >= s[K_GOAL]:
        s[G_ENDING] = 1                             # the game ends after this day
    event_nb(s, log, q, EV_COMPLETE, face_nb(s, c), y, ign, ship_nb(s, x, S_PTS), -paid)


@njit(cache=True)
def town_nb_(s, q, slot, arg, log):
    """Play a townsfolk (town_ok_nb said so): its effect, then the discard pile (the
    Pioneer and the Watchman stay in front of the seat until tomorrow)."""
    n = s[R_N_PLAYERS]
    b = pb(q)
    hand_before = s[b + P_HAND + slot]
    e = town_nb(s, hand_before, TF_EFFECT)
    a0, a1, a2 = town_nb(s, hand_before, 1), town_nb(s, hand_before, 2), town_nb(s, hand_before, 3)
    gold = 0
    if e == TF_DISCARD_DRAW:                        # the Sage: discard first (slots as before)
        i, j = arg // 16, arg % 16
        for r in (j, i):
            if r != 15:
                discard_nb(s, take_hand_nb(s, q, r))
        slot -= (1 if i < slot else 0) + (1 if j != 15 and j < slot else 0)
    c = take_hand_nb(s, q, slot)
    s[b + P_TOWN_PLAYED] += 1
    t, k = arg // 8, arg % 8
    front = False
    if e == TF_REMOVE_CRAFT:
        discard_nb(s, take_board_nb(s, t, k))
        attack_nb(s, q, t)
    elif e == TF_REMOVE_SHIP:
        discard_nb(s, s[pb(t) + P_YARD + k])
        s[pb(t) + P_YARD + k] = -1
        s[pb(t) + P_LOST_SHIPS] += 1
        attack_nb(s, q, t)
    elif e == TF_STEAL_CRAFT:
        s[b + P_CRAFT + s[b + P_CRAFT_N]] = take_board_nb(s, t, k)
        s[b + P_CRAFT_N] += 1
        attack_nb(s, q, t)
    elif e == TF_FIRST:
        s[G_NEXT_FIRST] = q
        front = True
    elif e == TF_PROTECT:
        s[b + P_PROTECTED] = 1
        front = True
    elif e == TF_GOLD_ALL:
        gold = gain_gold_nb(s, q, a0)
        for o in range(n):
            if o != q and not protected_nb(s, q, o):
                lost = pay_gold_nb(s, o, a1)
                event_nb(s, log, o, EV_LOSE_GOLD, q, 0, 0, 0, -lost)
                attack_nb(s, q, o)
    elif e == TF_RAID:
        lost = pay_gold_nb(s, arg, a0 * goods_total_nb(s, arg))
        event_nb(s, log, arg, EV_LOSE_GOLD, q, 0, 0, 0, -lost)
        attack_nb(s, q, arg)
    elif e == TF_DESTROY_TOOL:
        gold = -pay_gold_nb(s, q, a0)
        discard_nb(s, s[pb(arg) + P_TOOL])
        s[pb(arg) + P_TOOL] = -1
        attack_nb(s, q, arg)
    elif e == TF_STEAL_GOODS:
        m = min(a0, s[pb(t) + P_GOODS + k])
        s[pb(t) + P_GOODS + k] -= m
        s[b + P_GOODS + k] += m
        attack_nb(s, q, t)
    elif e == TF_DRAW or e == TF_DISCARD_DRAW:      # told first: the draws' events follow it
        event_nb(s, log, q, EV_TOWNSFOLK, face_nb(s, c), arg, 0, 0, 0)
        draw_to_hand_nb(s, q, a0 if e == TF_DRAW else (1 if arg % 16 == 15 else 2) + a2, log)
    elif e == TF_GAIN_WORKERS:
        s[b + P_WORKERS] += a0
    elif e == TF_GAIN_GOODS:
        s[b + P_GOODS + arg] += a0
    elif e == TF_SWAP_GOODS:
        s[b + P_GOODS + arg // 4] -= a0
        s[b + P_GOODS + arg % 4] += a1
    elif e == TF_GOODS_FOR_WORKERS:
        s[b + P_GOODS + arg] -= a0
        s[b + P_WORKERS] += a1
    elif e == TF_GAIN_GOLD:
        gold = gain_gold_nb(s, q, a0)
    elif e == TF_NAVIGATE:
        gold = gain_gold_nb(s, q, a0 + a1 * s[G_IDX])   # a1 per seat that acted before
    if front:
        s[b + P_FRONT + s[b + P_FRONT_N]] = c
        s[b + P_FRONT_N] += 1
    else:
        discard_nb(s, c)
    if e != TF_DRAW and e != TF_DISCARD_DRAW:
        event_nb(s, log, q, EV_TOWNSFOLK, face_nb(s, c), arg, 0, 0, gold)


@njit(cache=True)
def attack_nb(s, q, t):
    if t != q:
        s[pb(q) + P_ATTACKS] += 1
        s[pb(t) + P_ATTACKED] += 1


# ---- the end ---------------------------------------------------------------------------------
@njit(cache=True)
def building_points_nb(s, q):
    b = pb(q)
    pts = 0
    for k in range(MAX_BLD):
        c = s[b + P_BLD + k]
        if c < 0:
            continue
        e, arg = bld_nb(s, c, B_EFFECT), bld_nb(s, c, B_ARG)
        if e == BLD_POINTS:
            pts += arg
        elif e == BLD_PER_GOLD:
            pts += s[b + P_GOLD] // arg
        elif e == BLD_PER_CIVIL:
            pts += arg * s[b + P_CIVIL]
        elif e == BLD_MILL_OVER:
            pts += max(0, mill_cap_nb(s, q) - arg)
    return pts


@njit(cache=True)
def ship_points_nb(s, q):
    pts = 0
    for x in range(s[K_N_SHIPS]):
        pts += s[pb(q) + P_DONE + x] * ship_nb(s, x, S_PTS)
    return pts


@njit(cache=True)
def beats_nb(s, o, q):
    vo, vq = s[pb(o) + P_VP], s[pb(q) + P_VP]
    if vo != vq:
        return vo > vq
    if s[K_TIE] == TIE_GOLD:
        return s[pb(o) + P_GOLD] > s[pb(q) + P_GOLD]
    return False


@njit(cache=True)
def final_nb(s, log):
    """Ships + buildings + the military token (3 points to the most red flags)."""
    n = s[R_N_PLAYERS]
    top, holders = 0, 0
    for q in range(n):
        m = s[pb(q) + P_MIL]
        if m > top:
            top, holders = m, 1
        elif m == top and m > 0:
            holders += 1
    for q in range(n):
        b = pb(q)
        s[b + P_SHIP_PTS] = ship_points_nb(s, q)
        s[b + P_BLD_PTS] = building_points_nb(s, q)
        mil = 0
        if top > 0 and s[b + P_MIL] == top and (holders == 1 or s[K_MIL_TIE] == MIL_ALL):
            mil = s[K_MIL_PTS]
            event_nb(s, log, q, EV_MILITARY, top, holders, 0, mil, 0)
        s[b + P_MIL_PTS] = mil
        s[b + P_VP] = s[b + P_SHIP_PTS] + s[b + P_BLD_PTS] + mil
        event_nb(s, log, q, EV_SCORE, s[b + P_SHIP_PTS], s[b + P_BLD_PTS], mil, s[b + P_VP], 0)
    winners = 0
    for q in range(n):
        rank = 1
        for o in range(n):
            if o != q and beats_nb(s, o, q):
                rank += 1
        s[pb(q) + P_RANK] = rank
        s[pb(q) + P_WON] = 1 if rank == 1 else 0
        winners += s[pb(q) + P_WON]
        event_nb(s, log, q, EV_RANK, rank, s[pb(q) + P_VP], 0, 0, 0)
    s[G_WINNERS] = winners


# ---- the legal answers --------------------------------------------------------------------------
# Listing the afternoon's answers is a third of a random game's time: legal_nb walks only
# the answers that can be legal (each townsfolk's targets, each ship's craftsmen) instead
# of asking ok_nb of every code; every answer it lists is one ok_nb accepts, and every one
# ok_nb accepts is listed up to equal craftsmen (tests/games/shipwrights/test_ship_legal.py).
@njit(cache=True)
def legal_nb(s, out):
    """Answers ``ok_nb`` accepts for the pending decision into ``out`` (MAX_LEGAL long),
    in increasing order; their number. Completing a ship lists one choice of craftsmen
    per kind of craftsman and place (board or hand): equal cards make equal games."""
    kind, q = s[G_ASK], s[G_SEAT]
    n = 0
    if kind < 0:
        return 0
    if kind == D_START or kind == D_RETURN:         # ok_nb's test, inlined
        for g in range(NG):
            if kind == D_START or s[pb(q) + P_GOODS + g] > 0:
                out[n] = g
                n += 1
        return n
    if kind == D_DRAFT:
        for i in range(s[G_PACKET_N]):
            out[i] = i
        return s[G_PACKET_N]
    b = pb(q)
    hn = s[b + P_HAND_N]
    out[0] = A_END
    n = 1
    for i in range(hn):
        out[n] = A_DISCARD + i
        n += 1
    if (s[b + P_GOLD] >= s[K_GOODS_GOLD] and s[b + P_WORKERS] >= s[K_GOODS_WORK]
            and s[G_DECK_N] + s[G_DISC_N] > 0):     # action_ok_nb's test, the same for every kind
        for g in range(NG):
            out[n] = A_GOODS + g
            n += 1
    towns = 0                                       # the townsfolk's slots, a bit each
    for i in range(hn):
        if kind_nb(s, s[b + P_HAND + i]) == KIND_TOWN:
            towns |= 1 << i
        elif play_ok_nb(s, q, i):
            out[n] = A_PLAY + i
            n += 1
    i = 0
    while towns:
        if towns & 1:
            n = legal_town_nb(s, q, i, out, n)
        towns >>= 1
        i += 1
    for y in range(s[K_YARDS]):                     # a call only with a ship it can pay for
        c = s[b + P_YARD + y]
        if c >= 0 and (can_pay_ship_nb(s, q, idx_nb(s, c), -1)
                       or (s[b + P_TOOL] >= 0 and tool_pays_nb(s, q, idx_nb(s, c)))):
            return legal_complete_nb(s, q, out, n)
    return n


@njit(cache=True, inline="always")
def put_nb(out, n, a):
    out[n] = a
    return n + 1


@njit(cache=True)
def legal_town_nb(s, q, slot, out, n):
    """The arguments town_ok_nb accepts for the townsfolk in hand ``slot``, in
    increasing order, appended to ``out`` from ``n``; the new count."""
    seats = s[R_N_PLAYERS]
    b = pb(q)
    c = s[b + P_HAND + slot]
    e = town_nb(s, c, TF_EFFECT)
    a0, a1, a2 = town_nb(s, c, 1), town_nb(s, c, 2), town_nb(s, c, 3)
    base = A_TOWN + slot * 256
    if e == TF_REMOVE_CRAFT or e == TF_STEAL_CRAFT:
        if e == TF_STEAL_CRAFT and s[b + P_CRAFT_N] >= s[K_MAX_CRAFT]:
            return n
        for t in range(seats):
            if protected_nb(s, q, t) or (e == TF_STEAL_CRAFT and t == q):
                continue
            for k in range(min(8, s[pb(t) + P_CRAFT_N])):
                n = put_nb(out, n, base + t * 8 + k)
    elif e == TF_REMOVE_SHIP:
        for t in range(seats):
            if protected_nb(s, q, t):
                continue
            for k in range(min(8, s[K_YARDS])):
                if s[pb(t) + P_YARD + k] >= 0:
                    n = put_nb(out, n, base + t * 8 + k)
    elif e == TF_STEAL_GOODS:
        for t in range(seats):
            if t == q or protected_nb(s, q, t):
                continue
            for k in range(NG):
                if s[pb(t) + P_GOODS + k] > 0:
                    n = put_nb(out, n, base + t * 8 + k)
    elif e == TF_RAID:
        for t in range(seats):
            if t != q and not protected_nb(s, q, t):
                n = put_nb(out, n, base + t)
    elif e == TF_DESTROY_TOOL:
        if s[b + P_GOLD] >= a0:
            for t in range(seats):
                if t != q and s[pb(t) + P_TOOL] >= 0:
                    n = put_nb(out, n, base + t)
    elif e == TF_DISCARD_DRAW:
        hn = s[b + P_HAND_N]
        if hn - 1 + a2 <= MAX_HAND:                 # the hand after the draw (gone cards cancel)
            for i in range(hn):
                if i == slot:
                    continue
                if a0 <= 2 <= a1:
                    for j in range(i + 1, hn):
                        if j != slot:
                            n = put_nb(out, n, base + i * 16 + j)
                if a0 <= 1 <= a1:
                    n = put_nb(out, n, base + i * 16 + 15)
    elif e == TF_GAIN_GOODS:
        for g in range(NG):
            n = put_nb(out, n, base + g)
    elif e == TF_SWAP_GOODS:
        for g1 in range(NG):
            if s[b + P_GOODS + g1] >= a0:
                for g2 in range(NG):
                    if g2 != g1:
                        n = put_nb(out, n, base + g1 * 4 + g2)
    elif e == TF_GOODS_FOR_WORKERS:
        for g in range(NG):
            if s[b + P_GOODS + g] >= a0:
                n = put_nb(out, n, base + g)
    elif e == TF_DRAW:
        if s[b + P_HAND_N] - 1 + a0 <= MAX_HAND:
            n = put_nb(out, n, base)
    else:
        n = put_nb(out, n, base)                    # no target: first_player, protect, gold ...
    return n


@njit(cache=True)
def legal_complete_nb(s, q, out, n):
    """The ship completions complete_ok_nb accepts, one per kind and place of craftsman
    (``key``: face * 2 + in hand; refs kept as ref + 32 * key in the tail of ``out``)."""
    b = pb(q)
    refs = out[MAX_LEGAL - REFS:]               # the tail of out: no allocation (n stays below it)
    for y in range(s[K_YARDS]):
        c = s[b + P_YARD + y]
        if c < 0 or s[b + P_N_DONE] >= MAX_DONE:
            continue
        x = idx_nb(s, c)
        pay0 = can_pay_ship_nb(s, q, x, -1)
        pay1 = tool_pays_nb(s, q, x)
        if not pay0 and not pay1:
            continue
        m = 0                                       # the craftsmen that build x
        for r in range(s[b + P_CRAFT_N]):
            cr = s[b + P_CRAFT + r]
            if builds_nb(s, cr, x):
                refs[m] = r + 32 * (2 * face_nb(s, cr))
                m += 1
        for i in range(s[b + P_HAND_N]):
            cr = s[b + P_HAND + i]
            if kind_nb(s, cr) == KIND_CRAFT and builds_nb(s, cr, x):
                refs[m] = HAND_REF + i + 32 * (2 * face_nb(s, cr) + 1)
                m += 1
        two = ship_nb(s, x, S_CRAFT) == 2
        for tool in range(2):
            if not (pay1 if tool else pay0):
                continue
            base = A_COMPLETE + (y * 2 + tool) * 1024
            for u in range(m):
                if dup_nb(refs, u, 0):              # u's kind was listed with an earlier twin
                    continue
                if n >= MAX_LEGAL - REFS:
                    return n
                if not two:
                    out[n] = base + (refs[u] % 32) * 32 + NO_REF
                    n += 1
                    continue
                for w in range(u + 1, m):
                    # each pair of kinds once: w the first of its kind, or u's first twin
                    if dup_nb(refs, w, 0) and not first_twin_nb(refs, u, w):
                        continue
                    if n >= MAX_LEGAL - REFS:
                        return n
                    out[n] = base + (refs[u] % 32) * 32 + refs[w] % 32
                    n += 1
    return n


@njit(cache=True, inline="always")
def dup_nb(refs, u, lo):
    """refs[u] repeats the kind of a ref of refs[lo:u] (same face, same place)."""
    for k in range(lo, u):
        if refs[k] // 32 == refs[u] // 32:
            return True
    return False


@njit(cache=True, inline="always")
def first_twin_nb(refs, u, w):
    """refs[w] is the first ref after refs[u] of refs[u]'s kind (a pair of twins, listed once)."""
    if refs[u] // 32 != refs[w] // 32:
        return False
    return not dup_nb(refs, w, u + 1)


@njit(cache=True)
def is_legal_nb(s, a):
    return ok_nb(s, a)
