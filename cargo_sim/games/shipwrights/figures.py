"""Shipwrights' report figures: one function per figure, each taking one table of
``analyses.run_all`` and returning a matplotlib Figure (nothing computed here but the
selection of rows). The shared parts (a panel per player count, 95% intervals, one
legend outside the axes, small samples left out, titles naming the games) are
``core.plotting``'s."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import numpy as np  # noqa: E402

from ...core.plotting import (SMALL, diff_bars, enough, err, games_basis, legend, panels,  # noqa: E402
                              rate_bars, seat_bars)

WHO = {"winners": "#d62728", "others": "#1f77b4"}


def _paired_barh(df, cat, title, xlabel, y="mean", basis=""):
    """Winners' and the others' bars side by side per ``cat``."""
    fig, axes = panels(df, f"{title} ({basis}{games_basis(df)})", width=3.6, height=3.6)
    cats = list(dict.fromkeys(df[cat]))
    for n, ax in axes.items():
        d = df[df["n_players"] == n]
        for k, who in enumerate(("winners", "others")):
            w = d[d["who"] == who].set_index(cat).reindex(cats)
            pos = np.arange(len(cats)) + (k - 0.5) * 0.38
            ax.barh(pos, w[y], 0.36, xerr=err(w, y), color=WHO[who], ecolor="0.2", capsize=2, label=who)
        ax.set_yticks(np.arange(len(cats)), cats, fontsize=8)
        ax.axvline(0, color="k", lw=0.8)
        ax.set_xlabel(xlabel)
    legend(fig, "bars: 95% CI clustered by game")
    return fig


def score_breakdown(df):
    return _paired_barh(df[df["source"] != "total"], "source", "Points by source, winners and the others",
                        "mean points per player-game")


def draft_kinds(df):
    return _paired_barh(df, "kind", "Kinds of the cards drafted, winners and the others",
                        "share of the cards drafted", y="share", basis="event log: ")


def drafts(df):
    return diff_bars(df, "card", "Drafters' win rate minus the others'")


def attacks(df):
    return diff_bars(df, "townsfolk", "Attackers' win rate minus the others'")


def buildings(df):
    return diff_bars(df, "building", "Builders' win rate minus the others'")


def ships_by_day(df):
    fig, axes = panels(df, f"Ships completed per player by day (event log: {games_basis(df)})")
    for n, ax in axes.items():
        for who, c in WHO.items():
            d = enough(df[(df["n_players"] == n) & (df["who"] == who)]).sort_values("day")
            ax.plot(d["day"], d["mean"], "o-", color=c, ms=3, label=who)
            ax.fill_between(d["day"], d["ci_lo"], d["ci_hi"], color=c, alpha=0.2)
        ax.set_xlabel("day")
    next(iter(axes.values())).set_ylabel("ships completed (games still running)")
    legend(fig, f"bands: 95% CI clustered by game\n{SMALL}")
    return fig


def game_length(df):
    fig, axes = panels(df, f"Days per game: the day a 4th ship ends it ({games_basis(df)})")
    for n, ax in axes.items():
        d = df[df["n_players"] == n].sort_values("days")
        ax.bar(d["days"], d["share"], 0.8, color="C2")
        ax.set_xlabel("days")
    next(iter(axes.values())).set_ylabel("share of games")
    legend(fig, "share of the games ending on that day", [], [])
    return fig


def attacked_win(df):
    return rate_bars(df, "attacked", "Win rate by times attacked", "attacks suffered (thirds)")


def buildings_win(df):
    return rate_bars(df, "buildings", "Win rate by buildings bought", "buildings")


def ships_win(df):
    return rate_bars(df, "ships", "Win rate by ships completed", "ships")


def win_rate_by_seat(df):
    return seat_bars(df)


# name -> (function, source table, caption); analyses/report.py draws those whose table exists
FIGURES = {
    "win_rate_by_seat": (win_rate_by_seat, "win_rate_by_seat", "Win rate by seat where one bot holds every seat."),
    "score_breakdown": (score_breakdown, "score_breakdown", "Mean points per player-game by source."),
    "drafts": (drafts, "drafts", "Win rate of a card's drafters minus the others'."),
    "draft_kinds": (draft_kinds, "draft_kinds", "Kinds of the cards drafted, winners and the others."),
    "ships_by_day": (ships_by_day, "ships_by_day", "Ships completed per player by day, winners and the others."),
    "game_length": (game_length, "game_length", "Days per game."),
    "ships_win": (ships_win, "ships_win", "Win rate by ships completed."),
    "attacks": (attacks, "attacks", "Win rate of the players of an attacking townsfolk minus the others'."),
    "attacked_win": (attacked_win, "attacked_win", "Win rate by times attacked."),
    "buildings": (buildings, "buildings", "Win rate of a building's builders minus the others'."),
    "buildings_win": (buildings_win, "buildings_win", "Win rate by buildings bought."),
}
# figures drawn from the event log's subsample of games (the others use every game)
EVENT_FIGURES = {"drafts", "draft_kinds", "ships_by_day", "attacks", "buildings"}
