"""Cargo Noir's trade values and trade planner: the names of the ``trade`` subpackage.

The code lives in ``cargo_sim.games.cargo_noir.trade`` (one module per part: value
recursion, table builder and shipped tables, lookup, card knapsack, planner, packed
layout); the algorithms are explained in docs/trade_algorithms.md. This module keeps
the old import path working.
"""
from .trade.api import best_cards_for_budget, best_split, plan_trade, trade_value  # noqa: F401
from .trade.consts import (DEFAULT_TABLE_MAX_TOTAL, MAX_TOTAL_TOKENS,  # noqa: F401
                           PLAN_EXACT_LIMIT, TradeTables)
from .trade.knapsack_nb import best_cards_for_budget_nb, cost_unit_nb  # noqa: F401
from .trade.lookup_nb import lookup_trade_value_nb, trade_value_nb  # noqa: F401
from .trade.packed_nb import (T_BITS, T_EXACT_FN, T_FAST, T_FAST_BITS, T_HEADER,  # noqa: F401
                              T_KEYS, T_M1, T_MAX_COMBO, T_MAX_DIFF, T_MAX_TOTAL, T_MAX_WILDS,
                              T_N_KEYS, T_N_SLOTS, T_N_TYPES, T_POW, T_POW_LEN, T_SLOT_W,
                              T_SLOTS, T_VALUES, T_VALUES_W, T_VD, T_VS, T_WILD_ONLY,
                              compact_slots, exact_value_fn, pack_trade_tables,
                              packed_plan_trade_nb, packed_probe_nb, packed_trade_value_nb,
                              probe_consts_nb, probe_with_nb, unpack_trade_tables_nb)
from .trade.planner_nb import (PLAN_NEEDS_REFERENCE, plan_trade_nb,  # noqa: F401
                               plan_trade_table_nb)
from .trade.reference_nb import plan_trade_reference_nb  # noqa: F401
from .trade.tables import (SHIPPED_TABLES, build_trade_tables,  # noqa: F401
                           default_trade_tables, load_shipped_tables, write_shipped_tables)

# the names these had when they were private to this module (older tests import them)
_cost_unit_nb = cost_unit_nb
_plan_trade_reference_nb = plan_trade_reference_nb
_load_shipped_tables = load_shipped_tables

__all__ = [
    "TradeTables", "build_trade_tables", "default_trade_tables",
    "trade_value_nb", "lookup_trade_value_nb", "plan_trade_nb", "best_cards_for_budget_nb",
    "trade_value", "best_split", "plan_trade", "best_cards_for_budget",
    "DEFAULT_TABLE_MAX_TOTAL", "PLAN_EXACT_LIMIT", "MAX_TOTAL_TOKENS",
]
