"""Shipwrights' summary counts and lines (the CLI's lines under the seat table) and its
sweep measures."""
from __future__ import annotations

import numpy as np

SWEEP_MEASURES = {"ships": ("ships completed (all seats)", "t"),
                  "military": ("red flags on completed ships (all seats)", "t"),
                  "buildings": ("buildings constructed (all seats)", "t")}


def summary_counts(games) -> dict:
    return {"ties": int((np.asarray(games["n_winners"]) > 1).sum()),
            "days": int(np.asarray(games["days"]).sum())}


def summary_lines(counts, n_games, rules) -> list:
    return [f"shared wins: {counts['ties']} of {n_games} games (tie-break: {rules['tie_break']}); "
            f"mean days: {counts['days'] / max(n_games, 1):.2f}"]


def sweep_units(grid) -> dict:
    return {"ships": grid("ships").sum(1), "military": grid("military").sum(1),
            "buildings": grid("buildings").sum(1)}
