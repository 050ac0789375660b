"""What Cargo Noir's pipelines read of its event log and rules: the actions of a ship
sent or bid, the event order, the cargo columns, the cards and ports by rule."""
from __future__ import annotations

import numpy as np
import pandas as pd

SEND_ACTIONS = ("send casino", "send black market", "send port")
PORT_ACTIONS = ("send port", "raise", "abandon", "port win")


def event_order(events: pd.DataFrame) -> pd.DataFrame:
    """Events with an explicit ``order`` column (their position in the log:
    chronological within a game)."""
    if "order" in events.columns:
        return events
    out = events.copy(deep=False)
    out["order"] = np.arange(len(events), dtype=np.int64)
    return out


def token_columns(rules, events: pd.DataFrame | None = None) -> list[str]:
    """The cargo columns of the event table: the rules' cargo types then 'wild'."""
    if rules is not None:
        return list(rules.cargo_types) + ["wild"]
    skip = {"run", "game", "turn", "bot", "seat", "phase", "action", "loc", "coins", "amount",
            "value", "card", "count", "n_players", "run_game", "order"}
    return [c for c in events.columns if c not in skip]


def edge_cards(rules) -> list[str]:
    """Names of the Smuggler's Edge cards (kind 'edge')."""
    return [c for c in rules.card_names if rules[f"card.{c}.kind"] == "edge"]


def card_cost(rules) -> dict:
    return {c: rules[f"card.{c}.cost"] for c in rules.card_names}


def port_slots(rules) -> dict:
    return {p: rules[f"port.{p}.slots"] for p in rules.port_names}
