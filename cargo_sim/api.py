"""``cargo_sim.simulate`` and ``cargo_sim.aggregate``: the game's own runners
(Cargo Noir) on this machine, or the same games on a Dask cluster with
``backend="dask"`` (cargo_sim.dask_backend). Results are identical either way.
"""
from __future__ import annotations

from .core import runner
from .core.contract import get_game
from .core.errors import ConfigError
from .games.cargo_noir.aggregates import aggregate as _aggregate_local, load_aggregates as _load_file
from .games.cargo_noir.simulate import DEFAULT_CHUNK, NAME, simulate as _simulate_local

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
             check_bots: bool = False, game=None):
    dask = _dask_args(backend, scheduler, chunk_games, n_workers, workers)
    game = get_game(game)
    if game.name != NAME:
        if dask is not None:
            raise ConfigError(f"backend='dask' plays {NAME} only so far, not {game.name}")
        return runner.simulate(game, n_games, players, seed=seed, rules=rules, workers=workers,
                               progress=progress, start=start, chunk_size=chunk_size,
                               events=events, check_bots=check_bots)
    if dask is None:
        return _simulate_local(n_games, players, seed=seed, rules=rules, workers=workers,
                               progress=progress, start=start, chunk_size=chunk_size, events=events,
                               check_bots=check_bots)
    if events or check_bots:
        raise ConfigError("events=True and check_bots=True are for the local backend")
    from .dask_backend import simulate_dask
    return simulate_dask(n_games, players, seed=seed, rules=rules, progress=progress, start=start,
                         **dask)


simulate.__doc__ = (_simulate_local.__doc__ or "") + """
    ``backend="dask"`` plays the same games on a Dask cluster: ``scheduler`` is
    its address (``"tcp://host:8786"``), a ``distributed.Client``, or None for a
    ``LocalCluster`` of ``n_workers`` processes; ``chunk_games`` games per task.
    """


def aggregate(n_games: int, players, seed: int = 0, rules=None, workers: int | None = None,
              progress: bool = True, start: int = 0, chunk_size: int = DEFAULT_CHUNK,
              backend: str = "local", scheduler=None, chunk_games: int | None = None,
              n_workers: int | None = None, game=None):
    if get_game(game).name != NAME:
        raise ConfigError(f"aggregate keeps {NAME}'s counters only so far, not "
                          f"{get_game(game).name}'s (simulate plays any game)")
    dask = _dask_args(backend, scheduler, chunk_games, n_workers, workers)
    if dask is None:
        return _aggregate_local(n_games, players, seed=seed, rules=rules, workers=workers,
                                progress=progress, start=start, chunk_size=chunk_size)
    from .dask_backend import aggregate_dask
    return aggregate_dask(n_games, players, seed=seed, rules=rules, progress=progress, start=start,
                          **dask)


aggregate.__doc__ = (_aggregate_local.__doc__ or "") + """
    ``backend="dask"``, ``scheduler``, ``chunk_games``, ``n_workers``, ``game``: as ``simulate``.
    """


def load_results(path, columns=None, lazy: bool = False, verify: bool = True):
    """Read a run folder (``cargo-sim simulate --out DIR``, ``runs.run_to_dir``)
    back as a ``SimResults``; see ``cargo_sim.runs.load_results``."""
    from .runs import load_results as load
    return load(path, columns=columns, lazy=lazy, verify=verify)


def load_aggregates(path):
    """Read an ``Aggregates.save`` file, or the merged counters of a
    ``runs.aggregate_to_dir`` folder (``cargo-sim simulate --aggregate --out DIR``)."""
    from pathlib import Path
    if Path(path).is_dir():
        from .runs import load_aggregate_dir
        return load_aggregate_dir(path)
    return _load_file(path)
