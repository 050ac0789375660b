"""The trade planner: branch and bound over the hand's sub-multisets, same
answers as the reference enumeration (docs/trade_algorithms.md, "Search")."""
from __future__ import annotations

import numpy as np
from ....core import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit
from numba.extending import overload

from ....core.borrow_nb import borrow_nb
from .consts import EPS, PLAN_EXACT_LIMIT
from .knapsack_nb import budget_best_into_nb, cost_unit_nb, knapsack_rows_nb
from .lookup_nb import trade_value_nb
from .reference_nb import plan_trade_reference_nb, restriction_nb

@njit(cache=True, nogil=True)
def slot_at_nb(slots, h):
    """slot_find_nb for a hash known to be in the table."""
    mask = slots.shape[0] - 1
    pos = (h ^ (h >> 31)) & mask
    while slots[pos, 0] != h:
        pos = (pos + 1) & mask
    return pos


@njit(cache=True, nogil=True)
def compact_slot_at_nb(slots, h):
    """slot_at_nb in the compact slots (flat: hash, packed values, per row)."""
    mask = (slots.shape[0] >> 1) - 1
    pos = (h ^ (h >> 31)) & mask
    while slots[2 * pos] != h:
        pos = (pos + 1) & mask
    return pos


def slot_find(slots, h):
    """slot_at_nb in the full slots (2-D) or in the compact ones (flat: hash,
    packed values, per row; packed_nb.compact_slots). Compiled code only: the
    layout is the argument's type, so each layout gets its own compiled reads."""
    raise NotImplementedError


def slot_value(slots, row, x, bits, low):
    """The value with x Wilds of a row found by slot_find: slots[row, 1 + x] in
    the full slots, the x-th `bits`-bit field of the row's packed values in the
    compact ones (low: the field's mask). Compiled code only."""
    raise NotImplementedError


@overload(slot_find, inline="always")
def slot_find_ol(slots, h):
    if slots.ndim == 1:
        # calls (LLVM inlines them): a loop numba inlines into the overload, written
        # there or inline="always", trips numba's NumbaIRAssumptionWarning (a
        # "please report" printed at every compile of the expert tables)
        def compact(slots, h):
            return compact_slot_at_nb(slots, h)
        return compact

    def full(slots, h):
        return slot_at_nb(slots, h)
    return full


@overload(slot_value, inline="always")
def slot_value_ol(slots, row, x, bits, low):
    if slots.ndim == 1:
        def compact(slots, row, x, bits, low):
            return (slots[2 * row + 1] >> (bits * x)) & low
        return compact

    def full(slots, row, x, bits, low):
        return slots[row, 1 + x]
    return full


PLAN_NEEDS_REFERENCE = -2.0


@njit(cache=True, nogil=True)
def plan_trade_nb(hand, wilds, tables, card_cost, card_utility, card_available,
                  budget_extra, out_sell, out_buy):
    """Choose tokens to sell (out_sell[0..n_types-1] real, out_sell[n_types]
    Wilds) and cards to buy (out_buy[C]) with cost <= trade_value(sold) +
    budget_extra, maximising summed card utility; ties: least value lost
    (max(0, value_sold - cost)), then highest value kept, then fewest tokens
    sold, then the first sub-multiset in the reference enumeration order.
    Returns the utility (0.0 with all-zero outputs if buying nothing is
    best; -1.0 on invalid hand).

    Same answers as plan_trade_reference_nb (the plain enumeration), found
    by branch and bound (plan_trade_table_nb) for hands within the lookup
    table: see the module docstring ("Planner")."""
    n = tables.n_types
    full_tv = trade_value_nb(hand, wilds, tables)
    tot = 0
    for t in range(n):
        tot += hand[t]
    u = PLAN_NEEDS_REFERENCE
    if full_tv >= 0 and tot <= tables.table_max_total:
        u = plan_trade_table_nb(hand, wilds, n, tot, full_tv, tables.hash_pow, tables.slots, card_cost,
                                card_utility, card_available, budget_extra, out_sell, out_buy,
                                np.empty(0, np.int64))
    if u == PLAN_NEEDS_REFERENCE:
        # sub-holdings beyond the lookup table, or utilities closer than EPS:
        # the plain enumeration (which returns -1.0 for an invalid hand)
        return plan_trade_reference_nb(hand, wilds, tables, card_cost, card_utility,
                                        card_available, budget_extra, out_sell, out_buy)
    return u


@njit(cache=True, nogil=True)
def plan_trade_table_nb(hand, wilds, n, tot, full_tv, hash_pow, slots, card_cost, card_utility,
                        card_available, budget_extra, out_sell, out_buy, work):
    """plan_trade_nb's branch and bound, for a valid hand of n types whose
    tot real tokens fit the lookup table (hash_pow, slots); full_tv is its
    trade value. Returns the utility, or PLAN_NEEDS_REFERENCE when the reference's
    tolerant tie-breaking must decide (the outputs are then undefined). Needs
    no TradeTables: a caller holding packed tables passes two views. Its
    buffers are carved from `work` (int64) when it is long enough, else
    allocated."""
    return plan_trade_slots_nb(hand, wilds, n, tot, full_tv, hash_pow, slots, card_cost, card_utility,
                               card_available, budget_extra, out_sell, out_buy, work, 0, 0)


@njit(cache=True, nogil=True)
def plan_trade_slots_nb(hand, wilds, n, tot, full_tv, hash_pow, slots, card_cost, card_utility,
                        card_available, budget_extra, out_sell, out_buy, work, bits, low):
    """plan_trade_table_nb on the full slots (2-D; bits, low unused) or on the
    compact ones (flat, values of `bits` bits, mask low: slot_find, slot_value):
    1 MB instead of 3.7 for the default tables, and the branch and bound's
    probes are its hottest instructions. Each layout compiles on its own."""
    C = card_cost.shape[0]
    for i in range(n + 1):
        out_sell[i] = 0
    for i in range(C):
        out_buy[i] = 0
    extra = budget_extra if budget_extra > 0 else 0
    Bmax = full_tv + extra
    B1 = Bmax + 1
    W = wilds
    T = full_tv + 1
    LOG = 1
    while (1 << LOG) <= T:
        LOG += 1
    # the knapsack runs on budgets in units of g (every cost is a multiple);
    # U and Cst are then spread to every budget (a budget buys what its
    # largest multiple of g below does)
    g = cost_unit_nb(card_cost, card_utility, card_available)
    Bq1 = Bmax // g + 1
    # one float and one int scratch buffer, carved from `work` (the bots pass
    # the state's workspace: no allocation) or allocated, and used through
    # borrowed views (no reference counting on the many slices, nor on the
    # knapsack's row views); each buffer itself is read after its views' last
    # use, which keeps an allocated one alive (see borrow_nb)
    nf = 3 * Bq1
    ni = C * Bq1 + Bq1 + B1 + T * (LOG + 1) + 1 + 10 * (n + 1)
    if work.shape[0] >= nf + ni:
        fbuf = work[:nf].view(np.float64)
        ibuf = work[nf:nf + ni]
    else:
        fbuf = np.empty(nf)
        ibuf = np.empty(ni, np.int64)
    fb = borrow_nb(fbuf)
    ib = borrow_nb(ibuf)
    choice = ib[:C * Bq1]
    at = C * Bq1
    Cq = ib[at:at + Bq1]
    at += Bq1
    Cst = ib[at:at + B1]
    at += B1
    dp = knapsack_rows_nb(Bq1 - 1, card_cost, card_utility, card_available, fb, choice, g)
    Uq = fb[2 * Bq1:3 * Bq1]
    budget_best_into_nb(dp, Bq1, Uq, Cq)
    # U[b] = Uq[b // g], Cst[b] = Cq[b // g] * g for every budget b <= Bmax
    Umax = Uq[Bq1 - 1]
    if Umax <= EPS:
        return 0.0
    # The reference compares utilities with tolerance EPS; when every two
    # distinct values of U are further apart than that (as floats), its
    # sequential choice is the plain lexicographic maximum of
    # (utility, -loss, kept value, -tokens sold, -enumeration index), which the
    # search below computes.  Otherwise run the reference itself.
    # (U's neighbours differ only where Uq's do)
    for q in range(1, Bq1):
        a = Uq[q - 1]
        c = Uq[q]
        if c != a and not (c > a + EPS and a < c - EPS):
            return PLAN_NEEDS_REFERENCE
    # Selling everything reaches Umax, so the answer has utility Umax: only
    # trade values tv >= tvthr qualify, and the loss is a function of tv.
    # U does not decrease: the least budget reaching Umax is g * the first such
    # unit, the least tv the one whose budget tv + extra (>= extra) reaches it
    q = 0
    while fbuf[2 * Bq1 + q] != Umax:     # Uq, read through its buffer
        q += 1
    tvthr = q * g - extra
    if tvthr < 0:
        tvthr = 0
    # Cst from the least budget read (tv + extra, tv >= tvthr) on
    b0 = tvthr + extra
    bq = b0 // g
    br = b0 - bq * g
    for b in range(b0, B1):
        Cst[b] = Cq[bq] * g
        br += 1
        if br == g:
            br = 0
            bq += 1
    T = full_tv - tvthr + 1
    Lt = ib[at:at + T]
    for j in range(T):
        tv = tvthr + j
        L = tv - Cst[tv + extra]
        Lt[j] = L if L > 0 else 0
    # sparse table for range minima of Lt; lg[len] = floor(log2(len))
    sp = ib[at:at + T * LOG]   # level 0 is Lt itself
    at += T * LOG
    lg = ib[at:at + T + 1]
    at += T + 1
    lg[0] = 0
    if T >= 1:
        lg[1] = 0
    for j in range(2, T + 1):
        lg[j] = lg[j >> 1] + 1
    lev = 1
    while (1 << lev) <= T:
        half_w = 1 << (lev - 1)
        for j in range(T - (1 << lev) + 1):
            x0 = sp[(lev - 1) * T + j]
            x1 = sp[(lev - 1) * T + j + half_w]
            sp[lev * T + j] = x0 if x0 < x1 else x1
        lev += 1
    # candidate sold amounts per type (same set as _plan_candidates_nb): pos p
    # of type t sells p tokens, except that with restriction r the last pos
    # (r + 1) of a type holding more than r sells all of it
    hmax, r = restriction_nb(hand, wilds, n, PLAN_EXACT_LIMIT)
    ncand = ib[at:at + n]
    stride = ib[at + n:at + 2 * n]
    torder = ib[at + 2 * n:at + 3 * n]
    at += 3 * n
    freeh = ib[at:at + n + 1]
    Hs = ib[at + (n + 1):at + 2 * (n + 1)]
    Hk = ib[at + 2 * (n + 1):at + 3 * (n + 1)]
    NS = ib[at + 3 * (n + 1):at + 4 * (n + 1)]
    IX = ib[at + 4 * (n + 1):at + 5 * (n + 1)]
    P = ib[at + 5 * (n + 1):at + 6 * (n + 1)]
    BP = ib[at + 6 * (n + 1):at + 7 * (n + 1)]     # the best leaf's P (decoding needs no division)
    st = 1
    m = 0
    all_ix = 0
    for t in range(n):
        h = hand[t]
        nc = h + 1 if h <= r else r + 2
        ncand[t] = nc
        stride[t] = st
        all_ix += (nc - 1) * st
        st *= nc
        if nc > 1:
            torder[m] = t
            m += 1
    # decide the types with the most candidates first (insertion sort)
    for i in range(1, m):
        t = torder[i]
        p = i
        while p > 0 and ncand[torder[p - 1]] < ncand[t]:
            torder[p] = torder[p - 1]
            p -= 1
        torder[p] = t
    freeh[m] = 0
    for d in range(m - 1, -1, -1):
        freeh[d] = freeh[d + 1] + hash_pow[hand[torder[d]]]
    W1 = W + 1
    # best so far: loss, kept value, tokens sold, enumeration index
    # (index = odometer index of the sold vector * (W+1) + Wilds sold)
    b_loss = np.int64(0)
    b_kept = np.int64(0)
    b_ns = np.int64(0)
    b_ix = np.int64(0)
    b_sw = 0
    have = False
    # seed: the leaf "sell every real token" (it contains the Umax candidate)
    for d in range(m):
        BP[d] = ncand[torder[d]] - 1
    srow = slot_find(slots, freeh[0])
    krow = slot_find(slots, np.int64(0))
    for sw in range(W1):
        tv = slot_value(slots, srow, sw, bits, low)
        if tv < tvthr:
            continue
        L = Lt[tv - tvthr]
        kv = slot_value(slots, krow, W - sw, bits, low)
        ns = tot + sw
        ix = all_ix * W1 + sw
        if (not have) or L < b_loss or (L == b_loss and (kv > b_kept or (kv == b_kept and (
                ns < b_ns or (ns == b_ns and ix < b_ix))))):
            have = True
            b_loss = L
            b_kept = kv
            b_ns = ns
            b_ix = ix
            b_sw = sw
    # depth-first branch and bound over the types in torder; a node fixes the
    # sold amounts of torder[:d].  Its sub-multisets lie between "sell none of
    # the free types" (lo) and "sell all of them" (hi); trade values are
    # monotone (a token can always be sold alone for value[1] >= 0), so tv is
    # in [tv(lo, 0 Wilds), tv(hi, W Wilds)] and the kept value <= kept(lo, W).
    Hs[0] = 0
    Hk[0] = 0
    NS[0] = 0
    IX[0] = 0
    P[0] = -1
    d = 0
    while m > 0 and d >= 0:
        t = torder[d]
        P[d] += 1
        p = P[d]
        if p >= ncand[t]:
            d -= 1
            continue
        h = hand[t]
        a = p
        if h > r and p == r + 1:
            a = h
        hs = Hs[d] + hash_pow[a]
        hk = Hk[d] + hash_pow[h - a]
        ns0 = NS[d] + a
        ix0 = (IX[d] + p * stride[t]) * W1
        if d + 1 == m:
            # leaf: every Wild count
            srow = slot_find(slots, hs)
            krow = -1
            for sw in range(W1):
                tv = slot_value(slots, srow, sw, bits, low)
                if tv < tvthr:
                    continue
                L = Lt[tv - tvthr]
                if L > b_loss:
                    continue
                if krow < 0:
                    krow = slot_find(slots, hk)
                kv = slot_value(slots, krow, W - sw, bits, low)
                ns = ns0 + sw
                ix = ix0 + sw
                if L < b_loss or kv > b_kept or (kv == b_kept and (
                        ns < b_ns or (ns == b_ns and ix < b_ix))):
                    b_loss = L
                    b_kept = kv
                    b_ns = ns
                    b_ix = ix
                    b_sw = sw
                    for e in range(m):
                        BP[e] = P[e]
            continue
        # bound of the child node
        fh = freeh[d + 1]
        rhi = slot_find(slots, hs + fh)
        tvhi = slot_value(slots, rhi, W, bits, low)
        if tvhi < tvthr:
            continue
        rlo = slot_find(slots, hs)
        tvlo = slot_value(slots, rlo, 0, bits, low)
        lo = tvlo - tvthr
        if lo < 0:
            lo = 0
        hi = tvhi - tvthr
        k = lg[hi - lo + 1]
        x0 = sp[k * T + lo]
        x1 = sp[k * T + hi - (1 << k) + 1]
        minL = x0 if x0 < x1 else x1
        if minL > b_loss:
            continue
        if minL == b_loss:
            rk = slot_find(slots, hk + fh)
            kmax = slot_value(slots, rk, W, bits, low)
            if kmax < b_kept:
                continue
            if kmax == b_kept and (ns0 > b_ns or (ns0 == b_ns and ix0 > b_ix)):
                continue
        d += 1
        Hs[d] = hs
        Hk[d] = hk
        NS[d] = ns0
        IX[d] = IX[d - 1] + p * stride[t]
        P[d] = -1
    # the best sub-multiset (its index's digits, kept instead of decoded: integer
    # divisions are slow)
    out_sell[n] = b_sw
    for d in range(m):
        t = torder[d]
        p = BP[d]
        h = hand[t]
        out_sell[t] = h if (h > r and p == r + 1) else p
    hsb = np.int64(0)
    for t in range(n):
        hsb += hash_pow[out_sell[t]]
    x = Cst[slot_value(slots, slot_find(slots, hsb), out_sell[n], bits, low) + extra] // g
    for i in range(C - 1, -1, -1):
        k = ibuf[i * Bq1 + x]       # choice, read through its buffer
        out_buy[i] = k
        if k > 0:
            x -= k * (card_cost[i] // g)
    return Umax
