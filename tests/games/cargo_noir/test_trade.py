"""Tests of cargo_sim.games.cargo_noir.trade_nb against independent brute forces.

Two oracles written in plain Python, sharing no code with the module:

* ``partition_value``: the definition itself -- enumerate every partition of
  the labelled tokens into blocks and keep the best sum of block values
  (small holdings only, <= 8 tokens);
* ``Brute``: a memoised search that removes, one at a time, a combination
  containing a token of the first present type, trying every real subset of
  the other types (no grouping, no table) -- used up to ~14 tokens.
The two oracles are checked against each other, then against trade_value_nb
under the rulebook tables, random non-convex tables, max_combo < n_types and
max_combo > n_types, through the lookup table and through the exact fallback
(tables built with a small table_max_total).
"""
import itertools
import random
from functools import lru_cache

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from cargo_sim.games.cargo_noir.trade_nb import (
    TradeTables, best_cards_for_budget, best_cards_for_budget_nb, best_split,
    build_trade_tables, default_trade_tables, lookup_trade_value_nb, plan_trade, plan_trade_nb,
    trade_value, trade_value_nb,
)

DEF_VS = [k * k for k in range(10)]
DEF_VD = [k * (k + 1) // 2 for k in range(10)]


# ---------------------------------------------------------------------------
# oracles
# ---------------------------------------------------------------------------
def block_value(block, vs, vd, n_types):
    """Value of one combination (list of type indices, None = Wild) or None."""
    M = len(vs) - 1
    k = len(block)
    if k == 0 or k > M:
        return None
    real = [b for b in block if b is not None]
    best = None
    if len(set(real)) <= 1:
        best = vs[k]
    if len(set(real)) == len(real) and k <= n_types:
        best = vd[k] if best is None else max(best, vd[k])
    return best


def partition_value(counts, wilds, vs, vd):
    """Best value over all set partitions of the labelled tokens."""
    n_types = len(counts)
    tokens = [t for t, c in enumerate(counts) for _ in range(c)] + [None] * wilds

    def rec(rest):
        if not rest:
            return 0
        first, others = rest[0], rest[1:]
        best = None
        for r in range(len(others) + 1):
            for idx in itertools.combinations(range(len(others)), r):
                block = [first] + [others[i] for i in idx]
                v = block_value(block, vs, vd, n_types)
                if v is None:
                    continue
                left = [others[i] for i in range(len(others)) if i not in idx]
                sub = rec(left)
                if sub is not None and (best is None or v + sub > best):
                    best = v + sub
        return best

    return rec(tokens)


class Brute:
    """Memoised exhaustive search over combinations (plain Python)."""

    def __init__(self, vs, vd, n_types):
        self.vs, self.vd, self.n = list(vs), list(vd), n_types
        self.M = len(vs) - 1
        self.Md = min(self.M, n_types)
        self.best = lru_cache(maxsize=None)(self._best)

    def __call__(self, counts, wilds):
        return self.best(tuple(sorted(counts, reverse=True)), wilds)

    def _best(self, c, w):
        vs, vd, M, Md = self.vs, self.vd, self.M, self.Md
        if sum(c) == 0:
            if w == 0:
                return 0
            res = -1
            for k in range(1, min(w, M) + 1):
                v = max(vs[k], vd[k] if k <= Md else -1)
                res = max(res, v + self.best(c, w - k))
            return res
        t = next(i for i, x in enumerate(c) if x > 0)
        res = -1
        for i in range(1, min(c[t], M) + 1):
            for j in range(0, min(w, M - i) + 1):
                c2 = list(c)
                c2[t] -= i
                res = max(res, vs[i + j] + self.best(tuple(sorted(c2, reverse=True)), w - j))
        others = [u for u in range(len(c)) if u != t and c[u] > 0]
        for r in range(0, min(len(others), Md - 1) + 1):
            for S in itertools.combinations(others, r):
                c2 = list(c)
                c2[t] -= 1
                for u in S:
                    c2[u] -= 1
                key = tuple(sorted(c2, reverse=True))
                for j in range(0, min(w, Md - 1 - r) + 1):
                    res = max(res, vd[1 + r + j] + self.best(key, w - j))
        return res


def random_table(rng, M):
    """Random non-negative non-decreasing table with t[0] = 0 (often non-convex)."""
    t = [0]
    for _ in range(M):
        t.append(t[-1] + rng.choice([0, 0, 1, 2, 3, 5, 8, 13]))
    return t


# table variants: (value_same, value_different, n_types)
_r = random.Random(1234)
VARIANTS = [
    (DEF_VS, DEF_VD, 9),
    (random_table(_r, 9), random_table(_r, 9), 9),
    (random_table(_r, 5), random_table(_r, 5), 9),     # max_combo < n_types
    (random_table(_r, 4), random_table(_r, 4), 7),
    (random_table(_r, 7), random_table(_r, 7), 4),     # max_combo > n_types
    ([0, 1, 1, 1, 10, 10, 10], [0, 0, 5, 5, 5, 20, 20], 6),  # strongly non-convex
]
BRUTES = [Brute(vs, vd, n) for vs, vd, n in VARIANTS]


@lru_cache(maxsize=None)
def tables_for(i, small):
    vs, vd, n = VARIANTS[i]
    return build_trade_tables(vs, vd, n, 5, table_max_total=6 if small else None)


def random_holding(rng, n, max_total, max_count=14):
    total = rng.randint(0, max_total)
    c = [0] * n
    if rng.random() < 0.2:  # concentrated on one type
        c[rng.randrange(n)] = min(total, max_count)
    else:
        for _ in range(total):
            t = rng.randrange(n)
            if c[t] < max_count:
                c[t] += 1
    return c, rng.randint(0, 5)


# ---------------------------------------------------------------------------
# oracles agree with each other and with the rulebook
# ---------------------------------------------------------------------------
def test_oracles_agree():
    rng = random.Random(7)
    for i, (vs, vd, n) in enumerate(VARIANTS):
        for _ in range(12):
            c, w = random_holding(rng, n, 6)
            w = min(w, 8 - sum(c))
            assert partition_value(c, w, vs, vd) == BRUTES[i](c, w), (i, c, w)


def test_rulebook_examples():
    # 4 jewels + 1 Wild = 25, 3 cars = 9, 1 weapon = 1
    assert trade_value([4, 3, 1, 0, 0, 0, 0, 0, 0], 1) == 35
    assert trade_value([1] * 9) == 45
    assert trade_value([9, 0, 0, 0, 0, 0, 0, 0, 0]) == 81
    assert trade_value([14, 0, 0, 0, 0, 0, 0, 0, 0]) == 81 + 25
    assert trade_value([0] * 9) == 0
    assert trade_value([0] * 9, 5) == 25
    assert trade_value([0] * 9, 1) == 1
    split = best_split([4, 3, 1, 0, 0, 0, 0, 0, 0], 1)
    assert sum(v for *_, v in split) == 35
    assert sorted(v for *_, v in split) == [1, 9, 25]


def test_final_turn_budget():
    # 9 different types (45) + 4 coins -> budget 49
    hand = [1] * 9
    u, sell, buy = plan_trade(hand, 0, [49, 50], [3.0, 10.0], [1, 1], budget_extra=4)
    assert u == 3.0 and buy.tolist() == [1, 0] and sell.tolist() == [1] * 9 + [0]
    u, _, buy = plan_trade(hand, 0, [50], [10.0], [1], budget_extra=4)
    assert u == 0.0 and buy.tolist() == [0]
    u, _, buy = plan_trade(hand, 0, [50], [10.0], [1], budget_extra=5)
    assert u == 10.0 and buy.tolist() == [1]


# ---------------------------------------------------------------------------
# trade value against the oracles
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("i", range(len(VARIANTS)))
@pytest.mark.parametrize("small", [False, True])
def test_trade_value_random(i, small):
    vs, vd, n = VARIANTS[i]
    tb = tables_for(i, small)
    rng = random.Random(100 + i)
    for _ in range(60):
        c, w = random_holding(rng, n, 14)
        got = trade_value_nb(np.array(c, np.int64), w, tb)
        assert got == BRUTES[i](c, w), (VARIANTS[i], c, w)


def holdings(n, max_total):
    """Counts of n types with at most max_total tokens (up to 14 in one type)."""
    spread = st.lists(st.integers(0, n - 1), max_size=max_total).map(
        lambda ts: [ts.count(t) for t in range(n)])
    heavy = st.tuples(st.integers(0, n - 1), st.integers(0, min(14, max_total)),
                      st.lists(st.integers(0, n - 1), max_size=3)).map(
        lambda a: [(a[1] if t == a[0] else 0) + a[2].count(t) for t in range(n)]).filter(
        lambda c: sum(c) <= max_total)
    return st.one_of(spread, heavy)


@settings(max_examples=150, deadline=None)
@given(holdings(9, 14), st.integers(0, 5), st.booleans())
def test_trade_value_hypothesis_default(c, w, small):
    tb = tables_for(0, small)
    assert trade_value(c, w, tb) == BRUTES[0](c, w)


@settings(max_examples=80, deadline=None)
@given(st.integers(1, len(VARIANTS) - 1), st.data())
def test_trade_value_hypothesis_variants(i, data):
    n = VARIANTS[i][2]
    c = data.draw(holdings(n, 12))
    w = data.draw(st.integers(0, 5))
    small = data.draw(st.booleans())
    assert trade_value(c, w, tables_for(i, small)) == BRUTES[i](c, w)


def test_lookup_trade_value_nb():
    tb = tables_for(0, True)  # table_max_total = 6
    rng = random.Random(8)
    for _ in range(200):
        c, w = random_holding(rng, 9, 10)
        arr = np.array(c, np.int64)
        got = lookup_trade_value_nb(arr, w, tb)
        if sum(c) <= tb.table_max_total:
            assert got == trade_value_nb(arr, w, tb) == BRUTES[0](c, w)
        else:
            assert got == -2
    assert lookup_trade_value_nb(np.array([-1] + [0] * 8, np.int64), 0, tb) == -1
    assert lookup_trade_value_nb(np.zeros(9, np.int64), 6, tb) == -1
    assert lookup_trade_value_nb(np.zeros(3, np.int64), 0, tb) == -1


def test_large_holdings_table_vs_fallback():
    """40-token holdings: the fallback (small table) agrees with the big table."""
    rng = random.Random(3)
    big = default_trade_tables()
    small = tables_for(0, True)
    for _ in range(4):
        c, _w = random_holding(rng, 9, 0)
        c = [0] * 9
        for _ in range(rng.randint(25, 32)):
            c[rng.randrange(9)] += 1
        w = rng.randint(0, 5)
        assert trade_value(c, w, big) == trade_value(c, w, small)
    # beyond the default table
    c = [5, 5, 5, 5, 5, 4, 4, 4, 3]
    v = trade_value(c, 3)
    assert v >= trade_value([5, 5, 5, 5, 5, 4, 4, 4, 0], 3) + 1


def test_best_split_is_valid():
    rng = random.Random(11)
    for i in (0, 2, 4, 5):
        vs, vd, n = VARIANTS[i]
        tb = tables_for(i, False)
        for _ in range(15):
            c, w = random_holding(rng, n, 12)
            split = best_split(c, w, tb)
            used = [0] * n
            wused = 0
            for kind, types, wj, v in split:
                k = sum(types.values()) + wj
                if kind == "same":
                    assert len(types) <= 1 and v == vs[k]
                else:
                    assert all(x == 1 for x in types.values()) and k <= n and v == vd[k]
                for t, x in types.items():
                    used[t] += x
                wused += wj
            assert used == c and wused == w
            assert sum(v for *_, v in split) == BRUTES[i](c, w)


def test_input_errors():
    with pytest.raises(ValueError, match="one entry per cargo type"):
        trade_value([1, 2, 3])
    with pytest.raises(ValueError, match="non-negative"):
        trade_value([1, -1, 0, 0, 0, 0, 0, 0, 0])
    with pytest.raises(ValueError, match="integers"):
        trade_value([1.5, 0, 0, 0, 0, 0, 0, 0, 0])
    with pytest.raises(ValueError, match="integers"):
        trade_value(["a", 0, 0, 0, 0, 0, 0, 0, 0])
    with pytest.raises(ValueError, match="wilds"):
        trade_value([0] * 9, 6)
    with pytest.raises(ValueError, match="wilds"):
        trade_value([0] * 9, 1.0)
    with pytest.raises(ValueError, match="more than"):
        trade_value([14] * 9)
    with pytest.raises(ValueError, match="one-dimensional"):
        trade_value(np.zeros((3, 3), np.int64))
    with pytest.raises(ValueError):
        trade_value(5)
    with pytest.raises(ValueError, match="non-decreasing"):
        build_trade_tables([0, 2, 1], [0, 1, 2], 9, 5)
    with pytest.raises(ValueError, match=r"\[0\] must be 0"):
        build_trade_tables([1, 2, 3], [0, 1, 2], 9, 5)
    with pytest.raises(ValueError, match="same length"):
        build_trade_tables([0, 1, 4], [0, 1], 9, 5)
    assert trade_value_nb(np.array([-1] + [0] * 8, np.int64), 0, default_trade_tables()) == -1


@pytest.mark.parametrize("scale", [1, 1000])
def test_packed_lookup_matches_trade_value(scale):
    """The engine's lookup in the packed tables (compact slots when the values
    fit in 63 bits: default tables; the full slots otherwise: values x1000)."""
    from cargo_sim.games.cargo_noir.trade_nb import (T_FAST, compact_slots, pack_trade_tables,
                                               packed_trade_value_nb)
    from cargo_sim.core.layout import HEADER_LEN
    from cargo_sim.core.shared_nb import attach
    tb = build_trade_tables([v * scale for v in DEF_VS], [v * scale for v in DEF_VD], 9, 5)
    packed = pack_trade_tables(tb)
    assert (packed[T_FAST] > 0) == (scale == 1) == (compact_slots(tb.slots)[0] is not None)
    # a state pointing at the tables as its shared array: the counts after the
    # core header, then the solver's word (0: not loaded)
    s = attach(np.zeros(HEADER_LEN + 10, np.int64), packed)
    rng = random.Random(scale)
    for _ in range(3000):
        total = rng.randint(0, 32)
        counts = [0] * 9
        for _ in range(total):
            counts[rng.randrange(9)] += 1
        wilds = rng.randint(0, 5)
        s[HEADER_LEN:HEADER_LEN + 9] = counts
        got = packed_trade_value_nb(s, 0, HEADER_LEN, wilds, HEADER_LEN + 9)
        assert got == trade_value_nb(np.array(counts, np.int64), wilds, tb), (counts, wilds)


def test_tables_shape_and_memo():
    tb = default_trade_tables()
    assert isinstance(tb, TradeTables)
    assert tb is default_trade_tables()
    assert tb.values.shape == (tb.keys.shape[0], tb.max_wilds + 1)
    assert np.all(np.diff(tb.keys) > 0)
    assert (tb.n_types, tb.max_combo, tb.max_different, tb.max_wilds) == (9, 9, 9, 5)


def test_shipped_tables_are_a_fresh_build(tmp_path):
    """The package ships the rulebook's tables (no builder compile on a fresh
    install): they must equal a fresh build, and be used only for exactly
    their parameters."""
    from cargo_sim.games.cargo_noir.trade.tables import load_shipped_tables, write_shipped_tables
    shipped = default_trade_tables()
    built = default_trade_tables(compute=True)
    assert shipped is not built
    for name, a, b in zip(TradeTables._fields, shipped, built):
        same = np.array_equal(a, b) if isinstance(a, np.ndarray) else a == b
        assert same, f"shipped trade tables differ in {name}: run trade_nb.write_shipped_tables()"
    key = (tuple(DEF_VS), tuple(DEF_VD), 9, 5, 32)
    assert load_shipped_tables(*key) is not None
    assert load_shipped_tables(tuple(DEF_VS), tuple(DEF_VD), 9, 4, 32) is None      # other Wilds
    assert load_shipped_tables(tuple(DEF_VS), tuple(DEF_VD), 9, 5, 20) is None      # smaller table
    assert load_shipped_tables(tuple(DEF_VS), tuple(DEF_VD[:-1] + [46]), 9, 5, 32) is None
    assert load_shipped_tables(*key, path=tmp_path / "missing.npz") is None
    (tmp_path / "bad.npz").write_bytes(b"not a zip file")
    assert load_shipped_tables(*key, path=tmp_path / "bad.npz") is None
    write_shipped_tables(tmp_path / "again.npz")
    again = load_shipped_tables(*key, path=tmp_path / "again.npz")
    assert all(np.array_equal(a, b) if isinstance(a, np.ndarray) else a == b
               for a, b in zip(again, built))
    variant = build_trade_tables(DEF_VS, DEF_VD[:-1] + [46], 9, 5)      # built, not shipped
    assert not np.array_equal(variant.values, shipped.values)


# ---------------------------------------------------------------------------
# cards and planner
# ---------------------------------------------------------------------------
def brute_cards(budget, cost, util, avail):
    """Max utility, then max cost; cards worth <= 0 are never bought."""
    avail = [a if u > 0 else 0 for a, u in zip(avail, util)]
    best = (0.0, 0)
    for ks in itertools.product(*[range(a + 1) for a in avail]):
        c = sum(k * x for k, x in zip(ks, cost))
        if c <= budget:
            u = sum(k * x for k, x in zip(ks, util))
            if u > best[0] + 1e-9 or (abs(u - best[0]) <= 1e-9 and c > best[1]):
                best = (u, c)
    return best


def test_best_cards_for_budget():
    rng = random.Random(5)
    for _ in range(40):
        C = rng.randint(1, 4)
        cost = [rng.randint(0, 12) for _ in range(C)]
        util = [float(rng.randint(0, 6)) for _ in range(C)]
        avail = [rng.randint(0, 3) for _ in range(C)]
        budget = rng.randint(0, 30)
        u, buy = best_cards_for_budget(budget, cost, util, avail)
        bu, bc = brute_cards(budget, cost, util, avail)
        assert u == pytest.approx(bu)
        assert all(0 <= b <= a for b, a in zip(buy, avail))
        spent = sum(b * c for b, c in zip(buy, cost))
        assert spent <= budget
        assert sum(b * x for b, x in zip(buy, util)) == pytest.approx(u)
        if bu > 0:
            assert spent == bc
    out = np.zeros(2, np.int64)
    assert best_cards_for_budget_nb(10, np.array([4, 6]), np.array([1.0, 1.5]),
                                    np.array([2, 1]), out) == 2.5
    assert out.tolist() == [1, 1]


def brute_plan(hand, wilds, cost, util, avail, extra, tb):
    """Best (utility, -loss, kept value) over all sub-multisets and card sets."""
    avail = [a if u > 0 else 0 for a, u in zip(avail, util)]
    best = None
    for sold in itertools.product(*[range(h + 1) for h in hand]):
        for sw in range(wilds + 1):
            tv = trade_value(list(sold), sw, tb)
            kept = trade_value([h - s for h, s in zip(hand, sold)], wilds - sw, tb)
            for ks in itertools.product(*[range(a + 1) for a in avail]):
                c = sum(k * x for k, x in zip(ks, cost))
                if c > tv + extra:
                    continue
                u = sum(k * x for k, x in zip(ks, util))
                if u <= 1e-9:
                    continue
                key = (round(u, 9), -max(0, tv - c), kept)
                if best is None or key > best:
                    best = key
    return best


def check_plan(hand, wilds, cost, util, avail, extra, tb):
    n = len(hand)
    u, sell, buy = plan_trade(hand, wilds, cost, util, avail, extra, tb)
    expect = brute_plan(hand, wilds, cost, util, avail, extra, tb)
    if expect is None:
        assert u == 0.0 and not sell.any() and not buy.any()
        return
    assert all(0 <= s <= h for s, h in zip(sell[:n], hand)) and 0 <= sell[n] <= wilds
    assert all(0 <= b <= a for b, a in zip(buy, avail))
    tv = trade_value(sell[:n].tolist(), int(sell[n]), tb)
    spent = int(sum(b * c for b, c in zip(buy, cost)))
    assert spent <= tv + extra
    got_u = float(sum(b * x for b, x in zip(buy, util)))
    assert got_u == pytest.approx(u)
    kept = trade_value([h - s for h, s in zip(hand, sell[:n])], wilds - int(sell[n]), tb)
    assert (round(u, 9), -max(0, tv - spent), kept) == expect


def test_plan_examples():
    tb = default_trade_tables()
    hand = [4, 3, 1, 0, 0, 0, 0, 0, 0]
    # card costing 25 worth 2, card costing 9 worth 1: sell 4 jewels + wild (25) and 3 cars (9)
    u, sell, buy = plan_trade(hand, 1, [25, 9], [2.0, 1.0], [1, 1], 0, tb)
    assert u == 3.0 and buy.tolist() == [1, 1]
    assert sell.tolist() == [4, 3, 0, 0, 0, 0, 0, 0, 0, 1]
    # only the 9-cost card: sell exactly the 3 cars (no loss), keep the rest
    u, sell, buy = plan_trade(hand, 1, [9], [1.0], [1], 0, tb)
    assert u == 1.0 and buy.tolist() == [1]
    assert trade_value(sell[:9].tolist(), int(sell[9])) == 9
    # availability respected: two copies wanted, only one allowed
    u, sell, buy = plan_trade(hand, 1, [9], [1.0], [1], 0, tb)
    assert buy.tolist() == [1]
    u, sell, buy = plan_trade(hand, 1, [9], [1.0], [3], 0, tb)
    assert buy.tolist() == [3] and u == 3.0
    # tie on utility and loss: sell the token whose loss hurts the kept holding least
    # (sell the car: keeps 2 jewels = 4; selling a jewel would keep 3)
    u, sell, buy = plan_trade([2, 1, 0, 0, 0, 0, 0, 0, 0], 0, [1], [1.0], [1], 0, tb)
    assert u == 1.0 and sell.tolist() == [0, 1, 0, 0, 0, 0, 0, 0, 0, 0]
    # final turn: coins alone can pay, no token needs selling
    u, sell, buy = plan_trade([2, 1, 0, 0, 0, 0, 0, 0, 0], 0, [3], [1.0], [1], 3, tb)
    assert u == 1.0 and not sell.any() and buy.tolist() == [1]
    # nothing affordable
    u, sell, buy = plan_trade([1, 0, 0, 0, 0, 0, 0, 0, 0], 0, [5], [1.0], [1], 0, tb)
    assert u == 0.0 and not sell.any() and not buy.any()
    # nothing wanted
    u, sell, buy = plan_trade(hand, 1, [1], [0.0], [1], 0, tb)
    assert u == 0.0 and not sell.any() and not buy.any()


def test_plan_random_vs_brute():
    rng = random.Random(21)
    for trial in range(25):
        i = 0 if trial < 15 else rng.choice([2, 5])
        vs, vd, n = VARIANTS[i]
        tb = tables_for(i, False)
        hand = [0] * n
        for _ in range(rng.randint(0, 7)):
            hand[rng.randrange(n)] += 1
        wilds = rng.randint(0, 2)
        C = rng.randint(1, 3)
        cost = [rng.randint(1, 30) for _ in range(C)]
        util = [float(rng.randint(0, 5)) for _ in range(C)]
        avail = [rng.randint(0, 2) for _ in range(C)]
        extra = rng.choice([0, 0, 3])
        check_plan(hand, wilds, cost, util, avail, extra, tb)


def test_plan_nb_outputs_and_big_hand():
    tb = default_trade_tables()
    hand = np.array([3, 3, 2, 2, 2, 2, 1, 1, 1], np.int64)  # 17 tokens: restricted search
    out_sell = np.zeros(10, np.int64)
    out_buy = np.zeros(3, np.int64)
    cost = np.array([10, 20, 35], np.int64)
    util = np.array([1.0, 2.0, 3.0])
    avail = np.array([2, 2, 1], np.int64)
    u = plan_trade_nb(hand, 2, tb, cost, util, avail, 0, out_sell, out_buy)
    assert u > 0
    tv = trade_value_nb(out_sell[:9].copy(), out_sell[9], tb)
    assert (out_buy * cost).sum() <= tv
    assert np.all(out_sell[:9] <= hand) and out_sell[9] <= 2
    assert (out_buy * util).sum() == pytest.approx(u)
    # with the whole hand as budget the best set is bounded by the knapsack optimum
    full = trade_value_nb(hand, 2, tb)
    ub, _ = best_cards_for_budget(int(full), cost, util, avail)
    assert u <= ub + 1e-9


def test_threads_agree_with_serial():
    """Kernels are nogil and share only read-only tables: parallel threads
    (including the allocating fallback path) give the serial answers."""
    from concurrent.futures import ThreadPoolExecutor
    tb = tables_for(0, True)  # small table: many holdings take the fallback
    rng = np.random.default_rng(9)
    hands = [np.bincount(rng.integers(0, 9, rng.integers(0, 16)), minlength=9).astype(np.int64)
             for _ in range(300)]
    wl = [int(x) for x in rng.integers(0, 6, 300)]
    serial = [trade_value_nb(h, w, tb) for h, w in zip(hands, wl)]

    def work(k):
        return [trade_value_nb(h, w, tb) for h, w in zip(hands[k::4], wl[k::4])]

    with ThreadPoolExecutor(4) as ex:
        parts = list(ex.map(work, range(4)))
    for k in range(4):
        assert parts[k] == serial[k::4]


def _random_plan_case(rng, n, max_tokens, max_wilds=2):
    hand = np.zeros(n, np.int64)
    k = rng.randint(0, max_tokens)
    if rng.random() < 0.3:  # concentrated on a few types
        types = [rng.randrange(n) for _ in range(rng.randint(1, 3))]
    else:
        types = list(range(n))
    for _ in range(k):
        hand[rng.choice(types)] += 1
    wilds = rng.randint(0, max_wilds)
    C = rng.randint(1, 13)
    style = rng.random()
    cost = np.array([rng.choice([10, 10, 12, 15, 20, 25, 30, 35, 40, 45, 50, 60])
                     if style < 0.5 else rng.randint(0, 25) for _ in range(C)], np.int64)
    if style < 0.35:    # utilities = cost-like VP: many exact ties
        util = np.array([float(c) for c in cost])
    elif style < 0.7:   # VP plus small fractional bonuses
        util = np.array([c / 5 + rng.choice([0.0, 0.25, 0.5, 1 / 3]) for c in cost])
    else:               # small integers, zero and negative utilities included
        util = np.array([float(rng.randint(-1, 6)) for _ in range(C)])
    avail = np.array([rng.randint(0, 8) for _ in range(C)], np.int64)
    extra = 0 if rng.random() < 0.6 else rng.randint(1, 30)
    return hand, wilds, cost, util, avail, extra


_PACKED = {}
_WORK = np.full(1 << 14, -7, np.int64)      # stale contents: the planner must not rely on zeros


def _plans_agree(hand, wilds, tb, cost, util, avail, extra):
    """The reference, plan_trade_nb and the packed tables' planner (the one
    the bots call) give the same answer."""
    from cargo_sim.games.cargo_noir.trade_nb import (plan_trade_reference_nb, pack_trade_tables,
                                               packed_plan_trade_nb)
    n = hand.shape[0]
    s1, b1 = np.zeros(n + 1, np.int64), np.zeros(len(cost), np.int64)
    s2, b2 = np.full(n + 1, 7, np.int64), np.full(len(cost), 7, np.int64)
    s3, b3 = np.full(n + 1, 7, np.int64), np.full(len(cost), 7, np.int64)
    u1 = plan_trade_reference_nb(hand, wilds, tb, cost, util, avail, extra, s1, b1)
    u2 = plan_trade_nb(hand, wilds, tb, cost, util, avail, extra, s2, b2)
    if id(tb) not in _PACKED:        # packing once per table (setdefault would pack every call)
        _PACKED[id(tb)] = (tb, np.concatenate([np.zeros(5, np.int64), pack_trade_tables(tb)]))
    packed = _PACKED[id(tb)][1]
    u3 = packed_plan_trade_nb(packed, 5, hand, wilds, cost, util, avail, extra, s3, b3,
                              _WORK)        # buffers in a workspace
    s4, b4 = np.full(n + 1, 7, np.int64), np.full(len(cost), 7, np.int64)
    u4 = packed_plan_trade_nb(packed, 5, hand, wilds, cost, util, avail, extra, s4, b4,
                              _WORK[:10])   # too short: allocated
    case = (hand.tolist(), wilds, cost.tolist(), util.tolist(), avail.tolist(), extra)
    assert u1 == u2 == u3 == u4, case
    assert s1.tolist() == s2.tolist() == s3.tolist() == s4.tolist(), case
    assert b1.tolist() == b2.tolist() == b3.tolist() == b4.tolist(), case


def test_plan_matches_reference_planner():
    """The branch-and-bound planner returns exactly the reference's answers
    (same utility, sold tokens and cards, every tie-break) on random hands,
    card sets and budgets, under several value tables."""
    rng = random.Random(2024)
    tb0 = default_trade_tables()
    for _ in range(2500):
        hand, wilds, cost, util, avail, extra = _random_plan_case(rng, 9, 14)
        _plans_agree(hand, wilds, tb0, cost, util, avail, extra)
    for i in range(1, len(VARIANTS)):
        tb = tables_for(i, False)
        n = VARIANTS[i][2]
        for _ in range(300):
            hand, wilds, cost, util, avail, extra = _random_plan_case(rng, n, 12)
            _plans_agree(hand, wilds, tb, cost, util, avail, extra)


def test_plan_matches_reference_edge_cases():
    rng = random.Random(77)
    tb = default_trade_tables()
    # hands with more than PLAN_EXACT_LIMIT sub-multisets (restricted search)
    for _ in range(40):
        hand, wilds, cost, util, avail, extra = _random_plan_case(rng, 9, 0)
        hand = np.array([rng.randint(1, 4) for _ in range(9)], np.int64)
        _plans_agree(hand, rng.randint(0, 5), tb, cost, util, avail, extra)
    # hands beyond the lookup table (reference fallback)
    small = tables_for(0, True)
    for _ in range(40):
        hand, wilds, cost, util, avail, extra = _random_plan_case(rng, 9, 10)
        _plans_agree(hand, wilds, small, cost, util, avail, extra)
    # utilities closer than the tolerance (reference fallback) and exact ties
    hand = np.array([3, 2, 1, 0, 0, 0, 0, 0, 0], np.int64)
    for util in ([0.1, 0.2, 0.3], [0.3, 0.1 + 0.2, 0.3], [1.0, 1.0, 2.0]):
        _plans_agree(hand, 1, tb, np.array([2, 3, 5], np.int64), np.array(util),
                     np.array([2, 2, 2], np.int64), 0)
    # empty hand, Wilds only, nothing affordable, all-zero utilities
    for hand, w in (([0] * 9, 0), ([0] * 9, 3), ([1] + [0] * 8, 0)):
        for extra in (0, 12):
            _plans_agree(np.array(hand, np.int64), w, tb, np.array([10, 5], np.int64),
                         np.array([2.0, 0.0]), np.array([1, 3], np.int64), extra)
    # invalid: more Wilds than the tables know, a negative count
    for hand, w in (([1] * 9, tb.max_wilds + 1), ([-1] + [1] * 8, 0)):
        _plans_agree(np.array(hand, np.int64), w, tb, np.array([10, 5], np.int64),
                     np.array([2.0, 1.0]), np.array([1, 3], np.int64), 0)
