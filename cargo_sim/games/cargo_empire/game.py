"""Cargo Empire's Game object (docs/contract.md): every member points at its one home in
this package; registered on import (``cargo_sim.games.BUILTIN`` names this module)."""
from __future__ import annotations

import numpy as np

from ...core.contract import Fields, register_game
from ...core.lazy import lazy_member
from . import enums as E
from . import measures
from .bots.registry import REGISTRY
from .rules import Rules


def _sim():
    """simulate.py on first use (pandas and numba: `cargo-sim bots` imports neither)."""
    from . import simulate
    return simulate


class CargoEmpire:
    name = "cargo_empire"
    title = "Cargo Empire"
    Rules = Rules
    rules_type_name = "Rules"
    bots = REGISTRY
    event_fields = E.EVENT_FIELDS
    event_rows_per_seat = 120
    analyses = ()
    report_sections = ()
    sweep_measures = measures.SWEEP_MEASURES
    counters = None
    replay = None

    forward = lazy_member(".forward", "FORWARD")
    GameState = lazy_member(".forward", "GameState")

    @staticmethod
    def chunk_kernel(template, decide, seeds, out_games, out_players, log, err):
        from .simulate import chunk_kernel
        return chunk_kernel(template, decide, seeds, out_games, out_players, log, err)

    def game_fields(self, rules) -> Fields:
        return Fields(E.GAME_FIELDS, np.int64)

    def player_fields(self, rules) -> Fields:
        return Fields(E.PLAYER_FIELDS, np.int32)

    def table_template(self, rules, players, check_bots: bool = False):
        return _sim().table_template(rules, players, check_bots)

    def describe_error(self, players, err, game, game_seed, rules):
        return _sim().describe_error(players, err, game, game_seed, rules)

    def table_columns(self, games, players_arr, seeds, start, players, rules, narrow=True):
        return _sim().table_columns(games, players_arr, seeds, start, players, rules, narrow)

    def table_bytes(self, n_games, n_players):
        return n_games * (8 * (2 + len(E.GAME_FIELDS)) + n_players * (4 * len(E.PLAYER_FIELDS) + 24))

    def results(self, games, players, rules, config, interrupted, events):
        return _sim().EmpireResults(games, players, rules, config, interrupted, events)

    def events_frame(self, log, rules, n_players, labels=None):
        return _sim().events_frame(log, rules, n_players, labels)

    def render_events(self, events, rules) -> str:
        from .narrate import render
        return render(events, rules)

    def summary_counts(self, games) -> dict:
        return measures.summary_counts(games)

    def summary_lines(self, counts, n_games, rules) -> list:
        return measures.summary_lines(counts, n_games, rules)

    def sweep_units(self, grid) -> dict:
        return measures.sweep_units(grid)

    def invariants(self, state, rules) -> list:
        from .testing import invariants
        return invariants(state, rules)

    def __repr__(self) -> str:
        return "<game cargo_empire>"


GAME = CargoEmpire()
register_game(GAME)
