"""Cargo Noir: everything specific to this game (rules data, engine, bots, API).

Another game would be a sibling subpackage with the same layout. The public names
load on first use, so reading the rules or the bot list imports no kernel.
"""
from ...core.lazy import lazy_names

_LAZY = {"Rules": ".rules", "simulate": ".simulate", "play_one": ".simulate",
         "SimResults": ".simulate", "trade_value": ".trade.api", "best_split": ".trade.api",
         "plan_trade": ".trade.api", "bot_names": ".bots.registry"}

__all__ = ["Rules", "simulate", "play_one", "SimResults", "trade_value", "best_split",
           "plan_trade", "bot_names"]


__getattr__, __dir__ = lazy_names(__name__, {k: (m, k) for k, m in _LAZY.items()})
