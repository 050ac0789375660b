"""Cargo Noir trading phase: exact value of a holding, and the buy planner.

Problem
-------
A player sells cargo tokens of ``n_types`` types (counts ``c[0..n-1]``) plus
``W`` Wild tokens.  All sold tokens are split into *combinations* of ``k``
tokens, ``1 <= k <= M`` (``M = max_combo``):

* "same": all ``k`` tokens of one type, worth ``value_same[k]``;
* "different": ``k`` tokens of pairwise different types, worth
  ``value_different[k]``.  There are only ``n_types`` types, so a different
  combination has at most ``Md = min(M, n_types)`` tokens.

A Wild stands for any type in any combination (also in combinations made
only of Wilds, which are worth the better of the two rows).  The value
tables are data: any non-negative, non-decreasing tables with ``value[0] = 0``
are handled exactly (no convexity assumption anywhere).

Exact recursion
---------------
Types are symmetric, so a holding is canonicalised by sorting the counts in
decreasing order.  Let ``V(c, w)`` be the best value of selling *all* of
sorted counts ``c`` and ``w`` Wilds.  If ``c`` is empty, only Wilds remain and
``V(0, w) = wild_only[w]`` (an unbounded knapsack over combination sizes,
value ``max(value_same[k], value_different[k])``).  Otherwise some token of
the first (largest) type lies in exactly one combination of an optimal
split, and that combination is one of

* same:      ``i`` tokens of that type (``1 <= i <= min(c0, M)``) and ``j``
  Wilds, ``i + j <= M``: ``value_same[i+j] + V(c - i e0, w - j)``;
* different: the token, one token of each type of a set ``S`` of other
  present types, and ``j`` Wilds, ``1 + |S| + j <= Md``:
  ``value_different[1+|S|+j] + V(c - e0 - e_S, w - j)``.

so ``V(c, w)`` is the maximum over these choices -- this is the definition
of the optimum, enumerated exhaustively, hence exact.  Because types with
equal counts are interchangeable, the set ``S`` only matters through *how
many* types it takes from each group of equal counts; we enumerate those
numbers (decrementing the last members of each group, which keeps the
vector sorted) instead of all ``2^(n-1)`` subsets.  A singleton is both a
"same" and a "different" combination; both are tried.

Lookup table
------------
``build_trade_tables`` evaluates the recursion bottom-up (by increasing
number of real tokens) for *every* sorted count vector with at most
``table_max_total`` real tokens (default 32: 25 910 states for 9 types) and
every Wild count ``0..max_wilds``; sub-states have fewer real tokens, so they
are always known.  During the build a state is identified by its packed key
(``count_bits`` bits per sorted count, most significant first): the states
are generated in lexicographic order, so the keys come out sorted and are
binary-searched; a child's key is the parent's minus the weights of the
positions that lost a token (no copy, no re-sort).  One child lookup serves
every Wild count at once.  Build: ~0.2 s for the default tables.

For queries the table is re-indexed by an *order-free* hash,
``h(c) = sum_t hash_pow[c_t]`` (wrapping int64 sum of random 64-bit words,
``hash_pow[0] = 0``): it needs no sorting, and a child's hash is the
parent's plus a few differences.  Exactness does not rest on probability:
the builder checks that the hash is injective on every state of the table
(retrying another ``hash_pow`` otherwise), and every query with at most
``table_max_total`` real tokens *is* such a state, so its hash finds exactly
its own row of the open-addressing table ``slots`` (row = hash, then the
values for 0..max_wilds Wilds; load factor <= 1/2).

``trade_value_nb`` therefore costs a 9-term sum and one or two probes:
~0.15-0.25 us per call, most of it refcount traffic on the tables tuple that
numba cannot prune because the function also contains the fallback call.
``lookup_trade_value_nb`` is the table-only variant for hot loops (~40-100
ns; returns -2 when the holding is too big for the table), and the planner
inlines the lookup with the arrays hoisted.  Holdings with more than ``table_max_total``
real tokens take the exact fallback: it enumerates every sorted
sub-multiset of the holding with more than ``table_max_total`` tokens (the
only states the recursion reaches that the table does not hold), solves
them bottom-up with the same kernel, and reads smaller children from the
table (~0.1 ms at 33 tokens, ~5 ms at 40, ~35 ms at 45).  Nothing is shared
or cached between calls and the tables are only read, so every kernel is
thread-safe; all kernels are ``nogil``.

Planner
-------
``plan_trade_nb`` solves a bounded knapsack over card costs once per call
(exact-cost DP with back-pointers, budgets ``0..trade_value(hand)+extra``
counted in units of the gcd of the buyable cards' costs -- no other exact
cost is reachable; loops interchanged so the inner loop over budgets is
branch-free, same floating-point operations per budget as the original),
then searches the sub-multisets of the hand (Wilds included) for the best
card set per budget.  The choice is lexicographic: highest utility, then least value lost
to "no change" (``max(0, value_sold - cost)``: coins are spent after goods,
so unused coins are never lost), then highest trade value of the tokens
kept, then fewest tokens sold, then the first sub-multiset in the original
odometer order (type 0 fastest, Wilds innermost).  The candidates are every
sub-multiset when the hand has at most ``PLAN_EXACT_LIMIT`` of them (20 000:
every hand of up to 17 tokens Wilds included, for 9 types); beyond that each
type's sold amount is restricted to ``{0, 1, ..., r, all}`` with the largest
``r`` keeping the count under the limit (Wilds always free), which still
considers selling any type entirely or a few of it.  Cards with utility <= 0
are never bought.

Search.  Selling everything reaches the best utility ``Umax = U(full value +
extra)``, so the answer has utility ``Umax``; utility and loss are then
functions of the sold value ``tv`` alone (``tv >= tvthr`` qualifies, loss
``L(tv)``, range minima by a sparse table).  Trade values are monotone (a
token can always be sold as a singleton worth ``value[1] >= 0``), so a
branch-and-bound over the types (most candidates first) bounds a node whose
types ``d..`` are free by ``tv in [tv(sell none of them, 0 Wilds), tv(sell
all, all Wilds)]`` and kept value ``<= kept(sell none of them)``, and drops
it when even ``(min loss, max kept, fewest sold, first index)`` cannot beat
the best so far (seeded with "sell all").  Hashes are additive, so a node's
bounds are three probes of hashes built incrementally.  The original
planner compares utilities with a tolerance ``_EPS`` sequentially; when
every two distinct values of ``U`` are more than ``_EPS`` apart (checked
per call) that sequential choice *is* the lexicographic maximum above, and
otherwise -- and for hands with more than ``table_max_total`` real tokens --
the original enumeration ``_plan_trade_reference_nb`` runs instead, so the
answers are always the original's.  Typical cost (4-player heuristic
games' card sets): ~1-4 us (<= 9 tokens), ~8 us (10-12), ~11-15 us (13-16),
against ~8-33, ~42-55 and ~140-200 us for the plain enumeration.
"""
from __future__ import annotations

import collections
import threading
import functools
import itertools
import numbers
from pathlib import Path

import numpy as np
from numba import cfunc, njit, types

from ...borrow_nb import borrow_nb, call_int64_fn_nb, state_array_nb, state_ptr_nb

__all__ = [
    "TradeTables", "build_trade_tables", "default_trade_tables",
    "trade_value_nb", "lookup_trade_value_nb", "plan_trade_nb", "best_cards_for_budget_nb",
    "trade_value", "best_split", "plan_trade", "best_cards_for_budget",
    "DEFAULT_TABLE_MAX_TOTAL", "PLAN_EXACT_LIMIT", "MAX_TOTAL_TOKENS",
]

TradeTables = collections.namedtuple("TradeTables", [
    "value_same",        # int64[M+1], value_same[0] == 0
    "value_different",   # int64[M+1], value_different[0] == 0
    "n_types",           # int: cargo types (a Wild is not a type)
    "max_combo",         # int: M, largest combination
    "max_different",     # int: min(M, n_types), largest "different" combination
    "max_wilds",         # int: most Wilds ever held; tables cover 0..max_wilds
    "table_max_total",   # int: lookup table holds every holding with <= this many real tokens
    "count_bits",        # int: bits per sorted count in a key
    "keys",              # int64[K]: sorted packed keys of sorted count vectors
    "values",            # int64[K, max_wilds+1]: trade value of (keys[i], w Wilds)
    "wild_only",         # int64[max_wilds+1]: value of w Wilds alone
    "hash_pow",          # int64[2**count_bits]: hash of a holding = sum of hash_pow[count]
    "slots",             # int64[S, max_wilds+2]: hash table, row = (hash, values for w=0..)
])

DEFAULT_TABLE_MAX_TOTAL = 32
MAX_TOTAL_TOKENS = 64   # Python wrappers refuse bigger holdings (fallback cost grows fast)
PLAN_EXACT_LIMIT = 20000
_EPS = 1e-9
_NEG = -1e300


# ----------------------------------------------------------------------------
# small kernels
# ----------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def _pack_sorted_nb(d, n, bits):
    """Key of an already sorted (non-increasing) count vector."""
    key = np.int64(0)
    for i in range(n):
        key = (key << bits) | np.int64(d[i])
    return key


@njit(cache=True, nogil=True)
def _find_nb(keys, key):
    """Index of `key` in sorted `keys`, or -1."""
    lo = 0
    hi = keys.shape[0]
    while lo < hi:
        mid = (lo + hi) >> 1
        if keys[mid] < key:
            lo = mid + 1
        else:
            hi = mid
    if lo < keys.shape[0] and keys[lo] == key:
        return lo
    return -1


@njit(cache=True, nogil=True)
def _wild_only_nb(vs, vd, M, Md, W):
    """Best value of w Wilds alone, w = 0..W (unbounded knapsack)."""
    out = np.zeros(W + 1, np.int64)
    for w in range(1, W + 1):
        best = np.int64(-1)
        for k in range(1, min(w, M) + 1):
            v = vs[k]
            if k <= Md and vd[k] > v:
                v = vd[k]
            v += out[w - k]
            if v > best:
                best = v
        out[w] = best
    return out


@njit(cache=True, nogil=True)
def _walk_states_nb(ub, n, s_min, s_max, out):
    """Count (`out` with no rows) or write into `out` every non-increasing
    vector d with d[i] <= ub[i] and s_min < sum(d) <= s_max."""
    fill = out.shape[0] > 0
    d = np.zeros(n, np.int64)
    s = 0
    k = 0
    while True:
        if s > s_min:
            if fill:
                for i in range(n):
                    out[k, i] = d[i]
            k += 1
        # lexicographic successor
        sfx = 0
        i = n - 1
        while i >= 0:
            pre = s - sfx  # sum of d[0..i]
            v = d[i] + 1
            if v <= ub[i] and (i == 0 or v <= d[i - 1]) and pre + 1 <= s_max:
                d[i] = v
                for q in range(i + 1, n):
                    d[q] = 0
                s = pre + 1
                break
            sfx += d[i]
            i -= 1
        if i < 0:
            break
    return k


@njit(cache=True, nogil=True)
def _enumerate_states_nb(ub, n, s_min, s_max, bits):
    """Sorted states (rows), their keys and a processing order by total.
    The walk visits vectors in lexicographic order, which is increasing key
    order, so the keys come out sorted; the order is a counting sort by total."""
    dummy = np.empty((0, n), np.int64)
    K = _walk_states_nb(ub, n, s_min, s_max, dummy)
    states = np.empty((K, n), np.int64)
    _walk_states_nb(ub, n, s_min, s_max, states)
    keys = np.empty(K, np.int64)
    totals = np.empty(K, np.int64)
    tmax = 0
    for r in range(K):
        keys[r] = _pack_sorted_nb(states[r], n, bits)
        t = 0
        for i in range(n):
            t += states[r, i]
        totals[r] = t
        if t > tmax:
            tmax = t
    start = np.zeros(tmax + 2, np.int64)
    for r in range(K):
        start[totals[r] + 1] += 1
    for t in range(1, tmax + 2):
        start[t] += start[t - 1]
    order = np.empty(K, np.int64)
    for r in range(K):
        t = totals[r]
        order[start[t]] = r
        start[t] += 1
    return states, keys, order


@njit(cache=True, nogil=True)
def _hash_counts_nb(counts, n, hash_pow):
    """Order-free hash of a holding: sum of hash_pow[count] (wrapping)."""
    h = np.int64(0)
    for i in range(n):
        h += hash_pow[counts[i]]
    return h


@njit(cache=True, nogil=True, inline="always")
def _slot_find_nb(slots, h):
    """Row of hash `h` in the open-addressing table (col 0 hash, col 1.. the
    values, col 1 < 0 marks an empty row), or -1."""
    mask = slots.shape[0] - 1
    pos = (h ^ (h >> 31)) & mask
    while True:
        if slots[pos, 1] < 0:
            return np.int64(-1)
        if slots[pos, 0] == h:
            return pos
        pos = (pos + 1) & mask


@njit(cache=True, nogil=True)
def _solve_states_nb(st_counts, st_keys, st_vals, order, base_slots, base_pow,
                     base_max_total, vs, vd, M, Md, n, W, wild_only, bits):
    """Fill st_vals[s, 0..W] for every state, processing them in `order`
    (non-decreasing number of real tokens).  A child with more than
    `base_max_total` real tokens is a local state, found by its packed key in
    the sorted `st_keys`; a smaller child is read from the hash table
    `base_slots` (values in columns 1..).  Child keys and hashes are derived
    incrementally from the parent's."""
    child = np.empty(n, np.int64)
    best = np.empty(W + 1, np.int64)
    gstart = np.empty(n, np.int64)
    gsize = np.empty(n, np.int64)
    gdh = np.empty(n, np.int64)   # hash change when one type of group g loses a token
    x = np.empty(n, np.int64)
    unit = np.empty(n, np.int64)  # packed-key weight of each sorted position
    for p in range(n):
        unit[p] = np.int64(1) << (bits * (n - 1 - p))
    for oi in range(order.shape[0]):
        idx = order[oi]
        c = st_counts[idx]
        m = 0
        tot = 0
        for i in range(n):
            if c[i] > 0:
                m += 1
                tot += c[i]
        if m == 0:
            for w in range(W + 1):
                st_vals[idx, w] = wild_only[w]
            continue
        for w in range(W + 1):
            best[w] = -1
        kc = st_keys[idx]
        hc = np.int64(0)
        if tot - Md <= base_max_total or tot - M <= base_max_total:
            for i in range(n):
                hc += base_pow[c[i]]
        a = c[0]
        # groups of equal counts among the present types
        ng = 0
        i = 0
        while i < m:
            j = i
            while j < m and c[j] == c[i]:
                j += 1
            gstart[ng] = i
            gsize[ng] = j - i
            if tot - Md <= base_max_total:
                gdh[ng] = base_pow[c[i]] - base_pow[c[i] - 1]
            ng += 1
            i = j
        # "same" combinations containing a token of the largest type
        last0 = gsize[0] - 1
        for take in range(1, min(a, M) + 1):
            if tot - take <= base_max_total:
                R = base_slots
                r = _slot_find_nb(base_slots, hc - base_pow[a] + base_pow[a - take])
                off = 1
            else:
                for q in range(n):
                    child[q] = c[q]
                v = a - take
                p = last0
                while p + 1 < n and child[p + 1] > v:
                    child[p] = child[p + 1]
                    p += 1
                child[p] = v
                R = st_vals
                r = _find_nb(st_keys, _pack_sorted_nb(child, n, bits))
                off = 0
            if r < 0:
                raise RuntimeError("trade_nb: state missing from table")
            for w in range(W + 1):
                jmax = min(w, M - take)
                for jj in range(jmax + 1):
                    val = vs[take + jj] + R[r, off + w - jj]
                    if val > best[w]:
                        best[w] = val
        # "different" combinations: x[g] types taken from group g (x[0] >= 1);
        # the last x[g] members of each group lose a token (stays sorted)
        x[0] = 1
        for g in range(1, ng):
            x[g] = 0
        while True:
            k0 = 0
            for g in range(ng):
                k0 += x[g]
            if k0 <= Md:
                if tot - k0 <= base_max_total:
                    h = hc
                    for g in range(ng):
                        h -= x[g] * gdh[g]
                    R = base_slots
                    r = _slot_find_nb(base_slots, h)
                    off = 1
                else:
                    key = kc
                    for g in range(ng):
                        end = gstart[g] + gsize[g] - 1
                        for q in range(x[g]):
                            key -= unit[end - q]
                    R = st_vals
                    r = _find_nb(st_keys, key)
                    off = 0
                if r < 0:
                    raise RuntimeError("trade_nb: state missing from table")
                for w in range(W + 1):
                    jmax = min(w, Md - k0)
                    for jj in range(jmax + 1):
                        val = vd[k0 + jj] + R[r, off + w - jj]
                        if val > best[w]:
                            best[w] = val
            g = 0
            while g < ng:
                if x[g] < gsize[g]:
                    x[g] += 1
                    break
                x[g] = 1 if g == 0 else 0
                g += 1
            if g == ng:
                break
        for w in range(W + 1):
            st_vals[idx, w] = best[w]


@njit(cache=True, nogil=True)
def _build_values_nb(vs, vd, n, M, Md, W, N, bits, wild_only, minus_one):
    """Values of every sorted state with <= N real tokens (minus_one == -1 is
    passed in so numba does not specialise callees on a literal)."""
    ub = np.full(n, N, np.int64)
    states, keys, order = _enumerate_states_nb(ub, n, minus_one, N, bits)
    vals = np.empty((keys.shape[0], W + 1), np.int64)
    _solve_states_nb(states, keys, vals, order, np.full((1, W + 2), minus_one),
                     np.zeros(1, np.int64), minus_one,
                     vs, vd, M, Md, n, W, wild_only, bits)
    return states, keys, vals


@njit(cache=True, nogil=True)
def _make_slots_nb(states, vals, hash_pow, n, size):
    """Open-addressing table of (hash, values) rows; returns (slots, ok) with
    ok False if two states share a hash (caller retries another hash_pow)."""
    K = states.shape[0]
    W1 = vals.shape[1]
    slots = np.full((size, W1 + 1), -1, np.int64)
    mask = size - 1
    for s in range(K):
        h = _hash_counts_nb(states[s], n, hash_pow)
        pos = (h ^ (h >> 31)) & mask
        while slots[pos, 1] >= 0:
            if slots[pos, 0] == h:
                return slots, False
            pos = (pos + 1) & mask
        slots[pos, 0] = h
        for w in range(W1):
            slots[pos, 1 + w] = vals[s, w]
    return slots, True


# ----------------------------------------------------------------------------
# trade value
# ----------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def _trade_value_large_nb(counts, wilds, n, N, bits, vs, vd, M, Md, wild_only,
                          slots, hash_pow):
    """Exact value of a holding with more than N real tokens (the table's
    limit): solve every sorted sub-holding with more than N tokens bottom-up,
    reading smaller ones from the table.  (Arrays are passed one by one, not
    as the tables tuple: a tuple argument makes the fast path's caller pay
    refcount traffic on every call.)"""
    c = np.empty(n, np.int64)
    for i in range(n):  # insertion sort, decreasing
        v = counts[i]
        p = i
        while p > 0 and c[p - 1] < v:
            c[p] = c[p - 1]
            p -= 1
        c[p] = v
    tot = np.int64(0)
    for i in range(n):
        tot += c[i]
    states, keys, order = _enumerate_states_nb(c, n, N, tot, bits)
    vals = np.empty((keys.shape[0], wilds + 1), np.int64)
    _solve_states_nb(states, keys, vals, order, slots, hash_pow, N, vs, vd, M, Md,
                     n, wilds, wild_only, bits)
    ix = _find_nb(keys, _pack_sorted_nb(c, n, bits))
    return vals[ix, wilds]


@njit(cache=True, nogil=True)
def lookup_trade_value_nb(counts, wilds, tables):
    """Table-only trade value for hot loops (~40 ns vs ~200 ns): the value of
    selling all of `counts` and `wilds` Wilds if the holding has at most
    tables.table_max_total real tokens, -2 if it has more (then call
    trade_value_nb), -1 for invalid input.  Branch-free validation and no
    call inside keep numba's refcount pruning effective, which is where
    trade_value_nb loses its time (its fallback call defeats the pruning)."""
    n = tables.n_types
    hash_pow = tables.hash_pow
    slots = tables.slots
    cmax = hash_pow.shape[0] - 1
    tot = np.int64(0)
    h = np.int64(0)
    bad = (counts.shape[0] < n) | (wilds < 0) | (wilds > tables.max_wilds)
    m = min(n, counts.shape[0])
    for i in range(m):
        ci = counts[i]
        bad |= (ci < 0) | (ci > cmax)
        ci = min(max(ci, 0), cmax)
        tot += ci
        h += hash_pow[ci]
    res = np.int64(-2)
    if bad:
        res = np.int64(-1)
    elif tot <= tables.table_max_total:
        res = slots[_slot_find_nb(slots, h), 1 + wilds]
    return res


@njit(cache=True, nogil=True)
def trade_value_nb(counts, wilds, tables):
    """Highest total value of selling ALL of `counts` (int64[n_types]) and
    `wilds` Wilds.  Returns -1 for invalid input (negative counts, a count
    above 2**count_bits - 1, wilds outside 0..max_wilds, short array)."""
    # No early return inside the loop and table arrays hoisted: both keep
    # numba from adding refcount traffic that costs more than the lookup.
    n = tables.n_types
    if counts.shape[0] < n or wilds < 0 or wilds > tables.max_wilds:
        return np.int64(-1)
    hash_pow = tables.hash_pow
    slots = tables.slots
    cmax = hash_pow.shape[0] - 1
    tot = np.int64(0)
    h = np.int64(0)
    bad = False
    for i in range(n):
        ci = counts[i]
        if ci < 0 or ci > cmax:
            bad = True
            ci = 0
        tot += ci
        h += hash_pow[ci]
    if bad:
        return np.int64(-1)
    N = tables.table_max_total
    if tot <= N:
        return slots[_slot_find_nb(slots, h), 1 + wilds]
    return _trade_value_large_nb(counts, wilds, n, N, tables.count_bits,
                                 tables.value_same, tables.value_different,
                                 tables.max_combo, tables.max_different,
                                 tables.wild_only, slots, hash_pow)


# ----------------------------------------------------------------------------
# cards: bounded knapsack
# ----------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def _knapsack_nb(B, card_cost, card_utility, card_available):
    """Exact-cost bounded knapsack.  dp[i, x] = best utility of cards 0..i-1
    costing exactly x (or _NEG), choice[i, x] = copies of card i-1 used.
    Cards with utility <= 0, negative cost or no copies are never bought."""
    C = card_cost.shape[0]
    dp = np.full((C + 1, B + 1), _NEG)
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
                if dp[i, y] > _NEG * 0.5:
                    v = dp[i, y] + k * ui
                    if v > bestv + _EPS:
                        bestv = v
                        bk = k
            dp[i + 1, xx] = bestv
            choice[i + 1, xx] = bk
    return dp, choice


@njit(cache=True, nogil=True)
def _budget_best_nb(dp_last, B):
    """For every budget b <= B: best utility U[b] of a card set costing <= b
    and the largest cost Cst[b] <= b of a set reaching it (least loss)."""
    U = np.zeros(B + 1)
    Cst = np.zeros(B + 1, np.int64)
    _budget_best_into_nb(dp_last, B + 1, U, Cst)
    return U, Cst


@njit(cache=True, nogil=True)
def _budget_best_into_nb(dp_last, B1, U, Cst):
    """Fill U[b], Cst[b] for b < B1 (see _budget_best_nb) in given buffers."""
    curU = 0.0
    curC = 0
    for b in range(B1):
        v = dp_last[b]
        if v > _NEG * 0.5:
            if v > curU + _EPS:
                curU = v
                curC = b
            elif v >= curU - _EPS:
                curC = b
                if v > curU:
                    curU = v
        U[b] = curU
        Cst[b] = curC


@njit(cache=True, nogil=True)
def _reconstruct_nb(choice, card_cost, x, out_buy):
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
    dp, choice = _knapsack_nb(budget, card_cost, card_utility, card_available)
    U, Cst = _budget_best_nb(dp[C], budget)
    if U[budget] <= _EPS:
        return 0.0
    _reconstruct_nb(choice, card_cost, Cst[budget], out_buy)
    return U[budget]


# ----------------------------------------------------------------------------
# planner
# ----------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def _restriction_nb(hand, wilds, n, limit):
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
    hmax, r = _restriction_nb(hand, wilds, n, limit)
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
        r = _slot_find_nb(slots, h)
    return r


@njit(cache=True, nogil=True)
def _plan_trade_reference_nb(hand, wilds, tables, card_cost, card_utility, card_available,
                             budget_extra, out_sell, out_buy):
    """The original planner (plain odometer enumeration, kept as the reference
    that plan_trade_nb must reproduce exactly, and as its fallback for hands
    beyond the table or utilities closer than _EPS).  Choose tokens to sell (out_sell[0..n_types-1] real, out_sell[n_types]
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
    dp, choice = _knapsack_nb(Bmax, card_cost, card_utility, card_available)
    U, Cst = _budget_best_nb(dp[C], Bmax)
    if U[Bmax] <= _EPS:
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
            if have and u < best_u - _EPS:
                continue
            cost = Cst[B]
            loss = tv - cost
            if loss < 0:
                loss = 0
            # 0: not better, 1: better on utility or loss, 2: better on kept value
            better = 0
            if not have or u > best_u + _EPS:
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
    if best_u <= _EPS:
        return 0.0
    for i in range(n + 1):
        out_sell[i] = best_sell[i]
    _reconstruct_nb(choice, card_cost, best_cost, out_buy)
    return best_u


@njit(cache=True, nogil=True)
def _knapsack_rows_nb(B, card_cost, card_utility, card_available, rows, choice, unit):
    """_knapsack_nb with the loops interchanged (copies k outer, budget inner)
    and two rolling rows: every budget sees the same comparisons in the same
    order, so the values and choices are bit-for-bit those of _knapsack_nb.
    Costs are counted in `unit`s (_cost_unit_nb: it divides the cost of every
    card bought), B included: the other budgets of _knapsack_nb stay _NEG, as
    every card moves a budget by a multiple of unit.
    rows: float64[2*(B+1)] scratch; choice: int64[C*(B+1)], choice[i*(B+1)+x]
    = copies of card i (old choice[i+1, x*unit]).  Returns the last row (a view)."""
    C = card_cost.shape[0]
    B1 = B + 1
    prev = rows[:B1]
    cur = rows[B1:2 * B1]
    for x in range(B1):
        prev[x] = _NEG
    prev[0] = 0.0
    half = _NEG * 0.5
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
            take = (p > half) & (v > c + _EPS)
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
                take = (p > half) & (v > c + _EPS)
                dst[x] = v if take else c
                chd[x] = k if take else chd[x]
        tmp = prev
        prev = cur
        cur = tmp
    return prev


@njit(cache=True, nogil=True)
def _cost_unit_nb(card_cost, card_utility, card_available):
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


@njit(cache=True, nogil=True, inline="always")
def _slot_at_nb(slots, h):
    """_slot_find_nb for a hash known to be in the table."""
    mask = slots.shape[0] - 1
    pos = (h ^ (h >> 31)) & mask
    while slots[pos, 0] != h:
        pos = (pos + 1) & mask
    return pos


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

    Same answers as _plan_trade_reference_nb (the plain enumeration), found
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
        # sub-holdings beyond the lookup table, or utilities closer than _EPS:
        # the plain enumeration (which returns -1.0 for an invalid hand)
        return _plan_trade_reference_nb(hand, wilds, tables, card_cost, card_utility,
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
    g = _cost_unit_nb(card_cost, card_utility, card_available)
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
    dp = _knapsack_rows_nb(Bq1 - 1, card_cost, card_utility, card_available, fb, choice, g)
    Uq = fb[2 * Bq1:3 * Bq1]
    _budget_best_into_nb(dp, Bq1, Uq, Cq)
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
    if Umax <= _EPS:
        return 0.0
    # The reference compares utilities with tolerance _EPS; when every two
    # distinct values of U are further apart than that (as floats), its
    # sequential choice is the plain lexicographic maximum of
    # (utility, -loss, kept value, -tokens sold, -enumeration index), which the
    # search below computes.  Otherwise run the reference itself.
    for b in range(Bmax):
        a = U[b]
        c = U[b + 1]
        if c != a and not (c > a + _EPS and a < c - _EPS):
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
    hmax, r = _restriction_nb(hand, wilds, n, PLAN_EXACT_LIMIT)
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
    srow = _slot_at_nb(slots, freeh[0])
    krow = _slot_at_nb(slots, np.int64(0))
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
            srow = _slot_at_nb(slots, hs)
            krow = -1
            for sw in range(W1):
                tv = slots[srow, 1 + sw]
                if tv < tvthr:
                    continue
                L = Lt[tv - tvthr]
                if L > b_loss:
                    continue
                if krow < 0:
                    krow = _slot_at_nb(slots, hk)
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
        rhi = _slot_at_nb(slots, hs + fh)
        tvhi = slots[rhi, 1 + W]
        if tvhi < tvthr:
            continue
        rlo = _slot_at_nb(slots, hs)
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
            rk = _slot_at_nb(slots, hk + fh)
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
    x = Cst[slots[_slot_at_nb(slots, hsb), 1 + out_sell[n]] + extra] // g
    for i in range(C - 1, -1, -1):
        k = ibuf[i * Bq1 + x]       # choice, read through its buffer
        out_buy[i] = k
        if k > 0:
            x -= k * (card_cost[i] // g)
    return Umax


# ----------------------------------------------------------------------------
# Python side
# ----------------------------------------------------------------------------
def _int_list(values, name):
    try:
        seq = list(values)
    except TypeError:
        raise ValueError(f"{name} must be a sequence of integers, got {values!r}") from None
    out = []
    for v in seq:
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, numbers.Integral):
            raise ValueError(f"{name} must contain integers only, got {v!r} in {seq!r}")
        out.append(int(v))
    return out


# The rulebook's tables, computed by _compute_tables and shipped with the
# package: a fresh install then compiles none of the table builders on its
# first simulate (about 6 s of cold start). A test checks the file against a
# fresh build; write_shipped_tables() regenerates it.
SHIPPED_TABLES = Path(__file__).with_name("trade_tables_default.npz")
_SHIPPED_FORMAT = 1


def _table_params(vs, vd, n_types, max_wilds, table_max_total):
    return np.array([_SHIPPED_FORMAT, n_types, max_wilds, table_max_total, len(vs), *vs, *vd],
                    np.int64)


def _load_shipped_tables(vs, vd, n_types, max_wilds, table_max_total, path=SHIPPED_TABLES):
    """The shipped tables if they were built for exactly these parameters, else None."""
    try:
        with np.load(path) as z:
            if not np.array_equal(z["params"], _table_params(vs, vd, n_types, max_wilds,
                                                             table_max_total)):
                return None
            arrays = {k: z[k].astype(np.int64) for k in ("keys", "values", "wild_only",
                                                          "hash_pow", "slots")}
    except (OSError, KeyError, ValueError):
        return None
    M = len(vs) - 1
    return TradeTables(np.array(vs, np.int64), np.array(vd, np.int64), int(n_types), int(M),
                       int(min(M, n_types)), int(max_wilds), int(table_max_total),
                       int(min(6, 62 // n_types)), **arrays)


def write_shipped_tables(path=SHIPPED_TABLES) -> None:
    """Recompute the rulebook's tables and write them where the package ships them."""
    t = default_trade_tables(compute=True)
    np.savez_compressed(path, params=_table_params(tuple(t.value_same.tolist()),
                                                   tuple(t.value_different.tolist()), t.n_types,
                                                   t.max_wilds, t.table_max_total),
                        keys=t.keys, values=t.values, wild_only=t.wild_only,
                        hash_pow=t.hash_pow, slots=t.slots)


@functools.lru_cache(maxsize=32)
def _build_cached(vs, vd, n_types, max_wilds, table_max_total):
    shipped = _load_shipped_tables(vs, vd, n_types, max_wilds, table_max_total)
    if shipped is not None:
        return shipped
    return _compute_tables(vs, vd, n_types, max_wilds, table_max_total)


def _compute_tables(vs, vd, n_types, max_wilds, table_max_total):
    M = len(vs) - 1
    Md = min(M, n_types)
    count_bits = min(6, 62 // n_types)
    vs_a = np.array(vs, np.int64)
    vd_a = np.array(vd, np.int64)
    wild_only = _wild_only_nb(vs_a, vd_a, M, Md, max_wilds)
    states, keys, values = _build_values_nb(vs_a, vd_a, n_types, M, Md, max_wilds,
                                            table_max_total, count_bits, wild_only, -1)
    size = 1 << max(4, int(2 * len(keys) - 1).bit_length())  # load factor <= 1/2
    for seed in range(100):
        rng = np.random.default_rng(0x5EED + seed)
        hash_pow = rng.integers(np.iinfo(np.int64).min, np.iinfo(np.int64).max,
                                size=1 << count_bits, dtype=np.int64, endpoint=True)
        hash_pow[0] = 0
        slots, ok = _make_slots_nb(states, values, hash_pow, n_types, size)
        if ok:  # the hash is injective on every state the table holds
            break
    else:  # pragma: no cover - probability ~1e-10 per seed
        raise RuntimeError("could not find a collision-free hash for the trade table")
    return TradeTables(vs_a, vd_a, int(n_types), int(M), int(Md), int(max_wilds),
                       int(table_max_total), int(count_bits), keys, values, wild_only,
                       hash_pow, slots)


def build_trade_tables(value_same, value_different, n_types=9, max_wilds=5,
                       table_max_total=None, compute=False) -> TradeTables:
    """Precompute the trade tables for one rule variant (memoised).

    value_same / value_different: values of a combination of k = 0..M tokens
    (same length M+1, value[0] == 0, non-negative, non-decreasing).
    n_types: number of cargo types.  max_wilds: most Wilds ever held.
    table_max_total: real tokens covered by the lookup table (default
    DEFAULT_TABLE_MAX_TOTAL, capped so counts fit the key).  compute: build
    them even when the package ships them (see SHIPPED_TABLES)."""
    vs = _int_list(value_same, "value_same")
    vd = _int_list(value_different, "value_different")
    if len(vs) != len(vd):
        raise ValueError(f"value_same and value_different must have the same length "
                         f"(max_combo + 1), got {len(vs)} and {len(vd)}")
    if len(vs) < 2:
        raise ValueError("value tables need at least entries for k = 0 and k = 1")
    for name, tab in (("value_same", vs), ("value_different", vd)):
        if tab[0] != 0:
            raise ValueError(f"{name}[0] must be 0, got {tab[0]}")
        if any(v < 0 for v in tab):
            raise ValueError(f"{name} must be non-negative, got {tab}")
        if any(b < a for a, b in zip(tab, tab[1:])):
            raise ValueError(f"{name} must be non-decreasing, got {tab}")
    if isinstance(n_types, bool) or not isinstance(n_types, numbers.Integral) \
            or not 1 <= n_types <= 15:
        raise ValueError(f"n_types must be an integer in 1..15, got {n_types!r}")
    if isinstance(max_wilds, bool) or not isinstance(max_wilds, numbers.Integral) \
            or not 0 <= max_wilds <= 30:
        raise ValueError(f"max_wilds must be an integer in 0..30, got {max_wilds!r}")
    n_types = int(n_types)
    count_bits = min(6, 62 // n_types)
    if table_max_total is None:
        table_max_total = DEFAULT_TABLE_MAX_TOTAL
    if isinstance(table_max_total, bool) or not isinstance(table_max_total, numbers.Integral) \
            or not 0 <= table_max_total <= 40:
        raise ValueError(f"table_max_total must be an integer in 0..40, got {table_max_total!r}")
    table_max_total = min(int(table_max_total), (1 << count_bits) - 1)
    key = (tuple(vs), tuple(vd), n_types, int(max_wilds), table_max_total)
    return _compute_tables(*key) if compute else _build_cached(*key)


def default_trade_tables(compute=False) -> TradeTables:
    """Rulebook tables: value_same[k] = k*k, value_different[k] = k(k+1)/2,
    max_combo 9, 9 cargo types, at most 5 Wilds. (compute=True: build them
    instead of reading the shipped copy.)"""
    return build_trade_tables([k * k for k in range(10)],
                              [k * (k + 1) // 2 for k in range(10)], 9, 5, compute=compute)


def _check_holding(counts, wilds, tables):
    if tables is None:
        tables = default_trade_tables()
    n = tables.n_types
    if isinstance(counts, np.ndarray) and counts.ndim != 1:
        raise ValueError(f"counts must be one-dimensional, got shape {counts.shape}")
    c = _int_list(counts, "counts")
    if len(c) != n:
        raise ValueError(f"counts must have one entry per cargo type ({n}), got {len(c)}")
    if any(v < 0 for v in c):
        raise ValueError(f"counts must be non-negative, got {c}")
    cmax = (1 << tables.count_bits) - 1
    if any(v > cmax for v in c):
        raise ValueError(f"a count above {cmax} is not supported, got {c}")
    if sum(c) > MAX_TOTAL_TOKENS:
        raise ValueError(f"holdings of more than {MAX_TOTAL_TOKENS} cargo tokens are not "
                         f"supported (got {sum(c)}): the exact fallback would be too slow")
    if isinstance(wilds, (bool, np.bool_)) or not isinstance(wilds, numbers.Integral):
        raise ValueError(f"wilds must be an integer, got {wilds!r}")
    wilds = int(wilds)
    if not 0 <= wilds <= tables.max_wilds:
        raise ValueError(f"wilds must be in 0..{tables.max_wilds}, got {wilds}")
    return np.array(c, np.int64), wilds, tables


def trade_value(counts, wilds=0, tables=None) -> int:
    """Best total value of selling all of `counts` (one int per cargo type)
    and `wilds` Wilds.  tables=None uses default_trade_tables()."""
    c, wilds, tables = _check_holding(counts, wilds, tables)
    return int(trade_value_nb(c, wilds, tables))


def best_split(counts, wilds=0, tables=None):
    """An optimal split as a list of (kind, {type: count}, wilds_used, value),
    kind 'same' or 'different' (slow; for humans and logs).  A combination of
    Wilds alone gets the kind of the row it is valued by."""
    c, w, tables = _check_holding(counts, wilds, tables)
    n, M, Md = tables.n_types, tables.max_combo, tables.max_different
    vs, vd = tables.value_same, tables.value_different
    remaining = int(trade_value_nb(c, w, tables))
    out = []
    while c.sum() > 0 or w > 0:
        found = None
        if c.sum() > 0:
            t = int(np.argmax(c))
            for i in range(1, min(int(c[t]), M) + 1):
                for j in range(0, min(w, M - i) + 1):
                    c2 = c.copy()
                    c2[t] -= i
                    if int(vs[i + j]) + int(trade_value_nb(c2, w - j, tables)) == remaining:
                        found = (("same", {t: i}, j, int(vs[i + j])), c2, w - j)
                        break
                if found:
                    break
            if not found:
                others = [u for u in range(n) if u != t and c[u] > 0]
                for size in range(0, Md):
                    for S in itertools.combinations(others, size):
                        for j in range(0, min(w, Md - 1 - size) + 1):
                            c2 = c.copy()
                            c2[t] -= 1
                            for u in S:
                                c2[u] -= 1
                            k = 1 + size + j
                            if int(vd[k]) + int(trade_value_nb(c2, w - j, tables)) == remaining:
                                found = (("different", {u: 1 for u in sorted((t,) + S)},
                                          j, int(vd[k])), c2, w - j)
                                break
                        if found:
                            break
                    if found:
                        break
        else:
            for k in range(1, min(w, M) + 1):
                kind, v = "same", int(vs[k])
                if k <= Md and int(vd[k]) > v:
                    kind, v = "different", int(vd[k])
                if v + int(tables.wild_only[w - k]) == remaining:
                    found = ((kind, {}, k, v), c, w - k)
                    break
        if found is None:  # pragma: no cover - would mean the table is wrong
            raise RuntimeError("best_split: no combination reproduces the optimum")
        combo, c, w = found
        out.append(combo)
        remaining -= combo[3]
    return out


def _card_arrays(card_cost, card_utility, card_available):
    cost = np.asarray(_int_list(card_cost, "card_cost"), np.int64)
    util = np.asarray(card_utility, np.float64).reshape(-1)
    avail = np.asarray(_int_list(card_available, "card_available"), np.int64)
    if not (len(cost) == len(util) == len(avail)):
        raise ValueError("card_cost, card_utility and card_available must have the same length")
    if (cost < 0).any():
        raise ValueError(f"card costs must be non-negative, got {cost.tolist()}")
    return cost, util, avail


def plan_trade(hand, wilds, card_cost, card_utility, card_available,
               budget_extra=0, tables=None):
    """Python wrapper of plan_trade_nb: returns (utility, sell, buy) where
    sell is int64[n_types+1] (Wilds last) and buy int64[C]."""
    h, wilds, tables = _check_holding(hand, wilds, tables)
    cost, util, avail = _card_arrays(card_cost, card_utility, card_available)
    out_sell = np.zeros(tables.n_types + 1, np.int64)
    out_buy = np.zeros(len(cost), np.int64)
    u = plan_trade_nb(h, wilds, tables, cost, util, avail, int(budget_extra),
                      out_sell, out_buy)
    return float(u), out_sell, out_buy


def best_cards_for_budget(budget, card_cost, card_utility, card_available):
    """Python wrapper of best_cards_for_budget_nb: returns (utility, buy)."""
    cost, util, avail = _card_arrays(card_cost, card_utility, card_available)
    out_buy = np.zeros(len(cost), np.int64)
    u = best_cards_for_budget_nb(int(budget), cost, util, avail, out_buy)
    return float(u), out_buy


# ----------------------------------------------------------------------------
# tables packed into one flat int64 array (the engine keeps them at the end of
# each game's state array, so a kernel call passes one array, not thirteen)
# ----------------------------------------------------------------------------
T_N_TYPES, T_MAX_COMBO, T_MAX_DIFF, T_MAX_WILDS, T_MAX_TOTAL, T_BITS = 0, 1, 2, 3, 4, 5
T_POW, T_POW_LEN, T_SLOTS, T_N_SLOTS, T_SLOT_W = 6, 7, 8, 9, 10
T_VS, T_VD, T_WILD_ONLY, T_KEYS, T_N_KEYS, T_VALUES, T_VALUES_W, T_M1 = 11, 12, 13, 14, 15, 16, 17, 18
T_EXACT_FN = 19       # address of the exact solver (exact_value_fn), set by the kernel that plays;
                      # 0: not loaded (a lookup that needs it sets -1 and returns -1)
T_FAST, T_FAST_BITS = 20, 21   # compact copy of the slots (0: none), bits per value in it
T_HEADER = 22


def compact_slots(slots: np.ndarray):
    """(rows, bits): the hash table with a row's values for 0..max_wilds Wilds
    packed into one int64 of `bits` bits each -- rows of (hash, packed values;
    -1 = empty) at the same positions, 16 bytes instead of 8 * (max_wilds + 2):
    the default table shrinks from 3.7 MB to 1 MB, which stays in a core's L2
    cache (lookups are random accesses, the heuristics make millions). None
    when the values do not fit in 63 bits."""
    vals = slots[:, 1:]
    used = slots[:, 1] >= 0
    top = int(vals[used].max()) if used.any() else 0
    bits = max(1, top.bit_length())
    if bits * vals.shape[1] > 63:
        return None, 0
    rows = np.full((slots.shape[0], 2), -1, np.int64)
    rows[:, 0] = slots[:, 0]
    packed = np.zeros(slots.shape[0], np.int64)
    for w in range(vals.shape[1]):
        packed |= np.maximum(vals[:, w], 0).astype(np.int64) << (bits * w)
    rows[used, 1] = packed[used]
    return rows, bits


def pack_trade_tables(tables: TradeTables) -> np.ndarray:
    """The tables as one int64 array: a header of sizes and offsets (T_*), then
    hash_pow, slots, value_same, value_different, wild_only, keys, values, and
    the compact slots (compact_slots) when the values fit."""
    parts = [np.asarray(tables.hash_pow), np.asarray(tables.slots).ravel(),
             np.asarray(tables.value_same), np.asarray(tables.value_different),
             np.asarray(tables.wild_only), np.asarray(tables.keys), np.asarray(tables.values).ravel()]
    fields = [T_POW, T_SLOTS, T_VS, T_VD, T_WILD_ONLY, T_KEYS, T_VALUES]
    head = np.zeros(T_HEADER, np.int64)
    fast, bits = compact_slots(np.asarray(tables.slots))
    if fast is not None:
        parts.append(fast.ravel())
        fields.append(T_FAST)
        head[T_FAST_BITS] = bits
    head[T_N_TYPES] = tables.n_types
    head[T_MAX_COMBO] = tables.max_combo
    head[T_MAX_DIFF] = tables.max_different
    head[T_MAX_WILDS] = tables.max_wilds
    head[T_MAX_TOTAL] = tables.table_max_total
    head[T_BITS] = tables.count_bits
    head[T_POW_LEN] = len(tables.hash_pow)
    head[T_N_SLOTS], head[T_SLOT_W] = tables.slots.shape
    head[T_M1] = len(tables.value_same)
    head[T_N_KEYS] = len(tables.keys)
    head[T_VALUES_W] = tables.values.shape[1]
    at = T_HEADER
    for field, part in zip(fields, parts):
        head[field] = at
        at += len(part)
    return np.concatenate([head] + [p.astype(np.int64) for p in parts])


@njit(cache=True, nogil=True)
def unpack_trade_tables_nb(a, at):
    """TradeTables of views into the packed tables at a[at:] (for the planner)."""
    n_slots = a[at + T_N_SLOTS]
    w = a[at + T_SLOT_W]
    m1 = a[at + T_M1]
    n_keys = a[at + T_N_KEYS]
    vw = a[at + T_VALUES_W]
    s0 = at + a[at + T_SLOTS]
    v0 = at + a[at + T_VALUES]
    return TradeTables(
        a[at + a[at + T_VS]:at + a[at + T_VS] + m1], a[at + a[at + T_VD]:at + a[at + T_VD] + m1],
        a[at + T_N_TYPES], a[at + T_MAX_COMBO], a[at + T_MAX_DIFF], a[at + T_MAX_WILDS],
        a[at + T_MAX_TOTAL], a[at + T_BITS],
        a[at + a[at + T_KEYS]:at + a[at + T_KEYS] + n_keys],
        a[v0:v0 + n_keys * vw].reshape((n_keys, vw)),
        a[at + a[at + T_WILD_ONLY]:at + a[at + T_WILD_ONLY] + a[at + T_MAX_WILDS] + 1],
        a[at + a[at + T_POW]:at + a[at + T_POW] + a[at + T_POW_LEN]],
        a[s0:s0 + n_slots * w].reshape((n_slots, w)),
    )


@njit(cache=True, nogil=True, inline="always")
def probe_consts_nb(a, at):
    """What a probe of the tables at a[at:] reads besides the slots: (slot
    mask, compact slots' offset in a (0: none), bits per value, value mask).
    Loops of probes read them once (probe_with_nb)."""
    f0 = at + a[at + T_FAST] if a[at + T_FAST] > 0 else 0
    bits = a[at + T_FAST_BITS]
    return a[at + T_N_SLOTS] - 1, f0, bits, (np.int64(1) << bits) - 1


@njit(cache=True, nogil=True, inline="always")
def probe_with_nb(a, at, consts, h, wilds):
    """packed_probe_nb told the tables' probe_consts_nb."""
    mask, f0, bits, low = consts
    pos = (h ^ (h >> 31)) & mask
    if f0 > 0:
        shift = bits * wilds
        while True:
            row = f0 + 2 * pos
            if a[row + 1] < 0:
                return np.int64(-1)
            if a[row] == h:
                return (a[row + 1] >> shift) & low
            pos = (pos + 1) & mask
    return _full_slots_probe_nb(a, at, pos, mask, h, wilds)


@njit(cache=True, nogil=True)
def _full_slots_probe_nb(a, at, pos, mask, h, wilds):
    """probe_with_nb in the full slots (tables without a compact copy): not
    inlined with the compact probe, which is the one that runs."""
    s0 = at + a[at + T_SLOTS]
    w = a[at + T_SLOT_W]
    while True:
        row = s0 + pos * w
        if a[row + 1] < 0:
            return np.int64(-1)
        if a[row] == h:
            return a[row + 1 + wilds]
        pos = (pos + 1) & mask


@njit(cache=True, nogil=True)
def packed_probe_nb(a, at, h, wilds):
    """Value, with `wilds` Wilds, of the table's holding of hash h (-1: h is not
    in the table); the compact slots when the tables have them."""
    return probe_with_nb(a, at, probe_consts_nb(a, at), h, wilds)


@njit(cache=True, nogil=True)
def packed_plan_trade_nb(a, at, hand, wilds, card_cost, card_utility, card_available,
                         budget_extra, out_sell, out_buy, work):
    """plan_trade_nb for tables packed at a[at:] (an array): hands within the
    table go straight to plan_trade_table_nb with views of hash_pow and the
    slots, without unpacking the other tables (13 views, each reference
    counted, cost as much as a small plan); `work` (int64) is its scratch."""
    n = a[at + T_N_TYPES]
    p0 = at + a[at + T_POW]
    hash_pow = a[p0:p0 + a[at + T_POW_LEN]]
    cmax = hash_pow.shape[0] - 1
    tot = 0
    h = np.int64(0)
    ok = 0 <= wilds <= a[at + T_MAX_WILDS]
    for t in range(n):
        k = hand[t]
        if k < 0 or k > cmax:
            ok = False
        else:
            h += hash_pow[k]
            tot += k
    if ok and tot <= a[at + T_MAX_TOTAL]:
        s0 = at + a[at + T_SLOTS]
        slots = a[s0:s0 + a[at + T_N_SLOTS] * a[at + T_SLOT_W]].reshape(
            (a[at + T_N_SLOTS], a[at + T_SLOT_W]))
        full_tv = slots[_slot_at_nb(slots, h), 1 + wilds]
        u = plan_trade_table_nb(hand, wilds, n, tot, full_tv, hash_pow, slots, card_cost, card_utility,
                                card_available, budget_extra, out_sell, out_buy, work)
        if u != PLAN_NEEDS_REFERENCE:
            return u
    return plan_trade_nb(hand, wilds, unpack_trade_tables_nb(a, at), card_cost, card_utility,
                         card_available, budget_extra, out_sell, out_buy)


@njit(cache=True, nogil=True)
def packed_trade_value_nb(a, at, counts_at, wilds):
    """trade_value_nb for tables packed at a[at:] and counts at a[counts_at:]
    (n_types entries); `a` is an int64 array or a pointer (state_ptr_nb).
    A table lookup; holdings beyond the table take the exact solver, which
    needs a[at + T_EXACT_FN] = exact_value_fn() (else it marks the tables
    with -1 there and returns -1). Returns -1 for invalid input."""
    n = a[at + T_N_TYPES]
    if wilds < 0 or wilds > a[at + T_MAX_WILDS]:
        return np.int64(-1)
    pow0 = at + a[at + T_POW]
    cmax = a[at + T_POW_LEN] - 1
    tot = np.int64(0)
    h = np.int64(0)
    bad = False
    for i in range(n):
        ci = a[counts_at + i]
        if ci < 0 or ci > cmax:
            bad = True
            ci = 0
        tot += ci
        h += a[pow0 + ci]
    if bad:
        return np.int64(-1)
    if tot <= a[at + T_MAX_TOTAL]:
        return packed_probe_nb(a, at, h, wilds)
    # more tokens than the table holds: the exact solver, called through its
    # address (exact_value_fn) so that the kernels do not compile it in
    fn = a[at + T_EXACT_FN]
    if fn <= 0:
        a[at + T_EXACT_FN] = -1       # the entry kernel stops: replay with the solver
        return np.int64(-1)
    return call_int64_fn_nb(fn, state_ptr_nb(a), at, counts_at, wilds)


def _exact_packed_value(a, at, counts_at, wilds):
    """packed_trade_value_nb's exact path for holdings beyond the table."""
    n = a[at + T_N_TYPES]
    counts = np.empty(n, np.int64)
    for i in range(n):
        counts[i] = a[counts_at + i]
    end = at + a[at + T_VALUES] + a[at + T_N_KEYS] * a[at + T_VALUES_W]
    return trade_value_nb(counts, wilds, unpack_trade_tables_nb(state_array_nb(a, end), at))


_EXACT = []
_EXACT_LOCK = threading.Lock()


def exact_value_fn() -> int:
    """Address of the exact solver (a numba cfunc, compiled -- or loaded from the
    cache -- on first need: most rule sets never hold more tokens than the
    table, so runs start without it). The entry kernels store it at T_EXACT_FN
    of the tables they play with. An address is valid in this process only:
    never keep it in a saved or sent array."""
    with _EXACT_LOCK:
        if not _EXACT:
            sig = types.int64(types.CPointer(types.int64), types.int64, types.int64, types.int64)
            _EXACT.append(cfunc(sig, cache=True)(_exact_packed_value))
        return _EXACT[0].address
