"""Shipwrights' heuristic family: one-step look-ahead on a weighted value of the seat's
position (the named strategies and `expert` are parameter sets: bots/registry.py).

Afternoon: every legal action but ending and discarding is tried on a scratch copy
and the seat's value compared; the best one is taken while it raises the value, then
the afternoon ends (what is left in hand is discarded). The value: points now (ships,
buildings, the military token when leading), flags and non-military ships (the
strategies' biases), resources, ships in the yards by how much of their cost is at
hand, craftsmen that build them, a share of the hand's cards, less the opponents'
progress times the attacker's weight. Draft: the card worth most to the seat now.
The bot reads only what its seat may see: its own hand, the public boards and the
top card's back.
"""
import numpy as np
from ....core import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit

from ....core.layout import N_PARAMS, PARAM_SCALE, PARAMS, R_N_PLAYERS
from ..engine_nb import (answer_nb, building_points_nb, builds_nb, goods_total_nb, idx_nb, kind_nb,
                         legal_nb, mill_cap_nb, pb, ship_nb, ship_points_nb, town_nb, tool_nb, bld_nb)
from ..enums import (A_DISCARD, A_END, A_GOODS, A_TOWN, BLD_MILL_OVER, BLD_PER_CIVIL, BLD_PER_GOLD, B_ARG,
                     B_EFFECT, B_GOLD, D_ACTION, D_DRAFT, D_RETURN, D_START, G_ASK, G_ENDING, G_PACKET, G_SEAT,
                     KIND_BLD, KIND_CRAFT, KIND_SHIP, KIND_TOOL, K_GOLD_MAX, K_MAX_CRAFT,
                     K_MIL_PTS, K_N_SHIPS, K_YARDS, MAX_LEGAL, N_EVENT_FIELDS, NG, P_BLD, P_CIVIL,
                     P_CRAFT, P_CRAFT_N, P_GOLD, P_GOODS, P_HAND, P_HAND_N, P_MIL, P_TOOL, P_WORKERS, P_YARD, RULES_END, STATE_SIZE, S_CRAFT, S_GOLD, S_GOODS,
                     S_MIL, S_PTS, S_WORK, TF_EFFECT, TF_GAIN_GOLD, TF_GAIN_WORKERS, TF_GOLD_ALL,
                     TF_NAVIGATE, TF_RAID, TF_REMOVE_CRAFT, TF_REMOVE_SHIP, TF_STEAL_CRAFT,
                     TF_STEAL_GOODS, TF_DESTROY_TOOL, TOOL_CART, T_EFFECT, T_GOODS, T_PRICE)

# the parameters' slots (registry.HEURISTIC_PARAMS has them in this order)
(W_GOLD, W_WORKER, W_GOODS, W_CRAFT, W_YARD, W_MIL, W_CIVIL, W_ATTACK, W_TREASURY, W_TOKEN,
 W_HAND, W_DRAFT_SHIP, W_LOOKAHEAD) = range(13)
REGROW = 0.3


@njit(cache=True)
def w_nb(s, seat, i):
    return s[PARAMS + seat * N_PARAMS + i] / PARAM_SCALE


@njit(cache=True)
def crafts_for_nb(s, q, x):
    """Craftsmen (board and hand) of the seat that build ship x."""
    b = pb(q)
    crafts = 0
    for i in range(s[b + P_CRAFT_N]):
        if builds_nb(s, s[b + P_CRAFT + i], x):
            crafts += 1
    for i in range(s[b + P_HAND_N]):
        c = s[b + P_HAND + i]
        if kind_nb(s, c) == KIND_CRAFT and builds_nb(s, c, x):
            crafts += 1
    return crafts


@njit(cache=True)
def yard_fraction_nb(s, q, x):
    """How much of ship x's cost the seat holds (0..1: the units held of gold, workers,
    goods and craftsmen over the units needed)."""
    b = pb(q)
    total = ship_nb(s, x, S_GOLD) + ship_nb(s, x, S_WORK) + ship_nb(s, x, S_CRAFT)
    miss = max(0, ship_nb(s, x, S_GOLD) - s[b + P_GOLD]) + max(0, ship_nb(s, x, S_WORK) - s[b + P_WORKERS])
    for g in range(NG):
        total += ship_nb(s, x, S_GOODS + g)
        miss += max(0, ship_nb(s, x, S_GOODS + g) - s[b + P_GOODS + g])
    miss += max(0, ship_nb(s, x, S_CRAFT) - crafts_for_nb(s, q, x))
    return 1.0 - miss / max(1, total)


@njit(cache=True)
def yards_value_nb(s, q):
    """The ships in the yards: their points times how much of their joint cost is at
    hand (the yards share one mill, one village and one purse)."""
    b = pb(q)
    gold, work, crafts_miss, total, pts = 0, 0, 0, 0.0, 0
    goods = np.zeros(NG, np.int64)
    for y in range(s[K_YARDS]):
        c = s[b + P_YARD + y]
        if c < 0:
            continue
        x = idx_nb(s, c)
        gold += ship_nb(s, x, S_GOLD)
        work += ship_nb(s, x, S_WORK)
        for g in range(NG):
            goods[g] += ship_nb(s, x, S_GOODS + g)
        crafts_miss += max(0, ship_nb(s, x, S_CRAFT) - crafts_for_nb(s, q, x))
        total += ship_nb(s, x, S_GOLD) + ship_nb(s, x, S_WORK) + ship_nb(s, x, S_CRAFT)
        pts += ship_nb(s, x, S_PTS)
    if pts == 0:
        return 0.0, 0, 0, goods
    # gold and workers come back every evening, goods and craftsmen must be bought or drafted:
    # a missing unit of gold or a worker weighs REGROW of a missing goods
    total = REGROW * (gold + work) + 2.0 * (total - gold - work)
    miss = REGROW * (max(0, gold - s[b + P_GOLD]) + max(0, work - s[b + P_WORKERS])) + 2.0 * crafts_miss
    for g in range(NG):
        total += goods[g]
        miss += max(0, goods[g] - s[b + P_GOODS + g])
    return pts * (0.2 + 0.8 * (1.0 - miss / max(1, total))), gold, work, goods


@njit(cache=True)
def progress_nb(s, q):
    """An opponent's progress, for the attacker's weight: points, ships in the yards,
    craftsmen, gold and goods."""
    b = pb(q)
    v = ship_points_nb(s, q) + 0.5 * s[b + P_CRAFT_N] + 0.1 * s[b + P_GOLD] + 0.1 * goods_total_nb(s, q)
    for y in range(s[K_YARDS]):
        if s[b + P_YARD + y] >= 0:
            v += 1.0
    return v


@njit(cache=True)
def value_nb(s, q, seat):
    """The seat's value of seat q's position (weights: the seat's parameters)."""
    b = pb(q)
    n = s[R_N_PLAYERS]
    v = ship_points_nb(s, q) + building_points_nb(s, q)
    top = 0
    for o in range(n):
        if o != q:
            top = max(top, s[pb(o) + P_MIL])
    if s[b + P_MIL] > top:
        v += w_nb(s, seat, W_TOKEN) * s[K_MIL_PTS]
    v += w_nb(s, seat, W_MIL) * s[b + P_MIL] + w_nb(s, seat, W_CIVIL) * s[b + P_CIVIL]
    if s[G_ENDING]:                              # the last day: only points count
        return v
    yv, gold, work, goods = yards_value_nb(s, q)
    v += w_nb(s, seat, W_YARD) * yv
    # what the yards do not need is worth a little (workers bring gold every evening)
    v += w_nb(s, seat, W_GOLD) * max(0, s[b + P_GOLD] - gold)
    v += w_nb(s, seat, W_WORKER) * max(0, s[b + P_WORKERS] - work)
    spare = 0
    for g in range(NG):
        spare += max(0, s[b + P_GOODS + g] - goods[g])
    v += w_nb(s, seat, W_GOODS) * min(spare, mill_cap_nb(s, q))
    v += w_nb(s, seat, W_TREASURY) * s[b + P_GOLD] / max(1, s[K_GOLD_MAX])
    for i in range(s[b + P_CRAFT_N]):
        v += w_nb(s, seat, W_CRAFT)
    if s[b + P_TOOL] >= 0:
        v += 0.3
    v += w_nb(s, seat, W_HAND) * s[b + P_HAND_N]
    if w_nb(s, seat, W_ATTACK) > 0 and n > 1:
        opp = 0.0
        for o in range(n):
            if o != q:
                opp += progress_nb(s, o)
        v -= w_nb(s, seat, W_ATTACK) * opp / (n - 1)
    return v


@njit(cache=True)
def card_value_nb(s, q, c):
    """A drafted card's worth to the seat (a rough guess of what it will do today)."""
    b = pb(q)
    k = kind_nb(s, c)
    if k == KIND_SHIP:
        free = 0
        for y in range(s[K_YARDS]):
            if s[b + P_YARD + y] < 0:
                free += 1
        if free == 0:
            return 0.05
        x = idx_nb(s, c)
        v = w_nb(s, q, W_DRAFT_SHIP) * ship_nb(s, x, S_PTS) * (0.4 + 0.6 * yard_fraction_nb(s, q, x))
        if ship_nb(s, x, S_MIL) > 0:
            v += w_nb(s, q, W_MIL) * ship_nb(s, x, S_MIL)
        else:
            v += w_nb(s, q, W_CIVIL)
        return v
    if k == KIND_CRAFT:
        if s[b + P_CRAFT_N] >= s[K_MAX_CRAFT]:
            return 0.1
        v = 0.4
        for y in range(s[K_YARDS]):
            ys = s[b + P_YARD + y]
            if ys >= 0 and builds_nb(s, c, idx_nb(s, ys)):
                v = 1.5
        return v
    if k == KIND_TOOL:
        if s[b + P_GOLD] < tool_nb(s, c, T_PRICE) or s[b + P_TOOL] >= 0:
            return 0.1
        if tool_nb(s, c, T_EFFECT) == TOOL_CART:
            return 0.8
        g = 0
        for i in range(NG):
            if tool_nb(s, c, T_GOODS + i) > 0:
                g = i
        v = 0.3
        for y in range(s[K_YARDS]):
            ys = s[b + P_YARD + y]
            if ys >= 0 and ship_nb(s, idx_nb(s, ys), S_GOODS + g) > 0:
                v = 1.2
        return v
    if k == KIND_BLD:
        if s[b + P_BLD + idx_nb(s, c)] >= 0 or s[b + P_GOLD] < bld_nb(s, c, B_GOLD):
            return 0.1
        e, arg = bld_nb(s, c, B_EFFECT), bld_nb(s, c, B_ARG)
        if e == BLD_PER_GOLD:
            return s[b + P_GOLD] / arg + w_nb(s, q, W_TREASURY)
        if e == BLD_PER_CIVIL:
            return arg * (s[b + P_CIVIL] + 1) * (0.5 + w_nb(s, q, W_CIVIL))
        if e == BLD_MILL_OVER:
            return max(0, mill_cap_nb(s, q) - arg) + 0.2
        return float(arg)
    e = town_nb(s, c, TF_EFFECT)
    if e == TF_REMOVE_CRAFT or e == TF_REMOVE_SHIP or e == TF_STEAL_CRAFT or e == TF_STEAL_GOODS \
            or e == TF_RAID or e == TF_DESTROY_TOOL:
        return 0.3 + 3.0 * w_nb(s, q, W_ATTACK)
    if e == TF_GOLD_ALL:
        return 2 * w_nb(s, q, W_GOLD) + 2.0 * w_nb(s, q, W_ATTACK) + 0.2
    if e == TF_GAIN_GOLD or e == TF_NAVIGATE:
        return town_nb(s, c, 1) * w_nb(s, q, W_GOLD) + 0.2
    if e == TF_GAIN_WORKERS:
        return town_nb(s, c, 1) * w_nb(s, q, W_WORKER)
    return 0.4


@njit(cache=True)
def start_goods_nb(s, q):
    """The goods kind the ships need most, per unit held."""
    best, bv = 0, -1.0
    for g in range(NG):
        need = 0
        for x in range(s[K_N_SHIPS]):
            need += ship_nb(s, x, S_GOODS + g)
        v = need / (1.0 + 3.0 * s[pb(q) + P_GOODS + g])
        if v > bv:
            best, bv = g, v
    return best


@njit(cache=True)
def return_goods_nb(s, q):
    """Give back the goods kind held most beyond what the yards' ships need."""
    b = pb(q)
    best, bv = -1, -1e9
    for g in range(NG):
        if s[b + P_GOODS + g] <= 0:
            continue
        need = 0
        for y in range(s[K_YARDS]):
            c = s[b + P_YARD + y]
            if c >= 0:
                need += ship_nb(s, idx_nb(s, c), S_GOODS + g)
        v = s[b + P_GOODS + g] - need
        if v > bv:
            best, bv = g, v
    return best


@njit(cache=True)
def best_action_nb(s, seat):
    """The legal action that raises the seat's value most, A_END when none does."""
    out = np.empty(MAX_LEGAL, np.int64)
    n = legal_nb(s, out)
    scratch = s.copy()
    log = np.zeros((0, N_EVENT_FIELDS), np.int64)
    best, bv = A_END, value_nb(s, seat, seat) + 1e-6
    for k in range(n):
        a = out[k]
        if a == A_END or A_DISCARD <= a < A_GOODS:
            continue
        for i in range(RULES_END, STATE_SIZE):
            scratch[i] = s[i]
        answer_nb(scratch, a, log)
        v = value_nb(scratch, seat, seat)
        if v > bv:
            best, bv = a, v
    if best == A_END and w_nb(s, seat, W_LOOKAHEAD) > 0.0:
        best = best_pair_nb(s, seat, out, n, bv)
    return best


@njit(cache=True)
def best_pair_nb(s, seat, out, n, bv):
    """No single action raises the value: the first action of the best pair that does
    (a purchase or a card played, then any action: buying the goods a ship lacks and
    completing it). Only public, deterministic first steps: no townsfolk (their draws
    would read the hidden deck)."""
    first = s.copy()
    second = s.copy()
    out2 = np.empty(MAX_LEGAL, np.int64)
    log = np.zeros((0, N_EVENT_FIELDS), np.int64)
    best = A_END
    for k in range(n):
        a = out[k]
        if not (A_GOODS <= a < A_TOWN):
            continue
        for i in range(RULES_END, STATE_SIZE):
            first[i] = s[i]
        answer_nb(first, a, log)
        if first[G_ASK] != D_ACTION or first[G_SEAT] != seat:
            continue
        m = legal_nb(first, out2)
        for j in range(m):
            a2 = out2[j]
            if a2 == A_END or A_DISCARD <= a2 < A_GOODS:
                continue
            for i in range(RULES_END, STATE_SIZE):
                second[i] = first[i]
            answer_nb(second, a2, log)
            v = value_nb(second, seat, seat)
            if v > bv:
                best, bv = a, v
    return best


@njit(cache=True)
def heuristic_decide_nb(kind, s, seat):
    if kind == D_START:
        return start_goods_nb(s, seat)
    if kind == D_RETURN:
        return return_goods_nb(s, seat)
    if kind == D_DRAFT:
        out = np.empty(MAX_LEGAL, np.int64)
        n = legal_nb(s, out)
        best, bv = 0, -1e9
        for i in range(n):
            v = card_value_nb(s, seat, s[G_PACKET + i])
            if v > bv:
                best, bv = i, v
        return best
    if kind == D_ACTION:
        return best_action_nb(s, seat)
    return -1


