"""The inputs of the pipelines: SimResults-like tables, and combining runs.

Every pipeline takes DataFrames (``games``, ``players``, ``events``) and, where
game data is needed, the game's rules. ``Tables`` bundles them like a
``SimResults`` does; ``combine`` joins several runs (typically one per player
count) into one ``Tables`` with unique game ids and an ``n_players`` column on
every table.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

@dataclass
class Tables:
    """A SimResults-like bundle: games, players, optional events, the rules."""
    games: pd.DataFrame
    players: pd.DataFrame
    events: pd.DataFrame | None = None
    rules: object = None
    config: dict = field(default_factory=dict)
    events_games: int | None = None      # games per run whose events were recorded

    @property
    def has_events(self) -> bool:
        return self.events is not None and len(self.events) > 0


def as_tables(res) -> Tables:
    """A Tables from a SimResults, a Tables, or any object with games/players
    (and optionally events/rules/config) attributes; adds n_players columns."""
    if isinstance(res, Tables):
        t = res
    else:
        t = Tables(res.games, res.players, getattr(res, "events", None),
                   getattr(res, "rules", None), dict(getattr(res, "config", {}) or {}))
    games = t.games
    players = with_n_players(t.players, games)
    events = with_n_players(t.events, games) if t.events is not None else None
    return Tables(games, players, events, t.rules, t.config, t.events_games)


def with_n_players(df: pd.DataFrame | None, games: pd.DataFrame) -> pd.DataFrame | None:
    """``df`` with an ``n_players`` column taken from ``games`` (by game id)."""
    if df is None or "n_players" in df.columns:
        return df
    if len(games) and games["n_players"].nunique() == 1:
        out = df.copy(deep=False)
        out["n_players"] = np.int8(games["n_players"].iloc[0])
        return out
    m = pd.Series(games["n_players"].to_numpy(), index=games["game"].to_numpy())
    out = df.copy(deep=False)
    out["n_players"] = m.reindex(df["game"].to_numpy()).to_numpy()
    return out


def combine(results, events_games: int | None = None) -> Tables:
    """One Tables from several SimResults/Tables (e.g. one per player count).

    Game ids are offset so they stay unique (run k's ids start after run k-1's
    largest id); the original id is kept in ``run_game``, the run's position in
    ``run``. All runs must use the same rules (equal digests)."""
    parts = [as_tables(r) for r in results]
    if not parts:
        raise ValueError("combine: no results given")
    rules = parts[0].rules
    for p in parts[1:]:
        if rules is not None and p.rules is not None and p.rules.digest != rules.digest:
            raise ValueError("combine: the runs use different rules "
                             f"({rules.digest} vs {p.rules.digest})")
    games, players, events = [], [], []
    offset = 0
    configs = []
    for k, p in enumerate(parts):
        gmax = int(p.games["game"].max()) + 1 if len(p.games) else 0
        for df, out in ((p.games, games), (p.players, players), (p.events, events)):
            if df is None:
                continue
            d = df.copy()
            d.insert(0, "run", np.int16(k))
            d["run_game"] = d["game"]
            d["game"] = d["game"].astype(np.int64) + offset
            out.append(d)
        offset += gmax
        configs.append(p.config)
    ev = pd.concat(events, ignore_index=True) if events else None
    if ev is not None:
        for c in ("bot", "loc", "card", "action"):
            if c in ev.columns and not isinstance(ev[c].dtype, pd.CategoricalDtype):
                ev[c] = ev[c].astype("category")     # categories differed between runs
    pl = pd.concat(players, ignore_index=True)
    if not isinstance(pl["bot"].dtype, pd.CategoricalDtype):
        pl["bot"] = pl["bot"].astype("category")
    return Tables(pd.concat(games, ignore_index=True), pl, ev, rules,
                  {"runs": configs}, events_games)
