"""The counters of an aggregate run: raw access by section, merge, save and load.

``Aggregates`` (cargo_noir.aggregates) adds the per-topic tables (agg.outcomes,
agg.bidding, agg.casino, agg.trading) to this class.
"""
from __future__ import annotations

import io
import json
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ....core.errors import ConfigError
from ....core.fileio import atomic_write, read_bytes
from ....core.stats import proportion
from .. import aggregate_nb as K
from ..rules import Rules

FORMAT = "cargo_sim.aggregates/1"
LOAD_LIMIT = 256 * 2**20          # bytes; a saved aggregate is ~200 KB


def _whole(v, lo=0) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and lo <= v <= 2**64 - 1


def _config_problem(cfg: dict, counts: np.ndarray) -> str | None:
    """What is wrong with a loaded aggregate's configuration and counts (None: nothing)."""
    players = cfg.get("players")
    if not isinstance(players, list) or not players or not all(isinstance(p, str) for p in players):
        return "players"
    if cfg.get("n_players") != len(players):
        return f"n_players {cfg.get('n_players')!r} for {len(players)} players"
    if not isinstance(cfg.get("rules_digest"), str):
        return "rules_digest"
    if not _whole(cfg.get("n_games")):
        return f"n_games {cfg.get('n_games')!r}"
    if cfg.get("seed") is not None and not _whole(cfg["seed"]):
        return f"seed {cfg['seed']!r}"
    parts = cfg.get("parts")
    if not isinstance(parts, list) or not all(
            isinstance(p, list) and len(p) == 3 and all(_whole(x) for x in p) and p[1] <= p[2]
            for p in parts):
        return "parts (game ranges [seed, first, stop])"
    games = sum(p[2] - p[1] for p in parts)
    if int(counts[K.O_GAMES]) != games:
        return f"{int(counts[K.O_GAMES])} games counted, its game ranges hold {games}"
    for name, shape, _ in K.SECTIONS:      # counts of events can never be negative
        if name in ("games", "ties", "wins", "tied_wins") or name.endswith("_hist"):
            at = K.OFFSETS[name]
            if (counts[at:at + int(np.prod(shape))] < 0).any():
                return f"negative counts in {name}"
    if int(counts[K.O_TIES]) > games:
        return f"{int(counts[K.O_TIES])} ties in {games} games"
    return None


def hist_quantiles(counts, qs=(0.1, 0.25, 0.5, 0.75, 0.9)):
    """Quantiles (lower) of a histogram over 0..len-1."""
    cum = np.cumsum(counts)
    tot = cum[-1] if len(cum) else 0
    if tot == 0:
        return [np.nan] * len(qs)
    return [float(np.searchsorted(cum, q * tot, side="left")) for q in qs]


def distribution(d: pd.DataFrame, by: list) -> pd.DataFrame:
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


@dataclass
class Counters:
    """Counters of a run (layout ``aggregate_nb.SECTIONS``), its configuration and rules."""
    counts: np.ndarray
    rules: Rules
    config: dict = field(default_factory=dict)
    interrupted: bool = False
    WIN_SHARE_SCALE = K.WIN_SHARE_SCALE    # win60 counts a win shared by k as WIN_SHARE_SCALE / k

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
        return (f"{type(self).__name__}({self.n_games:,} games, players={self.players}, "
                f"seed={self.config.get('seed')}{', interrupted' if self.interrupted else ''})")

    def merge(self, other: "Aggregates") -> "Aggregates":
        """Counters of both runs (same table, rules and layout; disjoint game ranges)."""
        if not isinstance(other, Counters):
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
        return type(self)(self.counts + other.counts, self.rules, config,
                          self.interrupted or other.interrupted)

    def __add__(self, other):
        return self.merge(other)

    def __eq__(self, other) -> bool:
        return (isinstance(other, Counters) and np.array_equal(self.counts, other.counts)
                and self.config.get("players") == other.config.get("players")
                and self.config.get("rules_digest") == other.config.get("rules_digest"))

    def save(self, path, tag: str = "") -> Path:
        """Write ``path`` (.npz: counters, configuration, rules TOML) atomically
        (``tag``: in the temp file's name, so a run folder's resume can sweep it)."""
        meta = {"format": FORMAT, "config": self.config, "interrupted": bool(self.interrupted),
                "sections": [[n, list(s)] for n, s, _ in K.SECTIONS]}

        def write(tmp):
            with open(tmp, "wb") as f:     # a file object: np.savez would append ".npz" to a name
                np.savez_compressed(f, counts=self.counts, meta=np.array(json.dumps(meta)),
                                    rules_toml=np.array(self.rules.to_toml()))
        return atomic_write(path, write, tag=tag)

    def _seats(self):
        return range(self.n_players)

    @classmethod
    def load(cls, path):
        """Read an ``Aggregates.save`` file, checked: a regular file of at most
        LOAD_LIMIT bytes; whole non-negative counts (never a NaN turned into
        -9.2e18 games); metadata of the right shape; as many games counted as
        its game ranges hold; rules that rebuild with the recorded digest. Any
        fault is one ConfigError line."""
        from ....core.errors import RulesError
        path = Path(path)
        if not path.exists() and not path.is_symlink():
            raise ConfigError(f"no aggregates file {path}")
        data = read_bytes(path, LOAD_LIMIT, "aggregates file")
        try:
            with np.load(io.BytesIO(data), allow_pickle=False) as z:
                raw = z["counts"]
                meta = json.loads(str(z["meta"]))
                toml = str(z["rules_toml"])
        except (OSError, ValueError, KeyError, EOFError, RecursionError, zipfile.BadZipFile) as e:
            raise ConfigError(f"{path} is not a cargo_sim aggregates file (damaged or another kind): "
                              f"{' '.join(str(e).split())[:200]}") from None
        cfg = meta.get("config") if isinstance(meta, dict) else None
        if not isinstance(cfg, dict) or meta.get("format") != FORMAT \
                or cfg.get("layout") != K.LAYOUT_ID or raw.shape != (K.ACC_SIZE,):
            fmt = meta.get("format") if isinstance(meta, dict) else None
            layout = cfg.get("layout") if isinstance(cfg, dict) else None
            raise ConfigError(f"{path}: aggregates of another format or counter layout "
                              f"({fmt}, {layout}; this version reads {FORMAT}, {K.LAYOUT_ID})")
        if raw.dtype.kind not in "iu" or (raw.dtype.kind == "u" and raw.dtype.itemsize >= 8
                                          and raw.max(initial=0) > np.iinfo(np.int64).max):
            raise ConfigError(f"{path}: the counts are {raw.dtype}, not whole numbers (damaged)")
        counts = raw.astype(np.int64)
        bad = _config_problem(cfg, counts)
        if bad:
            raise ConfigError(f"{path}: damaged aggregates metadata or counts: {bad}")
        try:
            rules = Rules.from_saved(toml, f"the rules TOML in {path}")
        except RulesError as e:
            raise ConfigError(str(e)) from None
        if rules.digest != cfg["rules_digest"]:
            raise ConfigError(f"{path}: its rules rebuild with digest {rules.digest}, not the "
                              f"recorded {cfg['rules_digest']} (edited or swapped)")
        return cls(counts, rules, cfg, bool(meta.get("interrupted")))
