"""Aggregate counters of any game: one flat int64 array laid out by the game's
``SECTIONS`` (core.counters_nb), with the run's configuration and rules.

``Counters`` reads a section by name (``c["wins"]``), merges runs over disjoint game
ranges (``a + b``), saves to and loads from ``.npz`` (checked: one ConfigError line
for a damaged or foreign file) and gives the helpers the games' tables share
(``distribution``, ``hist_quantiles``). A game subclasses it with its ``LAYOUT``
(a ``Layout``), its ``RULES`` class and its labelled tables.
"""
from __future__ import annotations

import io
import json
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from .counters_nb import layout_id, section_offsets
from .errors import ConfigError, RulesError
from .fileio import atomic_write, read_bytes
from .stats import proportion

FORMAT = "cargo_sim.aggregates/1"
LOAD_LIMIT = 256 * 2**20          # bytes; a saved aggregate is a few hundred KB


class Layout:
    """A game's counter layout: ``sections`` ((name, shape, meaning), ...), their
    ``offsets``, the total ``size`` and the ``id`` saved files carry."""

    def __init__(self, kind: str, sections):
        self.sections = tuple(sections)
        self.offsets, self.size = section_offsets(self.sections)
        self.id = layout_id(kind, self.sections)
        self.shapes = {n: tuple(s) for n, s, _ in self.sections}


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


def _whole(v, lo=0) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and lo <= v <= 2**64 - 1


@dataclass
class Counters:
    """Counters of a run (layout ``LAYOUT``), its configuration and rules.

    ``config``: players (labels per seat), n_players, seed, parts (``[[seed, first,
    stop], ...]`` game ranges folded in), n_games (requested), rules_digest, layout.
    """
    counts: np.ndarray
    rules: object
    config: dict = field(default_factory=dict)
    interrupted: bool = False
    LAYOUT = None                  # a Layout (the subclass's)
    RULES = None                   # the game's Rules class (rebuilds the saved rules)
    COUNT_SECTIONS = ("games",)    # never negative (with every ``*_hist``): checked on load

    @classmethod
    def config_for(cls, seated, rules, seed, n_games) -> dict:
        return {"players": [p.label for p in seated], "n_players": len(seated), "seed": int(seed),
                "parts": [], "n_games": int(n_games), "rules_digest": rules.digest,
                "layout": cls.LAYOUT.id}

    def __getitem__(self, name: str) -> np.ndarray:
        shape = self.LAYOUT.shapes.get(name)
        if shape is None:
            raise KeyError(f"no aggregate section {name!r}; sections: "
                           + ", ".join(n for n, _, _ in self.LAYOUT.sections))
        at = self.LAYOUT.offsets[name]
        return self.counts[at:at + int(np.prod(shape))].reshape(shape)

    @classmethod
    def sections(cls) -> pd.DataFrame:
        """The counter layout: name, shape, meaning."""
        return pd.DataFrame(list(cls.LAYOUT.sections), columns=["name", "shape", "meaning"])

    def overflow(self) -> pd.DataFrame:
        """Per histogram section: entries counted in its last bin (which also
        holds every larger value) and the total. Non-zero ``in_last_bin`` means
        percentiles and shares at the top of that histogram are pooled; means
        come from exact sums either way."""
        rows = []
        for name, shape, _ in self.LAYOUT.sections:
            if name.endswith("_hist"):
                h = self[name]
                rows.append({"section": name, "last_bin": shape[-1] - 1,
                             "in_last_bin": int(h[..., -1].sum()), "total": int(h.sum())})
        return pd.DataFrame(rows)

    @property
    def n_games(self) -> int:
        return int(self["games"][0])

    @property
    def n_players(self) -> int:
        return int(self.config["n_players"])

    @property
    def players(self) -> list[str]:
        return list(self.config["players"])

    def _seats(self):
        return range(self.n_players)

    def __repr__(self) -> str:
        return (f"{type(self).__name__}({self.n_games:,} games, players={self.players}, "
                f"seed={self.config.get('seed')}{', interrupted' if self.interrupted else ''})")

    def merge(self, other: "Counters") -> "Counters":
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
        return (isinstance(other, Counters) and self.LAYOUT is other.LAYOUT
                and np.array_equal(self.counts, other.counts)
                and self.config.get("players") == other.config.get("players")
                and self.config.get("rules_digest") == other.config.get("rules_digest"))

    def save(self, path, tag: str = "") -> Path:
        """Write ``path`` (.npz: counters, configuration, rules TOML) atomically
        (``tag``: in the temp file's name, so a run folder's resume can sweep it)."""
        meta = {"format": FORMAT, "config": self.config, "interrupted": bool(self.interrupted),
                "sections": [[n, list(s)] for n, s, _ in self.LAYOUT.sections]}

        def write(tmp):
            with open(tmp, "wb") as f:     # a file object: np.savez would append ".npz" to a name
                np.savez_compressed(f, counts=self.counts, meta=np.array(json.dumps(meta)),
                                    rules_toml=np.array(self.rules.to_toml()))
        return atomic_write(path, write, tag=tag)

    @classmethod
    def config_problem(cls, cfg: dict, counts: np.ndarray) -> str | None:
        """What is wrong with a loaded aggregate's configuration and counts (None:
        nothing); a game extends it with its own checks."""
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
        counted = int(counts[cls.LAYOUT.offsets["games"]])
        if counted != games:
            return f"{counted} games counted, its game ranges hold {games}"
        for name, shape, _ in cls.LAYOUT.sections:      # counts of events can never be negative
            if name in cls.COUNT_SECTIONS or name.endswith("_hist"):
                at = cls.LAYOUT.offsets[name]
                if (counts[at:at + int(np.prod(shape))] < 0).any():
                    return f"negative counts in {name}"
        return None

    @classmethod
    def load(cls, path):
        """Read a ``save`` file, checked: a regular file of at most LOAD_LIMIT bytes;
        whole non-negative counts (never a NaN turned into -9.2e18 games); metadata
        of the right shape; as many games counted as its game ranges hold; rules
        that rebuild with the recorded digest. Any fault is one ConfigError line."""
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
        layout = cls.LAYOUT
        if not isinstance(cfg, dict) or meta.get("format") != FORMAT \
                or cfg.get("layout") != layout.id or raw.shape != (layout.size,):
            fmt = meta.get("format") if isinstance(meta, dict) else None
            found = cfg.get("layout") if isinstance(cfg, dict) else None
            raise ConfigError(f"{path}: aggregates of another format or counter layout "
                              f"({fmt}, {found}; this version reads {FORMAT}, {layout.id})")
        if raw.dtype.kind not in "iu" or (raw.dtype.kind == "u" and raw.dtype.itemsize >= 8
                                          and raw.max(initial=0) > np.iinfo(np.int64).max):
            raise ConfigError(f"{path}: the counts are {raw.dtype}, not whole numbers (damaged)")
        counts = raw.astype(np.int64)
        bad = cls.config_problem(cfg, counts)
        if bad:
            raise ConfigError(f"{path}: damaged aggregates metadata or counts: {bad}")
        try:
            rules = cls.RULES.from_saved(toml, f"the rules TOML in {path}")
        except RulesError as e:
            raise ConfigError(str(e)) from None
        if rules.digest != cfg["rules_digest"]:
            raise ConfigError(f"{path}: its rules rebuild with digest {rules.digest}, not the "
                              f"recorded {cfg['rules_digest']} (edited or swapped)")
        return cls(counts, rules, cfg, bool(meta.get("interrupted")))
