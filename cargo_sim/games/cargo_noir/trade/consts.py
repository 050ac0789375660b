"""The trade-value tables' type and the constants every trade module shares."""
from __future__ import annotations

import collections

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
EPS = 1e-9
NEG = -1e300
