"""Aggregates: statistics of very large runs folded inside the compiled kernel.

``aggregate(10_000_000, ["random"] * 4, seed=1)`` plays the games in chunks on
a thread pool like ``simulate``, but no per-game or per-event table is ever
built: each chunk's games are folded by ``aggregate_nb.aggregate_games_nb`` into
a fixed-size int64 counter array (``aggregate_nb.SECTIONS``), and the chunks'
arrays are summed. Memory is flat in the number of games; the result is
identical for any number of workers and any chunk size, and game i is game i
of ``simulate(..., seed)`` (same seeds), so the counters equal the same
statistics computed from ``simulate(..., events=True)``.

``Aggregates`` holds the counters with the run's configuration and rules; it
merges (``a + b`` or ``a.merge(b)``; runs over disjoint game ranges of the same
table and rules), saves to / loads from ``.npz`` and gives DataFrames that
state their sample size ``n`` and 95 % intervals (Wilson for proportions, t for
means from sums and sums of squares).
"""
from __future__ import annotations

import io
import json
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ...checks import check_games, check_number, check_seed
from ...core.contract import get_game
from ...core.runner import Table, chunk_jobs, default_workers, run_jobs
from ...core.seeds_nb import game_seeds
from ...errors import ConfigError
from ...fileio import atomic_write
from ...progress import Progress
from ...stats import wilson_interval
from . import aggregate_nb as K
from .enums import ERR_NEED_SOLVER, N_EVENT_FIELDS, PLAYER_FIELDS, R_N_PLAYERS
from .rules import Rules
from .simulate import DEFAULT_CHUNK, NAME, check_request, load_solver, solver_address

FORMAT = "cargo_sim.aggregates/1"
EVENT_ROWS_PER_SEAT = 160      # first size of the per-game event buffer (doubled on overflow)


# ---------------------------------------------------------------------------
# small statistics (one formula each)
def _t_quantile(n):
    from scipy import stats as st
    n = np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore"):
        return st.t.ppf(0.975, np.where(n >= 2, n - 1, np.nan))


def mean_from_sums(n, total, total_sq) -> dict:
    """n, mean, sd (ddof 1), se and 95 % t interval from count, sum and sum of squares."""
    n = np.asarray(n, dtype=float)
    total = np.asarray(total, dtype=float)
    total_sq = np.asarray(total_sq, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(n > 0, total / n, np.nan)
        var = (total_sq - n * mean * mean) / (n - 1)
        sd = np.where(n >= 2, np.sqrt(np.clip(var, 0, None)), np.nan)
        se = sd / np.sqrt(n)
    half = _t_quantile(n) * se
    return {"n": n.astype(np.int64), "mean": mean, "sd": sd, "se": se,
            "ci_lo": mean - half, "ci_hi": mean + half}


def proportion(successes, n, name: str) -> dict:
    """n, successes, <name> = successes / n and its 95 % Wilson interval."""
    x = np.asarray(successes, dtype=float)
    nn = np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.where(nn > 0, x / nn, np.nan)
    lo, hi = wilson_interval(x, nn)
    return {"n": nn.astype(np.int64), "successes": x, name: p, "ci_lo": np.asarray(lo),
            "ci_hi": np.asarray(hi)}


def _hist_quantiles(counts, qs=(0.1, 0.25, 0.5, 0.75, 0.9)):
    """Quantiles (lower) of a histogram over 0..len-1."""
    cum = np.cumsum(counts)
    tot = cum[-1] if len(cum) else 0
    if tot == 0:
        return [np.nan] * len(qs)
    return [float(np.searchsorted(cum, q * tot, side="left")) for q in qs]


# ---------------------------------------------------------------------------
@dataclass
class Aggregates:
    """Counters of a run (layout ``aggregate_nb.SECTIONS``), its configuration and rules.

    ``agg["vp_hist"]`` is a section as an array of its shape (seat, VP bin...);
    the methods give labelled DataFrames. ``config``: players (labels per seat),
    n_players, seed, parts (``[[seed, first_game, stop], ...]`` game ranges
    folded in), n_games (requested), rules_digest, layout.
    """
    counts: np.ndarray
    rules: Rules
    config: dict = field(default_factory=dict)
    interrupted: bool = False

    # ---- raw access -------------------------------------------------------
    def __getitem__(self, name: str) -> np.ndarray:
        for n, shape, _ in K.SECTIONS:
            if n == name:
                at = K.OFFSETS[name]
                return self.counts[at:at + int(np.prod(shape))].reshape(shape)
        raise KeyError(f"no aggregate section {name!r}; sections: "
                       + ", ".join(n for n, _, _ in K.SECTIONS))

    @staticmethod
    def sections() -> pd.DataFrame:
        """The counter layout: name, shape, meaning."""
        return pd.DataFrame([(n, s, d) for n, s, d in K.SECTIONS], columns=["name", "shape", "meaning"])

    def overflow(self) -> pd.DataFrame:
        """Per histogram section: entries counted in its last bin (which also
        holds every larger value) and the total. Non-zero ``in_last_bin`` means
        percentiles and shares at the top of that histogram are pooled; means
        come from exact sums either way."""
        rows = []
        for name, shape, _ in K.SECTIONS:
            if name.endswith("_hist"):
                h = self[name]
                rows.append({"section": name, "last_bin": shape[-1] - 1,
                             "in_last_bin": int(h[..., -1].sum()), "total": int(h.sum())})
        return pd.DataFrame(rows)

    @property
    def n_games(self) -> int:
        return int(self.counts[K.O_GAMES])

    @property
    def n_players(self) -> int:
        return int(self.config["n_players"])

    @property
    def players(self) -> list[str]:
        return list(self.config["players"])

    @property
    def ports(self) -> list[str]:
        return self.rules.open_ports(self.n_players)

    @property
    def cards(self) -> list[str]:
        return self.rules.card_names

    def __repr__(self) -> str:
        return (f"Aggregates({self.n_games:,} games, players={self.players}, "
                f"seed={self.config.get('seed')}{', interrupted' if self.interrupted else ''})")

    # ---- merge / save / load ---------------------------------------------
    def merge(self, other: "Aggregates") -> "Aggregates":
        """Counters of both runs (same table, rules and layout; disjoint game ranges)."""
        if not isinstance(other, Aggregates):
            raise ConfigError("can only merge Aggregates with Aggregates")
        for key in ("players", "rules_digest", "layout"):
            if self.config.get(key) != other.config.get(key):
                raise ConfigError(f"cannot merge aggregates of different runs: {key} "
                                  f"{self.config.get(key)!r} vs {other.config.get(key)!r}")
        parts = sorted([list(p) for p in self.config["parts"]] + [list(p) for p in other.config["parts"]])
        for a, b in zip(parts, parts[1:]):
            if a[0] == b[0] and b[1] < a[2] and a[1] < a[2] and b[1] < b[2]:
                raise ConfigError(f"cannot merge aggregates that share games: seed {a[0]} "
                                  f"games {a[1]}..{a[2] - 1} and {b[1]}..{b[2] - 1} overlap")
        config = dict(self.config)
        config["parts"] = join_parts(parts)
        config["n_games"] = int(self.config.get("n_games", 0)) + int(other.config.get("n_games", 0))
        seeds = {p[0] for p in config["parts"]}
        config["seed"] = seeds.pop() if len(seeds) == 1 else None
        return Aggregates(self.counts + other.counts, self.rules, config,
                          self.interrupted or other.interrupted)

    def __add__(self, other):
        return self.merge(other)

    def __eq__(self, other) -> bool:
        return (isinstance(other, Aggregates) and np.array_equal(self.counts, other.counts)
                and self.config.get("players") == other.config.get("players")
                and self.config.get("rules_digest") == other.config.get("rules_digest"))

    def save(self, path) -> Path:
        """Write ``path`` (.npz: counters, configuration, rules TOML) atomically."""
        meta = {"format": FORMAT, "config": self.config, "interrupted": bool(self.interrupted),
                "sections": [[n, list(s)] for n, s, _ in K.SECTIONS]}

        def write(tmp):
            with open(tmp, "wb") as f:     # a file object: np.savez would append ".npz" to a name
                np.savez_compressed(f, counts=self.counts, meta=np.array(json.dumps(meta)),
                                    rules_toml=np.array(self.rules.to_toml()))
        return atomic_write(path, write)

    @classmethod
    def load(cls, path) -> "Aggregates":
        return load_aggregates(path)

    # ---- tables -----------------------------------------------------------
    def _seats(self):
        return range(self.n_players)

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
        from scipy import stats as st
        o = self["win60"][:self.n_players] / K.WIN_SHARE_SCALE
        k, total = len(o), float(o.sum())
        if k < 2 or total <= 0:
            return {"n": self.n_games, "chi2": np.nan, "dof": max(k - 1, 0), "p_value": np.nan,
                    "max_abs_dev": np.nan}
        e = total / k
        chi2 = float(((o - e) ** 2 / e).sum())
        return {"n": self.n_games, "chi2": chi2, "dof": k - 1, "p_value": float(st.chi2.sf(chi2, k - 1)),
                "max_abs_dev": float(np.max(np.abs(o / self.n_games - 1.0 / k)))}

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
        q = np.array([_hist_quantiles(self["vp_hist"][seat]) for seat in self._seats()])
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
        return _dist(pd.DataFrame(rows, columns=["seat", "bot", "vp", "count"]), ["seat"])

    def margins(self) -> pd.DataFrame:
        """Share of games per margin of victory (winner VP - runner-up VP; 0 =
        top VP tied): margin, count, n, share, 95 % Wilson CI."""
        h = self["margin_hist"]
        d = pd.DataFrame({"margin": np.flatnonzero(h), "count": h[h > 0]})
        return _dist(d, [])

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

    def _episode_frame(self) -> pd.DataFrame:
        ports = self.ports
        e = self["episodes"][:len(ports)]
        pi, ti = np.nonzero(e[:, :, 0])
        d = pd.DataFrame(e[pi, ti], columns=list(K.EPISODE_FIELDS))
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
        d = self._episode_frame()
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
        w = self["port_wins"][:len(ports)]
        pi, ti = np.nonzero(w[:, :, 0])
        d = pd.DataFrame(w[pi, ti], columns=list(K.PORT_WIN_FIELDS))
        d.insert(0, "turn", ti)
        d.insert(0, "port", [ports[i] for i in pi])
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
        return _dist(pd.DataFrame(rows, columns=["port", "price", "count"]), ["port"])

    def overpayment(self) -> dict:
        """Overpayment (price - runner-up's last stack) of contested wins:
        n, mean with t CI, share at the minimum (overpay <= 1, Wilson CI)."""
        n, s, ss = self["overpay"]
        out = {k: (int(v) if k == "n" else float(v)) for k, v in mean_from_sums(n, s, ss).items()}
        p = proportion(self["overpay_hist"][:2].sum(), n, "share_min")
        out["share_min"], out["share_min_ci_lo"], out["share_min_ci_hi"] = (
            float(p["share_min"]), float(p["ci_lo"]), float(p["ci_hi"]))
        return out

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
        return _dist(d, ["seat"] if by_seat else [])

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


def _dist(d: pd.DataFrame, by: list) -> pd.DataFrame:
    """count -> n (group total), share and Wilson CI."""
    if len(d) == 0:
        return d.assign(n=pd.Series(dtype=np.int64), share=pd.Series(dtype=float),
                        ci_lo=pd.Series(dtype=float), ci_hi=pd.Series(dtype=float))
    tot = d.groupby(by, sort=False)["count"].transform("sum") if by else d["count"].sum()
    p = proportion(d["count"], tot, "share")
    d = d.copy()
    d["n"], d["share"], d["ci_lo"], d["ci_hi"] = p["n"], p["share"], p["ci_lo"], p["ci_hi"]
    return d


def join_parts(parts: list) -> list:
    """Sorted [seed, first, stop] ranges with adjacent ones of the same seed joined."""
    out = []
    for p in sorted(parts):
        if out and out[-1][0] == p[0] and out[-1][2] == p[1]:
            out[-1][2] = p[2]
        elif p[2] > p[1]:
            out.append(list(p))
    return out


def load_aggregates(path) -> Aggregates:
    """Read an ``Aggregates.save`` file (or a ``runs.aggregate_to_dir`` folder)."""
    from ...runs import rules_from_toml
    path = Path(path)
    if path.is_dir():
        from ...runs import load_aggregate_dir
        return load_aggregate_dir(path)
    try:
        with np.load(path, allow_pickle=False) as z:
            counts = z["counts"].astype(np.int64)
            meta = json.loads(str(z["meta"]))
            toml = str(z["rules_toml"])
    except FileNotFoundError:
        raise ConfigError(f"no aggregates file {path}") from None
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as e:
        raise ConfigError(f"{path} is not a cargo_sim aggregates file (damaged or another kind): "
                          f"{e}") from None
    if meta.get("format") != FORMAT or meta["config"].get("layout") != K.LAYOUT_ID \
            or counts.shape != (K.ACC_SIZE,):
        raise ConfigError(f"{path}: aggregates of another format or counter layout "
                          f"({meta.get('format')}, {meta.get('config', {}).get('layout')}; "
                          f"this version reads {FORMAT}, {K.LAYOUT_ID})")
    return Aggregates(counts, rules_from_toml(toml), meta["config"], bool(meta.get("interrupted")))


# ---------------------------------------------------------------------------
def run_chunk(template, decide, seed: int, first: int, n: int, rows_per_seat: int | None = None,
              hint: list | None = None):
    """Fold games first .. first+n-1 of run ``seed``: (counters, None) or
    (None, err) on an illegal decision (err as run_games_nb). A game whose
    events overflow the buffer makes the chunk replay with a buffer twice as
    large (same games, fresh counters); ``hint`` (a one-item list shared by
    the chunks of a run) remembers the larger size for the next chunks."""
    seeds = game_seeds(seed, first, n)
    n_seats = int(template[R_N_PLAYERS])
    per_seat = int(rows_per_seat or EVENT_ROWS_PER_SEAT)
    if hint:
        per_seat = max(per_seat, int(hint[0]))
    rows = max(per_seat * n_seats, 1)
    while True:
        acc = np.zeros(K.ACC_SIZE, np.int64)
        err = np.full(8, -1, np.int64)
        log = np.zeros((rows, N_EVENT_FIELDS), np.int64)
        K.ensure_compiled()
        if K.aggregate_games_nb(template, decide, solver_address(), seeds, log, acc, err):
            return acc, None
        if err[1] == ERR_NEED_SOLVER:
            load_solver()           # same games again, with exact values beyond the table
            continue
        if err[1] == -1 and err[7] >= 0:
            rows *= 2
            if hint is not None:
                hint[0] = max(int(hint[0]), rows // n_seats)
            continue
        return None, err


def new_config(seated, rules, seed, n_games) -> dict:
    return {"players": [p.label for p in seated], "n_players": len(seated), "seed": int(seed),
            "parts": [], "n_games": int(n_games), "rules_digest": rules.digest,
            "layout": K.LAYOUT_ID}


def aggregate(n_games: int, players, seed: int = 0, rules: Rules | None = None,
              workers: int | None = None, progress: bool = True, start: int = 0,
              chunk_size: int = DEFAULT_CHUNK) -> Aggregates:
    """Play ``n_games`` games like ``simulate`` (same arguments, same games)
    but keep only fixed-size counters folded in the compiled kernel: memory
    does not grow with ``n_games``. Returns an ``Aggregates``; identical for
    any ``workers`` and ``chunk_size``. Ctrl-C stops early and returns the
    finished chunks (``interrupted=True``).
    """
    seated, rules = check_request(n_games, players, rules)
    workers = default_workers(workers)
    seed = check_seed(seed)
    check_games(start, n_games)
    check_number("chunk_size", chunk_size, 1)
    table = Table.build(get_game(NAME), rules, seated)
    n_games, seed, start = int(n_games), int(seed), int(start)
    if n_games > 0:
        # compile the table's bots (first use only) before the clock starts
        table.compile(game_seeds(seed, start, 1), progress)
        K.ensure_compiled()
    total = np.zeros(K.ACC_SIZE, np.int64)
    done = 0
    bar = Progress(n_games, label=f"aggregate: {len(seated)} players ({', '.join(table.labels)})",
                   enabled=progress and n_games > 0)
    hint = [EVENT_ROWS_PER_SEAT]      # event-buffer rows per seat, grown on overflow

    def work(job):
        lo, hi = job
        acc, err = run_chunk(table.template, table.decide, seed, start + lo, hi - lo, None, hint)
        if err is not None:
            raise table.error(err, start + lo, game_seeds(seed, start + lo, hi - lo))
        return acc

    def take(job, acc):
        nonlocal total, done
        total += acc
        done = job[1]
        bar.update(job[1] - job[0])

    try:
        interrupted = run_jobs(chunk_jobs(n_games, chunk_size), work, take, workers)
    finally:
        if bar.done:
            bar.close()
    config = new_config(seated, rules, seed, n_games)
    config["parts"] = [[seed, start, start + done]] if done else []
    return Aggregates(total, rules, config, interrupted)
