"""The analyses' side of the game contract: a game by name (``core.contract.get_game``),
and what it offers the analyses — the pipelines named in ``Game.analyses`` and the report
sections named in ``Game.report_sections`` (dotted names, imported here, never by the
library). The analyses never import a game package."""
from __future__ import annotations

import importlib

from cargo_sim.core.contract import optional, require
from cargo_sim.core.errors import ConfigError

DEFAULT_GAME = "cargo_noir"


def pipelines(game, reads: str) -> list:
    """The game's pipeline modules (``Game.analyses``, in order) whose ``READS`` is
    ``reads`` ("results": a Tables / SimResults; "aggregates": an Aggregates)."""
    mods = [importlib.import_module(name) for name in optional(game, "analyses")]
    return [m for m in mods if getattr(m, "READS", None) == reads and hasattr(m, "run_all")]


def pipeline_names(game) -> dict:
    """``game``'s pipelines (``Game.analyses``) by their last name: short -> dotted name."""
    from cargo_sim.core.contract import get_game
    return {name.rpartition(".")[2]: name for name in optional(get_game(game), "analyses")}


def report_sections(game) -> list:
    """The report's sections for ``game``: the lists named by ``Game.report_sections``
    ("module.NAME"), concatenated; a ConfigError when the game offers no report."""
    names = require(game, "report")
    out = []
    for dotted in names:
        module, _, attr = dotted.rpartition(".")
        try:
            out += list(getattr(importlib.import_module(module), attr))
        except (ImportError, AttributeError) as e:
            raise ConfigError(f"{game.name}: report section {dotted!r} cannot be loaded ({e})") from None
    return out


def report_parts(game) -> dict:
    """What the report needs of ``game`` beside its sections, read from the module(s) that
    hold them (``Game.report_sections`` names "module.SECTIONS"): ``FIGURES`` (name ->
    (function, source table, caption)), ``EVENT_FIGURES`` (the names drawn from the event
    log's subsample), ``notes(event_games) -> [str]``, ``highlights(tables) -> [str]``,
    ``table_note(name, df)``/``figure_note(name, df)`` (its sentences under a table or
    figure, after the shared ones of analyses.explain) and
    ``ROBUSTNESS_MARKS`` (the committed robustness report the highlights cite and which of
    its headlines each highlight states: analyses.robustness_marks); a module without one
    offers none (no figures, notes, highlights or marks of its own)."""
    report_sections(game)                         # one clear line when the game has none
    parts = {"FIGURES": {}, "EVENT_FIGURES": set(), "notes": lambda event_games: [],
             "highlights": lambda tables: [], "ROBUSTNESS_MARKS": None,
             "table_note": lambda name, df: "", "figure_note": lambda name, df: ""}
    for dotted in game.report_sections:
        mod = importlib.import_module(dotted.rpartition(".")[0])
        for name in ("FIGURES", "EVENT_FIGURES"):
            if hasattr(mod, name):
                parts[name] = {**parts[name], **getattr(mod, name)} if name == "FIGURES" \
                    else parts[name] | set(getattr(mod, name))
        for name in ("notes", "highlights", "table_note", "figure_note"):
            if callable(getattr(mod, name, None)):
                parts[name] = getattr(mod, name)
        if getattr(mod, "ROBUSTNESS_MARKS", None) is not None:
            parts["ROBUSTNESS_MARKS"] = mod.ROBUSTNESS_MARKS
    return parts
