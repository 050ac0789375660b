"""Cargo Empire's report figures: one function per figure, each taking one table of
``analyses.run_all`` and returning a matplotlib Figure (nothing computed here but the
selection of rows). The rules of docs/figures.md: a panel per player count, 95%
intervals as bars, one legend outside the axes whose title says what the bars mean,
points from fewer than MIN_N observations left out, every title naming the games the
figure rests on (the panel helpers are core.plotting's, shared by every game).
"""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from ...core import plotting  # noqa: E402
from ...core.plotting import SMALL, enough, err, games_basis, legend, panels, rate_bars  # noqa: E402

VEH = {"truck": "C1", "train": "C2", "ship": "C0", "all": "0.5"}


def win_rate_by_seat(df):
    fig, ps = panels(df, f"Win rate by seat, one bot in every seat ({games_basis(df)})")
    for n, ax in ps.items():
        d = enough(df[df["n_players"] == n]).sort_values("seat")
        ax.bar(d["seat"], d["win_rate"], 0.7, yerr=err(d, "win_rate"), capsize=3,
               color=[f"C{int(s)}" for s in d["seat"]], ecolor="0.2")
        ax.set_xticks(d["seat"], [f"seat {int(s)}" for s in d["seat"]], fontsize=8)
        ax.axhline(1 / n, color="k", ls="--", lw=1)
    next(iter(ps.values())).set_ylabel("win rate")
    legend(fig, f"bars: 95% Wilson CI\n{SMALL}", [plt.Line2D([], [], color="k", ls="--")], ["equal share 1/n"])
    return fig


def score_breakdown(df):
    return plotting.score_breakdown(df)


def first_player(df):
    return rate_bars(df, "place", "Win rate by the first round's order place, start player at random",
                     "order place in round 1 (1 = start player)")


def order_bonus(df):
    df = df.assign(label=[f"{p}\n{b}" for p, b in zip(df["place"], df["bonus"])])
    return rate_bars(df, "label", "Win rate by the order place earned at the cleanup, "
                     "observational", "order place and its bonus")


def delivery_lengths(df):
    fig, ps = panels(df, f"Deliveries by route length and cards paid (event log: {games_basis(df)})",
                     sharey=False)
    for n, ax in ps.items():
        d = df[df["n_players"] == n].sort_values("length")
        bottom = np.zeros(len(d))
        for v in ("truck", "train", "ship"):
            ax.bar(d["length"], d[v + "s"], 0.7, bottom=bottom, color=VEH[v], label=f"{v} cards")
            bottom += d[v + "s"].to_numpy()
        for x, b, s in zip(d["length"], bottom, d["share"]):
            ax.text(x, b, f"{100 * s:.0f}%", ha="center", va="bottom", fontsize=7)
        ax.set_xlabel("route length (segments)")
    next(iter(ps.values())).set_ylabel("cards paid per delivery")
    legend(fig, "stacked: mean cards of each vehicle\nlabels: share of deliveries")
    return fig


def delivery_costs(df):
    fig, ps = panels(df, f"Cards paid per delivery, by vehicle (event log: {games_basis(df)})")
    for n, ax in ps.items():
        d = enough(df[df["n_players"] == n])
        pos = np.arange(len(d))
        ax.bar(pos, d["per_delivery"], 0.7, yerr=err(d, "per_delivery"), capsize=3,
               color=[VEH.get(v, "C0") for v in d["vehicle"]], ecolor="0.2")
        ax.set_xticks(pos, d["vehicle"], fontsize=8)
    next(iter(ps.values())).set_ylabel("cards per delivery")
    legend(fig, f"bars: 95% CI clustered by game\n{SMALL}", [], [])
    return fig


def card_use(df):
    d0 = df[df["vehicle"] != "all"]
    fig, ps = panels(d0, f"Transport cards played per player-game ({games_basis(df)})")
    for n, ax in ps.items():
        d = enough(d0[d0["n_players"] == n])
        labels = [f"{v}\n{b}" if d["bot"].nunique() > 1 else v for v, b in zip(d["vehicle"], d["bot"])]
        pos = np.arange(len(d))
        ax.bar(pos, d["played"], 0.7, yerr=err(d, "played"), capsize=3,
               color=[VEH[v] for v in d["vehicle"]], ecolor="0.2")
        ax.set_xticks(pos, labels, fontsize=8)
    next(iter(ps.values())).set_ylabel("cards played")
    legend(fig, f"bars: 95% CI clustered by game\n{SMALL}", [], [])
    return fig


def development(df):
    fig, ps = panels(df, f"Vehicles on the score spaces at the end (event log: {games_basis(df)})")
    for n, ax in ps.items():
        d = enough(df[df["n_players"] == n])
        pos = np.arange(len(d))
        ax.bar(pos, d["scoring"], 0.7, yerr=err(d, "scoring"), capsize=3,
               color=[VEH[v] for v in d["vehicle"]], ecolor="0.2")
        ax.set_xticks(pos, d["vehicle"], fontsize=8)
    next(iter(ps.values())).set_ylabel("share of players")
    legend(fig, f"bars: 95% CI clustered by game\n{SMALL}", [], [])
    return fig


def scoring_vehicles_win(df):
    return rate_bars(df, "vehicles", "Win rate by vehicles on the score spaces", "vehicles scoring")


def perfect_win(df):
    return rate_bars(df, "perfect", "Win rate by perfect upgrades", "perfect upgrades caused")


def mission_win(df):
    return rate_bars(df, "missions_done", "Win rate by missions completed", "missions completed")


def pass_win(df):
    return rate_bars(df, "passes", "Win rate by forced passes", "forced passes")


# name -> (function, source table, caption); analyses/report.py draws those whose table exists
FIGURES = {
    "win_rate_by_seat": (win_rate_by_seat, "win_rate_by_seat", "Win rate by seat where one bot holds every seat."),
    "score_breakdown": (score_breakdown, "score_breakdown", "Mean points per player-game by source."),
    "first_player": (first_player, "first_player", "Win rate by the first round's order place."),
    "order_bonus": (order_bonus, "order_bonus", "Win rate by the order place taken at the cleanup."),
    "delivery_lengths": (delivery_lengths, "delivery_lengths", "Route lengths and the cards paid for them."),
    "delivery_costs": (delivery_costs, "delivery_costs", "Cards paid per delivery by vehicle."),
    "card_use": (card_use, "card_use", "Transport cards played per player-game."),
    "development": (development, "development", "Share of players whose vehicle reaches the score spaces."),
    "scoring_vehicles_win": (scoring_vehicles_win, "scoring_vehicles_win",
                             "Win rate by vehicles on the score spaces."),
    "perfect_win": (perfect_win, "perfect_win", "Win rate by perfect upgrades."),
    "mission_win": (mission_win, "mission_win", "Win rate by missions completed."),
    "pass_win": (pass_win, "pass_win", "Win rate by forced passes."),
}
# figures drawn from the event log's subsample of games (the others use every game)
EVENT_FIGURES = {"first_player", "order_bonus", "delivery_lengths", "delivery_costs", "development",
                 "scoring_vehicles_win"}
