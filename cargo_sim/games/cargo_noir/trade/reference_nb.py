"""The trade planner's plain enumeration: the definition of its answers, and
the fallback of the branch and bound (docs/trade_algorithms.md, "Planner")."""
from __future__ import annotations

import numpy as np
from ....core import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit

from .consts import EPS, PLAN_EXACT_LIMIT
from .knapsack_nb import budget_best_nb, knapsack_nb, reconstruct_nb
from .lookup_nb import trade_value_nb
from .recursion_nb import slot_find_nb

# ----------------------------------------------------------------------------
# planner
# ----------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def restriction_nb(hand, wilds, n, limit):
    """(largest count held, r): the planner may sell 0..r or all of each type,
    with the largest r that keeps the number of sub-multisets <= limit (r =
    the largest count when every sub-multiset fits)."""
    hmax = 0
    for t in range(n):
        if hand[t] > hmax:
            hmax = hand[t]
    r = hmax
    while r > 0:
        prod = float(wilds + 1)
        for t in range(n):
            h = hand[t]
            prod *= (h + 1) if h <= r else (r + 2)
        if prod <= limit:
            break
        r -= 1
    return hmax, r


@njit(cache=True, nogil=True)
def _plan_candidates_nb(hand, wilds, n, limit):
    """Sold amounts allowed per type: amt[t, :ncand[t]].  All of 0..hand[t]
    when the hand has <= limit sub-multisets, else {0..r, hand[t]} with the
    largest r that fits (r >= 0)."""
    hmax, r = restriction_nb(hand, wilds, n, limit)
    amt = np.zeros((n, hmax + 1), np.int64)
    ncand = np.zeros(n, np.int64)
    for t in range(n):
        h = hand[t]
        if h <= r:
            for a in range(h + 1):
                amt[t, a] = a
            ncand[t] = h + 1
        else:
            for a in range(r + 1):
                amt[t, a] = a
            amt[t, r + 1] = h
            ncand[t] = r + 2
    return amt, ncand


@njit(cache=True, nogil=True, inline="always")
def _row_of_nb(vec, n, N, hash_pow, slots):
    """Hash-table row of holding `vec` (values in columns 1..), or -1 if it
    has more than N real tokens."""
    tot = 0
    h = np.int64(0)
    for i in range(n):
        tot += vec[i]
        h += hash_pow[vec[i]]
    r = np.int64(-1)
    if tot <= N:
        r = slot_find_nb(slots, h)
    return r


@njit(cache=True, nogil=True)
def plan_trade_reference_nb(hand, wilds, tables, card_cost, card_utility, card_available,
                             budget_extra, out_sell, out_buy):
    """The original planner (plain odometer enumeration, kept as the reference
    that plan_trade_nb must reproduce exactly, and as its fallback for hands
    beyond the table or utilities closer than EPS).  Choose tokens to sell (out_sell[0..n_types-1] real, out_sell[n_types]
    Wilds) and cards to buy (out_buy[C]) with cost <= trade_value(sold) +
    budget_extra, maximising summed card utility; ties: least value lost
    (max(0, value_sold - cost)), then highest value kept, then fewest tokens
    sold.  Returns the utility (0.0 with all-zero outputs if buying nothing is
    best; -1.0 on invalid hand)."""
    n = tables.n_types
    C = card_cost.shape[0]
    for i in range(n + 1):
        out_sell[i] = 0
    for i in range(C):
        out_buy[i] = 0
    full_tv = trade_value_nb(hand, wilds, tables)
    if full_tv < 0:
        return -1.0
    extra = budget_extra if budget_extra > 0 else 0
    Bmax = full_tv + extra
    dp, choice = knapsack_nb(Bmax, card_cost, card_utility, card_available)
    U, Cst = budget_best_nb(dp[C], Bmax)
    if U[Bmax] <= EPS:
        return 0.0
    amt, ncand = _plan_candidates_nb(hand, wilds, n, PLAN_EXACT_LIMIT)
    hash_pow = tables.hash_pow
    slots = tables.slots
    N = tables.table_max_total
    pos = np.zeros(n, np.int64)
    sold = np.zeros(n, np.int64)
    kept = np.empty(n, np.int64)
    best_sell = np.zeros(n + 1, np.int64)
    best_u = -1.0
    best_loss = np.int64(0)
    best_kept = np.int64(-1)   # -1: not computed yet
    best_nsold = np.int64(0)
    best_cost = np.int64(0)
    have = False
    while True:
        nreal = 0
        for t in range(n):
            sold[t] = amt[t, pos[t]]
            nreal += sold[t]
        srow = _row_of_nb(sold, n, N, hash_pow, slots)
        for sw in range(wilds + 1):
            if srow >= 0:
                tv = slots[srow, 1 + sw]
            else:
                tv = trade_value_nb(sold, sw, tables)
            B = tv + extra
            u = U[B]
            if have and u < best_u - EPS:
                continue
            cost = Cst[B]
            loss = tv - cost
            if loss < 0:
                loss = 0
            # 0: not better, 1: better on utility or loss, 2: better on kept value
            better = 0
            if not have or u > best_u + EPS:
                better = 1
            elif loss < best_loss:
                better = 1
            elif loss == best_loss:
                for t in range(n):
                    kept[t] = hand[t] - sold[t]
                kv = trade_value_nb(kept, wilds - sw, tables)
                if best_kept < 0:
                    for t in range(n):
                        kept[t] = hand[t] - best_sell[t]
                    best_kept = trade_value_nb(kept, wilds - best_sell[n], tables)
                if kv > best_kept or (kv == best_kept and nreal + sw < best_nsold):
                    better = 2
                    best_kept = kv
            if better > 0:
                if better == 1:
                    best_kept = -1
                have = True
                best_u = u
                best_loss = loss
                best_nsold = nreal + sw
                best_cost = cost
                for t in range(n):
                    best_sell[t] = sold[t]
                best_sell[n] = sw
        # odometer
        t = 0
        while t < n:
            if pos[t] + 1 < ncand[t]:
                pos[t] += 1
                break
            pos[t] = 0
            t += 1
        if t == n:
            break
    if best_u <= EPS:
        return 0.0
    for i in range(n + 1):
        out_sell[i] = best_sell[i]
    reconstruct_nb(choice, card_cost, best_cost, out_buy)
    return best_u
