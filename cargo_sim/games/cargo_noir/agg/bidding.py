"""Port auctions: contests, raises and abandons, winning prices, overpayment.

A mixin of ``Aggregates`` (its data: ``agg.counters.Counters``)."""
from __future__ import annotations

import numpy as np
import pandas as pd

from ....core.stats import mean_from_sums, proportion
from .. import aggregate_nb as K
from .counters import distribution


class BiddingTables:
    """The bidding tables of ``Aggregates``."""

    def _port_turn_frame(self, section: str, fields) -> pd.DataFrame:
        """The (port, turn) rows of a port x turn x fields section that hold anything."""
        ports = self.ports
        e = self[section][:len(ports)]
        pi, ti = np.nonzero(e[:, :, 0])
        d = pd.DataFrame(e[pi, ti], columns=list(fields))
        d.insert(0, "turn", ti)
        d.insert(0, "port", [ports[i] for i in pi])
        return d

    def bidding(self, by=("port", "turn")) -> pd.DataFrame:
        """Port auctions grouped by ``by`` (a subset of port, turn; turn = the
        turn the auction started): episodes, n = port sends, contested_sends
        (sends of auctions with 2+ sends) and contest_rate, raises, abandons,
        raise_rate among outbid decisions (raises + abandons), wins and
        win_per_send; 95 % Wilson CIs (<rate>_ci_lo / _ci_hi)."""
        by = list(by)
        d = self._port_turn_frame("episodes", K.EPISODE_FIELDS)
        cols = list(K.EPISODE_FIELDS)
        g = d.groupby(by, sort=True)[cols].sum().reset_index() if by else d[cols].sum().to_frame().T
        g["outbid"] = g["raises"] + g["abandons"]
        for name, x, n in (("contest_rate", "contested_sends", "sends"), ("raise_rate", "raises", "outbid"),
                           ("abandon_rate", "abandons", "outbid"), ("win_per_send", "wins", "sends")):
            p = proportion(g[x], g[n], name)
            g[name], g[f"{name}_ci_lo"], g[f"{name}_ci_hi"] = p[name], p["ci_lo"], p["ci_hi"]
        g.insert(len(by), "n", g["sends"])
        return g

    def prices(self, by=("port", "turn")) -> pd.DataFrame:
        """Winning prices of ports grouped by ``by`` (subset of port, turn; turn
        = turn of the win): n = wins, mean price with sd, se and 95 % t CI,
        mean tokens and mean smuggling value of the cargo won, coins per point
        of value (ratio of the sums)."""
        by = list(by)
        ports = self.ports
        d = self._port_turn_frame("port_wins", K.PORT_WIN_FIELDS)
        cols = list(K.PORT_WIN_FIELDS)
        g = d.groupby(by, sort=True)[cols].sum().reset_index() if by else d[cols].sum().to_frame().T
        m = mean_from_sums(g["wins"], g["price_sum"], g["price_sumsq"])
        out = g[by].copy()
        for k, v in m.items():
            out[k] = v
        with np.errstate(invalid="ignore", divide="ignore"):
            out["mean_tokens"] = g["tokens_sum"] / g["wins"]
            out["mean_value"] = g["value_sum"] / g["wins"]
            out["coins_per_value"] = g["price_sum"] / g["value_sum"]
        if "port" in by:
            slots = {p: self.rules[f"port.{p}.slots"] for p in ports}
            out.insert(by.index("port") + 1, "slots", out["port"].map(slots))
        return out

    def price_distribution(self) -> pd.DataFrame:
        """Share of a port's wins at each price: port, price, count, n, share, CI."""
        rows = []
        for i, p in enumerate(self.ports):
            h = self["price_hist"][i]
            rows += [(p, int(v), int(h[v])) for v in np.flatnonzero(h)]
        return distribution(pd.DataFrame(rows, columns=["port", "price", "count"]), ["port"])

    def overpayment(self) -> dict:
        """Overpayment (price - runner-up's last stack) of contested wins:
        n, mean with t CI, share at the minimum (overpay <= 1, Wilson CI)."""
        n, s, ss = self["overpay"]
        out = {k: (int(v) if k == "n" else float(v)) for k, v in mean_from_sums(n, s, ss).items()}
        p = proportion(self["overpay_hist"][:2].sum(), n, "share_min")
        out["share_min"], out["share_min_ci_lo"], out["share_min_ci_hi"] = (
            float(p["share_min"]), float(p["ci_lo"]), float(p["ci_hi"]))
        return out
