"""Cargo Noir as the core sees it: the game contract's object (core.contract.Game).

Registered as ``cargo_noir`` on import; ``cargo_sim.core.contract.get_game("cargo_noir")``
loads it. Every member points at the one place that already holds it.

Importing this module is light (the rules, the bot registry and the constants):
the commands that only print (``cargo-sim bots``, ``rules``) load the game without
numba, pandas or scipy. The engine, the results and the counters load on first use
(the members below that name them are properties, or import inside the method).
"""
from __future__ import annotations

import numpy as np

from ...core.contract import Fields, register_game
from ...core.lazy import lazy_member
from .bots.registry import REGISTRY
from .enums import EVENT_FIELDS, GAME_FIELDS, PLAYER_FIELDS
from .rules import Rules

NAME = "cargo_noir"          # this game's key in the game registry


class CargoNoir:
    name = NAME
    title = "Cargo Noir"
    Rules = Rules
    rules_type_name = "cargo_sim.Rules"
    bots = REGISTRY
    event_fields = tuple(EVENT_FIELDS)
    analyses = ("analyses.balance", "analyses.bidding", "analyses.casino", "analyses.trade",
                "analyses.aggregates")
    report_sections = ("analyses.report.SECTIONS",)
    sweep_measures = {
        "win_price": ("mean winning price (coins per port won)", "t"),
        "casino_share": ("share of ship placements at the Casino", "t"),
    }

    class replay:
        """``cargo-sim play --html``: the game as a self-contained HTML page."""
        @staticmethod
        def check(path) -> None:
            from .replay import check_page_path
            check_page_path(path)

        @staticmethod
        def write(path, seed, players, rules, check_bots=True):
            """Write the page; returns (its path, the decisions it steps through)."""
            from .replay import replay_steps, write_page
            data, _ = replay_steps(seed, players, rules=rules, check_bots=check_bots)
            return write_page(path, data), len(data["steps"]) - 1

    # ---- loaded on first use ---------------------------------------------------------
    @property
    def chunk_kernel(self):
        from .simulate import chunk_kernel
        return chunk_kernel

    @property
    def event_rows_per_seat(self) -> int:
        from .simulate import EVENT_ROWS_PER_SEAT
        return EVENT_ROWS_PER_SEAT

    forward = lazy_member(".forward", "FORWARD")       # the forward model's kernels (numba)
    GameState = lazy_member(".forward", "GameState")

    @property
    def counters(self):
        from .aggregates import COUNTERS
        return COUNTERS

    # ---- the results ----------------------------------------------------------------------
    def game_fields(self, rules) -> Fields:
        return Fields(tuple(GAME_FIELDS), np.int64)

    def player_fields(self, rules) -> Fields:
        return Fields(tuple(PLAYER_FIELDS) + tuple(f"card_{c}" for c in rules.card_names), np.int32)

    def table_template(self, rules, players, check_bots: bool = True):
        from .simulate import table_template
        return table_template(rules, players, check_bots)

    def describe_error(self, players, err, game: int, game_seed: int, rules):
        from .simulate import describe_error
        return describe_error(players, err, game, game_seed, rules)

    def table_columns(self, games, players_arr, seeds, start, players, rules, narrow: bool = True):
        from .simulate import table_columns
        return table_columns(games, players_arr, seeds, start, players, rules, narrow)

    def table_bytes(self, n_games: int, n_players: int) -> int:
        from .simulate import table_bytes
        return table_bytes(n_games, n_players)

    def results(self, games, players, rules, config, interrupted, events):
        from .simulate import SimResults
        return SimResults(games, players, rules, config, interrupted, events)

    def events_frame(self, log, rules, n_players, labels=None):
        from .simulate import events_frame
        return events_frame(log, rules, n_players, labels)

    def render_events(self, events, rules) -> str:
        from .simulate import render_events
        return render_events(events, rules)

    def invariants(self, state, rules) -> list:
        from .testing import invariants
        return invariants(state, rules)

    # ---- what the summaries and sweeps add (measures.py) ---------------------------
    def summary_counts(self, games) -> dict:
        from .measures import summary_counts
        return summary_counts(games)

    def summary_lines(self, counts: dict, n_games: int, rules) -> list:
        from .measures import summary_lines
        return summary_lines(counts, n_games, rules)

    def sweep_units(self, grid) -> dict:
        from .measures import sweep_units
        return sweep_units(grid)

    def __repr__(self) -> str:
        return "<game cargo_noir>"


CARGO_NOIR = register_game(CargoNoir())
