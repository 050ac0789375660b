"""Shipwrights' aggregate counters: statistics of very large runs folded inside the kernel.

``cargo_sim.aggregate(1_000_000, ["random"] * 4, game="shipwrights")`` plays the games
in chunks like ``simulate`` (the core's driver, core/aggregate.py) and folds each game
into a fixed-size int64 array (``aggregate_nb.SECTIONS``): memory is flat in the number
of games, the result identical for any workers and chunk size, and the counters equal
the same statistics computed from ``simulate(..., events=True)``.

``ShipwrightsAggregates`` reads them as labelled DataFrames with their sample size
``n`` and a 95 % interval: win rates and points by seat and source (the core's seat
tables), the game's length, the cards by face (drafted, played, discarded; the
drafters' results), the ships completed, the attacks, the military token and the goods
bought.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ...core.aggregate import Fold, GameCounters
from ...core.counters import Layout, distribution
from ...core.errors import ConfigError
from ...core.seat_counters import SeatCounters, seat_summary_lines
from ...core.stats import proportion
from . import aggregate_nb as K
from .enums import N_EVENT_FIELDS, PLAYER_FIELDS
from .game import Shipwrights
from .rules import KINDS, Rules

NAME = "shipwrights"
LAYOUT = Layout("shipwrights.aggregates/1", K.SECTIONS)
EVENT_ROWS_PER_SEAT = Shipwrights.event_rows_per_seat   # first guess per game and seat (grown on overflow)


class ShipwrightsAggregates(SeatCounters):
    """Counters of a Shipwrights run (layout ``aggregate_nb.SECTIONS``), its configuration
    and rules; ``agg["attacks"]`` is a raw section, the methods label them."""
    LAYOUT = LAYOUT
    RULES = Rules
    PLAYER_FIELDS = PLAYER_FIELDS
    GAME_STATS = K.GAME_STATS
    SOURCES = (("ships", "ship_vp"), ("buildings", "building_vp"), ("military token", "military_vp"))
    SHARE_SECTION, WIN_SCALE = "win60", K.WIN_SHARE_SCALE
    COUNT_SECTIONS = ("games", "ties", "wins", "tied_wins", "win60", "attacks", "attack_faces",
                      "military", "military_games", "goods", "card_holders")

    def cards(self) -> pd.DataFrame:
        """Per card face: its kind, drafted, drawn, played, discarded, the gold of its
        plays; play rate = played / (drafted + drawn) (95 % Wilson); the players who
        drafted it: n, their win rate (95 % Wilson) and mean points."""
        names = self.rules.card_names
        kinds = [k for k in KINDS for _ in self.rules.names(k)]
        c, h = self["cards"][:len(names)], self["card_holders"][:len(names)]
        play = proportion(c[:, 2], c[:, 0] + c[:, 1], "play_rate")
        win = proportion(h[:, 1] / K.WIN_SHARE_SCALE, h[:, 0], "win_rate")
        with np.errstate(invalid="ignore", divide="ignore"):
            vp = np.where(h[:, 0] > 0, h[:, 2] / np.maximum(h[:, 0], 1), np.nan)
        out = pd.DataFrame({"card": names, "kind": kinds,
                            **{f: c[:, i] for i, f in enumerate(K.CARD_FIELDS)}})
        out["play_rate"], out["play_ci_lo"], out["play_ci_hi"] = play["play_rate"], play["ci_lo"], play["ci_hi"]
        out["drafters"], out["drafter_win_rate"] = h[:, 0], win["win_rate"]
        out["drafter_ci_lo"], out["drafter_ci_hi"], out["drafter_mean_vp"] = win["ci_lo"], win["ci_hi"], vp
        return out

    def ships(self) -> pd.DataFrame:
        """Per ship: its red flags and points (the rules), started, completed
        (completion rate = completed / started, 95 % Wilson), points scored, completions
        that used a tool; completed per game."""
        names = self.rules.names("ship")
        ship = self.rules.arrays()["ship"]
        d = self["ships"][:len(names)]
        p = proportion(d[:, 1], d[:, 0], "completion_rate")
        return pd.DataFrame({"ship": names, "military": ship[:, 0], "ship_points": ship[:, 1],
                             **{f: d[:, i] for i, f in enumerate(K.SHIP_FIELDS)},
                             "completion_rate": p["completion_rate"], "ci_lo": p["ci_lo"],
                             "ci_hi": p["ci_hi"], "per_game": d[:, 1] / max(self.n_games, 1)})

    def attacks(self) -> pd.DataFrame:
        """Take-that attacks by attacking seat and victim: count, mean per game."""
        a = self["attacks"]
        rows = [{"attacker": s, "victim": t, "count": int(a[s, t]),
                 "per_game": a[s, t] / max(self.n_games, 1)}
                for s in self._seats() for t in self._seats() if s != t]
        return pd.DataFrame(rows)

    def attack_cards(self) -> pd.DataFrame:
        """Per townsfolk: played, victims, victims per play, gold the victims lost."""
        names = self.rules.names("townsfolk")
        first = len(self.rules.card_names) - len(names)     # townsfolk are the last kind
        played = self["cards"][first:first + len(names), 2]
        v = self["attack_faces"][first:first + len(names)]
        with np.errstate(invalid="ignore", divide="ignore"):
            per = np.where(played > 0, v[:, 0] / np.maximum(played, 1), np.nan)
        return pd.DataFrame({"townsfolk": names, "played": played, "victims": v[:, 0],
                             "victims_per_play": per, "gold_lost": v[:, 1]})

    def military(self) -> pd.DataFrame:
        """Per seat: games it took the military token (95 % Wilson), of which shared;
        and the games by how the token went (one holder, shared, nobody)."""
        m = self["military"]
        p = proportion(m[:self.n_players, 0], np.full(self.n_players, self.n_games), "rate")
        rows = pd.DataFrame({"who": [f"seat {s}" for s in self._seats()], "n": p["n"],
                             "count": m[:self.n_players, 0], "shared": m[:self.n_players, 1],
                             "rate": p["rate"], "ci_lo": p["ci_lo"], "ci_hi": p["ci_hi"]})
        g = self["military_games"]
        pg = proportion(g, np.full(3, self.n_games), "rate")
        games = pd.DataFrame({"who": [f"games: {k}" for k in K.MILITARY_GAMES], "n": pg["n"],
                              "count": g, "shared": 0, "rate": pg["rate"], "ci_lo": pg["ci_lo"],
                              "ci_hi": pg["ci_hi"]})
        return pd.concat([rows, games], ignore_index=True)

    def goods(self) -> pd.DataFrame:
        """Goods bought by kind: purchases, goods received, per purchase."""
        d = self["goods"]
        with np.errstate(invalid="ignore", divide="ignore"):
            per = np.where(d[:, 0] > 0, d[:, 1] / np.maximum(d[:, 0], 1), np.nan)
        return pd.DataFrame({"good": list(self.rules["goods"]), "purchases": d[:, 0], "received": d[:, 1], "per_purchase": per})

    def distribution(self, what: str) -> pd.DataFrame:
        """Player-games by seat and value of ``what`` (``vp``, ``ships``) or games by
        ``days``: count, share (95 % Wilson)."""
        if what == "days":
            h = self["days_hist"]
            d = pd.DataFrame([(int(v), int(h[v])) for v in np.flatnonzero(h)], columns=["days", "count"])
            return distribution(d, [])
        names = {"vp": "vp_hist", "ships": "ships_hist"}
        if what not in names:
            raise ConfigError(f"no distribution of {what!r}; one of vp, ships, days")
        h = self[names[what]][:self.n_players]
        rows = [(s, int(v), int(h[s, v])) for s in self._seats() for v in np.flatnonzero(h[s])]
        return distribution(pd.DataFrame(rows, columns=["seat", what, "count"]), ["seat"])


def load_aggregates(path) -> ShipwrightsAggregates:
    """Read a ``ShipwrightsAggregates.save`` file."""
    return ShipwrightsAggregates.load(path)


def fold() -> Fold:
    """Shipwrights' fold kernel for the core's driver."""
    return Fold(K.aggregate_games_nb, LAYOUT.size, N_EVENT_FIELDS, lambda: EVENT_ROWS_PER_SEAT,
                K.ensure_compiled)


def summary_lines(agg) -> list[str]:
    """The ``simulate --aggregate`` report: the seat table, the seat test and shared
    wins, the points by source, then ships, attacks and days per game."""
    lines = seat_summary_lines(agg)
    n = max(agg.n_games, 1)
    length = agg.game_length().set_index("stat")["mean"]
    lines.append(f"per game: {agg['ships'][:, 1].sum() / n:.2f} ships completed, "
                 f"{agg['attacks'].sum() / n:.2f} attacks, {length['days']:.2f} days")
    return lines


COUNTERS = GameCounters(NAME, ShipwrightsAggregates, fold, summary_lines)
