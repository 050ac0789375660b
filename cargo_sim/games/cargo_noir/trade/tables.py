"""Building the trade-value tables of a rule variant, and the rulebook's tables
shipped with the package (docs/trade_algorithms.md)."""
from __future__ import annotations

import functools
import numbers
from pathlib import Path

import numpy as np

from .consts import DEFAULT_TABLE_MAX_TOTAL, TradeTables
from .recursion_nb import build_values_nb, make_slots_nb, wild_only_nb

def int_list(values, name):
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
SHIPPED_TABLES = Path(__file__).parent.parent / "trade_tables_default.npz"
_SHIPPED_FORMAT = 1


def _table_params(vs, vd, n_types, max_wilds, table_max_total):
    return np.array([_SHIPPED_FORMAT, n_types, max_wilds, table_max_total, len(vs), *vs, *vd],
                    np.int64)


def load_shipped_tables(vs, vd, n_types, max_wilds, table_max_total, path=SHIPPED_TABLES):
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
    shipped = load_shipped_tables(vs, vd, n_types, max_wilds, table_max_total)
    if shipped is not None:
        return shipped
    return _compute_tables(vs, vd, n_types, max_wilds, table_max_total)


def _compute_tables(vs, vd, n_types, max_wilds, table_max_total):
    M = len(vs) - 1
    Md = min(M, n_types)
    count_bits = min(6, 62 // n_types)
    vs_a = np.array(vs, np.int64)
    vd_a = np.array(vd, np.int64)
    wild_only = wild_only_nb(vs_a, vd_a, M, Md, max_wilds)
    states, keys, values = build_values_nb(vs_a, vd_a, n_types, M, Md, max_wilds,
                                            table_max_total, count_bits, wild_only, -1)
    size = 1 << max(4, int(2 * len(keys) - 1).bit_length())  # load factor <= 1/2
    for seed in range(100):
        rng = np.random.default_rng(0x5EED + seed)
        hash_pow = rng.integers(np.iinfo(np.int64).min, np.iinfo(np.int64).max,
                                size=1 << count_bits, dtype=np.int64, endpoint=True)
        hash_pow[0] = 0
        slots, ok = make_slots_nb(states, values, hash_pow, n_types, size)
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
    vs = int_list(value_same, "value_same")
    vd = int_list(value_different, "value_different")
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
