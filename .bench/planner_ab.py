"""Session 17's trade planner changes against the code before them, in one process (issue
#25): the planner's inputs at every call of the expert's trade decisions that reaches it
(GAMES 4-expert games, choose_trade_nb's early answers replayed), then the base's
plan_trade_table_nb and knapsack_rows_nb (copied below from main ad18cdc, renamed) and the
library's, alternated,
on those inputs; answers (utility, tokens sold, cards bought) compared on every call.
Prints ns per call, best and median of REPEATS (each PASSES passes over the calls, CPU time).

    NUMBA_CACHE_DIR=... python .bench/planner_ab.py [games] [repeats] [passes]
"""
import statistics
import sys
import time

import numpy as np
from numba import njit

from cargo_sim.core.borrow_nb import borrow_nb, state_ptr_nb
from cargo_sim.core.shared_nb import shared_array_nb
from cargo_sim.games.cargo_noir import enums as E
from cargo_sim.games.cargo_noir.bots import botkit_nb as K
from cargo_sim.games.cargo_noir.bots import heuristic_nb as H
from cargo_sim.games.cargo_noir.forward import GameState
from trade_early import planner_value_nb
from cargo_sim.games.cargo_noir.trade.consts import EPS, NEG, PLAN_EXACT_LIMIT
from cargo_sim.games.cargo_noir.trade.knapsack_nb import budget_best_into_nb, cost_unit_nb, knapsack_rows_nb
from cargo_sim.games.cargo_noir.trade.packed_nb import T_MAX_TOTAL, T_N_SLOTS, T_POW, T_POW_LEN, T_SLOT_W, T_SLOTS
from cargo_sim.games.cargo_noir.trade.planner_nb import PLAN_NEEDS_REFERENCE, plan_trade_table_nb, slot_at_nb
from cargo_sim.games.cargo_noir.trade.reference_nb import restriction_nb

GAMES = int(sys.argv[1]) if len(sys.argv) > 1 else 30
REPEATS = int(sys.argv[2]) if len(sys.argv) > 2 else 15
PASSES = int(sys.argv[3]) if len(sys.argv) > 3 else 10


# ---- the base's code (main ad18cdc) ----------------------------------------------
@njit
def knapsack_rows_base_nb(B, card_cost, card_utility, card_available, rows, choice, unit):
    """knapsack_nb with the loops interchanged (copies k outer, budget inner)
    and two rolling rows: every budget sees the same comparisons in the same
    order, so the values and choices are bit-for-bit those of knapsack_nb.
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
        # copy the row and try one copy of the card in one pass (k = 1 below,
        # fused: the same comparisons)
        for x in range(ci):
            cur[x] = prev[x]
            ch[x] = 0
        src = prev[:B1 - ci]
        dst = cur[ci:]
        chd = ch[ci:]
        kept = prev[ci:]
        for x in range(B1 - ci):
            p = src[x]
            v = p + ui
            c = kept[x]
            take = (p > half) & (v > c + EPS)
            dst[x] = v if take else c
            chd[x] = 1 if take else 0
        for k in range(2, ai + 1):
            off = k * ci
            if off > B:
                break
            ku = k * ui   # the same float as the reference's k * ui
            src = prev[:B1 - off]
            dst = cur[off:]
            chd = ch[off:]
            for x in range(B1 - off):   # branch-free body (vectorisable)
                p = src[x]
                v = p + ku
                c = dst[x]
                take = (p > half) & (v > c + EPS)
                dst[x] = v if take else c
                chd[x] = k if take else chd[x]
        tmp = prev
        prev = cur
        cur = tmp
    return prev


@njit
def plan_trade_table_base_nb(hand, wilds, n, tot, full_tv, hash_pow, slots, card_cost, card_utility,
                        card_available, budget_extra, out_sell, out_buy, work):
    """plan_trade_nb's branch and bound, for a valid hand of n types whose
    tot real tokens fit the lookup table (hash_pow, slots); full_tv is its
    trade value. Returns the utility, or PLAN_NEEDS_REFERENCE when the reference's
    tolerant tie-breaking must decide (the outputs are then undefined). Needs
    no TradeTables: a caller holding packed tables passes two views. Its
    buffers are carved from `work` (int64) when it is long enough, else
    allocated."""
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
    nf = 3 * Bq1 + B1
    ni = C * Bq1 + Bq1 + B1 + T * (LOG + 1) + 1 + 9 * (n + 1)
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
    dp = knapsack_rows_base_nb(Bq1 - 1, card_cost, card_utility, card_available, fb, choice, g)
    Uq = fb[2 * Bq1:3 * Bq1]
    budget_best_into_nb(dp, Bq1, Uq, Cq)
    U = fb[3 * Bq1:3 * Bq1 + B1]
    bq = 0
    br = 0
    for b in range(B1):
        U[b] = Uq[bq]
        Cst[b] = Cq[bq] * g
        br += 1
        if br == g:
            br = 0
            bq += 1
    Umax = U[Bmax]
    if Umax <= EPS:
        return 0.0
    # The reference compares utilities with tolerance EPS; when every two
    # distinct values of U are further apart than that (as floats), its
    # sequential choice is the plain lexicographic maximum of
    # (utility, -loss, kept value, -tokens sold, -enumeration index), which the
    # search below computes.  Otherwise run the reference itself.
    for b in range(Bmax):
        a = U[b]
        c = U[b + 1]
        if c != a and not (c > a + EPS and a < c - EPS):
            return PLAN_NEEDS_REFERENCE
    # Selling everything reaches Umax, so the answer has utility Umax: only
    # trade values tv >= tvthr qualify, and the loss is a function of tv.
    tvthr = 0
    while fbuf[3 * Bq1 + tvthr + extra] != Umax:     # U, read through its buffer
        tvthr += 1
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
    have = False
    # seed: the leaf "sell every real token" (it contains the Umax candidate)
    srow = slot_at_nb(slots, freeh[0])
    krow = slot_at_nb(slots, np.int64(0))
    for sw in range(W1):
        tv = slots[srow, 1 + sw]
        if tv < tvthr:
            continue
        L = Lt[tv - tvthr]
        kv = slots[krow, 1 + W - sw]
        ns = tot + sw
        ix = all_ix * W1 + sw
        if (not have) or L < b_loss or (L == b_loss and (kv > b_kept or (kv == b_kept and (
                ns < b_ns or (ns == b_ns and ix < b_ix))))):
            have = True
            b_loss = L
            b_kept = kv
            b_ns = ns
            b_ix = ix
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
            srow = slot_at_nb(slots, hs)
            krow = -1
            for sw in range(W1):
                tv = slots[srow, 1 + sw]
                if tv < tvthr:
                    continue
                L = Lt[tv - tvthr]
                if L > b_loss:
                    continue
                if krow < 0:
                    krow = slot_at_nb(slots, hk)
                kv = slots[krow, 1 + W - sw]
                ns = ns0 + sw
                ix = ix0 + sw
                if L < b_loss or kv > b_kept or (kv == b_kept and (
                        ns < b_ns or (ns == b_ns and ix < b_ix))):
                    b_loss = L
                    b_kept = kv
                    b_ns = ns
                    b_ix = ix
            continue
        # bound of the child node
        fh = freeh[d + 1]
        rhi = slot_at_nb(slots, hs + fh)
        tvhi = slots[rhi, 1 + W]
        if tvhi < tvthr:
            continue
        rlo = slot_at_nb(slots, hs)
        tvlo = slots[rlo, 1]
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
            rk = slot_at_nb(slots, hk + fh)
            kmax = slots[rk, 1 + W]
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
    # decode the best sub-multiset from its index
    q = b_ix // W1
    out_sell[n] = b_ix - q * W1
    for t in range(n):
        if ncand[t] == 1:       # nothing to decode (and integer divisions are slow)
            continue
        p = q % ncand[t]
        q //= ncand[t]
        h = hand[t]
        out_sell[t] = h if (h > r and p == r + 1) else p
    hsb = np.int64(0)
    for t in range(n):
        hsb += hash_pow[out_sell[t]]
    x = Cst[slots[slot_at_nb(slots, hsb), 1 + out_sell[n]] + extra] // g
    for i in range(C - 1, -1, -1):
        k = ibuf[i * Bq1 + x]       # choice, read through its buffer
        out_buy[i] = k
        if k > 0:
            x -= k * (card_cost[i] // g)
    return Umax


# ---- the planner's inputs ------------------------------------------------------------
@njit
def inputs_nb(S, seat, hand, util, cost, avail, head):
    """choose_trade_nb's path to the planner: False if it answers before it; else the
    inputs in hand/util/cost/avail and head = (wilds, tot, full_tv, extra)."""
    s = state_ptr_nb(S)
    value, extra = planner_value_nb(s, seat)   # choose_trade_nb's early answers
    if value < 0:
        return False
    nt = K.n_types_nb(s)
    nc = K.n_cards_nb(s)
    u = H.card_utilities_nb(s, seat)
    for c in range(nc):
        util[c] = u[c]
        cost[c] = K.card_cost_nb(s, c)
        avail[c] = K.card_buyable_nb(s, seat, c)
    tot = 0
    for t in range(nt):
        hand[t] = K.hand_nb(s, seat, t)
        tot += hand[t]
    a = shared_array_nb(s)
    if tot > a[T_MAX_TOTAL]:
        return False            # beyond the table: the reference enumeration, unchanged
    head[0] = K.hand_nb(s, seat, nt)
    head[1] = tot
    head[2] = value
    head[3] = extra
    return True


@njit
def tables_nb(S):
    a = shared_array_nb(state_ptr_nb(S))
    p0 = a[T_POW]
    s0 = a[T_SLOTS]
    return (a[p0:p0 + a[T_POW_LEN]].copy(),
            a[s0:s0 + a[T_N_SLOTS] * a[T_SLOT_W]].reshape((a[T_N_SLOTS], a[T_SLOT_W])).copy())


live, rows = [], []
for g in range(GAMES):
    st = GameState(["expert"] * 4, seed=11, game=g)
    live.append(st)
    while not st.is_over:
        d = st.decision
        if d.code == E.D_TRADE:
            S = st.s.copy()
            hand, util = np.zeros(E.MAX_TOK, np.int64), np.zeros(E.MAX_CARDS)
            cost, avail, head = np.zeros(E.MAX_CARDS, np.int64), np.zeros(E.MAX_CARDS, np.int64), np.zeros(4, np.int64)
            if inputs_nb(S, d.seat, hand, util, cost, avail, head):
                rows.append((hand, util, cost, avail, head))
        st.apply(st.bot_answer())
N_TYPES, N_CARDS = int(st.s[E.R_N_TYPES]), int(st.s[E.R_N_CARDS])
HASH_POW, SLOTS = tables_nb(st.s)
HAND = np.array([r[0][:N_TYPES] for r in rows])
UTIL = np.array([r[1][:N_CARDS] for r in rows])
COST = np.array([r[2][:N_CARDS] for r in rows])
AVAIL = np.array([r[3][:N_CARDS] for r in rows])
HEAD = np.array([r[4] for r in rows])
print(f"{GAMES} games: {len(rows):,} planner calls ({len(rows) / GAMES:.1f} a game)", flush=True)


def runner(fn):
    @njit
    def run(HAND, UTIL, COST, AVAIL, HEAD, hash_pow, slots, passes, out_u, out_sell, out_buy):
        n = HAND.shape[1]
        work = np.zeros(1 << 14, np.int64)          # the bots' workspace's size (enums.WORK_W)
        for _ in range(passes):
            for i in range(HAND.shape[0]):
                out_u[i] = fn(HAND[i], HEAD[i, 0], n, HEAD[i, 1], HEAD[i, 2], hash_pow, slots, COST[i],
                              UTIL[i], AVAIL[i], HEAD[i, 3], out_sell[i], out_buy[i], work)
        return 0
    return run


runs = {"base": runner(plan_trade_table_base_nb), "new": runner(plan_trade_table_nb)}
n = len(rows)
outs = {}
for k, r in runs.items():
    outs[k] = (np.zeros(n), np.zeros((n, N_TYPES + 1), np.int64), np.zeros((n, N_CARDS), np.int64))
    r(HAND, UTIL, COST, AVAIL, HEAD, HASH_POW, SLOTS, 1, *outs[k])
ok = outs["base"][0] != PLAN_NEEDS_REFERENCE
assert np.array_equal(outs["base"][0], outs["new"][0])
assert np.array_equal(outs["base"][1][ok], outs["new"][1][ok]) and np.array_equal(outs["base"][2][ok], outs["new"][2][ok])
times = {k: [] for k in runs}
for rep in range(REPEATS):
    for k in (list(runs) if rep % 2 == 0 else list(runs)[::-1]):
        t = time.process_time()
        runs[k](HAND, UTIL, COST, AVAIL, HEAD, HASH_POW, SLOTS, PASSES, *outs[k])
        times[k].append((time.process_time() - t) / PASSES / n * 1e9)
ratio = [b / a for a, b in zip(times["base"], times["new"])]
print(f"plan_trade_table_nb: answers equal on {n:,} calls ({(~ok).sum()} left to the reference); ns a call "
      f"base {min(times['base']):.0f} best, {statistics.median(times['base']):.0f} median; new "
      f"{min(times['new']):.0f} best, {statistics.median(times['new']):.0f} median; new/base paired median "
      f"{statistics.median(ratio):.3f} ({min(ratio):.3f}-{max(ratio):.3f})", flush=True)
