"""Macao's aggregate counters: statistics of very large runs folded inside the kernel.

``cargo_sim.aggregate(10_000_000, ["greedy"] * 4, game="macao")`` plays the games
in chunks like ``simulate`` (the core's driver, core/aggregate.py) and folds each
game into a fixed-size int64 array (``aggregate_nb.SECTIONS``): memory is flat in the
number of games, the result identical for any workers and chunk size, and the
counters equal the same statistics computed from ``simulate(..., events=True)``.

``MacaoAggregates`` reads them as labelled DataFrames, each with its sample size
``n`` and a 95 % interval (Wilson for proportions, t for means from sums and sums of
squares): win rates, points per seat and by source, dice choices, cards, quarters,
the city and the wall, deliveries, penalties and the game's length.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ...core.aggregate import Fold, GameCounters
from ...core.counters import Layout, distribution
from ...core.errors import ConfigError
from ...core.seat_counters import SeatCounters, mean_row, seat_summary_lines
from ...core.stats import proportion
from . import aggregate_nb as K
from .enums import N_EVENT_FIELDS, PLAYER_FIELDS
from .game import Macao
from .rules import Rules

NAME = "macao"
LAYOUT = Layout("macao.aggregates/1", K.SECTIONS)
EVENT_ROWS_PER_SEAT = Macao.event_rows_per_seat    # first guess per game and seat (grown on overflow)


class MacaoAggregates(SeatCounters):
    """Counters of a Macao run (layout ``aggregate_nb.SECTIONS``), its configuration
    and rules; ``agg["dice_pairs"]`` is a raw section, the methods label them."""
    LAYOUT = LAYOUT
    RULES = Rules
    PLAYER_FIELDS = PLAYER_FIELDS
    GAME_STATS = K.GAME_STATS
    # the score's sources (vp is their sum): label, players-table column, points per unit
    SOURCES = (("deliveries", "delivery_vp"), ("tribute", "tribute_vp"), ("card effects", "card_vp"),
               ("end-game cards", "end_vp"), ("city group", "group", "group_points"),
               ("penalties", "penalty_vp", -1))
    SHARE_SECTION, WIN_SCALE = "win12", K.WIN_SHARE_SCALE
    # counts only (points sums may be negative: a holder's points, an end card's)
    COUNT_SECTIONS = ("games", "ties", "wins", "tied_wins", "win12", "dice_pairs", "lots", "quarters")

    def by_round(self) -> pd.DataFrame:
        """Per round and ROUND_FIELDS statistic (all seats): mean per game, 95 % t CI."""
        rs = self["round_stats"]
        rounds = int(self.rules["rounds"])
        rows = [{"round": r, "stat": f, **mean_row(self.n_games, rs[r, i, 0], rs[r, i, 1])}
                for r in range(min(rounds + 1, K.MAX_ROUNDS)) for i, f in enumerate(K.ROUND_FIELDS)]
        return pd.DataFrame(rows)

    # ---- choices -------------------------------------------------------------------
    def dice_choices(self, by_seat: bool = True) -> pd.DataFrame:
        """Dice choices by the colours of the two lots: count, share of the seat's
        choices (95 % Wilson)."""
        colours = self.rules.colours
        d = self["dice_pairs"][:self.n_players]
        if not by_seat:
            d = d.sum(0, keepdims=True)
        rows = [(s, colours[a], colours[b], int(d[s, a, b])) for s in range(d.shape[0])
                for a in range(K.NC) for b in range(K.NC) if d[s, a, b]]
        out = distribution(pd.DataFrame(rows, columns=["seat", "colour_1", "colour_2", "count"]),
                           ["seat"] if by_seat else [])
        return out if by_seat else out.drop(columns="seat")

    def cards(self) -> pd.DataFrame:
        """Per card: offered and drafted in the rounds (take rate = drafted / offered),
        drafted at setup, completed (completion rate = completed / all drafted),
        discarded, activations, end points; the players who completed it: n, their win
        rate (95 % Wilson) and mean points."""
        names = self.rules.card_names
        c, h = self["cards"][:len(names)], self["card_holders"][:len(names)]
        take = proportion(c[:, 1], c[:, 0], "take_rate")
        done = proportion(c[:, 3], c[:, 1] + c[:, 2], "completion_rate")
        win = proportion(h[:, 1] / K.WIN_SHARE_SCALE, h[:, 0], "win_rate")
        with np.errstate(invalid="ignore", divide="ignore"):
            vp = np.where(h[:, 0] > 0, h[:, 2] / np.maximum(h[:, 0], 1), np.nan)
        out = pd.DataFrame({"card": names, **{f: c[:, i] for i, f in enumerate(K.CARD_FIELDS)}})
        out["take_rate"], out["take_ci_lo"], out["take_ci_hi"] = take["take_rate"], take["ci_lo"], take["ci_hi"]
        out["completion_rate"], out["completion_ci_lo"], out["completion_ci_hi"] = (
            done["completion_rate"], done["ci_lo"], done["ci_hi"])
        out["holders"], out["holder_win_rate"] = h[:, 0], win["win_rate"]
        out["holder_ci_lo"], out["holder_ci_hi"], out["holder_mean_vp"] = win["ci_lo"], win["ci_hi"], vp
        return out

    def quarters(self) -> pd.DataFrame:
        """Per city quarter: games in which its goods tile was taken (share, 95 % Wilson)
        and the mean round it was taken."""
        qs = self.rules.quarters
        d = self["quarters"][:len(qs)]
        p = proportion(d[:, 0], np.full(len(qs), self.n_games), "taken_rate")
        with np.errstate(invalid="ignore", divide="ignore"):
            rnd = np.where(d[:, 0] > 0, d[:, 1] / np.maximum(d[:, 0], 1), np.nan)
        return pd.DataFrame({"quarter": qs, "n": p["n"], "taken": d[:, 0], "taken_rate": p["taken_rate"],
                             "ci_lo": p["ci_lo"], "ci_hi": p["ci_hi"], "mean_round": rnd})

    def distribution(self, what: str) -> pd.DataFrame:
        """Player-games by seat and value of ``what`` (``vp``, ``city``, ``group``,
        ``wall``): count, share of the seat's games (95 % Wilson)."""
        names = {"vp": "vp_hist", "city": "city_hist", "group": "group_hist", "wall": "wall_hist"}
        if what not in names:
            raise ConfigError(f"no distribution of {what!r}; one of {', '.join(names)}")
        h = self[names[what]][:self.n_players]
        low = K.VP_MIN if what == "vp" else 0           # the points histogram starts below 0
        rows = [(s, v + low, int(h[s, v])) for s in self._seats() for v in np.flatnonzero(h[s])]
        return distribution(pd.DataFrame(rows, columns=["seat", what, "count"]), ["seat"])

    def deliveries(self) -> pd.DataFrame:
        """Per port and good: deliveries, their share of all deliveries (95 % Wilson)
        and mean points per delivery."""
        ports, goods = self.rules.port_names, self.rules.goods
        d = self["deliveries"]
        rows = [(ports[p], goods[g], int(d[p, g, 0]), int(d[p, g, 1]))
                for p in range(len(ports)) for g in range(len(goods)) if d[p, g, 0]]
        out = distribution(pd.DataFrame(rows, columns=["port", "good", "count", "points"]), [])
        return out.assign(mean_points=out["points"] / out["count"])

    def penalties(self) -> pd.DataFrame:
        """Per seat and cause (PENALTY_FIELDS): mean per player-game, 95 % t CI."""
        p = self["penalties"]
        return pd.DataFrame([{"seat": s, "bot": self.players[s], "cause": f,
                              **mean_row(self.n_games, p[s, i, 0], p[s, i, 1])}
                             for s in self._seats() for i, f in enumerate(K.PENALTY_FIELDS)])


def load_aggregates(path) -> MacaoAggregates:
    """Read a ``MacaoAggregates.save`` file."""
    return MacaoAggregates.load(path)


def fold() -> Fold:
    """Macao's fold kernel for the core's driver."""
    return Fold(K.aggregate_games_nb, LAYOUT.size, N_EVENT_FIELDS, lambda: EVENT_ROWS_PER_SEAT,
                K.ensure_compiled)


def summary_lines(agg) -> list[str]:
    """The ``simulate --aggregate`` report: the seat table, the seat test, shared wins
    and the tie-break, then the points by source (all seats)."""
    return seat_summary_lines(agg, f" (tie-break: {agg.rules['tie_break']})")


COUNTERS = GameCounters(NAME, MacaoAggregates, fold, summary_lines)
