"""Cargo Empire's summary counts and lines (the CLI's lines under its seat table) and
its own sweep measures."""
from __future__ import annotations

import numpy as np

SWEEP_MEASURES = {"lv3_vp": ("points from posts on LV3 cities (all seats)", "t"),
                  "passes": ("forced passes in a game (all seats)", "t"),
                  "dev_vp": ("development points (all seats)", "t")}


def summary_counts(games) -> dict:
    return {"passes": int(np.asarray(games["passes"]).sum()),
            "lv3": int(np.asarray(games["lv3_cities"]).sum())}


def summary_lines(counts, n_games, rules) -> list:
    n = max(n_games, 1)
    return [f"forced passes: {counts['passes'] / n:.2f} a game; LV3 cities: {counts['lv3'] / n:.2f} a game"]


def sweep_units(grid) -> dict:
    return {"lv3_vp": grid("lv3_vp").sum(1),
            "passes": grid("passes").sum(1), "dev_vp": grid("dev_vp").sum(1)}
