"""Shipwrights of the North Sea's Game object (docs/contract.md): what is the game's own;
every member points at its one home in this package, the defaults are
core.contract.GameBase's. Registered on import (``cargo_sim.games.BUILTIN`` names this
module); the engine loads on first use."""
from __future__ import annotations

import numpy as np

from ...core.contract import Fields, GameBase, register_game
from ...core.lazy import lazy_function, lazy_member
from . import enums as E
from .bots.registry import REGISTRY
from .measures import SWEEP_MEASURES
from .rules import Rules


class Shipwrights(GameBase):
    name = "shipwrights"
    title = "Shipwrights of the North Sea"
    Rules = Rules
    bots = REGISTRY
    event_fields = E.EVENT_FIELDS
    event_rows_per_seat = 300

    chunk_kernel = lazy_member(".simulate", "chunk_kernel")
    table_template = lazy_function(".simulate", "table_template")
    describe_error = lazy_function(".simulate", "describe_error")
    table_columns = lazy_function(".simulate", "table_columns")
    results = lazy_function(".simulate", "ShipwrightsResults")
    events_frame = lazy_function(".simulate", "events_frame")
    render_events = lazy_function(".narrate", "render")
    invariants = lazy_function(".testing", "invariants")
    summary_counts = lazy_function(".measures", "summary_counts")
    summary_lines = lazy_function(".measures", "summary_lines")

    def game_fields(self, rules) -> Fields:
        return Fields(E.GAME_FIELDS, np.int64)

    def player_fields(self, rules) -> Fields:
        return Fields(E.PLAYER_FIELDS, np.int32)

    # ---- optional capabilities (core.contract.CAPABILITIES) -------------------------------
    forward = lazy_member(".forward", "FORWARD")
    GameState = lazy_member(".forward", "GameState")
    replay = lazy_member(".replay", "REPLAY")          # play --html (core.replay)
    counters = lazy_member(".aggregates", "COUNTERS")  # aggregate counters (aggregates.py)
    sweep_measures = SWEEP_MEASURES
    sweep_units = lazy_function(".measures", "sweep_units")
    bench = lazy_member(".bench")
    analyses = ("cargo_sim.games.shipwrights.analyses",)        # pandas pipelines (run_all)
    report_sections = ("cargo_sim.games.shipwrights.report.SECTIONS",)
    robustness = "cargo_sim.games.shipwrights.analyses"         # its ROBUSTNESS headlines


GAME = Shipwrights()
register_game(GAME)
