"""``cargo_sim.simulate`` and ``cargo_sim.aggregate``: any registered game (``game=``,
default Cargo Noir) on this machine, or the same games on a Dask cluster with
``backend="dask"`` (cargo_sim.dask_backend). Results are identical either way.
"""
from __future__ import annotations

from ..core import runner
from ..core.contract import counters_of, get_game
from ..core.errors import ConfigError
from ..core.runner import DEFAULT_CHUNK

BACKENDS = ("local", "dask")


def _dask_args(backend, scheduler, chunk_games, n_workers, workers):
    if backend not in BACKENDS:
        raise ConfigError(f"backend must be one of {', '.join(BACKENDS)}, got {backend!r}")
    if backend == "local":
        if scheduler is not None or chunk_games is not None or n_workers is not None:
            raise ConfigError("scheduler, chunk_games and n_workers go with backend='dask'")
        return None
    if workers is not None:
        raise ConfigError("workers is for the local backend; a Dask task plays on one thread "
                          "(n_workers sets the size of a local Dask cluster)")
    return {"scheduler": scheduler, "chunk_games": 100_000 if chunk_games is None else chunk_games,
            "n_workers": 2 if n_workers is None else n_workers}


def simulate(n_games: int, players, seed: int = 0, rules=None, workers: int | None = None,
             progress: bool = True, start: int = 0, chunk_size: int = DEFAULT_CHUNK,
             events: bool = False, backend: str = "local", scheduler=None,
             chunk_games: int | None = None, n_workers: int | None = None,
             check_bots: bool = True, game=None):
    """Play ``n_games`` games of ``game`` (a registered name or a Game; default
    ``cargo_noir``) and return the game's results (Cargo Noir: ``SimResults``).

    ``players``: one bot per seat (names such as ``"random"`` or
    ``"greedy?bid_margin=2"``); seat 0 is the first player. ``seed``: the run's
    seed (game i's own seed is derived from (seed, i)). ``rules``: the game's
    ``Rules`` (default rules when None). ``workers``: threads (default: all
    cores); results do not depend on it. ``start``: index of the first game (to
    extend a run). ``events``: also record every event of every game in
    ``.events`` -- a few hundred rows per game, for small runs. ``check_bots``
    (default True): user bots run checked -- an index out of bounds, a write to
    the game state, a runaway loop stop the run with a BotError naming bot,
    decision and game instead of crashing the process or playing on;
    ``check_bots=False`` trusts them for speed (docs/safety.md). Built-in bots
    are never checked. Ctrl-C stops early and
    returns the games finished so far (``interrupted=True``).

    ``backend="dask"`` plays the same games on a Dask cluster: ``scheduler`` is
    its address (``"tcp://host:8786"``), a ``distributed.Client``, or None for a
    ``LocalCluster`` of ``n_workers`` processes; ``chunk_games`` games per task.
    """
    dask = _dask_args(backend, scheduler, chunk_games, n_workers, workers)
    game = get_game(game)
    if dask is None:
        return runner.simulate(game, n_games, players, seed=seed, rules=rules, workers=workers,
                               progress=progress, start=start, chunk_size=chunk_size,
                               events=events, check_bots=check_bots)
    if events:
        raise ConfigError("events=True is for the local backend")
    from .dask_backend import simulate_dask
    return simulate_dask(n_games, players, seed=seed, rules=rules, progress=progress, start=start,
                         game=game, check_bots=check_bots, **dask)


def aggregate(n_games: int, players, seed: int = 0, rules=None, workers: int | None = None,
              progress: bool = True, start: int = 0, chunk_size: int = DEFAULT_CHUNK,
              backend: str = "local", scheduler=None, chunk_games: int | None = None,
              n_workers: int | None = None, check_bots: bool = True, game=None):
    """Play ``n_games`` games like ``simulate`` (same arguments, same games) but
    keep only the game's fixed-size counters folded in the compiled kernel:
    memory does not grow with ``n_games``. Returns the game's counters object
    (Cargo Noir: ``Aggregates``, Macao: ``MacaoAggregates``); identical for any ``workers`` and
    ``chunk_size``. A game without counters is a ConfigError. Ctrl-C stops early
    and returns the finished chunks (``interrupted=True``).
    ``backend="dask"``, ``scheduler``, ``chunk_games``, ``n_workers``, ``check_bots``: as
    ``simulate``.
    """
    game = get_game(game)
    counters = counters_of(game)
    dask = _dask_args(backend, scheduler, chunk_games, n_workers, workers)
    if dask is None:
        return counters.aggregate(n_games, players, seed=seed, rules=rules, workers=workers,
                                  progress=progress, start=start, chunk_size=chunk_size,
                                  check_bots=check_bots)
    from .dask_backend import aggregate_dask
    return aggregate_dask(n_games, players, seed=seed, rules=rules, progress=progress, start=start,
                          game=game, check_bots=check_bots, **dask)


def load_results(path, columns=None, lazy: bool = False, verify: bool = True,
                 mixed_rules: bool = False):
    """Read a run folder (``cargo-sim simulate --out DIR``, ``runs.run_to_dir``)
    back as its game's results, with the rules and game its manifest names;
    a list of folders reads them as one, each row tagged with its run's
    ``run_id``, ``run_seed`` and ``n_players`` (one game; one rules digest
    unless ``mixed_rules=True``); see ``cargo_sim.runs.load_results``."""
    from .runs import load_results as load
    if isinstance(path, (list, tuple)) and lazy:
        from ..core.errors import ConfigError
        raise ConfigError("load_results: lazy=True reads one run folder; give one path")
    return load(path, columns=columns, lazy=lazy, verify=verify, mixed_rules=mixed_rules)


def load_aggregates(path, game=None):
    """Read a counters file (``Aggregates.save``; ``game``: whose, default Cargo
    Noir), or the merged counters of a ``runs.aggregate_to_dir`` folder
    (``cargo-sim simulate --aggregate --out DIR``: its manifest names the game)."""
    from pathlib import Path
    if Path(path).is_dir():
        from .runs import load_aggregate_dir
        return load_aggregate_dir(path)
    return counters_of(get_game(game)).load(path)
