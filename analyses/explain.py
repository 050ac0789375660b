"""One or two sentences under a report table or figure: what it shows and why
its odd-looking features are there, read from the data it shows (so a sentence
appears only when the feature does). ``table_note(name, df)``,
``figure_note(name, df)``; '' when there is nothing to add."""
from __future__ import annotations

import pandas as pd


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


# the default game's figures drawn from the event log (its subsample of games); the others
# use every game (a game's report names its own: EVENT_FIGURES beside its SECTIONS)
EVENT_FIGURES = {"price_by_turn", "price_by_slots", "port_popularity", "bidding_rates",
                 "overpay_distribution", "destinations_by_turn", "casino_share_by_bot",
                 "coins_by_turn", "trade_value_distribution", "combo_sizes", "purchases_by_turn"}


def _per_count(counts: dict) -> str:
    """"12,000 games at 3 players, 400 at 4 players"."""
    parts = [f"{int(c):,} at {int(n)} players" for n, c in sorted(counts.items())]
    return parts[0].replace(" at", " games at", 1) + "".join(f", {p}" for p in parts[1:])


def figure_basis(name: str, games: dict, event_games: dict, event_figures=EVENT_FIGURES) -> str:
    """The games a figure rests on: ``games``/``event_games`` are {player count: games};
    ``event_figures``: the game's figures drawn from the event log (Cargo Noir's by default)."""
    if name in event_figures:
        return f"From the event log of {_per_count(event_games)}." if event_games else ""
    return f"From {_per_count(games)}." if games else ""


def _extreme_bots(df: pd.DataFrame) -> str:
    """Bots that won (almost) every or (almost) no game: the bots differ in
    strength, which is what such a table then measures."""
    if not {"win_rate", "bot", "n_players"} <= set(df.columns):
        return ""
    hi = df[df["win_rate"] >= 0.95]
    lo = df[df["win_rate"] <= 0.01]
    if not len(hi) and not len(lo):
        return ""
    parts = [f"{r.bot} won {pct(r.win_rate)} at {int(r.n_players)} players" for r in hi.itertuples()]
    parts += [f"{r.bot} won {pct(r.win_rate)} at {int(r.n_players)} players" for r in lo.itertuples()]
    return (" Win rates near 100% or 0% (" + "; ".join(parts[:4]) + ") are no defect: the bots "
            "seated are of very different strength, and these rates rank them.")


def _mixed_bots(df: pd.DataFrame) -> bool:
    return "bot" in df.columns and (df.groupby("n_players")["bot"].nunique() > 1).any()


def table_note(name: str, df: pd.DataFrame) -> str:
    """The note every game's table of this name gets (a game's report adds its own:
    ``table_note`` beside its SECTIONS)."""
    if df is None or not len(df):
        return ""
    if name in ("win_rate_by_seat", "win_rate_by_bot"):
        out = ("Each seat keeps its bot in every game, so with different bots this compares bots, "
               "not seats." if _mixed_bots(df) else "Every seat holds the same bot: a difference "
               "between seats is the seat's own advantage.")
        return out + _extreme_bots(df)
    if name == "seat_chi2":
        return ("A small p-value says the seats do not win equally often; printed as < 0.001 "
                "below that. With different bots in the seats it tests the bots.")
    return ""


def figure_note(name: str, df: pd.DataFrame) -> str:
    """The note every game's figure of this name gets (a game's report adds its own)."""
    if df is None or not len(df):
        return ""
    if name in ("win_rate_by_seat", "vp_by_seat"):
        return ("Each tick names the seat and its bot." + (
            " Points of different bots are not joined: there is no trend between them."
            if name == "vp_by_seat" and _mixed_bots(df) else ""))
    return ""
