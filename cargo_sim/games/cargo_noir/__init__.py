"""Cargo Noir: everything specific to this game (rules data, engine, bots, API).

Another game would be a sibling subpackage with the same layout.
"""
from .bots.registry import bot_names
from .rules import Rules
from .simulate import SimResults, play_one, simulate
from .trade.api import best_split, plan_trade, trade_value

__all__ = ["Rules", "simulate", "play_one", "SimResults", "trade_value", "best_split",
           "plan_trade", "bot_names"]
