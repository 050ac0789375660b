"""Where ships go (Casino, Black Market, ports), Casino coins, coins by turn, and
win rate by cards held or Casino visits.

A mixin of ``Aggregates`` (its data: ``agg.counters.Counters``)."""
from __future__ import annotations

import numpy as np
import pandas as pd

from ....core.stats import mean_from_sums, proportion
from .. import aggregate_nb as K


class CasinoTables:
    """The casino tables of ``Aggregates``."""

    def destinations(self, by=("turn",)) -> pd.DataFrame:
        """Share of ship sends going to the Casino, the Black Market and the
        ports, per group (``by``: subset of seat, turn): dest, count, n (ships
        sent in the group), share and 95 % Wilson CI."""
        by = list(by)
        k = self.n_players
        sends = self["sends"][:k]
        rows = []
        for seat in range(k):
            for t in np.flatnonzero(sends[seat].sum(axis=1)):
                for j, dest in enumerate(K.DEST_NAMES):
                    rows.append((seat, self.players[seat], int(t), dest, int(sends[seat, t, j])))
        d = pd.DataFrame(rows, columns=["seat", "bot", "turn", "dest", "count"])
        keys = by + ["dest"]
        if "seat" in by:
            keys.insert(by.index("seat") + 1, "bot")
        g = d.groupby(keys, sort=False)["count"].sum().reset_index()
        tot = g.groupby([c for c in keys if c != "dest"], sort=False)["count"].transform("sum") \
            if len(keys) > 1 else g["count"].sum()
        p = proportion(g["count"], tot, "share")
        g["n"], g["share"], g["ci_lo"], g["ci_hi"] = p["n"], p["share"], p["ci_lo"], p["ci_hi"]
        return g.sort_values(keys[:-1], kind="stable", ignore_index=True) if keys[:-1] else g

    def casino_share(self, by=("turn",)) -> pd.DataFrame:
        """Share of ship sends going to the Casino per group (see destinations)."""
        d = self.destinations(by)
        return d[d["dest"] == "Casino"].drop(columns="dest").reset_index(drop=True)

    def casino_coins(self) -> pd.DataFrame:
        """Casino resolutions by turn: ships, coins, coins per ship (summed over seats)."""
        c = self["casino_turn"][:self.n_players].sum(axis=0)
        t = np.flatnonzero(c[:, 0])
        with np.errstate(invalid="ignore", divide="ignore"):
            return pd.DataFrame({"turn": t, "ships": c[t, 0], "coins": c[t, 1],
                                 "coins_per_ship": c[t, 1] / c[t, 0]})

    def coins_by_turn(self, by_seat: bool = False) -> pd.DataFrame:
        """Coins in a player's safe after their last event of each turn: n
        (player-turns), mean with t CI."""
        c = self["coins_turn"][:self.n_players]
        if not by_seat:
            c = c.sum(axis=0)[None]
        rows = []
        for seat in range(c.shape[0]):
            for t in np.flatnonzero(c[seat, :, 0]):
                m = mean_from_sums(*c[seat, t])
                rows.append({**({"seat": seat, "bot": self.players[seat]} if by_seat else {}),
                             "turn": int(t), **{k: (int(v) if k == "n" else float(v)) for k, v in m.items()}})
        return pd.DataFrame(rows)

    def _outcome_frame(self, arr, keys: dict, by_seat: bool) -> pd.DataFrame:
        """OUTCOME_FIELDS rows -> n, win_rate (Wilson), mean_vp (t)."""
        d = pd.DataFrame(arr.reshape(-1, K.OUTCOME_W), columns=list(K.OUTCOME_FIELDS))
        for k, v in keys.items():
            d[k] = v
        gk = (["seat"] if by_seat else []) + [k for k in keys if k != "seat"]
        g = d.groupby(gk, sort=True)[list(K.OUTCOME_FIELDS)].sum().reset_index()
        g = g[g["players"] > 0].reset_index(drop=True)
        p = proportion(g["win60"] / K.WIN_SHARE_SCALE, g["players"], "win_rate")
        m = mean_from_sums(g["players"], g["vp_sum"], g["vp_sumsq"])
        out = g[gk].copy()
        if by_seat:
            out.insert(1, "bot", [self.players[s] for s in out["seat"]])
        out["n"] = p["n"]
        out["wins"] = g["wins"]
        out["win_rate"], out["ci_lo"], out["ci_hi"] = p["win_rate"], p["ci_lo"], p["ci_hi"]
        out["mean_vp"], out["vp_ci_lo"], out["vp_ci_hi"] = m["mean"], m["ci_lo"], m["ci_hi"]
        return out

    def card_effect(self, by_seat: bool = False) -> pd.DataFrame:
        """Win rate (shared wins split; Wilson CI) and mean VP (t CI) of players
        by copies held at the end of each card (``held``; COPY_BINS - 1 = that
        many or more); n = player-games. Observational: holders differ from
        non-holders in more than the card."""
        k, nc = self.n_players, len(self.cards)
        arr = self["card_outcome"][:k, :nc]
        seat, card, held = np.meshgrid(np.arange(k), np.arange(nc), np.arange(K.COPY_BINS), indexing="ij")
        names = np.asarray(self.cards, dtype=object)
        out = self._outcome_frame(arr, {"seat": seat.ravel(), "card_i": card.ravel(),
                                        "held": held.ravel()}, by_seat)
        out.insert(out.columns.get_loc("card_i"), "card", names[out["card_i"].to_numpy()])
        return out.drop(columns="card_i")

    def casino_use_vs_win(self, by_seat: bool = False) -> pd.DataFrame:
        """Win rate (Wilson CI) and mean VP (t CI) by ships sent to the Casino in
        the game (``casino_visits``; CASINO_BINS - 1 = that many or more); n =
        player-games."""
        k = self.n_players
        arr = self["casino_outcome"][:k]
        seat, v = np.meshgrid(np.arange(k), np.arange(K.CASINO_BINS), indexing="ij")
        return self._outcome_frame(arr, {"seat": seat.ravel(), "casino_visits": v.ravel()}, by_seat)
