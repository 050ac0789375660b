"""The exact value recursion: states, keys, hashes, and the bottom-up solver
that fills the lookup table (docs/trade_algorithms.md, "Exact recursion",
"Lookup table")."""
from __future__ import annotations

import numpy as np
from ....core import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit

# ----------------------------------------------------------------------------
# small kernels
# ----------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def pack_sorted_nb(d, n, bits):
    """Key of an already sorted (non-increasing) count vector."""
    key = np.int64(0)
    for i in range(n):
        key = (key << bits) | np.int64(d[i])
    return key


@njit(cache=True, nogil=True)
def find_nb(keys, key):
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
def wild_only_nb(vs, vd, M, Md, W):
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
def enumerate_states_nb(ub, n, s_min, s_max, bits):
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
        keys[r] = pack_sorted_nb(states[r], n, bits)
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
def slot_find_nb(slots, h):
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



@njit(cache=True)
def merge_child_nb(best, vals, k0, room, R, r, off, W):
    """Merge child state r (row r of R from column off) into ``best``:
    best[w] = max(best[w], vals[k0 + j] + R[r, off + w - j]) for j <= min(w, room)."""
    if r < 0:
        raise RuntimeError("trade_nb: state missing from table")
    for w in range(W + 1):
        for jj in range(min(w, room) + 1):
            val = vals[k0 + jj] + R[r, off + w - jj]
            if val > best[w]:
                best[w] = val

@njit(cache=True, nogil=True)
def solve_states_nb(st_counts, st_keys, st_vals, order, base_slots, base_pow,
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
                r = slot_find_nb(base_slots, hc - base_pow[a] + base_pow[a - take])
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
                r = find_nb(st_keys, pack_sorted_nb(child, n, bits))
                off = 0
            merge_child_nb(best, vs, take, M - take, R, r, off, W)
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
                    r = slot_find_nb(base_slots, h)
                    off = 1
                else:
                    key = kc
                    for g in range(ng):
                        end = gstart[g] + gsize[g] - 1
                        for q in range(x[g]):
                            key -= unit[end - q]
                    R = st_vals
                    r = find_nb(st_keys, key)
                    off = 0
                merge_child_nb(best, vd, k0, Md - k0, R, r, off, W)
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
def build_values_nb(vs, vd, n, M, Md, W, N, bits, wild_only, minus_one):
    """Values of every sorted state with <= N real tokens (minus_one == -1 is
    passed in so numba does not specialise callees on a literal)."""
    ub = np.full(n, N, np.int64)
    states, keys, order = enumerate_states_nb(ub, n, minus_one, N, bits)
    vals = np.empty((keys.shape[0], W + 1), np.int64)
    solve_states_nb(states, keys, vals, order, np.full((1, W + 2), minus_one),
                     np.zeros(1, np.int64), minus_one,
                     vs, vd, M, Md, n, W, wild_only, bits)
    return states, keys, vals


@njit(cache=True, nogil=True)
def make_slots_nb(states, vals, hash_pow, n, size):
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
