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
from ...core.counters import Counters, Layout, distribution
from ...core.errors import ConfigError
from ...core.stats import chi2_equal, mean_from_sums, proportion
from . import aggregate_nb as K
from .enums import N_EVENT_FIELDS, PLAYER_FIELDS
from .game import Macao
from .rules import Rules

NAME = "macao"
LAYOUT = Layout("macao.aggregates/1", K.SECTIONS)
EVENT_ROWS_PER_SEAT = Macao.event_rows_per_seat    # first guess per game and seat (grown on overflow)

# the score's sources (the players table's columns; vp is their sum): label, column, factor
SOURCES = (("deliveries", "delivery_vp", 1), ("tribute", "tribute_vp", 1),
           ("card effects", "card_vp", 1), ("end-game cards", "end_vp", 1),
           ("city group", "group", None), ("penalties", "penalty_vp", -1))


def _mean(n, total, total_sq, factor=1) -> dict:
    m = mean_from_sums(n, np.asarray(total) * factor, np.asarray(total_sq) * factor * factor)
    return {k: (int(v) if k == "n" else float(v)) for k, v in m.items()}


class MacaoAggregates(Counters):
    """Counters of a Macao run (layout ``aggregate_nb.SECTIONS``), its configuration
    and rules; ``agg["dice_pairs"]`` is a raw section, the methods label them."""
    LAYOUT = LAYOUT
    RULES = Rules
    # counts only (points sums may be negative: a holder's points, an end card's)
    COUNT_SECTIONS = ("games", "ties", "wins", "tied_wins", "win12", "dice_pairs", "lots", "quarters")

    # ---- outcomes ------------------------------------------------------------------
    def win_rates(self) -> pd.DataFrame:
        """Per seat: n (games), wins (shared ones included), tied_wins, win_share
        (a win shared by k counts 1/k), win_rate with its 95 % Wilson interval,
        expected = 1 / n_players."""
        k, n = self.n_players, self.n_games
        share = self["win12"][:k] / K.WIN_SHARE_SCALE
        p = proportion(share, np.full(k, n), "win_rate")
        return pd.DataFrame({"seat": np.arange(k), "bot": self.players, "n": p["n"],
                             "wins": self["wins"][:k], "tied_wins": self["tied_wins"][:k],
                             "win_share": share, "win_rate": p["win_rate"], "ci_lo": p["ci_lo"],
                             "ci_hi": p["ci_hi"], "expected": 1.0 / k})

    def seat_test(self) -> dict:
        """Chi-square test that every seat wins equally often (win shares by seat)."""
        return {"n": self.n_games, **chi2_equal(self["win12"][:self.n_players] / K.WIN_SHARE_SCALE)}

    def player_means(self, fields=None) -> pd.DataFrame:
        """Per seat and players-table statistic: n (games), mean, sd, se, 95 % t CI."""
        rows = []
        for f in list(fields or PLAYER_FIELDS):
            if f not in PLAYER_FIELDS:
                raise ConfigError(f"unknown player statistic {f!r}")
            i = PLAYER_FIELDS.index(f)
            for seat in self._seats():
                rows.append({"stat": f, "seat": seat, "bot": self.players[seat],
                             **_mean(self.n_games, self["player_sum"][seat, i],
                                     self["player_sumsq"][seat, i])})
        return pd.DataFrame(rows)

    def summary(self) -> pd.DataFrame:
        """Per seat: win rate (95 % Wilson) and mean points (95 % t)."""
        w = self.win_rates()
        vp = self.player_means(["vp"])
        return w.assign(mean_vp=vp["mean"].to_numpy(), vp_ci_lo=vp["ci_lo"].to_numpy(),
                        vp_ci_hi=vp["ci_hi"].to_numpy())

    def score_sources(self) -> pd.DataFrame:
        """Mean points per player-game from each source by seat (penalties negative;
        the sources sum to the final score), 95 % t CI, and the mean over the seat's
        wins (``winners_mean``, n = wins)."""
        gp = int(self.rules["group_points"])
        rows = []
        for seat in self._seats():
            wins = int(self["wins"][seat])
            for label, col, f in SOURCES + (("total", "vp", 1),):
                f = gp if f is None else f
                i = PLAYER_FIELDS.index(col)
                m = _mean(self.n_games, self["player_sum"][seat, i], self["player_sumsq"][seat, i], f)
                rows.append({"seat": seat, "bot": self.players[seat], "source": label, **m,
                             "wins": wins, "winners_mean": (f * int(self["winner_sum"][seat, i]) / wins
                                                            if wins else np.nan)})
        return pd.DataFrame(rows)

    def game_length(self) -> pd.DataFrame:
        """Rounds, decisions and cards left in the deck per game: n, mean, 95 % t CI."""
        return pd.DataFrame([{"stat": s, **_mean(self.n_games, self["game_sum"][i], self["game_sumsq"][i])}
                             for i, s in enumerate(K.GAME_STATS)])

    def by_round(self) -> pd.DataFrame:
        """Per round and ROUND_FIELDS statistic (all seats): mean per game, 95 % t CI."""
        rs = self["round_stats"]
        rounds = int(self.rules["rounds"])
        rows = [{"round": r, "stat": f, **_mean(self.n_games, rs[r, i, 0], rs[r, i, 1])}
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
                              **_mean(self.n_games, p[s, i, 0], p[s, i, 1])}
                             for s in self._seats() for i, f in enumerate(K.PENALTY_FIELDS)])


def load_aggregates(path) -> MacaoAggregates:
    """Read a ``MacaoAggregates.save`` file."""
    return MacaoAggregates.load(path)


def fold() -> Fold:
    """Macao's fold kernel for the core's driver."""
    return Fold(K.aggregate_games_nb, LAYOUT.size, N_EVENT_FIELDS, lambda: EVENT_ROWS_PER_SEAT,
                K.ensure_compiled)


def summary_lines(agg) -> list[str]:
    """The ``simulate --aggregate`` report: per seat win rate (95 % Wilson) and mean
    points (95 % t), the seat test and ties, then the points by source (all seats)."""
    from ...core.columns import aligned_rows
    rows = [("seat", "bot", "win rate", "95% CI", "mean points", "95% CI")]
    for _, r in agg.summary().iterrows():
        rows.append((str(r["seat"]), str(r["bot"]), f"{100 * r['win_rate']:.2f}%",
                     f"[{100 * r['ci_lo']:.2f}%, {100 * r['ci_hi']:.2f}%]", f"{r['mean_vp']:.2f}",
                     f"[{r['vp_ci_lo']:.2f}, {r['vp_ci_hi']:.2f}]"))
    lines = aligned_rows(rows)
    t = agg.seat_test()
    ties = int(agg["ties"][0])
    lines.append(f"equal seats: chi2 {t['chi2']:.2f} on {t['dof']} df, p = {t['p_value']:.3g}; "
                 f"shared wins: {ties} of {agg.n_games} games (tie-break: {agg.rules['tie_break']})")
    src = agg.score_sources()
    src = src[src["source"] != "total"].groupby("source", sort=False)["mean"].sum() / agg.n_players
    lines.append("points by source (mean per player): "
                 + ", ".join(f"{k} {v:.2f}" for k, v in src.items()))
    return lines


COUNTERS = GameCounters(NAME, MacaoAggregates, fold, summary_lines)
