"""Cargo Noir's figures: one function per figure of its report (``FIGURES``: name ->
(function, source table, caption)), each taking a pipeline's DataFrame and returning a
matplotlib Figure, drawn with what every game's figures share (``analyses.plots``)."""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from analyses.plots import (CATEGORY_COLOURS, SMALL_NOTE, bars_by_count, enough, legend,  # noqa: F401
                            mean_band_by_players, new_figure, whole_label, yerr)
from analyses.stats import MIN_N


# ---- balance ----------------------------------------------------------------
def _seat_panels(df, title):
    """One panel per player count with a seat axis whose ticks name the bot in
    each seat ("seat 0\nexpert")."""
    counts = sorted(df["n_players"].unique())
    # a panel's width grows with its seats, so 5 seats' bot names do not overlap
    fig, axes = plt.subplots(1, len(counts), figsize=(0.9 * sum(counts) + 2.6, 3.8), sharey=True,
                             constrained_layout=True, squeeze=False,
                             gridspec_kw={"width_ratios": [int(n) for n in counts]})
    for ax, n in zip(axes[0], counts):
        d = df[df["n_players"] == n].drop_duplicates("seat").sort_values("seat")
        names = d["bot"].astype(str) if "bot" in d.columns else pd.Series([""] * len(d))
        ax.set_xticks(d["seat"].to_numpy(), [f"seat {int(s)}\n{b}" if b else f"seat {int(s)}"
                                             for s, b in zip(d["seat"], names)], fontsize=8)
        ax.set_xlim(-0.6, n - 0.4)
        ax.set_title(f"{n} players")
        ax.grid(True, axis="y", alpha=0.3)
    fig.suptitle(title)
    return fig, dict(zip(counts, axes[0]))


def win_rate_by_seat(df: pd.DataFrame):
    """balance.win_rate_by_seat: win rate per seat, a panel per player count
    (the tick names the seat's bot), Wilson 95% CI bars, dashed line at the
    equal share 1/n."""
    fig, panels = _seat_panels(df, "Win rate by seat (shared wins split)")
    for n, ax in panels.items():
        d = enough(df[df["n_players"] == n]).sort_values("seat")
        ax.bar(d["seat"], d["win_rate"], 0.7, yerr=yerr(d, "win_rate"), capsize=3,
               color=[f"C{int(s)}" for s in d["seat"]], ecolor="0.2")
        ax.axhline(1 / n, color="k", ls="--", lw=1)
    next(iter(panels.values())).set_ylabel("win rate (share of games)")
    legend(fig, f"bars: 95% Wilson CI\ndashed: equal share 1/n\n{SMALL_NOTE}",
           [plt.Line2D([], [], color="k", ls="--")], ["equal share"])
    return fig


def vp_distribution(df: pd.DataFrame):
    """balance.vp_distribution: cumulative share of players finishing with at
    most x VP (empirical CDF), one line per seat (and bot), a panel per
    player count."""
    counts = sorted(df["n_players"].unique())
    fig, axes = plt.subplots(1, len(counts), figsize=(3.2 * len(counts) + 1, 3.6), sharey=True,
                             constrained_layout=True, squeeze=False)
    for ax, n in zip(axes[0], counts):
        d = df[df["n_players"] == n]
        for s, ds in d.groupby("seat"):
            ds = ds.sort_values("vp")
            who = f"seat {s}" + (f" ({ds['bot'].iloc[0]})" if "bot" in ds.columns else "")
            ax.step(ds["vp"], ds["share"].cumsum(), where="post", lw=1.2, label=who)
        ax.set_title(f"{n} players")
        ax.set_xlabel("final VP (points)")
        ax.grid(True, alpha=0.3)
    axes[0][0].set_ylabel("share of players with at most x VP")
    fig.suptitle("Distribution of final victory points by seat (empirical CDF)")
    legend(fig)
    return fig


def vp_by_seat(df: pd.DataFrame):
    """balance.vp_summary: mean final VP per seat (t CI), a panel per player
    count, the tick naming the seat's bot. Points are joined by a line only
    when every seat holds the same bot (a seat trend); different bots are
    separate points."""
    fig, panels = _seat_panels(df, "Mean final VP by seat")
    for n, ax in panels.items():
        d = enough(df[df["n_players"] == n]).sort_values("seat")
        same = "bot" not in d.columns or d["bot"].astype(str).nunique() <= 1
        ax.errorbar(d["seat"], d["mean"], yerr=yerr(d, "mean"), marker="o", capsize=3,
                    ls="-" if same else "none", color="C0", ecolor="0.3")
    next(iter(panels.values())).set_ylabel("mean VP (points)")
    legend(fig, f"bars: 95% t CI\n{SMALL_NOTE}\nline: same bot in every seat",
           [plt.Line2D([], [], color="C0", marker="o")], ["mean VP"])
    return fig


def margin_distribution(df: pd.DataFrame):
    """balance.margin_distribution: share of games per margin of victory."""
    return bars_by_count(df, "margin", "share", "Margin of victory (winner VP - runner-up VP)",
                          "margin (VP)", "share of games", "bars: 95% Wilson CI")


def edge_card_effect(df: pd.DataFrame):
    """balance.edge_card_effect: win rate by copies held of each Smuggler's
    Edge card, a panel per card, one line per player count."""
    cards = list(dict.fromkeys(df["card"]))
    fig, axes = plt.subplots(1, max(len(cards), 1), figsize=(3.4 * max(len(cards), 1) + 0.6, 3.6),
                             sharey=True, constrained_layout=True, squeeze=False)
    for ax, card in zip(axes[0], cards):
        d = df[df["card"] == card]
        for n, dn in enough(d).groupby("n_players"):
            dn = dn.sort_values("held")
            ax.errorbar(dn["held"] + 0.04 * (n - 3.5), dn["win_rate"], yerr=yerr(dn, "win_rate"),
                        marker="o", capsize=3, label=f"{n}p")
        ax.set_title(card)
        ax.set_xlabel("copies held at the end")
        ax.set_xticks(sorted(d["held"].unique()))
        ax.set_xlim(-0.5, d["held"].max() + 0.5)     # a card only ever held 0 times: keep a readable axis
        ax.grid(True, alpha=0.3)
    axes[0][0].set_ylabel("win rate")
    fig.suptitle("Smuggler's Edge cards: win rate by copies held")
    legend(fig, f"bars: 95% Wilson CI\n{SMALL_NOTE}")
    return fig


def port_popularity(df: pd.DataFrame):
    """balance.port_popularity: ships sent per game to each port."""
    fig, ax = new_figure("Port popularity: ships sent per game")
    ports = list(dict.fromkeys(df.sort_values("slots", ascending=False)["port"]))
    counts = sorted(df["n_players"].unique())
    width = 0.8 / max(len(counts), 1)
    for i, n in enumerate(counts):
        d = df[df["n_players"] == n].set_index("port").reindex(ports)
        x = np.arange(len(ports)) + (i - (len(counts) - 1) / 2) * width
        ax.bar(x, d["sends_per_game"], width * 0.9, label=f"{n} players")
    slots = df.drop_duplicates("port").set_index("port")["slots"]
    ax.set_xticks(range(len(ports)), [f"{p}\n({whole_label(slots.get(p))} slot{'' if slots.get(p) == 1 else 's'})"
                                       for p in ports], fontsize=8)
    ax.set_ylabel("ships sent per game")
    legend(fig)
    return fig


# ---- bidding ----------------------------------------------------------------
def price_by_turn(df: pd.DataFrame):
    """bidding.winning_price by (n_players, win_turn): mean price with t CI band."""
    return mean_band_by_players(df, "win_turn", "Winning price of a port by turn",
                                "turn the cargo was taken", "mean price (coins)")


def price_by_slots(df: pd.DataFrame):
    """bidding.winning_price by (n_players, slots): mean price and price per
    point of smuggling value, with t CIs."""
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.8), constrained_layout=True)
    for n, d in enough(df).groupby("n_players"):
        d = d.sort_values("slots")
        off = 0.05 * (n - 3.5)
        axes[0].errorbar(d["slots"] + off, d["mean"], yerr=yerr(d, "mean"), marker="o", capsize=3,
                         label=f"{n} players")
        axes[1].errorbar(d["slots"] + off, d["per_value"], yerr=yerr(d, "per_value", "per_value_ci_lo",
                                                                      "per_value_ci_hi"),
                         marker="o", capsize=3, label=f"{n} players")
    axes[0].set_ylabel("mean price (coins)")
    axes[1].set_ylabel("coins per point of smuggling value")
    for ax in axes:
        ax.set_xlabel("cargo slots of the port")
        ax.set_xticks(sorted(df["slots"].dropna().unique()))
        ax.grid(True, alpha=0.3)
    fig.suptitle("Winning price by port size")
    legend(fig, f"bars: 95% t CI\n{SMALL_NOTE}")
    return fig


def bidding_rates(df: pd.DataFrame):
    """bidding.bidding_rates by (n_players, first_turn): contest rate and
    raise rate per turn with Wilson CI bands."""
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.8), constrained_layout=True, sharey=False)
    for n, d in df.groupby("n_players"):
        d = d.sort_values("first_turn")
        for ax, col, lo, hi, size in ((axes[0], "contest_rate", "contest_ci_lo", "contest_ci_hi", "n"),
                                      (axes[1], "raise_rate", "raise_ci_lo", "raise_ci_hi", "outbid")):
            dd = enough(d, size)
            ax.plot(dd["first_turn"], dd[col], marker=".", label=f"{n} players")
            ax.fill_between(dd["first_turn"], dd[lo], dd[hi], alpha=0.2)
    axes[0].set_ylabel("share of port sends that met another ship")
    axes[1].set_ylabel("share of outbid decisions that raised")
    for ax in axes:
        ax.set_xlabel("turn the auction started")
        ax.grid(True, alpha=0.3)
    fig.suptitle("Contests and raises at the ports")
    legend(fig, f"bands: 95% Wilson CI\n{SMALL_NOTE}")
    return fig


def overpay_distribution(df: pd.DataFrame):
    """bidding.overpay_distribution: share of contested wins per overpayment."""
    fig, ax = new_figure("Overpayment: winning price - runner-up's last stack")
    counts = sorted(df["n_players"].unique())
    width = 0.8 / max(len(counts), 1)
    for i, n in enumerate(counts):
        d = df[df["n_players"] == n].sort_values("overpay")
        d = d[d["overpay"] <= 12]
        ax.bar(d["overpay"] + (i - (len(counts) - 1) / 2) * width, d["share"], width * 0.9,
               yerr=yerr(d, "share"), capsize=1, label=f"{n} players")
    ax.set_xlabel("overpayment (coins)")
    ax.set_ylabel("share of contested wins")
    legend(fig, "bars: 95% Wilson CI")
    return fig


# ---- casino -----------------------------------------------------------------
def destinations_by_turn(df: pd.DataFrame):
    """casino.destination_shares by (n_players, turn): share of ships sent to
    the Casino (solid) and the Black Market (dotted), with CI bands."""
    fig, ax = new_figure("Where ships are sent, by turn")
    for i, (n, d) in enumerate(enough(df).groupby("n_players")):
        for dest, ls in (("Casino", "-"), ("Black Market", ":")):
            dd = d[d["dest"] == dest].sort_values("turn")
            ax.plot(dd["turn"], dd["share"], ls=ls, color=f"C{i}",
                    label=f"{dest}, {n}p")
            ax.fill_between(dd["turn"], dd["ci_lo"], dd["ci_hi"], color=f"C{i}", alpha=0.15)
    ax.set_xlabel("turn")
    ax.set_ylabel("share of ships sent")
    legend(fig, f"bands: 95% Wilson CI\n{SMALL_NOTE}")
    return fig


def casino_share_by_bot(df: pd.DataFrame):
    """casino.casino_share by (n_players, bot, turn): share of each bot's ships
    sent to the Casino by turn, a panel per player count, Wilson CI bands."""
    counts = sorted(df["n_players"].unique())
    bots = list(dict.fromkeys(df["bot"].astype(str)))
    colours = {b: f"C{i % 10}" for i, b in enumerate(bots)}
    fig, axes = plt.subplots(1, len(counts), figsize=(3.0 * len(counts) + 2.2, 3.6), sharey=True,
                             constrained_layout=True, squeeze=False)
    for ax, n in zip(axes[0], counts):
        for b, d in enough(df[df["n_players"] == n]).groupby("bot", observed=True):
            d = d.sort_values("turn")
            ax.plot(d["turn"], d["share"], color=colours[str(b)], lw=1.2)
            ax.fill_between(d["turn"], d["ci_lo"], d["ci_hi"], color=colours[str(b)], alpha=0.2)
        ax.set_title(f"{n} players")
        ax.set_xlabel("turn")
        ax.grid(True, alpha=0.3)
    axes[0][0].set_ylabel("share of ships sent to the Casino")
    handles = [plt.Line2D([], [], color=colours[b]) for b in bots]
    fig.suptitle("Casino share of ship sends by bot and turn")
    legend(fig, f"bands: 95% Wilson CI\n{SMALL_NOTE}", handles, bots)
    return fig


def coins_by_turn(df: pd.DataFrame):
    """casino.coins_by_turn: mean coins in a safe at the end of the owner's turn."""
    return mean_band_by_players(df, "turn", "Coins in the safe at the end of a player's turn",
                                "turn", "mean coins in the safe")


def casino_bin_edges(df: pd.DataFrame) -> dict:
    """bin_lo -> (lo, hi) of each Casino bin from its label ("3-5" is [3, 6));
    the open-ended last one ("20+") is drawn as wide as the one before it."""
    bins = df.drop_duplicates("bin_lo").dropna(subset=["bin_lo"]).sort_values("bin_lo")
    out, width = {}, 3.0
    for lo, label in zip(bins["bin_lo"].astype(float), bins["casino_bin"].astype(str)):
        top = label.partition("-")[2]
        hi = float(top) + 1 if top.isdigit() else lo + width
        width = hi - lo
        out[lo] = (lo, hi)
    return out


def casino_use_vs_win(df: pd.DataFrame):
    """casino.casino_use_vs_win: win rate by ships sent to the Casino. The bins
    are unequal (0-2, ..., 15-19, 20+), so each is drawn over its own range of
    ships (a line across the bin, the Wilson CI at its middle) on a numeric
    axis: evenly spaced categories would stretch the narrow bins."""
    fig, ax = new_figure("Casino use and winning")
    edges = casino_bin_edges(df)
    for i, (n, d) in enumerate(enough(df).groupby("n_players")):
        d = d.sort_values("bin_lo")
        lo = np.asarray([edges[float(v)][0] for v in d["bin_lo"]])
        hi = np.asarray([edges[float(v)][1] for v in d["bin_lo"]])
        ax.errorbar((lo + hi) / 2, d["win_rate"], yerr=yerr(d, "win_rate"), fmt="o", capsize=3,
                    color=f"C{i}", label=f"{n} players")
        ax.hlines(d["win_rate"], lo, hi, colors=f"C{i}", lw=2, alpha=0.6)
    labels = df.drop_duplicates("bin_lo").set_index("bin_lo")["casino_bin"]
    mids = [(a + b) / 2 for a, b in edges.values()]
    ax.set_xticks(mids, [str(labels.get(lo, labels.get(int(lo), ""))) for lo in edges], fontsize=8)
    ax.set_xticks(sorted({e for pair in edges.values() for e in pair}), minor=True)
    ax.grid(True, which="minor", axis="x", alpha=0.3)
    ax.set_xlabel("ships sent to the Casino in the game (each bin over its own range)")
    ax.set_ylabel("win rate")
    legend(fig, f"bars: 95% Wilson CI\nbins with n < {MIN_N} not shown")
    return fig


# ---- trade ------------------------------------------------------------------
def trade_value_distribution(df: pd.DataFrame):
    """trade.value_distribution: share of trades per realised smuggling value."""
    return bars_by_count(df, "value", "share", "Smuggling value of a trade",
                          "value of the tokens sold (points)", "share of trades",
                          "bars: 95% Wilson CI" if "ci_lo" in df.columns else None)


def combo_sizes(df: pd.DataFrame):
    """trade.combo_sizes: share of combinations by kind and size (sample)."""
    fig, ax = new_figure("Combinations in optimal splits of the tokens sold")
    agg = df.groupby(["kind", "size"])[["count"]].sum().reset_index()
    tot = agg["count"].sum()
    for i, (kind, d) in enumerate(agg.groupby("kind")):
        ax.bar(d["size"] + (i - 0.5) * 0.4, d["count"] / tot, 0.38, label=kind)
    ax.set_xlabel("tokens in the combination (Wilds included)")
    ax.set_ylabel("share of combinations")
    legend(fig)
    return fig


def purchases_by_turn(df: pd.DataFrame):
    """trade.purchases_by_turn: copies bought per game by turn, stacked by
    card, a panel per player count (cards in order of first appearance in the
    table, which follows the rules' card order when the table came from
    events)."""
    counts = sorted(df["n_players"].unique())
    cards = list(dict.fromkeys(df["card"]))
    colours = {c: CATEGORY_COLOURS[i % len(CATEGORY_COLOURS)] for i, c in enumerate(cards)}
    fig, axes = plt.subplots(1, len(counts), figsize=(3.0 * len(counts) + 2.2, 3.8), sharey=True,
                             constrained_layout=True, squeeze=False)
    for ax, n in zip(axes[0], counts):
        d = df[df["n_players"] == n]
        piv = d.pivot_table(index="turn", columns="card", values="per_game", aggfunc="sum").fillna(0)
        bottom = np.zeros(len(piv))
        for card in [c for c in cards if c in piv.columns]:
            ax.bar(piv.index, piv[card], bottom=bottom, color=colours[card], label=card)
            bottom += piv[card].to_numpy()
        ax.set_title(f"{n} players")
        ax.set_xlabel("turn")
        ax.grid(True, axis="y", alpha=0.3)
    axes[0][0].set_ylabel("copies bought per game")
    handles = [plt.Rectangle((0, 0), 1, 1, color=colours[c]) for c in cards]
    fig.suptitle("Victory cards bought, by turn")
    legend(fig, None, handles, cards)
    return fig


def holder_win_rates(df: pd.DataFrame):
    """trade.holder_win_rates: win-rate difference holders - others per card,
    with Newcombe 95% CIs, one marker per player count."""
    fig, ax = new_figure("Win rate of card holders minus non-holders", figsize=(7.5, 4.8))
    cards = list(dict.fromkeys(df["card"]))
    for i, (n, d) in enumerate(df.groupby("n_players")):
        d = d.set_index("card").reindex(cards)
        y = np.arange(len(cards)) + 0.15 * (i - 1.5)
        ok = (d["n_holders"].fillna(0).to_numpy() >= MIN_N) & (d["n_others"].fillna(0).to_numpy() >= MIN_N)
        ax.errorbar(d["diff"][ok], y[ok], xerr=yerr(d[ok], "diff", "diff_ci_lo", "diff_ci_hi"),
                    fmt="o", ms=3, capsize=2, label=f"{n} players")
    ax.axvline(0, color="k", lw=0.8)
    ax.set_yticks(range(len(cards)), cards, fontsize=8)
    ax.set_xlabel("win rate difference (holders - others)")
    legend(fig, f"bars: 95% Newcombe CI\ncards with < {MIN_N} holders\nor others not shown")
    return fig


FIGURES = {
    # name: (function, source table, caption)
    "win_rate_by_seat": (win_rate_by_seat, "win_rate_by_seat",
                         "Win rate per seat and player count with 95% Wilson intervals; dashed: equal share 1/n."),
    "vp_by_seat": (vp_by_seat, "vp_by_seat", "Mean final VP per seat (95% t intervals)."),
    "vp_distribution": (vp_distribution, "vp_distribution",
                        "Distribution of final VP per seat (share of players with at most x VP)."),
    "margin_distribution": (margin_distribution, "margin_distribution",
                            "Margin of victory (winner minus runner-up VP; 0 = top VP tied)."),
    "edge_card_effect": (edge_card_effect, "edge_card_effect",
                         "Win rate of players holding 0/1/2 copies of each Smuggler's Edge card."),
    "port_popularity": (port_popularity, "port_popularity", "Ships sent per game to each outer port."),
    "price_by_turn": (price_by_turn, "price_by_turn", "Mean winning price of a port by turn."),
    "price_by_slots": (price_by_slots, "price_by_slots",
                       "Winning price and coins per point of smuggling value by port size."),
    "bidding_rates": (bidding_rates, "bidding_rates_by_turn",
                      "Share of port sends that met another ship, and share of outbid decisions that raised."),
    "overpay_distribution": (overpay_distribution, "overpay_distribution",
                             "Overpayment of contested wins (price minus the runner-up's last stack)."),
    "destinations_by_turn": (destinations_by_turn, "destinations_by_turn",
                             "Share of ships sent to the Casino and the Black Market by turn."),
    "casino_share_by_bot": (casino_share_by_bot, "casino_share_by_turn_bot",
                            "Share of each bot's ships sent to the Casino, by turn."),
    "coins_by_turn": (coins_by_turn, "coins_by_turn", "Mean coins in a safe at the end of its owner's turn."),
    "casino_use_vs_win": (casino_use_vs_win, "casino_use_vs_win", "Win rate by Casino use."),
    "trade_value_distribution": (trade_value_distribution, "trade_value_distribution",
                                 "Distribution of the smuggling value of trades."),
    "combo_sizes": (combo_sizes, "combo_sizes", "Kinds and sizes of combinations in optimal splits (sample of trades)."),
    "purchases_by_turn": (purchases_by_turn, "purchases_by_turn", "Victory cards bought per game by turn."),
    "holder_win_rates": (holder_win_rates, "holder_win_rates",
                         "Win-rate difference between holders and non-holders of each card."),
}
