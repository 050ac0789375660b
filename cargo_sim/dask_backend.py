"""Run a simulation on a Dask distributed cluster (``pip install cargo_sim[dask]``).

``simulate_dask(n, players, seed)`` splits the run into chunks of
``chunk_games`` games; each chunk is one task, ``simulate(chunk, ...,
start=k)`` on a worker, returning the chunk's compact tables. Game i depends
only on (seed, i), so the merged tables equal those of a local
``simulate(n, players, seed)``.

Workers must import the same cargo_sim (and any user bot module). Each worker
is warmed once before the real tasks (a tiny simulate), so the compiled
kernels are loaded from the on-disk cache, or compiled, before timing starts;
point NUMBA_CACHE_DIR at a shared folder to compile only once per cluster.
"""
from __future__ import annotations

import logging

import pandas as pd

from .errors import ConfigError


def _require_distributed():
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise ConfigError("the Dask backend needs dask.distributed: "
                          "pip install cargo_sim[dask]  (or: pip install 'dask[distributed]')") from None
    return distributed


def _warm(players, rules) -> str:
    """Run on each worker once: load (or compile) the engine and the table's bots."""
    import os
    from .cargo_noir.simulate import simulate
    simulate(2, players, seed=0, rules=rules, workers=1, progress=False)
    return f"pid {os.getpid()}"


def _warm_workers(client, labels, rules) -> None:
    """Compile the table on one worker first: it compiles into (or loads) the
    on-disk cache, so the others (sharing the cache folder) only load it."""
    addrs = sorted(client.scheduler_info()["workers"])
    if addrs:
        client.run(_warm, labels, rules, workers=addrs[:1])
    client.run(_warm, labels, rules, workers=addrs[1:] or None)


def _task(n, players, seed, rules, start):
    """One chunk on a worker: the chunk's (games, players) tables."""
    from .cargo_noir.simulate import simulate
    res = simulate(n, players, seed=seed, rules=rules, workers=1, progress=False, start=start)
    if res.interrupted:            # a worker cannot be interrupted by Ctrl-C; be explicit anyway
        raise RuntimeError(f"chunk starting at game {start} was interrupted")
    return res.games, res.players


def _client(scheduler, n_workers):
    """(client, things to close). ``scheduler``: None (a local cluster), an
    address "tcp://host:8786", a distributed.Client, or a cluster object."""
    distributed = _require_distributed()
    if isinstance(scheduler, distributed.Client):
        return scheduler, []
    if scheduler is None:
        if not isinstance(n_workers, int) or isinstance(n_workers, bool) or n_workers < 1:
            raise ConfigError(f"n_workers must be a whole number >= 1, got {n_workers!r}")
        cluster = distributed.LocalCluster(n_workers=n_workers, threads_per_worker=1,
                                           processes=True, dashboard_address=None,
                                           silence_logs=logging.ERROR)
        client = distributed.Client(cluster)
        return client, [client, cluster]
    if isinstance(scheduler, str):
        try:
            client = distributed.Client(scheduler, timeout="30s")
        except OSError as e:
            raise ConfigError(f"cannot reach the Dask scheduler at {scheduler}: {e}") from None
        return client, [client]
    if hasattr(scheduler, "scheduler_address"):          # a cluster object
        client = distributed.Client(scheduler)
        return client, [client]
    raise ConfigError(f"scheduler must be an address, a distributed.Client or a cluster, got {scheduler!r}")


def _run_chunks(task, n_games, labels, seed, rules, scheduler, chunk_games, n_workers,
                progress, on_result):
    """Send chunks of ``chunk_games`` games to the cluster as ``task(n, labels,
    seed, rules, start)`` and call ``on_result(i, lo, hi, result)`` as each one
    arrives (progress bar; Ctrl-C cancels the rest and keeps what arrived).
    Returns (bounds, interrupted)."""
    import numpy as np
    from .progress import Progress
    if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool) or seed < 0:
        raise ConfigError(f"seed must be a whole number >= 0, got {seed!r}")
    if (not isinstance(chunk_games, (int, np.integer)) or isinstance(chunk_games, bool)
            or chunk_games < 1):
        raise ConfigError(f"chunk_games must be a whole number >= 1, got {chunk_games!r}")
    bounds = [(lo, min(lo + chunk_games, n_games)) for lo in range(0, n_games, chunk_games)]
    client, owned = _client(scheduler, n_workers)
    interrupted = False
    try:
        distributed = _require_distributed()
        if bounds:
            _warm_workers(client, labels, rules)
        rules_f = client.scatter(rules, broadcast=True)
        futures = {client.submit(task, hi - lo, labels, int(seed), rules_f, lo, pure=False): i
                   for i, (lo, hi) in enumerate(bounds)}
        bar = Progress(n_games, label=f"dask cluster: {len(labels)} players", enabled=progress and n_games > 0)
        try:
            for fut in distributed.as_completed(futures):
                i = futures[fut]
                on_result(i, bounds[i][0], bounds[i][1], fut.result())
                fut.release()
                bar.update(bounds[i][1] - bounds[i][0])
        except KeyboardInterrupt:
            interrupted = True
            client.cancel(list(futures))
        finally:
            if bar.enabled:
                bar.close()
    finally:
        for obj in owned:
            obj.close()
    return bounds, interrupted


def simulate_dask(n_games: int, players, seed: int = 0, rules=None, scheduler=None,
                  chunk_games: int = 100_000, n_workers: int = 2, progress: bool = True):
    """``simulate()`` on a Dask cluster; returns the same ``SimResults``.

    ``scheduler``: the scheduler's address (``"tcp://host:8786"``), an existing
    ``distributed.Client`` (left open), or None for a ``LocalCluster`` of
    ``n_workers`` single-threaded processes (closed at the end). Chunks of
    ``chunk_games`` games are the tasks; results are merged in game order.
    """
    from .cargo_noir.simulate import SimResults, _check_request
    from .runs import narrow
    seated, rules = _check_request(n_games, players, rules)
    labels = [p.label for p in seated]
    parts = {}

    def keep(i, lo, hi, result):
        parts[i] = result

    bounds, interrupted = _run_chunks(_task, n_games, labels, seed, rules, scheduler,
                                      chunk_games, n_workers, progress, keep)
    k = 0
    while k < len(bounds) and k in parts:
        k += 1
    if k:
        games = pd.concat([parts[i][0] for i in range(k)], ignore_index=True)
        pl = pd.concat([parts[i][1] for i in range(k)], ignore_index=True)
        narrow(games)
        narrow(pl)
    else:
        from .cargo_noir.simulate import simulate
        empty = simulate(0, labels, seed=seed, rules=rules, progress=False)
        games, pl = empty.games, empty.players
    config = {"n_games": n_games, "players": labels, "seed": seed, "start": 0,
              "rules_digest": rules.digest, "backend": "dask", "chunk_games": chunk_games}
    return SimResults(games, pl, rules, config, interrupted)


def _agg_task(n, players, seed, rules, start):
    """One chunk on a worker: its aggregate counters (a fixed-size int64 array)."""
    from .cargo_noir.aggregates import aggregate
    a = aggregate(n, players, seed=seed, rules=rules, workers=1, progress=False, start=start)
    if a.interrupted:
        raise RuntimeError(f"chunk starting at game {start} was interrupted")
    return a.counts


def aggregate_dask(n_games: int, players, seed: int = 0, rules=None, scheduler=None,
                   chunk_games: int = 100_000, n_workers: int = 2, progress: bool = True):
    """``aggregate()`` on a Dask cluster (arguments as ``simulate_dask``); returns
    the same ``Aggregates``. Each task returns one chunk's counters, summed as
    they arrive: the client's memory stays flat. Ctrl-C keeps the finished
    chunks (their game ranges are in ``config["parts"]``)."""
    import numpy as np
    from .cargo_noir import aggregate_nb as K
    from .cargo_noir.aggregates import Aggregates, _join_parts, new_config
    from .cargo_noir.simulate import _check_request
    seated, rules = _check_request(n_games, players, rules)
    labels = [p.label for p in seated]
    total = np.zeros(K.ACC_SIZE, np.int64)
    finished = []

    def add(i, lo, hi, counts):
        total[:] += counts
        finished.append([int(seed), lo, hi])

    _, interrupted = _run_chunks(_agg_task, n_games, labels, seed, rules, scheduler,
                                 chunk_games, n_workers, progress, add)
    config = new_config(seated, rules, seed, n_games)
    config["parts"] = _join_parts(finished)
    return Aggregates(total, rules, config, interrupted)
