"""Cargo Noir's counters: the core's ``Counters`` (core/counters.py: sections,
merge, save, load) with Cargo Noir's layout (``aggregate_nb.SECTIONS``), rules and
its own load checks. ``Aggregates`` (cargo_noir.aggregates) adds the per-topic
tables (agg.outcomes, agg.bidding, agg.casino, agg.trading) to this class.
"""
from __future__ import annotations

import numpy as np

from ....core.counters import (FORMAT, LOAD_LIMIT, Counters as CoreCounters, Layout,  # noqa: F401
                               distribution, hist_quantiles, join_parts)
from .. import aggregate_nb as K
from ..rules import Rules

LAYOUT = Layout("cargo_noir.aggregates/1", K.SECTIONS)
assert LAYOUT.id == K.LAYOUT_ID and LAYOUT.size == K.ACC_SIZE


class Counters(CoreCounters):
    """Counters of a run (layout ``aggregate_nb.SECTIONS``), its configuration and rules."""
    LAYOUT = LAYOUT
    RULES = Rules
    COUNT_SECTIONS = ("games", "ties", "wins", "tied_wins")
    WIN_SHARE_SCALE = K.WIN_SHARE_SCALE    # win60 counts a win shared by k as WIN_SHARE_SCALE / k

    @classmethod
    def config_problem(cls, cfg: dict, counts: np.ndarray) -> str | None:
        bad = super().config_problem(cfg, counts)
        if bad is None and int(counts[K.O_TIES]) > int(counts[K.O_GAMES]):
            return f"{int(counts[K.O_TIES])} ties in {int(counts[K.O_GAMES])} games"
        return bad

    @property
    def ports(self) -> list[str]:
        return self.rules.open_ports(self.n_players)

    @property
    def cards(self) -> list[str]:
        return self.rules.card_names
