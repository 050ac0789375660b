"""What Macao adds to a run's summary and to sweeps (its Game object's ``summary_*``,
``sweep_measures`` and ``sweep_units`` point here)."""
import numpy as np

SWEEP_MEASURES = {"group": ("quarters in the largest connected groups (all seats)", "t"),
                  "delivery_vp": ("points from deliveries (all seats)", "t")}


def summary_counts(games) -> dict:
    """Additive per-run counts from the games table (summed chunk by chunk on disk)."""
    return {"ties": int((np.asarray(games["n_winners"]) > 1).sum()),
            "deck_left": int(np.asarray(games["deck_left"]).sum())}


def summary_lines(counts: dict, n_games: int, rules) -> list:
    return [f"shared wins: {counts['ties']} of {n_games} games (tie-break: {rules['tie_break']})"]


def sweep_units(grid) -> dict:
    """Per-game values of SWEEP_MEASURES from ``grid(column)``: (games, seats)."""
    return {"group": grid("group").sum(1), "delivery_vp": grid("delivery_vp").sum(1)}
