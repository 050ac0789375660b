"""Trades, their values and losses, card purchases, Syndicate payments.

A mixin of ``Aggregates`` (its data: ``agg.counters.Counters``)."""
from __future__ import annotations

import numpy as np
import pandas as pd

from ....core.stats import mean_from_sums, proportion
from .. import aggregate_nb as K
from .counters import distribution


class TradingTables:
    """The trading tables of ``Aggregates``."""

    def trades(self, by=("turn",)) -> pd.DataFrame:
        """Trades per group (``by``: subset of seat, turn): n = trades, mean
        value, tokens, value lost to no change (t CIs for value and lost),
        wild_share and lossy_share (Wilson CIs), trades per game."""
        by = list(by)
        k = self.n_players
        tt = self["trade_turn"][:k]
        rows = []
        for seat in range(k):
            for t in np.flatnonzero(tt[seat, :, 0]):
                rows.append((seat, self.players[seat], int(t), *tt[seat, t]))
        d = pd.DataFrame(rows, columns=["seat", "bot", "turn"] + list(K.TRADE_FIELDS))
        keys = list(by)
        if "seat" in by:
            keys.insert(by.index("seat") + 1, "bot")
        cols = list(K.TRADE_FIELDS)
        g = d.groupby(keys, sort=True)[cols].sum().reset_index() if keys else d[cols].sum().to_frame().T
        out = g[keys].copy()
        out["n"] = g["trades"].astype(np.int64)
        out["per_game"] = g["trades"] / self.n_games
        for col, sq in (("value", "value_sumsq"), ("lost", "lost_sumsq")):
            m = mean_from_sums(g["trades"], g[col], g[sq])
            out[col], out[f"{col}_ci_lo"], out[f"{col}_ci_hi"] = m["mean"], m["ci_lo"], m["ci_hi"]
        with np.errstate(invalid="ignore", divide="ignore"):
            out["tokens"] = g["tokens"] / g["trades"]
            out["coins_used"] = g["coins_used"] / g["trades"]
        for name, x in (("wild_share", "with_wild"), ("lossy_share", "lossy")):
            p = proportion(g[x], g["trades"], name)
            out[name], out[f"{name}_ci_lo"], out[f"{name}_ci_hi"] = p[name], p["ci_lo"], p["ci_hi"]
        return out

    def trade_values(self, which: str = "value", by_seat: bool = False) -> pd.DataFrame:
        """Distribution of the smuggling value of trades (``which="value"``) or
        of the value lost to no change (``"lost"``): value, count, n (trades),
        share, 95 % Wilson CI. The last bin holds that value or more."""
        h = self["trade_value_hist" if which == "value" else "trade_lost_hist"][:self.n_players]
        if not by_seat:
            h = h.sum(axis=0)[None]
        rows = []
        for seat in range(h.shape[0]):
            for v in np.flatnonzero(h[seat]):
                rows.append(((seat,) if by_seat else ()) + (int(v), int(h[seat, v])))
        d = pd.DataFrame(rows, columns=(["seat"] if by_seat else []) + [which, "count"])
        return distribution(d, ["seat"] if by_seat else [])

    def purchases_by_turn(self) -> pd.DataFrame:
        """Copies of each card bought per game by turn: n (games), copies,
        per_game = copies / n with its 95 % t CI (per-game counts; games
        without a purchase count 0). Cards in the rules' order."""
        b = self["buys"][:len(self.cards)]
        ci, ti = np.nonzero(b[:, :, 0])
        n = self.n_games
        m = mean_from_sums(np.full(len(ci), n), b[ci, ti, 0], b[ci, ti, 1])
        out = pd.DataFrame({"turn": ti, "card": [self.cards[c] for c in ci], "card_i": ci,
                            "n": m["n"], "copies": b[ci, ti, 0], "per_game": m["mean"],
                            "ci_lo": m["ci_lo"], "ci_hi": m["ci_hi"]})
        return out.sort_values(["turn", "card_i"], ignore_index=True).drop(columns="card_i")

    def syndicate(self) -> pd.DataFrame:
        """Syndicate payments by seat: payments, coins, coins per game."""
        s = self["syndicate"][:self.n_players]
        return pd.DataFrame({"seat": np.arange(self.n_players), "bot": self.players,
                             "payments": s[:, 0], "coins": s[:, 1],
                             "coins_per_game": s[:, 1] / max(self.n_games, 1)})
