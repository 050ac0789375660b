"""Cards bought with a budget: the exact-cost bounded knapsack and its
rolling-row twin (docs/trade_algorithms.md, "Planner")."""
from __future__ import annotations

import numpy as np
from ....core import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit

from .consts import EPS, NEG

# ----------------------------------------------------------------------------
# cards: bounded knapsack
# ----------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def knapsack_nb(B, card_cost, card_utility, card_available):
    """Exact-cost bounded knapsack.  dp[i, x] = best utility of cards 0..i-1
    costing exactly x (or NEG), choice[i, x] = copies of card i-1 used.
    Cards with utility <= 0, negative cost or no copies are never bought."""
    C = card_cost.shape[0]
    dp = np.full((C + 1, B + 1), NEG)
    choice = np.zeros((C + 1, B + 1), np.int64)
    dp[0, 0] = 0.0
    for i in range(C):
        ci = card_cost[i]
        ui = card_utility[i]
        ai = card_available[i]
        if ui <= 0.0 or ci < 0 or ai <= 0:
            ai = 0
        for xx in range(B + 1):
            bestv = dp[i, xx]
            bk = 0
            for k in range(1, ai + 1):
                y = xx - k * ci
                if y < 0:
                    break
                if dp[i, y] > NEG * 0.5:
                    v = dp[i, y] + k * ui
                    if v > bestv + EPS:
                        bestv = v
                        bk = k
            dp[i + 1, xx] = bestv
            choice[i + 1, xx] = bk
    return dp, choice


@njit(cache=True, nogil=True)
def budget_best_nb(dp_last, B):
    """For every budget b <= B: best utility U[b] of a card set costing <= b
    and the largest cost Cst[b] <= b of a set reaching it (least loss)."""
    U = np.zeros(B + 1)
    Cst = np.zeros(B + 1, np.int64)
    budget_best_into_nb(dp_last, B + 1, U, Cst)
    return U, Cst


@njit(cache=True, nogil=True)
def budget_best_into_nb(dp_last, B1, U, Cst):
    """Fill U[b], Cst[b] for b < B1 (see budget_best_nb) in given buffers."""
    curU = 0.0
    curC = 0
    for b in range(B1):
        v = dp_last[b]
        if v > NEG * 0.5:
            if v > curU + EPS:
                curU = v
                curC = b
            elif v >= curU - EPS:
                curC = b
                if v > curU:
                    curU = v
        U[b] = curU
        Cst[b] = curC


@njit(cache=True, nogil=True)
def reconstruct_nb(choice, card_cost, x, out_buy):
    C = card_cost.shape[0]
    for i in range(C, 0, -1):
        k = choice[i, x]
        out_buy[i - 1] = k
        x -= k * card_cost[i - 1]


@njit(cache=True, nogil=True)
def best_cards_for_budget_nb(budget, card_cost, card_utility, card_available, out_buy):
    """Bounded knapsack: the card multiset (counts into out_buy[C], at most
    card_available[i] copies of card i) of total cost <= budget maximising the
    summed utility; ties go to the most expensive set (least value lost).
    Returns the utility (0 and all-zero out_buy if nothing is worth buying)."""
    C = card_cost.shape[0]
    for i in range(C):
        out_buy[i] = 0
    if budget < 0:
        return 0.0
    dp, choice = knapsack_nb(budget, card_cost, card_utility, card_available)
    U, Cst = budget_best_nb(dp[C], budget)
    if U[budget] <= EPS:
        return 0.0
    reconstruct_nb(choice, card_cost, Cst[budget], out_buy)
    return U[budget]


@njit(cache=True, nogil=True)
def knapsack_rows_nb(B, card_cost, card_utility, card_available, rows, choice, unit):
    """knapsack_nb on two rolling rows: every budget sees the same comparisons
    in the same order, so the values and choices are bit-for-bit those of
    knapsack_nb (a scalar loop: with the loops interchanged, copies outer and
    budgets inner in vectorisable passes, it costs more on the few budgets the
    planner asks).
    Costs are counted in `unit`s (cost_unit_nb: it divides the cost of every
    card bought), B included: the other budgets of knapsack_nb stay NEG, as
    every card moves a budget by a multiple of unit.
    rows: float64[2*(B+1)] scratch; choice: int64[C*(B+1)], choice[i*(B+1)+x]
    = copies of card i (old choice[i+1, x*unit]).  Returns the last row (a view)."""
    C = card_cost.shape[0]
    B1 = B + 1
    prev = rows[:B1]
    cur = rows[B1:2 * B1]
    for x in range(B1):
        prev[x] = NEG
    prev[0] = 0.0
    half = NEG * 0.5
    for i in range(C):
        ci = card_cost[i]
        ui = card_utility[i]
        ai = card_available[i]
        if ui <= 0.0 or ci < 0 or ai <= 0:
            ai = 0
        elif unit > 1:
            ci //= unit
        base = i * B1
        ch = choice[base:base + B1]
        if ai == 0 or ci > B:       # never bought: the row stays as it is
            for x in range(B1):
                ch[x] = 0
            continue
        # per budget, copies 1, 2, ... in knapsack_nb's order: the budgets are few
        # (units of the costs' gcd), and one scalar loop costs less than a pass
        # per copy over a handful of budgets
        for x in range(B1):
            c = prev[x]
            bk = 0
            y = x - ci
            k = 1
            while k <= ai and y >= 0:
                p = prev[y]
                v = p + k * ui   # the same float as the reference's k * ui (1 * ui == ui)
                if p > half and v > c + EPS:
                    c = v
                    bk = k
                k += 1
                y -= ci
            cur[x] = c
            ch[x] = bk
        tmp = prev
        prev = cur
        cur = tmp
    return prev


@njit(cache=True, nogil=True)
def cost_unit_nb(card_cost, card_utility, card_available):
    """Greatest common divisor of the costs (> 0) of the cards that may be
    bought (1 if none): exact costs and budgets that matter are its multiples."""
    g = 0
    for i in range(card_cost.shape[0]):
        b = card_cost[i]
        if card_utility[i] > 0.0 and b > 0 and card_available[i] > 0:
            if g == 0:
                g = b
                continue
            # binary gcd (integer divisions are slow)
            a = g
            shift = 0
            while ((a | b) & 1) == 0:
                a >>= 1
                b >>= 1
                shift += 1
            while (a & 1) == 0:
                a >>= 1
            while b != 0:
                while (b & 1) == 0:
                    b >>= 1
                if a > b:
                    a, b = b, a
                b -= a
            g = a << shift
            if g == 1:
                break
    return g if g > 0 else 1
