"""Macao's report figures: one function per figure, each taking one table of
``analyses.run_all`` and returning a matplotlib Figure (nothing computed here but
the selection of rows). The rules of docs/figures.md: a panel per player count,
95% intervals as bars or bands, one legend outside the axes whose title says what
the bars mean, points from fewer than MIN_N observations left out, and every
title naming the games the figure rests on.
"""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from ...core import plotting  # noqa: E402
from ...core.plotting import (MIN_N, SMALL, WHO, enough, err, games_basis, legend, panels,  # noqa: E402
                              rate_bars)

# the panel helpers every game's report figures share
_panels, _games, _err, _enough, _rate_bars = panels, games_basis, err, enough, rate_bars


def win_rate_by_seat(df):
    fig, panels = _panels(df, f"Win rate by seat, one bot in every seat ({_games(df)})")
    for n, ax in panels.items():
        d = _enough(df[df["n_players"] == n]).sort_values("seat")
        ax.bar(d["seat"], d["win_rate"], 0.7, yerr=_err(d, "win_rate"), capsize=3,
               color=[f"C{int(s)}" for s in d["seat"]], ecolor="0.2")
        ax.set_xticks(d["seat"], [f"seat {int(s)}\n{b}" for s, b in zip(d["seat"], d["bot"])], fontsize=8)
        ax.axhline(1 / n, color="k", ls="--", lw=1)
    next(iter(panels.values())).set_ylabel("win rate (shared wins split)")
    legend(fig, f"bars: 95% Wilson CI\n{SMALL}", [plt.Line2D([], [], color="k", ls="--")], ["equal share 1/n"])
    return fig


def score_breakdown(df):
    return plotting.score_breakdown(df, height=4.0, zero_line=True)     # penalties are negative


def card_holders(df, top=8):
    """The cards whose drafters' win rate differs most from the others' (both ends)."""
    d0 = df[(df["n_holders"] >= MIN_N) & (df["n_others"] >= MIN_N)]
    fig, panels = _panels(d0 if len(d0) else df, "Drafters' win rate minus the others' "
                          f"(event log: {_games(df)})", width=4.2, height=5.0,
                          sharey=False)
    for n, ax in panels.items():
        d = d0[d0["n_players"] == n].sort_values("diff")
        d = d if len(d) <= 2 * top else d.iloc[np.r_[0:top, len(d) - top:len(d)]]
        pos = np.arange(len(d))
        ax.barh(pos, d["diff"], 0.7, xerr=np.vstack([d["diff"] - d["diff_ci_lo"], d["diff_ci_hi"] - d["diff"]]),
                color=np.where(d["diff"] > 0, "#2ca02c", "#d62728"), ecolor="0.2", capsize=2)
        ax.set_yticks(pos, d["card"], fontsize=7)
        ax.axvline(0, color="k", lw=0.8)
        ax.set_xlabel("win-rate difference")
    legend(fig, f"bars: 95% CI clustered by game\nthe {top} highest and lowest cards\n"
                 f"cards with < {MIN_N} drafters not shown", [], [])
    return fig


def dice_by_round(df):
    fig, panels = _panels(df, f"Pips of the dice chosen by round (event log: {_games(df)})")
    for n, ax in panels.items():
        for who, c in WHO.items():
            d = _enough(df[(df["n_players"] == n) & (df["who"] == who)]).sort_values("round")
            ax.plot(d["round"], d["mean"], "o-", color=c, ms=3, label=who)
            ax.fill_between(d["round"], d["ci_lo"], d["ci_hi"], color=c, alpha=0.2)
        ax.set_xlabel("round")
    next(iter(panels.values())).set_ylabel("mean pips (rounds the cubes wait)")
    legend(fig, f"bands: 95% CI clustered by game\n{SMALL}")
    return fig


def dice_colours(df):
    fig, panels = _panels(df, f"Colours of the dice chosen (event log: {_games(df)})")
    for n, ax in panels.items():
        d = df[df["n_players"] == n]
        colours = list(dict.fromkeys(d["colour"]))
        for k, who in enumerate(("winners", "others")):
            w = d[d["who"] == who].set_index("colour").reindex(colours)
            pos = np.arange(len(colours)) + (k - 0.5) * 0.38
            ax.bar(pos, w["share"], 0.36, yerr=_err(w, "share"), color=WHO[who], ecolor="0.2", capsize=2,
                   label=who)
        ax.set_xticks(np.arange(len(colours)), colours, fontsize=7, rotation=45)
        ax.axhline(1 / 6, color="k", ls="--", lw=1)
    next(iter(panels.values())).set_ylabel("share of dice chosen")
    legend(fig, "bars: 95% CI clustered by game\ndashed: 1 in 6")
    return fig


def waste_by_round(df):
    d0 = df[df["measure"] == "wasted"]
    fig, panels = _panels(d0, "Cubes lost unspent per player, by round "
                              f"(event log: {_games(d0)})")
    for n, ax in panels.items():
        d = _enough(d0[d0["n_players"] == n]).sort_values("round")
        ax.bar(d["round"], d["mean"], 0.7, yerr=_err(d, "mean"), capsize=2, color="C1", ecolor="0.2")
        ax.set_xlabel("round")
    next(iter(panels.values())).set_ylabel("cubes lost at the round's end")
    legend(fig, f"bars: 95% CI clustered by game\n{SMALL}", [], [])
    return fig


def wall_rank_win(df):
    return _rate_bars(df,
                      "wall_place", "Win rate by place on the city wall at the end", "wall place (1 = furthest)")


def group_win(df):
    return _rate_bars(df,
                      "group", "Win rate by the largest connected group", "quarters in the group")


def tribute_win(df):
    return _rate_bars(df,
                      "tributes", "Win rate by tributes bought", "tributes bought")


def deliveries(df):
    fig, panels = _panels(df, "Deliveries per game by port and good "
                          f"(event log: {_games(df)})", width=3.8, height=3.8,
                          sharey=False)
    for n, ax in panels.items():
        d = df[df["n_players"] == n].pivot_table(index="port", columns="good", values="per_game", sort=False)
        im = ax.imshow(d.to_numpy(), cmap="Blues", aspect="auto")
        ax.set_yticks(range(len(d.index)), d.index, fontsize=7)
        ax.set_xticks(range(len(d.columns)), d.columns, fontsize=7, rotation=60)
        ax.grid(False)
        fig.colorbar(im, ax=ax, shrink=0.8, label="deliveries per game")
    return fig


# name -> (function, source table, caption); analyses/report.py draws those whose table exists
FIGURES = {
    "win_rate_by_seat": (win_rate_by_seat, "win_rate_by_seat", "Win rate by seat where one bot holds every seat."),
    "score_breakdown": (score_breakdown, "score_breakdown", "Mean points per player-game by source."),
    "card_holders": (card_holders, "cards", "Win rate of a card's drafters minus the others'."),
    "dice_by_round": (dice_by_round, "dice_by_round", "Pips of the dice chosen by round, winners and the others."),
    "dice_colours": (dice_colours, "dice_colours", "Colours of the dice chosen, winners and the others."),
    "waste_by_round": (waste_by_round, "waste_by_round", "Cubes lost unspent per player by round."),
    "wall_rank_win": (wall_rank_win, "wall_rank_win", "Win rate by the final place on the city wall."),
    "group_win": (group_win, "group_win", "Win rate by the largest connected group of quarters."),
    "deliveries": (deliveries, "deliveries", "Deliveries per game by port and good."),
    "tribute_win": (tribute_win, "tribute_win", "Win rate by tributes bought."),
}
# figures drawn from the event log's subsample of games (the others use every game)
EVENT_FIGURES = {"card_holders", "dice_by_round", "dice_colours", "waste_by_round", "deliveries"}
