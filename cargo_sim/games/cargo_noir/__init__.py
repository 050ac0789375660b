"""Cargo Noir: everything specific to this game (rules data, engine, bots, API).

Another game would be a sibling subpackage with the same layout. The public names
load on first use, so reading the rules or the bot list imports no kernel.
"""
import importlib

_LAZY = {"Rules": ".rules", "simulate": ".simulate", "play_one": ".simulate",
         "SimResults": ".simulate", "trade_value": ".trade.api", "best_split": ".trade.api",
         "plan_trade": ".trade.api", "bot_names": ".bots.registry"}

__all__ = ["Rules", "simulate", "play_one", "SimResults", "trade_value", "best_split",
           "plan_trade", "bot_names"]


def __getattr__(name):
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(_LAZY[name], __name__), name)
    globals()[name] = value
    return value
