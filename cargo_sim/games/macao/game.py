"""Macao's Game object (docs/contract.md): every member points at its one home in this
package; registered on import (``cargo__sim().games.BUILTIN`` names this module)."""
from __future__ import annotations

import numpy as np

from ...core.contract import Fields, register_game
from ...core.lazy import lazy_member
from . import enums as E
from .bots.registry import REGISTRY
from .rules import Rules


def _sim():
    """simulate.py on first use (it imports pandas and numba: `cargo-sim bots` imports neither)."""
    from . import simulate
    return simulate


class Macao:
    name = "macao"
    title = "Macao"
    Rules = Rules
    rules_type_name = "Rules"
    bots = REGISTRY
    event_fields = E.EVENT_FIELDS
    event_rows_per_seat = 150
    analyses = ("cargo_sim.games.macao.analyses",)           # pandas pipelines (run_all)
    report_sections = ("cargo_sim.games.macao.report.SECTIONS",)
    sweep_measures = {"group": ("quarters in the largest connected groups (all seats)", "t"),
                      "delivery_vp": ("points from deliveries (all seats)", "t")}
    counters = None
    replay = None

    forward = lazy_member(".forward", "FORWARD")       # the forward model's kernels (numba)
    GameState = lazy_member(".forward", "GameState")

    @staticmethod
    def chunk_kernel(template, decide, seeds, out_games, out_players, log, err):
        from .simulate import chunk_kernel
        return chunk_kernel(template, decide, seeds, out_games, out_players, log, err)

    def game_fields(self, rules) -> Fields:
        return Fields(E.GAME_FIELDS, np.int64)

    def player_fields(self, rules) -> Fields:
        return Fields(E.PLAYER_FIELDS, np.int32)

    def table_template(self, rules, players, check_bots: bool = True):
        return _sim().table_template(rules, players, check_bots)

    def describe_error(self, players, err, game, game_seed, rules):
        return _sim().describe_error(players, err, game, game_seed, rules)

    def table_columns(self, games, players_arr, seeds, start, players, rules, narrow=True):
        return _sim().table_columns(games, players_arr, seeds, start, players, rules, narrow)

    def table_bytes(self, n_games, n_players):
        return n_games * (8 * (2 + len(E.GAME_FIELDS)) + n_players * (4 * len(E.PLAYER_FIELDS) + 24))

    def results(self, games, players, rules, config, interrupted, events):
        return _sim().MacaoResults(games, players, rules, config, interrupted, events)

    def events_frame(self, log, rules, n_players, labels=None):
        return _sim().events_frame(log, rules, n_players, labels)

    def render_events(self, events, rules) -> str:
        from .narrate import render
        return render(events, rules)

    def summary_counts(self, games) -> dict:
        return {"ties": int((np.asarray(games["n_winners"]) > 1).sum()),
                "deck_left": int(np.asarray(games["deck_left"]).sum())}

    def summary_lines(self, counts, n_games, rules) -> list:
        return [f"shared wins: {counts['ties']} of {n_games} games (tie-break: {rules['tie_break']})"]

    def sweep_units(self, grid) -> dict:
        return {"group": grid("group").sum(1), "delivery_vp": grid("delivery_vp").sum(1)}

    def invariants(self, state, rules) -> list:
        from .testing import invariants
        return invariants(state, rules)

    def __repr__(self) -> str:
        return "<game macao>"


GAME = Macao()
register_game(GAME)
