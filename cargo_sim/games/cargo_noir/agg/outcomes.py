"""Who wins and by how much: win rates, the seat test, per-player means, VP, margins,
bank shortfalls.

A mixin of ``Aggregates`` (its data: ``agg.counters.Counters``)."""
from __future__ import annotations

import numpy as np
import pandas as pd

from ....core.errors import ConfigError
from ....core.stats import chi2_equal, mean_from_sums, proportion
from .. import aggregate_nb as K
from ..enums import PLAYER_FIELDS
from .counters import distribution, hist_quantiles


class OutcomeTables:
    """The outcomes tables of ``Aggregates``."""

    def win_rates(self) -> pd.DataFrame:
        """Per seat: n (games), wins (shared ones included), tied_wins,
        win_share (a win shared by k counts 1/k), win_rate = win_share / n with
        its 95 % Wilson interval, expected = 1 / n_players."""
        n = self.n_games
        k = self.n_players
        share = self["win60"][:k] / K.WIN_SHARE_SCALE
        out = pd.DataFrame({"seat": np.arange(k), "bot": self.players,
                            "wins": self["wins"][:k], "tied_wins": self["tied_wins"][:k]})
        p = proportion(share, np.full(k, n), "win_rate")
        out.insert(2, "n", p["n"])
        out["win_share"] = share
        out["win_rate"], out["ci_lo"], out["ci_hi"] = p["win_rate"], p["ci_lo"], p["ci_hi"]
        out["expected"] = 1.0 / k
        return out

    def seat_test(self) -> dict:
        """Pearson chi-square test that every seat wins equally often (observed:
        win shares by seat; expected n / seats): n, chi2, dof, p_value,
        max_abs_dev (largest |win rate - 1/seats|). With different bots in the
        seats this tests seat and bot together."""
        o = self["win60"][:self.n_players] / K.WIN_SHARE_SCALE
        test = chi2_equal(o)
        dev = np.nan if np.isnan(test["chi2"]) else float(np.max(np.abs(o / self.n_games - 1 / len(o))))
        return {"n": self.n_games, **test, "max_abs_dev": dev}

    def player_means(self, fields=None) -> pd.DataFrame:
        """Mean of per-player statistics (SimResults.players columns) by seat:
        one row per seat and statistic with n (games), mean, sd, se, 95 % t CI."""
        fields = list(fields or PLAYER_FIELDS)
        rows = []
        s, ss = self["player_sum"], self["player_sumsq"]
        for f in fields:
            if f not in PLAYER_FIELDS:
                raise ConfigError(f"unknown player statistic {f!r}")
            i = PLAYER_FIELDS.index(f)
            for seat in self._seats():
                m = mean_from_sums(self.n_games, s[seat, i], ss[seat, i])
                rows.append({"stat": f, "seat": seat, "bot": self.players[seat],
                             **{k: (int(v) if k == "n" else float(v)) for k, v in m.items()}})
        return pd.DataFrame(rows)

    def vp(self) -> pd.DataFrame:
        """Final VP by seat: n (games), mean with 95 % t CI (exact sums), sd,
        and the 10/25/50/75/90th percentiles from the VP histogram."""
        out = self.player_means(["vp"]).drop(columns="stat")
        q = np.array([hist_quantiles(self["vp_hist"][seat]) for seat in self._seats()])
        for j, name in enumerate(("p10", "p25", "median", "p75", "p90")):
            out[name] = q[:, j]
        return out

    def summary(self) -> pd.DataFrame:
        """Win rate (shared wins split) with 95 % CI and mean VP by seat."""
        w = self.win_rates().set_index("seat")
        v = self.vp().set_index("seat")
        return pd.DataFrame({"bot": w["bot"], "games": w["n"], "win_rate": w["win_rate"],
                             "ci_lo": w["ci_lo"], "ci_hi": w["ci_hi"], "mean_vp": v["mean"],
                             "vp_ci_lo": v["ci_lo"], "vp_ci_hi": v["ci_hi"]})

    def vp_distribution(self) -> pd.DataFrame:
        """Share of games each seat ends with each VP total (bins with players;
        the last bin, VP_BINS - 1, holds that many or more): seat, bot, vp,
        count, n, share, 95 % Wilson CI."""
        rows = []
        for seat in self._seats():
            h = self["vp_hist"][seat]
            for v in np.flatnonzero(h):
                rows.append((seat, self.players[seat], int(v), int(h[v])))
        return distribution(pd.DataFrame(rows, columns=["seat", "bot", "vp", "count"]), ["seat"])

    def margins(self) -> pd.DataFrame:
        """Share of games per margin of victory (winner VP - runner-up VP; 0 =
        top VP tied): margin, count, n, share, 95 % Wilson CI."""
        h = self["margin_hist"]
        d = pd.DataFrame({"margin": np.flatnonzero(h), "count": h[h > 0]})
        return distribution(d, [])

    def margin_summary(self) -> dict:
        """n (games), mean margin with t CI, share decided by <= 3 VP, share with
        a top-VP tie, share of shared wins (Wilson CIs)."""
        n, s, ss = self["margin"]
        m = mean_from_sums(n, s, ss)
        h = self["margin_hist"]
        out = {k: (int(v) if k == "n" else float(v)) for k, v in m.items()}
        for name, x in (("share_le3", h[:4].sum()), ("top_vp_tie_rate", h[0]),
                        ("tie_rate", self["ties"][0])):
            p = proportion(x, n, name)
            out[name], out[f"{name}_ci_lo"], out[f"{name}_ci_hi"] = (
                float(p[name]), float(p["ci_lo"]), float(p["ci_hi"]))
        return out

    def shortfalls(self) -> dict:
        """Bank shortfalls: n (games), shortfall_rate (games with at least one,
        Wilson CI), mean shortfalls and coins short per game (t CIs)."""
        n = self.n_games
        p = proportion(n - self["shortfall_hist"][0], n, "shortfall_rate")
        out = {"n": n, "shortfall_rate": float(p["shortfall_rate"]), "ci_lo": float(p["ci_lo"]),
               "ci_hi": float(p["ci_hi"])}
        for i, name in enumerate(K.GAME_STATS):
            m = mean_from_sums(n, self["game_sum"][i], self["game_sumsq"][i])
            out[f"mean_{name}"] = float(m["mean"])
            out[f"mean_{name}_ci_lo"], out[f"mean_{name}_ci_hi"] = float(m["ci_lo"]), float(m["ci_hi"])
        return out
