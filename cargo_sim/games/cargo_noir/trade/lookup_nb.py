"""Trade value of a holding: one table probe, or the exact solver beyond the table
(docs/trade_algorithms.md, "Lookup table")."""
from __future__ import annotations

import numpy as np
from ....core import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit

from .recursion_nb import (enumerate_states_nb, find_nb, pack_sorted_nb, slot_find_nb,
                           solve_states_nb)

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
    states, keys, order = enumerate_states_nb(c, n, N, tot, bits)
    vals = np.empty((keys.shape[0], wilds + 1), np.int64)
    solve_states_nb(states, keys, vals, order, slots, hash_pow, N, vs, vd, M, Md,
                     n, wilds, wild_only, bits)
    ix = find_nb(keys, pack_sorted_nb(c, n, bits))
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
        res = slots[slot_find_nb(slots, h), 1 + wilds]
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
        return slots[slot_find_nb(slots, h), 1 + wilds]
    return _trade_value_large_nb(counts, wilds, n, N, tables.count_bits,
                                 tables.value_same, tables.value_different,
                                 tables.max_combo, tables.max_different,
                                 tables.wild_only, slots, hash_pow)
