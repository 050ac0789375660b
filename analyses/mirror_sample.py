"""Mirror games of one bot (the same bot in every seat) kept per chunk on disk.

An expensive bot's mirror games (a search) are played a chunk at a time and each chunk
is appended to one CSV as soon as it is played (one row per player-game, only the
columns the headlines read), so a stopped run keeps what it played and a rerun plays
only the games missing. Game ``g`` of ``n`` players is always the same game (seed,
start index), whatever the chunk size or the order the chunks were played in.
"""
from __future__ import annotations

import time
from pathlib import Path

import pandas as pd

from cargo_sim import simulate
from cargo_sim.core.errors import ConfigError


def rows(res, n: int, columns) -> pd.DataFrame:
    """The player-game rows of a ``simulate`` result: ``n_players``, then ``columns``
    (a ``games`` column joins from the games table when the players table lacks it;
    a trailing ``*`` takes every players column with that prefix)."""
    p = res.players
    extra = [c for c in columns if not c.endswith("*") and c not in p.columns and c in res.games.columns]
    if extra:
        p = p.merge(res.games[["game", *extra]], on="game")
    cols = []
    for c in columns:
        cols += [x for x in p.columns if x.startswith(c[:-1])] if c.endswith("*") else [c]
    return p.assign(n_players=n)[["n_players", *cols]]


def plan(path: Path, want: dict[int, int], chunk: dict[int, int]) -> list[tuple[int, int, int]]:
    """(players, start, games) of the chunks still missing from ``path``, taken in turn
    across the player counts so that a run stopped early leaves every count some games."""
    done = pd.read_csv(path, usecols=["n_players", "game"]) if Path(path).exists() else None
    todo = {}
    for n, w in sorted(want.items()):
        have = set(done.loc[done["n_players"] == n, "game"]) if done is not None else set()
        todo[n] = [(n, s, min(chunk[n], w - s)) for s in range(0, w, chunk[n])
                   if not all(g in have for g in range(s, min(s + chunk[n], w)))]
    out = []
    while any(todo.values()):
        for n in sorted(todo):
            if todo[n]:
                out.append(todo[n].pop(0))
    return out


def play(path: Path, bot: str, want: dict[int, int], chunk: dict[int, int], columns, seed: int,
         game: str | None = None, deadline: float | None = None, workers: int = 1,
         log=print) -> pd.DataFrame:
    """Play the mirror games of ``bot`` missing from ``path`` (``want``: games per player
    count; ``chunk``: games per chunk) and return every row on disk. No chunk starts
    after ``deadline`` (a ``time.time()``); ``workers`` threads play each chunk (the
    games do not depend on it)."""
    path = Path(path)
    kw = {"game": game} if game else {}
    for n, start, k in plan(path, want, chunk):
        if deadline is not None and time.time() > deadline:
            log(f"deadline reached: stopping before {n} players, games {start}..{start + k - 1}", flush=True)
            break
        have = set()
        if path.exists():
            d = pd.read_csv(path, usecols=["n_players", "game"])
            have = set(d.loc[d["n_players"] == n, "game"])
        t = time.time()
        res = simulate(k, [bot] * n, seed=seed, start=start, workers=workers, progress=False, **kw)
        r = rows(res, n, columns)
        r = r[~r["game"].isin(have)]
        if path.exists():     # appended rows must fall under the file's own header
            head = list(pd.read_csv(path, nrows=0).columns)
            if head != list(r.columns):
                raise ConfigError(f"{path} holds the columns {', '.join(head)}, not the ones played now "
                                  f"({', '.join(r.columns)}): move it aside to play it afresh")
        r.to_csv(path, mode="a", header=not path.exists(), index=False)
        log(f"{game or 'cargo_noir'} {n} players: games {start}..{start + k - 1} in {time.time() - t:.0f} s",
            flush=True)
    return pd.read_csv(path) if path.exists() else pd.DataFrame()
