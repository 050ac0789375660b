"""Cargo Noir as the core sees it: the game contract's object (core.contract.GameBase).

Registered as ``cargo_noir`` on import; ``cargo_sim.core.contract.get_game("cargo_noir")``
loads it. Every member points at the one place that already holds it.

Importing this module is light (the rules, the bot registry and the constants):
the commands that only print (``cargo-sim bots``, ``rules``) load the game without
numba, pandas or scipy. The engine, the results and the counters load on first use
(``lazy_member``/``lazy_function``).
"""
from __future__ import annotations

import numpy as np

from ...core.contract import Fields, GameBase, register_game
from ...core.lazy import lazy_function, lazy_member
from .bots.registry import REGISTRY
from .enums import EVENT_FIELDS, GAME_FIELDS, PLAYER_FIELDS
from .measures import SWEEP_MEASURES
from .rules import Rules

NAME = "cargo_noir"          # this game's key in the game registry


class CargoNoir(GameBase):
    name = NAME
    title = "Cargo Noir"
    Rules = Rules
    rules_type_name = "cargo_sim.Rules"
    bots = REGISTRY
    event_fields = tuple(EVENT_FIELDS)
    event_rows_per_seat = lazy_member(".simulate", "EVENT_ROWS_PER_SEAT")

    chunk_kernel = lazy_member(".simulate", "chunk_kernel")
    table_template = lazy_function(".simulate", "table_template")
    describe_error = lazy_function(".simulate", "describe_error")
    table_columns = lazy_function(".simulate", "table_columns")
    table_bytes = lazy_function(".simulate", "table_bytes")
    results = lazy_function(".simulate", "SimResults")
    events_frame = lazy_function(".simulate", "events_frame")
    render_events = lazy_function(".simulate", "render_events")
    invariants = lazy_function(".testing", "invariants")
    summary_counts = lazy_function(".measures", "summary_counts")
    summary_lines = lazy_function(".measures", "summary_lines")

    def game_fields(self, rules) -> Fields:
        return Fields(tuple(GAME_FIELDS), np.int64)

    def player_fields(self, rules) -> Fields:
        return Fields(tuple(PLAYER_FIELDS) + tuple(f"card_{c}" for c in rules.card_names), np.int32)

    # ---- optional capabilities (core.contract.CAPABILITIES) -------------------------------
    forward = lazy_member(".forward", "FORWARD")       # the forward model's kernels (numba)
    GameState = lazy_member(".forward", "GameState")
    counters = lazy_member(".aggregates", "COUNTERS")
    sweep_measures = SWEEP_MEASURES
    sweep_units = lazy_function(".measures", "sweep_units")
    analyses = tuple(f"cargo_sim.games.cargo_noir.analyses.{m}"          # its pipelines
                     for m in ("balance", "bidding", "casino", "trade", "aggregates"))
    report_sections = ("cargo_sim.games.cargo_noir.report.SECTIONS",)
    robustness = "cargo_sim.games.cargo_noir.analyses.aggregates"     # the study's own headlines
    bench = lazy_member(".bench")

    replay = lazy_member(".replay", "REPLAY")          # play --html (core.replay)


CARGO_NOIR = register_game(CargoNoir())
