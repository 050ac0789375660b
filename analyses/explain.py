"""One or two sentences under a report table or figure: what it shows and why
its odd-looking features are there, read from the data it shows (so a sentence
appears only when the feature does). ``table_note(name, df)``,
``figure_note(name, df)``; '' when there is nothing to add."""
from __future__ import annotations

import pandas as pd


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


# figures drawn from the event log (its subsample of games); the others use every game
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
    parts = [f"{r.bot} won {_pct(r.win_rate)} at {int(r.n_players)} players" for r in hi.itertuples()]
    parts += [f"{r.bot} won {_pct(r.win_rate)} at {int(r.n_players)} players" for r in lo.itertuples()]
    return (" Win rates near 100% or 0% (" + "; ".join(parts[:4]) + ") are no defect: the bots "
            "seated are of very different strength, and these rates rank them.")


def _mixed_bots(df: pd.DataFrame) -> bool:
    return "bot" in df.columns and (df.groupby("n_players")["bot"].nunique() > 1).any()


def table_note(name: str, df: pd.DataFrame) -> str:
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
    if name == "syndicate_income" and "mean" in df.columns and (df["mean"].fillna(0) == 0).all():
        held = int(df.loc[df.get("held", 0) > 0, "n"].sum()) if "held" in df.columns else 0
        return (f"All zero: a Syndicate card pays its holder only when the holder, outbid, "
                f"takes a ship back from a port, and only {held:,} player-game"
                f"{' ' if held == 1 else 's '}held one; none "
                "of these bots buys it on purpose. Seat the `syndicate` bot to measure the card.")
    if name == "casino_use_vs_win":
        return ("Bins are unequal (0-2, 3-5, ..., 15-19, 20+ ships) so that each holds enough "
                "players; the figure draws each over its own range.")
    if name == "trade_summary":
        return ("A trade's value counts the tokens sold only: final-turn purchases paid with "
                "coins alone are trades of value 0 (see the value figure).")
    if name == "tie_rate":
        return ("A tie on VP is broken by the highest card held; a shared win remains only when "
                "that ties too.")
    return ""


def figure_note(name: str, df: pd.DataFrame) -> str:
    if df is None or not len(df):
        return ""
    if name in ("win_rate_by_seat", "vp_by_seat"):
        return ("Each tick names the seat and its bot." + (
            " Points of different bots are not joined: there is no trend between them."
            if name == "vp_by_seat" and _mixed_bots(df) else ""))
    if name == "margin_distribution":
        return ("A margin of 0 is a tie on VP (the tie-break card decides). Wide ranges are "
                "grouped in equal bins drawn edge to edge.")
    if name == "trade_value_distribution" and {"value", "share"} <= set(df.columns):
        zero = df[df["value"] == 0]
        if len(zero):
            shares = ", ".join(f"{_pct(r.share)} of trades at {int(r.n_players)} players"
                               for r in zero.itertuples())
            return (f"Trades of value 0 (in the first bar: {shares}) are final-turn "
                    "purchases: on the last turn a coin is worth a point of smuggling value, and a player buys a card with "
                    "coins alone, selling no tokens.")
        return ""
    if name == "purchases_by_turn" and {"turn", "per_game", "n_players"} <= set(df.columns):
        parts = []
        for n, d in df.groupby("n_players"):     # the last turn depends on the player count
            per = d.groupby("turn")["per_game"].sum()
            last = int(per.index.max())
            if per.sum() > 0 and per[last] >= per.max():
                parts.append(f"turn {last} at {int(n)} players: {_pct(per[last] / per.sum())} "
                             "of the copies bought")
        if not parts:
            return ""
        return ("The spike on the last turn (" + "; ".join(parts) + ") is the end of the game: "
                "every player sells what it still holds and spends its coins, worth a point each "
                "on that turn only, on cards.")
    if name == "coins_by_turn" and {"turn", "mean", "n_players"} <= set(df.columns):
        parts = []
        for n, d in df.groupby("n_players"):
            d = d.sort_values("turn")
            if len(d) > 1 and d["mean"].iloc[-1] < 0.5 * d["mean"].iloc[-2]:
                parts.append(f"{d['mean'].iloc[-2]:.1f} to {d['mean'].iloc[-1]:.1f} at {int(n)} players")
        if not parts:
            return ""
        return ("Coins fall on the last turn (" + "; ".join(parts) + "): there they buy cards, a "
                "coin being worth a point of smuggling value, and after the game they are worth "
                "nothing.")
    if name == "casino_use_vs_win":
        return "Each bin is drawn over its own range of ships; the last bin is open-ended."
    if name == "purchases_by_card":
        return ""
    return ""
