"""Macao's heuristic family (`greedy` and its named strategies): one step of look-ahead.

Phase 3: every legal action is applied to a scratch copy of the game part and the
seat's position is valued (``value_nb``: points, coins, the city group, goods held,
the ship, active cards, the wall, less the tableau's penalty; cubes in hand are worth
nothing, as they are lost at the round's end); the best action is taken, and the turn
ends when no action raises the value. Cards, dice and colours by simple rules (below).
Parameters (fixed point, ``PARAMS``): see ``registry.GREEDY_PARAMS``.
"""
import numpy as np
from ....core import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit

from ....core.borrow_nb import keep_nb, state_ptr_nb
from ....core.layout import N_PARAMS, PARAM_SCALE, PARAMS
from ..engine_nb import act_nb, largest_group_nb, legal_nb, end_card_points_nb, pb
from ..enums import (A_END, D_ACTION, D_CARD, D_COLOUR, D_DICE, D_DICE_EXTRA, D_DICE_SHIFT,
                     D_DISCARD, G_DICE, G_LOG_CAP, G_LOT, G_OFFER, G_N_OFFER, G_ROUND, K_C_COST, K_C_TIMING,
                     K_GROUP_PTS, K_N_GOODS, K_ROUNDS, K_TAB_PEN, MAX_LEGAL, NC, P_COINS, P_DONE,
                     P_CITY, P_GOODS, P_JOKERS, P_N_DONE, P_N_TAB, P_ROSE, P_SHIP, P_TAB, P_VP,
                     P_WALL, PL, PW, RULES_END, T_ACTIVATE, T_END)

W_COIN, W_CITY, W_GOODS, W_SHIP, W_CARD, W_WALL, W_JOKER, W_SOON = range(8)


@njit(cache=True)
def w_nb(s, seat, i):
    return s[PARAMS + seat * N_PARAMS + i] / PARAM_SCALE


@njit(cache=True)
def value_nb(s, q, group):
    """The seat's position; ``group``: its largest connected group (largest_group_nb)."""
    b = pb(q)
    left = s[K_ROUNDS] - s[G_ROUND]
    v = float(s[b + P_VP]) + w_nb(s, q, W_COIN) * s[b + P_COINS]
    v += w_nb(s, q, W_CITY) * group * s[K_GROUP_PTS]
    held = 0
    for g in range(s[K_N_GOODS]):
        held += s[b + P_GOODS + g]
    v += w_nb(s, q, W_GOODS) * held + w_nb(s, q, W_SHIP) * s[b + P_SHIP]
    v += w_nb(s, q, W_WALL) * s[b + P_WALL] + w_nb(s, q, W_JOKER) * s[b + P_JOKERS]
    v -= s[K_TAB_PEN] * s[b + P_N_TAB]
    for i in range(s[b + P_N_DONE]):
        card = s[b + P_DONE + i]
        if s[K_C_TIMING + card] == T_ACTIVATE:
            v += w_nb(s, q, W_CARD) * left
        elif s[K_C_TIMING + card] == T_END:
            v += end_card_points_nb(s, q, i)
        else:
            v += w_nb(s, q, W_CARD) * left * 0.5
    return v


@njit(cache=True)
def best_action_nb(s, q):
    """Each legal action is tried on the state itself and undone: act_nb writes only the
    game's shared words (RULES_END..PL) and seat q's block (Macao's effects act on their
    owner), which are saved first and put back after each try; the event log is off
    meanwhile. The group is recomputed only when the action took a quarter. One buffer
    (the legal answers, then the saved words), read through a raw pointer."""
    n_shared = PL - RULES_END
    buf = np.empty(MAX_LEGAL + n_shared + PW, np.int64)
    out = state_ptr_nb(buf)
    p = state_ptr_nb(s)
    n = legal_nb(p, out)
    b = pb(q)
    at = MAX_LEGAL                   # the saved words: out[at:at + n_shared + PW]
    for i in range(n_shared):
        out[at + i] = p[RULES_END + i]
    for i in range(PW):
        out[at + n_shared + i] = p[b + i]
    lp = p              # the log argument: never written, as the tries' log capacity is 0
    group = largest_group_nb(p, q)
    city = p[b + P_CITY]
    best, best_v = A_END, value_nb(p, q, group) + 1e-9
    for k in range(n):
        a = out[k]
        if a == A_END:
            continue
        p[G_LOG_CAP] = 0                       # the try writes no events
        act_nb(p, q, a, lp)
        v = value_nb(p, q, group if p[b + P_CITY] == city else largest_group_nb(p, q))
        for i in range(n_shared):
            p[RULES_END + i] = out[at + i]
        for i in range(PW):
            p[b + i] = out[at + n_shared + i]
        if v > best_v:
            best, best_v = a, v
    keep_nb(s)                                 # s and buf outlive their pointers
    keep_nb(buf)
    return best


@njit(cache=True)
def card_value_nb(s, q, card):
    cost = 0
    for c in range(NC):
        cost += s[K_C_COST + card * NC + c]
    return -cost + (2.0 if s[K_C_TIMING + card] == T_ACTIVATE else 1.0) * w_nb(s, q, W_CARD) * 4


@njit(cache=True)
def greedy_decide_nb(kind, s, seat):
    b = pb(seat)
    if kind == D_ACTION:
        return best_action_nb(s, seat)
    if kind == D_CARD:
        best, bv = -1, -1e18
        for i in range(s[G_N_OFFER]):
            card = s[G_OFFER + i]
            if card >= 0:
                v = card_value_nb(s, seat, card)
                if v > bv:
                    best, bv = i, v
        return best
    if kind == D_DISCARD:
        worst, wv = 0, 1e18
        for t in range(s[b + P_N_TAB]):
            v = card_value_nb(s, seat, s[b + P_TAB + t])
            if v < wv:
                worst, wv = t, v
        return worst
    if kind == D_COLOUR:
        need = np.zeros(NC, np.int64)
        for t in range(s[b + P_N_TAB]):
            for c in range(NC):
                need[c] += s[K_C_COST + s[b + P_TAB + t] * NC + c]
        return np.argmax(need)
    if kind == D_DICE:
        # cubes soon are worth more (W_SOON per side of waiting); an empty next side is
        # filled first (zero-cube penalty)
        best, bv = 1, -1e18
        left = s[K_ROUNDS] - s[G_ROUND] + 1
        for i in range(NC):
            for j in range(i + 1, NC):
                v = 0.0
                empty_next = True
                for c in range(NC):
                    if s[b + P_ROSE + NC + c] > 0:
                        empty_next = False
                for d in (i, j):
                    pips = s[G_DICE + d]
                    if pips > left:
                        pips = 1
                    v += pips - w_nb(s, seat, W_SOON) * pips
                    if pips == 1 and empty_next:
                        v += 5.0
                if v > bv:
                    best, bv = i * NC + j, v
        return best
    if kind == D_DICE_EXTRA:
        return 0
    if kind == D_DICE_SHIFT:
        return 8
    return 0
