"""What every game's analyses share: statistics, result tables, figures' frame, the
report, the robustness study, the ladder. A game's own pipelines, report sections and
figures live in its package (named by its Game object: ``Game.analyses``,
``Game.report_sections``); this package reaches them only through those names.

Modules (each pipeline takes DataFrames / a SimResults and returns DataFrames
whose rows state their sample size ``n`` and 95% intervals):

* ``stats``   — the shared formulas (Wilson, t, bootstrap, chi-square, Newcombe);
* ``data``    — ``Tables`` (a SimResults-like bundle) and ``combine`` for runs
  of several player counts;
* ``plots``   — the figures' frame (matplotlib, Agg), ``save_figure``, and the default
  game's figures;
* ``games``   — a game by name and what it offers the analyses (``Game.analyses``,
  ``Game.report_sections``); the analyses never import a game package;
* ``markdown`` — markdown tables and the HTML page of the reports;
* ``report``  — ``build_report`` (``cargo-sim report``) (``game=`` / ``--game``);
* ``robustness``, ``robustness_marks``, ``robustness_report`` — the study of the rules'
  unknowns, the marks the report's highlights carry, its report and ``cargo-sim robustness``.

``analyses.balance``, ``bidding``, ``casino``, ``trade`` and ``aggregates`` import the
default game's pipelines of those names (loaded on first use).
"""
from . import data, stats
from .data import Tables, as_tables, combine

__all__ = ["data", "stats", "Tables", "as_tables", "combine"]


def _pipeline_aliases() -> None:
    # ``analyses.balance`` & co. stay importable: the default game's pipelines of those
    # names, found through its Game object (the analyses never name a game package)
    import sys

    from cargo_sim.core.lazy import MovedModules
    from .games import DEFAULT_GAME, pipeline_names
    moved = {f"{__name__}.{short}": name for short, name in pipeline_names(DEFAULT_GAME).items()}
    if not any(isinstance(f, MovedModules) and f.moved == moved for f in sys.meta_path):
        sys.meta_path.insert(0, MovedModules(moved))     # before any finder of the old files


_pipeline_aliases()
