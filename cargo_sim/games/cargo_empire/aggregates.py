"""Cargo Empire's aggregate counters: statistics of very large runs folded inside the kernel.

``cargo_sim.aggregate(1_000_000, ["random"] * 4, game="cargo_empire")`` plays the games
in chunks like ``simulate`` (the core's driver, core/aggregate.py) and folds each game
into a fixed-size int64 array (``aggregate_nb.SECTIONS``): memory is flat in the number
of games, the result identical for any workers and chunk size, and the counters equal
the same statistics computed from ``simulate(..., events=True)``.

``EmpireAggregates`` reads them as labelled DataFrames with their sample size ``n`` and
a 95 % interval: win rates and points by seat and source (the core's seat tables), the
deliveries (by route length, colour, transport cards paid), the upgrades, the
development tracks, the missions, the forced passes and the start player's effect.
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
from . import maps
from .enums import N_EVENT_FIELDS, PLAYER_FIELDS, VEHICLES
from .game import CargoEmpire
from .rules import REWARDS, Rules

NAME = "cargo_empire"
LAYOUT = Layout("cargo_empire.aggregates/1", K.SECTIONS)
EVENT_ROWS_PER_SEAT = CargoEmpire.event_rows_per_seat   # first guess per game and seat (grown on overflow)


class EmpireAggregates(SeatCounters):
    """Counters of a Cargo Empire run (layout ``aggregate_nb.SECTIONS``), its configuration
    and rules; ``agg["routes"]`` is a raw section, the methods label them."""
    LAYOUT = LAYOUT
    RULES = Rules
    PLAYER_FIELDS = PLAYER_FIELDS
    GAME_STATS = K.GAME_STATS
    SOURCES = (("development", "dev_vp"), ("level-3 posts", "lv3_vp"), ("city cards", "card_vp"),
               ("missions", "mission_vp"))
    COUNT_SECTIONS = tuple(n for n, _, _ in K.SECTIONS
                           if n not in ("player_sum", "player_sumsq", "winner_sum", "game_sum",
                                        "game_sumsq", "steps", "order"))

    def deliveries(self, by: str = "length") -> pd.DataFrame:
        """Deliveries by ``length`` (of the shortest route on the run's map; a sea
        crossing counts ``sea_hop_length``), ``colour``, ``cards`` (transport cards
        paid) or ``route`` (supply and target city): count, share (95 % Wilson)."""
        if by == "colour":
            cols = list(self.rules["colours"])
            d = pd.DataFrame({"colour": cols, "count": self["colours"][:len(cols)]})
        elif by == "cards":
            h = self["cards_hist"]
            d = pd.DataFrame({"cards": np.arange(len(h)), "count": h})
        elif by in ("length", "route"):
            names = self.rules.board().names
            r = self["routes"]
            pairs = [(a, b) for a, b in zip(*np.nonzero(r))]
            d = pd.DataFrame([(names[a], names[b], int(a), int(b), int(r[a, b])) for a, b in pairs],
                             columns=["supply", "target", "a", "b", "count"])
            if by == "length":
                b, sea = self.rules.board(), int(self.rules["sea_hop_length"])
                d["length"] = [maps.shapes(b, a, t, sea)[0] for a, t in zip(d["a"], d["b"])]
                d = d.groupby("length", as_index=False)["count"].sum()
            else:
                d = d.drop(columns=["a", "b"])
        else:
            raise ConfigError(f"no deliveries by {by!r}; one of length, colour, cards, route")
        return distribution(d[d["count"] > 0].reset_index(drop=True), [])

    def payments(self) -> pd.DataFrame:
        """Deliveries by vehicle and cards of it paid: count, share of the deliveries
        (95 % Wilson)."""
        h = self["pay_hist"]
        rows = [(VEHICLES[v], k, int(h[v, k])) for v in range(len(VEHICLES)) for k in range(h.shape[1])
                if h[v, k]]
        return distribution(pd.DataFrame(rows, columns=["vehicle", "cards", "count"]), ["vehicle"])

    def upgrades(self) -> pd.DataFrame:
        """Upgrades by the level reached: count, perfect ones (rate, 95 % Wilson)."""
        u = self["upgrades"]
        p = proportion(u[:, 1], u.sum(1), "perfect_rate")
        return pd.DataFrame({"level": [2, 3], "count": u.sum(1), "perfect": u[:, 1],
                             "perfect_rate": p["perfect_rate"], "ci_lo": p["ci_lo"], "ci_hi": p["ci_hi"]})

    def tracks(self) -> pd.DataFrame:
        """Development steps per player-game by seat and vehicle: n, mean, 95 % t CI."""
        st = self["steps"]
        return pd.DataFrame([{"seat": s, "bot": self.players[s], "vehicle": VEHICLES[v],
                              **mean_row(self.n_games, st[s, v, 0], st[s, v, 1])}
                             for s in self._seats() for v in range(len(VEHICLES))])

    def track_ends(self) -> pd.DataFrame:
        """Player-games by vehicle and the development slot its marker ended on (the
        slots' count: on the score spaces): count, share (95 % Wilson)."""
        h = self["track_end"]
        rows = [(VEHICLES[v], k, int(h[v, k])) for v in range(len(VEHICLES)) for k in range(h.shape[1])
                if h[v, k]]
        return distribution(pd.DataFrame(rows, columns=["vehicle", "slot", "count"]), ["vehicle"])

    def rewards(self) -> pd.DataFrame:
        """Development spaces entered by vehicle and reward: count, share (95 % Wilson)."""
        h = self["rewards"]
        rows = [(VEHICLES[v], REWARDS[r], int(h[v, r])) for v in range(len(VEHICLES))
                for r in range(len(REWARDS)) if h[v, r]]
        return distribution(pd.DataFrame(rows, columns=["vehicle", "reward", "count"]), ["vehicle"])

    def missions(self) -> pd.DataFrame:
        """Missions kept, by mission: count, per game (``distribution("missions")``:
        the missions completed)."""
        names = list(self.rules.to_dict()["mission"])
        kept = self["missions"][:len(names)]
        return pd.DataFrame({"mission": names, "kept": kept, "per_game": kept / max(self.n_games, 1)})

    def passes(self) -> pd.DataFrame:
        """Forced passes by seat: took three cards, refilled a city; per game."""
        p = self["passes"][:self.n_players]
        n = max(self.n_games, 1)
        return pd.DataFrame({"seat": list(self._seats()), "bot": self.players, "took_cards": p[:, 0],
                             "refilled": p[:, 1], "per_game": p.sum(1) / n})

    def start_order(self) -> pd.DataFrame:
        """Per place in the first round's order (0: the start player, drawn at random):
        player-games, win rate (95 % Wilson), mean points (95 % t)."""
        o = self["order"][:self.n_players]
        w = proportion(o[:, 1], o[:, 0], "win_rate")
        rows = []
        for i in range(self.n_players):
            m = mean_row(o[i, 0], o[i, 2], o[i, 3])
            rows.append({"place": i, "n": int(o[i, 0]), "wins": int(o[i, 1]), "win_rate": w["win_rate"][i],
                         "ci_lo": w["ci_lo"][i], "ci_hi": w["ci_hi"][i], "mean_vp": m["mean"],
                         "vp_ci_lo": m["ci_lo"], "vp_ci_hi": m["ci_hi"]})
        return pd.DataFrame(rows)

    def distribution(self, what: str) -> pd.DataFrame:
        """Player-games by seat and value of ``what`` (``vp``, ``missions``): count,
        share of the seat's games (95 % Wilson)."""
        names = {"vp": "vp_hist", "missions": "missions_hist"}
        if what not in names:
            raise ConfigError(f"no distribution of {what!r}; one of vp, missions")
        h = self[names[what]][:self.n_players]
        rows = [(s, int(v), int(h[s, v])) for s in self._seats() for v in np.flatnonzero(h[s])]
        return distribution(pd.DataFrame(rows, columns=["seat", what, "count"]), ["seat"])


def load_aggregates(path) -> EmpireAggregates:
    """Read an ``EmpireAggregates.save`` file."""
    return EmpireAggregates.load(path)


def fold() -> Fold:
    """Cargo Empire's fold kernel for the core's driver."""
    return Fold(K.aggregate_games_nb, LAYOUT.size, N_EVENT_FIELDS, lambda: EVENT_ROWS_PER_SEAT,
                K.ensure_compiled)


def summary_lines(agg) -> list[str]:
    """The ``simulate --aggregate`` report: the seat table, the seat test, the points
    by source, then the start player's win rate and deliveries per game."""
    lines = seat_summary_lines(agg)
    start = agg.start_order().iloc[0]
    lines.append(f"start player: win rate {100 * start['win_rate']:.2f}% "
                 f"[{100 * start['ci_lo']:.2f}%, {100 * start['ci_hi']:.2f}%] (expected "
                 f"{100 / agg.n_players:.2f}%); deliveries per game "
                 f"{agg['routes'].sum() / max(agg.n_games, 1):.2f}")
    return lines


COUNTERS = GameCounters(NAME, EmpireAggregates, fold, summary_lines)
