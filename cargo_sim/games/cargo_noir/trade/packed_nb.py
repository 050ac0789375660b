"""The trade tables packed into one flat int64 array (the engine keeps them in the
table's shared array, core.shared_nb, so a kernel reads one array, not thirteen,
and no state copies them), and the kernels that read them in place."""
from __future__ import annotations

import threading

import numpy as np
from ....core import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import cfunc, njit, types

from ....core.borrow_nb import call_int64_fn_nb, state_ptr_nb
from ....core.shared_nb import shared_array_nb, shared_ptr_nb
from .consts import TradeTables
from .lookup_nb import trade_value_nb
from .planner_nb import (PLAN_NEEDS_REFERENCE, plan_trade_nb, plan_trade_slots_nb, plan_trade_table_nb,
                         slot_at_nb, slot_find, slot_value)

T_N_TYPES, T_MAX_COMBO, T_MAX_DIFF, T_MAX_WILDS, T_MAX_TOTAL, T_BITS = 0, 1, 2, 3, 4, 5
T_POW, T_POW_LEN, T_SLOTS, T_N_SLOTS, T_SLOT_W = 6, 7, 8, 9, 10
T_VS, T_VD, T_WILD_ONLY, T_KEYS, T_N_KEYS, T_VALUES, T_VALUES_W, T_M1 = 11, 12, 13, 14, 15, 16, 17, 18
T_EXACT_FN = 19       # unused (the exact solver's address is in each state: packed_trade_value_nb's fn_at)
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
    table go straight to the branch and bound with views of hash_pow and the
    compact slots (plan_trade_slots_nb; the full ones when there are none),
    without unpacking the other tables (13 views, each reference counted,
    cost as much as a small plan); `work` (int64) is its scratch."""
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
    if ok and tot <= a[at + T_MAX_TOTAL] and a[at + T_FAST] > 0:
        # the compact slots (flat rows of hash and packed values): 1 MB, not 3.7
        bits = a[at + T_FAST_BITS]
        low = (np.int64(1) << bits) - 1
        f0 = at + a[at + T_FAST]
        fast = a[f0:f0 + 2 * a[at + T_N_SLOTS]]
        full_tv = slot_value(fast, slot_find(fast, h), wilds, bits, low)
        u = plan_trade_slots_nb(hand, wilds, n, tot, full_tv, hash_pow, fast, card_cost, card_utility,
                                card_available, budget_extra, out_sell, out_buy, work, bits, low)
        if u != PLAN_NEEDS_REFERENCE:
            return u
    elif ok and tot <= a[at + T_MAX_TOTAL]:
        s0 = at + a[at + T_SLOTS]
        slots = a[s0:s0 + a[at + T_N_SLOTS] * a[at + T_SLOT_W]].reshape(
            (a[at + T_N_SLOTS], a[at + T_SLOT_W]))
        full_tv = slots[slot_at_nb(slots, h), 1 + wilds]
        u = plan_trade_table_nb(hand, wilds, n, tot, full_tv, hash_pow, slots, card_cost, card_utility,
                                card_available, budget_extra, out_sell, out_buy, work)
        if u != PLAN_NEEDS_REFERENCE:
            return u
    return plan_trade_nb(hand, wilds, unpack_trade_tables_nb(a, at), card_cost, card_utility,
                         card_available, budget_extra, out_sell, out_buy)


@njit(cache=True, nogil=True)
def packed_trade_value_nb(s, at, counts_at, wilds, fn_at):
    """trade_value_nb for tables packed at offset `at` of the shared array of the
    state s (core.shared_nb) and counts at s[counts_at:] (n_types entries); `s`
    is an int64 array or a pointer (state_ptr_nb). A table lookup; holdings
    beyond the table take the exact solver, which needs s[fn_at] =
    exact_value_fn() (else it marks s[fn_at] with -1 and returns -1). Returns
    -1 for invalid input."""
    a = shared_ptr_nb(s)
    n = a[at + T_N_TYPES]
    if wilds < 0 or wilds > a[at + T_MAX_WILDS]:
        return np.int64(-1)
    pow0 = at + a[at + T_POW]
    cmax = a[at + T_POW_LEN] - 1
    tot = np.int64(0)
    h = np.int64(0)
    bad = False
    for i in range(n):
        ci = s[counts_at + i]
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
    fn = s[fn_at]
    if fn <= 0:
        s[fn_at] = -1       # the entry kernel stops: replay with the solver
        return np.int64(-1)
    return call_int64_fn_nb(fn, state_ptr_nb(s), at, counts_at, wilds)


def _exact_packed_value(p, at, counts_at, wilds):
    """packed_trade_value_nb's exact path for holdings beyond the table (the
    tables in p's shared array, the counts in p)."""
    a = shared_array_nb(p)
    n = a[at + T_N_TYPES]
    counts = np.empty(n, np.int64)
    for i in range(n):
        counts[i] = p[counts_at + i]
    return trade_value_nb(counts, wilds, unpack_trade_tables_nb(a, at))


_EXACT = []
_EXACT_LOCK = threading.Lock()


def exact_value_fn() -> int:
    """Address of the exact solver (a numba cfunc, compiled -- or loaded from the
    cache -- on first need: most rule sets never hold more tokens than the
    table, so runs start without it). The entry kernels store it in each state
    they play (packed_trade_value_nb's fn_at). An address is valid in this process only:
    never keep it in a saved or sent array."""
    with _EXACT_LOCK:
        if not _EXACT:
            sig = types.int64(types.CPointer(types.int64), types.int64, types.int64, types.int64)
            _EXACT.append(cfunc(sig, cache=True)(_exact_packed_value))
        return _EXACT[0].address
