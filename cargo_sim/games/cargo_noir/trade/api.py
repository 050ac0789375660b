"""Python entry points with input checks: trade_value, best_split, plan_trade,
best_cards_for_budget."""
from __future__ import annotations

import itertools
import numbers

import numpy as np

from .consts import MAX_TOTAL_TOKENS
from .knapsack_nb import best_cards_for_budget_nb
from .lookup_nb import trade_value_nb
from .planner_nb import plan_trade_nb
from .tables import default_trade_tables, int_list

def _check_holding(counts, wilds, tables):
    if tables is None:
        tables = default_trade_tables()
    n = tables.n_types
    if isinstance(counts, np.ndarray) and counts.ndim != 1:
        raise ValueError(f"counts must be one-dimensional, got shape {counts.shape}")
    c = int_list(counts, "counts")
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
    cost = np.asarray(int_list(card_cost, "card_cost"), np.int64)
    util = np.asarray(card_utility, np.float64).reshape(-1)
    avail = np.asarray(int_list(card_available, "card_available"), np.int64)
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
