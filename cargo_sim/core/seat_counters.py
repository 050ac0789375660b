"""The seat tables every game's counters can share: win rates, the seat test, the
players table's means by seat, the score by source and the game's length, read from
the sections a fold kernel writes for each seat (``wins``, ``player_sum``,
``player_sumsq``, ``winner_sum``, ``game_sum``, ``game_sumsq``; optionally
``tied_wins`` and a win-share section scaled to stay an integer).

A game's ``Counters`` subclass derives from ``SeatCounters`` and names its
``PLAYER_FIELDS``, ``GAME_STATS``, ``SOURCES`` and win-share section; its own tables
sit beside these.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from .columns import aligned_rows
from .counters import Counters
from .errors import ConfigError
from .stats import chi2_equal, mean_from_sums, proportion


def mean_row(n, total, total_sq, factor=1) -> dict:
    """n, mean, sd, se and 95 % t interval from a count, sum and sum of squares."""
    m = mean_from_sums(n, np.asarray(total) * factor, np.asarray(total_sq) * factor * factor)
    return {k: (int(v) if k == "n" else float(v)) for k, v in m.items()}


class SeatCounters(Counters):
    PLAYER_FIELDS: tuple = ()      # the players table's columns (player_sum's second axis)
    GAME_STATS: tuple = ()         # game_sum's entries
    SOURCES: tuple = ()            # (label, players-table column[, factor]): the score's parts
    SHARE_SECTION: str | None = None   # win shares x WIN_SCALE by seat (None: wins never shared)
    WIN_SCALE = 1

    def win_shares(self) -> np.ndarray:
        k = self.n_players
        if self.SHARE_SECTION is None:
            return self["wins"][:k].astype(float)
        return self[self.SHARE_SECTION][:k] / self.WIN_SCALE

    def win_rates(self) -> pd.DataFrame:
        """Per seat: n (games), wins (shared ones included), win_share (a win shared
        by k counts 1/k), win_rate with its 95 % Wilson interval, expected = 1 / n_players."""
        k, n = self.n_players, self.n_games
        share = self.win_shares()
        p = proportion(share, np.full(k, n), "win_rate")
        out = pd.DataFrame({"seat": np.arange(k), "bot": self.players, "n": p["n"],
                            "wins": self["wins"][:k], "win_share": share, "win_rate": p["win_rate"],
                            "ci_lo": p["ci_lo"], "ci_hi": p["ci_hi"], "expected": 1.0 / k})
        if "tied_wins" in self.LAYOUT.shapes:
            out.insert(4, "tied_wins", self["tied_wins"][:k])
        return out

    def seat_test(self) -> dict:
        """Chi-square test that every seat wins equally often (win shares by seat)."""
        return {"n": self.n_games, **chi2_equal(self.win_shares())}

    def player_means(self, fields=None) -> pd.DataFrame:
        """Per seat and players-table statistic: n (games), mean, sd, se, 95 % t CI."""
        rows = []
        for f in list(fields or self.PLAYER_FIELDS):
            if f not in self.PLAYER_FIELDS:
                raise ConfigError(f"unknown player statistic {f!r}; one of {', '.join(self.PLAYER_FIELDS)}")
            i = self.PLAYER_FIELDS.index(f)
            for seat in self._seats():
                rows.append({"stat": f, "seat": seat, "bot": self.players[seat],
                             **mean_row(self.n_games, self["player_sum"][seat, i],
                                        self["player_sumsq"][seat, i])})
        return pd.DataFrame(rows)

    def summary(self) -> pd.DataFrame:
        """Per seat: win rate (95 % Wilson) and mean points (95 % t)."""
        w = self.win_rates()
        vp = self.player_means(["vp"])
        return w.assign(mean_vp=vp["mean"].to_numpy(), vp_ci_lo=vp["ci_lo"].to_numpy(),
                        vp_ci_hi=vp["ci_hi"].to_numpy())

    def score_sources(self) -> pd.DataFrame:
        """Mean points per player-game from each source by seat (the sources sum to
        the final score), 95 % t CI, and the mean over the seat's wins
        (``winners_mean``, n = wins). A source's optional factor turns its column
        into points: a number (-1 for a penalty) or the name of a rule (points each)."""
        rows = []
        for seat in self._seats():
            wins = int(self["wins"][seat])
            for label, col, *factor in tuple(self.SOURCES) + (("total", "vp"),):
                f = factor[0] if factor else 1
                f = int(self.rules[f]) if isinstance(f, str) else f
                i = self.PLAYER_FIELDS.index(col)
                m = mean_row(self.n_games, self["player_sum"][seat, i], self["player_sumsq"][seat, i], f)
                rows.append({"seat": seat, "bot": self.players[seat], "source": label, **m,
                             "wins": wins, "winners_mean": (f * int(self["winner_sum"][seat, i]) / wins
                                                            if wins else np.nan)})
        return pd.DataFrame(rows)

    def game_length(self) -> pd.DataFrame:
        """GAME_STATS per game: n, mean, 95 % t CI."""
        return pd.DataFrame([{"stat": s, **mean_row(self.n_games, self["game_sum"][i],
                                                    self["game_sumsq"][i])}
                             for i, s in enumerate(self.GAME_STATS)])


def seat_summary_lines(agg: SeatCounters, ties_note: str = "") -> list[str]:
    """Per seat win rate (95 % Wilson) and mean points (95 % t), the seat test and the
    shared wins (followed by ``ties_note``), then the points by source (mean per
    player): the head of a game's ``simulate --aggregate`` report."""
    rows = [("seat", "bot", "win rate", "95% CI", "mean points", "95% CI")]
    for _, r in agg.summary().iterrows():
        rows.append((str(r["seat"]), str(r["bot"]), f"{100 * r['win_rate']:.2f}%",
                     f"[{100 * r['ci_lo']:.2f}%, {100 * r['ci_hi']:.2f}%]", f"{r['mean_vp']:.2f}",
                     f"[{r['vp_ci_lo']:.2f}, {r['vp_ci_hi']:.2f}]"))
    lines = aligned_rows(rows)
    t = agg.seat_test()
    line = f"equal seats: chi2 {t['chi2']:.2f} on {t['dof']} df, p = {t['p_value']:.3g}"
    if "ties" in agg.LAYOUT.shapes:
        line += f"; shared wins: {int(agg['ties'][0])} of {agg.n_games} games{ties_note}"
    lines.append(line)
    src = agg.score_sources()
    src = src[src["source"] != "total"].groupby("source", sort=False)["mean"].sum() / agg.n_players
    lines.append("points by source (mean per player): "
                 + ", ".join(f"{k} {v:.2f}" for k, v in src.items()))
    return lines
