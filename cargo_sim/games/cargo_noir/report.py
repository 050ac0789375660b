"""Cargo Noir's report: its sections, figures, notes, highlights and the robustness marks
they carry (its Game.report_sections names ``SECTIONS``; ``analyses.report`` builds the
page around them)."""
from __future__ import annotations

from analyses import explain
from analyses.present import format_p

from .figures import FIGURES  # noqa: F401 (read by the report beside SECTIONS)


# its Game.report_sections names this list: (title, intro, [(table, columns or None, caption)],
# [figures])
SECTIONS = [
    # (title, intro, [(table, columns or None, caption)], [figures])
    ("Balance: seats and bots",
     "From `games`/`players` (all games). A shared win counts 1/k; 95% Wilson intervals; the "
     "chi-square test asks whether every seat wins equally often.",
     [("win_rate_by_seat", ["n_players", "seat", "bot", "n", "win_rate", "ci_lo", "ci_hi", "expected"],
       "Win rate by seat (n = games)."),
      ("seat_chi2", None, "Chi-square test of equal win chances per player count (n = games)."),
      ("win_rate_by_bot", ["n_players", "bot", "n", "win_rate", "ci_lo", "ci_hi"],
       "Win rate by bot over all its seats (n = player-games)."),
      ("vp_by_seat", ["n_players", "seat", "bot", "n", "mean", "ci_lo", "ci_hi", "sd", "p10", "median", "p90"],
       "Final VP by seat (n = player-games; 95% t interval of the mean)."),
      ("margin_summary", None, "Margin of victory (n = games; median with bootstrap CI; share of games won by <= 3 VP)."),
      ("tie_rate", ["n_players", "n", "tie_rate", "ci_lo", "ci_hi", "top_vp_tie_rate"],
       "Shared wins after the highest-card tie-break, and top-VP ties before it (n = games)."),
      ("edge_card_effect", ["card", "n_players", "held", "n", "win_rate", "ci_lo", "ci_hi", "mean_vp",
                            "vp_ci_lo", "vp_ci_hi"],
       "Smuggler's Edge cards: players holding 0/1/2 copies at the end (n = player-games). Observational: "
       "holding a card goes with having traded, so this is not the card's causal effect.")],
     ["win_rate_by_seat", "vp_by_seat", "vp_distribution", "margin_distribution", "edge_card_effect"]),
    ("Bidding for ports",
     "From the event log (subsample). An auction runs from the first ship sent to a port until a "
     "ship takes its cargo; the value of the cargo is its exact smuggling value (`cargo_sim.trade_value`).",
     [("price_by_players", ["n_players", "n", "mean", "ci_lo", "ci_hi", "per_token", "per_token_ci_lo",
                            "per_token_ci_hi", "per_value", "per_value_ci_lo", "per_value_ci_hi"],
       "Winning price (coins), price per token and per point of smuggling value (n = port wins)."),
      ("price_by_slots", ["n_players", "slots", "n", "mean", "ci_lo", "ci_hi", "per_value", "per_value_ci_lo",
                          "per_value_ci_hi", "mean_value"],
       "Winning price by port size (n = port wins)."),
      ("price_by_port", ["n_players", "port", "slots", "n", "mean", "ci_lo", "ci_hi", "per_token",
                         "per_value"], "Winning price by port (n = port wins)."),
      ("port_popularity", ["n_players", "port", "slots", "sends", "n", "share", "ci_lo", "ci_hi",
                           "sends_per_game"], "Ships sent to each port (n = port sends)."),
      ("bidding_rates", ["n_players", "n", "contest_rate", "contest_ci_lo", "contest_ci_hi", "outbid",
                         "raise_rate", "raise_ci_lo", "raise_ci_hi", "abandon_rate", "win_per_send",
                         "win_ci_lo", "win_ci_hi"],
       "Contest rate (share of port sends that met another ship; n = port sends), raise and abandon "
       "rates of outbid decisions (n = outbid), share of sends that won."),
      ("overpayment", None, "Overpayment of contested wins: price minus the runner-up's last stack (n = such wins)."),
      ("syndicate_income", ["n_players", "held", "n", "mean", "ci_lo", "ci_hi", "mean_abandons"],
       "Syndicate coins per player-game by Syndicate cards held (n = player-games; all games).")],
     ["price_by_turn", "price_by_slots", "port_popularity", "bidding_rates", "overpay_distribution"]),
    ("Casino and coins",
     "Casino use from the event log (subsample) and from `players` (all games).",
     [("casino_share_by_bot", ["n_players", "bot", "count", "n", "share", "ci_lo", "ci_hi"],
       "Share of ships sent to the Casino (n = ships sent)."),
      ("casino_income", ["n_players", "bot", "n", "mean", "ci_lo", "ci_hi", "mean_coins", "coins_ci_lo",
                         "coins_ci_hi"], "Casino ships (mean) and coins per player-game (n = player-games)."),
      ("casino_use_vs_win", ["n_players", "casino_bin", "n", "win_rate", "ci_lo", "ci_hi", "mean_vp"],
       "Win rate by Casino ships in the game (n = player-games)."),
      ("bank_shortfall", ["n_players", "n", "successes", "shortfall_rate", "ci_lo", "ci_hi",
                          "mean_coins_short", "mean_bank_end"],
       "Games where the bank could not pay in full (n = games).")],
     ["destinations_by_turn", "casino_share_by_bot", "coins_by_turn", "casino_use_vs_win"]),
    ("Trade and victory cards",
     "Trades from the event log (subsample); value lost and card holdings from `players` (all games).",
     [("trade_summary", ["n_players", "n", "value", "value_ci_lo", "value_ci_hi", "tokens", "vp",
                         "vp_per_token", "vp_per_token_ci_lo", "vp_per_token_ci_hi", "lost", "lost_ci_lo",
                         "lost_ci_hi", "wild_share", "lossy_share"],
       "Per trade (n = trades): smuggling value, tokens, VP bought, VP per token, value lost to no change, "
       "share using a Wild, share losing value."),
      ("combination_mix", None,
       "Optimal splits (`cargo_sim.best_split`) of a sample of trades (n = trades): share of value from "
       "same-type combinations, combinations per trade, Wilds placed in same-type combinations."),
      ("value_lost", ["n_players", "bot", "n", "mean", "ci_lo", "ci_hi", "mean_trade_value", "lost_share"],
       "Value lost to no change per player-game (n = player-games)."),
      ("vp_per_token_players", ["n_players", "bot", "n", "mean", "ci_lo", "ci_hi"],
       "Final VP per cargo token sold, players who sold (n = such player-games)."),
      ("purchases_by_card", ["n_players", "card", "n", "copies", "per_game", "ci_lo", "ci_hi"],
       "Copies of each card bought per game (n = games with events)."),
      ("holder_win_rates", ["n_players", "card", "n_holders", "holder_win_rate", "holder_ci_lo",
                            "holder_ci_hi", "n_others", "other_win_rate", "diff", "diff_ci_lo", "diff_ci_hi"],
       "Win rate of holders of each card vs the others (Newcombe interval for the difference).")],
     ["trade_value_distribution", "combo_sizes", "purchases_by_turn", "holder_win_rates"]),
]


# its figures, notes and highlights beside SECTIONS (analyses.games.report_parts)
EVENT_FIGURES = explain.EVENT_FIGURES


def notes(event_games: int | None) -> list[str]:
    """Cargo Noir's notes under the report's run (after the shared one on intervals)."""
    return [
        (f"Event logs are recorded only for the first {event_games:,} games "
         "of each player count to keep memory small; tables and figures built from events "
         "(bidding, Casino share by turn, coins by turn, trades, card purchases, port popularity) use "
         "that subsample, all others use every game." if event_games else
         "These games kept no event log (a run folder stores games and players only), so the "
         "tables and figures built from events (bidding, Casino share by turn, coins by turn, "
         "trades, card purchases, port popularity) are omitted."),
        "Rules values marked ESTIMATED are our estimates, not printed values (card costs/VP, port "
        "slots, turns): conclusions that depend on them are provisional.",
        "With different bots in the seats, seat and bot effects are confounded (seat s always plays "
        "the same bot); use identical bots per table to measure the seat advantage, or a "
        "seat-rotating tournament to compare bots.",
        "Relations between holding a card (or using the Casino) and winning are observational: "
        "they describe these bots' games, not causal effects.",
    ]


def and_list(items) -> str:
    items = list(items)
    return " and ".join(items) if len(items) <= 2 else ", ".join(items[:-1]) + " and " + items[-1]


# The committed robustness report the highlights cite (a folder of the source tree) and the
# highlight lines that state its headlines: (pattern at the line's start, headline prefix);
# analyses.robustness_marks.headline_keys reads them
ROBUSTNESS_MARKS = {"report": "reports/robustness",
                    "lines": ((r"(\d) players: best seat", "seat"), (r"Games with a bank shortfall", "bank"))}


def highlights(tables: dict) -> list[str]:
    """A few headline numbers, each with its interval and sample size."""
    out = []

    def pct(x):
        # 0.9996 is not "100.0%": only all or nothing prints as 100% or 0%
        if 0.999 <= x < 1:
            return "> 99.9%"
        if 0 < x <= 0.001:
            return "< 0.1%"
        return f"{100 * x:.1f}%"

    w, c = tables.get("win_rate_by_seat"), tables.get("seat_chi2")
    if w is not None and len(w):
        for n, d in w.groupby("n_players"):
            top = d.sort_values("win_rate").iloc[-1]
            same_bot = d["bot"].astype(str).nunique() == 1
            if not same_bot:              # each bot in a fixed seat: compares bots, not seats
                share = ("every one" if top["win_rate"] == 1 else pct(top["win_rate"]))
                rivals = [f"{r.bot} (seat {int(r.seat)})" for r in d.sort_values("seat").itertuples()
                          if int(r.seat) != int(top["seat"])]
                out.append(f"{n} players, different bots (this ranks bots, not seats): "
                           f"{top['bot']} in seat {int(top['seat'])} won {share} of "
                           f"{int(top['n']):,} games against {and_list(rivals)} (95% CI {pct(top['ci_lo'])} to "
                           f"{pct(top['ci_hi'])}; an equal share would be {pct(1 / n)})")
                continue
            line = (f"{n} players: best seat {int(top['seat'])} ({top['bot']}) wins {pct(top['win_rate'])} "
                    f"[{pct(top['ci_lo'])}, {pct(top['ci_hi'])}] of {int(top['n']):,} games (equal share "
                    f"{pct(1 / n)})")
            if c is not None and len(c[c["n_players"] == n]):
                p = c[c["n_players"] == n].iloc[0]["p_value"]
                shown = format_p([p])[0]          # the tables' rule: three decimals, or < 0.001
                line += "; chi-square test of equal seats p " + (shown if shown.startswith("<") else f"= {shown}")
            out.append(line)
    s = tables.get("bank_shortfall")
    if s is not None and len(s):
        out.append("Games with a bank shortfall: " + ", ".join(
            f"{int(r.n_players)}p {pct(r.shortfall_rate)} [{pct(r.ci_lo)}, {pct(r.ci_hi)}]"
            for r in s.itertuples()) + f" (n = {int(s['n'].iloc[0]):,} games per count)")
    b = tables.get("bidding_rates")
    if b is not None and len(b):
        out.append("Port sends that met another ship: " + ", ".join(
            f"{int(r.n_players)}p {pct(r.contest_rate)} [{pct(r.contest_ci_lo)}, {pct(r.contest_ci_hi)}]"
            for r in b.itertuples()) + " (event subsample)")
    t = tables.get("trade_summary")
    if t is not None and len(t):
        out.append("Mean value lost to no change per trade: " + ", ".join(
            f"{int(r.n_players)}p {r.lost:.2f} [{r.lost_ci_lo:.2f}, {r.lost_ci_hi:.2f}] points (n = {int(r.n):,})"
            for r in t.itertuples()))
    return out


# ---- notes under its tables and figures, after the shared ones (analyses.explain) -------
def table_note(name: str, df) -> str:
    """What a reader needs to know of Cargo Noir's table ``name`` ('' if nothing)."""
    if df is None or not len(df):
        return ""
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


def figure_note(name: str, df) -> str:
    """What a reader needs to know of Cargo Noir's figure ``name`` ('' if nothing)."""
    if df is None or not len(df):
        return ""
    if name == "margin_distribution":
        return ("A margin of 0 is a tie on VP (the tie-break card decides). Wide ranges are "
                "grouped in equal bins drawn edge to edge.")
    if name == "trade_value_distribution" and {"value", "share"} <= set(df.columns):
        zero = df[df["value"] == 0]
        if len(zero):
            shares = ", ".join(f"{explain.pct(r.share)} of trades at {int(r.n_players)} players"
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
                parts.append(f"turn {last} at {int(n)} players: {explain.pct(per[last] / per.sum())} "
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
