"""Cargo Noir as the core sees it: the game contract's object (core.contract.Game).

Registered as ``cargo_noir`` on import; ``cargo_sim.core.contract.get_game("cargo_noir")``
loads it. Every member points at the one place that already holds it.
"""
from __future__ import annotations

import numpy as np

from ...core.contract import Fields, register_game
from . import forward_nb
from . import measures
from .aggregates import COUNTERS
from .simulate import (EVENT_ROWS_PER_SEAT, NAME, SimResults, chunk_kernel, describe_error,
                       events_frame, render_events, table_bytes, table_columns, table_template)
from .bots.registry import REGISTRY
from .enums import EVENT_FIELDS, GAME_FIELDS, PLAYER_FIELDS
from .forward import GameState
from .rules import Rules
from .testing import invariants


class CargoNoir:
    name = NAME
    title = "Cargo Noir"
    Rules = Rules
    rules_type_name = "cargo_sim.Rules"
    bots = REGISTRY
    chunk_kernel = staticmethod(chunk_kernel)
    event_fields = tuple(EVENT_FIELDS)
    event_rows_per_seat = EVENT_ROWS_PER_SEAT
    forward = forward_nb
    GameState = GameState
    analyses = ("analyses.balance", "analyses.bidding", "analyses.casino", "analyses.trade",
                "analyses.aggregates")
    report_sections = ("analyses.report.SECTIONS",)
    sweep_measures = measures.SWEEP_MEASURES
    counters = COUNTERS

    class replay:
        """``cargo-sim play --html``: the game as a self-contained HTML page."""
        @staticmethod
        def check(path) -> None:
            from .replay import check_page_path
            check_page_path(path)

        @staticmethod
        def write(path, seed, players, rules, check_bots=False):
            """Write the page; returns (its path, the decisions it steps through)."""
            from .replay import replay_steps, write_page
            data, _ = replay_steps(seed, players, rules=rules, check_bots=check_bots)
            return write_page(path, data), len(data["steps"]) - 1

    def game_fields(self, rules) -> Fields:
        return Fields(tuple(GAME_FIELDS), np.int64)

    def player_fields(self, rules) -> Fields:
        return Fields(tuple(PLAYER_FIELDS) + tuple(f"card_{c}" for c in rules.card_names), np.int32)

    def table_template(self, rules, players, check_bots: bool = False):
        return table_template(rules, players, check_bots)

    def describe_error(self, players, err, game: int, game_seed: int, rules):
        return describe_error(players, err, game, game_seed, rules)

    def table_columns(self, games, players_arr, seeds, start, players, rules, narrow: bool = True):
        return table_columns(games, players_arr, seeds, start, players, rules, narrow)

    def table_bytes(self, n_games: int, n_players: int) -> int:
        return table_bytes(n_games, n_players)

    def results(self, games, players, rules, config, interrupted, events):
        return SimResults(games, players, rules, config, interrupted, events)

    def events_frame(self, log, rules, n_players, labels=None):
        return events_frame(log, rules, n_players, labels)

    def render_events(self, events, rules) -> str:
        return render_events(events, rules)

    def summary_counts(self, games) -> dict:
        return measures.summary_counts(games)

    def summary_lines(self, counts: dict, n_games: int, rules) -> list:
        return measures.summary_lines(counts, n_games, rules)

    def sweep_units(self, grid) -> dict:
        return measures.sweep_units(grid)

    def invariants(self, state, rules) -> list:
        return invariants(state, rules)

    def __repr__(self) -> str:
        return "<game cargo_noir>"


CARGO_NOIR = register_game(CargoNoir())
