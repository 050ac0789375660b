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

import contextlib
import logging
import time
from functools import partial

import pandas as pd

from ..core.errors import ClusterError, ConfigError
from ..core.checks import check_number


def _require_distributed():
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise ConfigError("the Dask backend needs dask.distributed: "
                          "pip install cargo_sim[dask]  (or: pip install 'dask[distributed]')") from None
    return distributed


# The game travels with each task as its Game object (pickled by reference to its
# class: the worker imports the game's module, which a worker must have, as it
# must have the bots' modules), so a game registered only in the client's
# process (a test's) plays on the cluster too.
def _warm(game, players, rules) -> str:
    """Run on each worker once: load (or compile) the engine and the table's bots."""
    import os
    from ..core.runner import simulate
    simulate(game, 2, players, seed=0, rules=rules, workers=1, progress=False)
    return f"pid {os.getpid()}"


def _warm_workers(client, game, labels, rules) -> None:
    """Compile the table on one worker first: it compiles into (or loads) the
    on-disk cache, so the others (sharing the cache folder) only load it. Only
    a head start: a worker lost meanwhile compiles when its first task comes."""
    try:
        addrs = sorted(client.scheduler_info()["workers"])
        if addrs:
            client.run(_warm, game, labels, rules, workers=addrs[:1])
        client.run(_warm, game, labels, rules, workers=addrs[1:] or None)
    except Exception as e:                          # noqa: BLE001
        if not _lost(e):
            raise


def _task(game, n, players, seed, rules, start, check_bots=True):
    """One chunk on a worker: the chunk's (games, players) tables."""
    from ..core.runner import simulate
    res = simulate(game, n, players, seed=seed, rules=rules, workers=1, progress=False, start=start,
                   check_bots=check_bots)
    if res.interrupted:            # a worker cannot be interrupted by Ctrl-C; be explicit anyway
        raise RuntimeError(f"chunk starting at game {start} was interrupted")
    return res.games, res.players


def _client(scheduler, n_workers):
    """(client, things to close). ``scheduler``: None (a local cluster), an
    address "tcp://host:8786", a distributed.Client, or a cluster object."""
    distributed = _require_distributed()
    if isinstance(scheduler, distributed.Client):
        return scheduler, []
    if scheduler is None or scheduler == "local":
        check_number("n_workers", n_workers, 1)
        cluster = distributed.LocalCluster(n_workers=n_workers, threads_per_worker=1, host="127.0.0.1",
                                           processes=True, dashboard_address=None,
                                           silence_logs=logging.ERROR)
        client = distributed.Client(cluster)
        return client, [client, cluster]
    if isinstance(scheduler, str):
        probe_scheduler(scheduler)
        try:
            client = distributed.Client(scheduler, timeout=f"{CONNECT_TIMEOUT}s")
        except (OSError, ValueError, TimeoutError) as e:
            raise ClusterError(f"cannot reach the Dask scheduler at {scheduler}: {e}") from None
        return client, [client]
    if hasattr(scheduler, "scheduler_address"):          # a cluster object
        client = distributed.Client(scheduler)
        return client, [client]
    raise ConfigError(f"scheduler must be an address, a distributed.Client or a cluster, got {scheduler!r}")


CONNECT_TIMEOUT = 10      # seconds to reach a scheduler by address
MAX_FRAME = 1 << 26       # a Dask handshake's first frame is a few hundred bytes


def probe_scheduler(address: str) -> None:
    """ClusterError unless a Dask scheduler answers at a tcp:// address. A Dask
    peer sends its handshake as soon as a connection opens: a uint64 total
    length, then the frame count. A silent server (an HTTP port) would keep the client
    waiting; one that talks another protocol would have it read a garbage
    length and try to allocate exabytes. Other protocols (tls://, inproc://)
    are left to distributed."""
    import socket
    import struct
    rest = address[len("tcp://"):] if address.startswith("tcp://") else (
        address if "://" not in address else None)
    if rest is None:
        return
    host, _, port = rest.rpartition(":")
    try:
        port = int(port.rstrip("/"))
    except ValueError:
        raise ClusterError(f"the Dask scheduler address {address!r} needs a port (tcp://host:8786)") from None
    try:
        with socket.create_connection((host.strip("[]") or "127.0.0.1", port),
                                      timeout=CONNECT_TIMEOUT) as sock:
            head = b""
            while len(head) < 16:
                got = sock.recv(16 - len(head))
                if not got:
                    break
                head += got
    except socket.timeout:
        raise ClusterError(f"no Dask scheduler answered at {address} within {CONNECT_TIMEOUT} s "
                           f"(is it a Dask scheduler's address?)") from None
    except OSError as e:
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {e.strerror or e}") from None
    # distributed.comm.tcp: uint64 total length, uint64 frame count, lengths, frames
    if len(head) < 16 or not 0 < struct.unpack("<Q", head[:8])[0] <= MAX_FRAME \
            or not 0 < struct.unpack("<Q", head[8:16])[0] <= 64:
        raise ClusterError(f"the server at {address} does not speak Dask's protocol "
                           f"(not a Dask scheduler)")


RETRIES = 3          # submissions of a chunk whose worker was lost, before giving up


def _lost(exc) -> bool:
    """Is ``exc`` a lost worker or connection (worth re-submitting the chunk)?"""
    import asyncio
    import distributed
    kinds = [distributed.comm.core.CommClosedError, asyncio.CancelledError, OSError, TimeoutError]
    for name in ("KilledWorker", "FutureCancelledError"):
        k = getattr(distributed.client, name, None) or getattr(distributed.scheduler, name, None)
        if isinstance(k, type):
            kinds.append(k)
    return isinstance(exc, tuple(kinds))


LOST_AFTER = CONNECT_TIMEOUT + 5     # seconds without a scheduler before giving up


def _raise_if_scheduler_lost(client, exc) -> None:
    """A scheduler killed mid-run first cancels the client's futures, and only some
    seconds later closes the client: chunks cancelled RETRIES times are then the
    scheduler's loss, not their workers'. Wait up to LOST_AFTER s to tell them apart."""
    if "Cancelled" not in exc.__class__.__name__:
        return
    end = time.monotonic() + LOST_AFTER
    while client.status == "running" and time.monotonic() < end:
        time.sleep(0.2)
    if client.status != "running":
        raise ClusterError(f"Dask: lost the scheduler mid-run (client {client.status}); the chunks "
                           f"that arrived are kept only in a run folder (--out), which a rerun "
                           f"resumes") from None


def _arrivals(pending, client):
    """The futures of ``pending`` (a distributed.as_completed, added to while
    iterating) as they finish; a ClusterError once the client has had no
    scheduler for LOST_AFTER seconds: a scheduler killed mid-run closes the
    client after its reconnection timeout, and a plain ``for fut in pending``
    would then wait forever."""
    lost_since = None
    while not pending.is_empty():
        if pending.has_ready():
            lost_since = None
            yield from pending.next_batch(block=False)
            continue
        if client.status != "running":
            lost_since = lost_since or time.monotonic()
            if time.monotonic() - lost_since > LOST_AFTER:
                raise ClusterError(f"Dask: lost the scheduler mid-run (client {client.status} for "
                                   f"{LOST_AFTER} s); the chunks that arrived are kept only in a "
                                   f"run folder (--out), which a rerun resumes")
        else:
            lost_since = None
        time.sleep(0.02)


def _run_chunks(task, game, n_games, labels, seed, rules, scheduler, chunk_games, n_workers,
                progress, on_result, start=0, todo=None):
    """Send chunks of ``chunk_games`` games of ``game`` to the cluster as
    ``task(game, n, labels, seed, rules, first_game)`` and call ``on_result(i, lo, hi, result)`` as each
    one arrives (progress bar; Ctrl-C cancels the rest and keeps what arrived).
    ``todo``: the chunk numbers to play (default all). The rules travel with
    each task (3 KB; nothing scattered that a lost worker could take with it),
    and a chunk whose worker is lost is submitted again, up to RETRIES times,
    before a ClusterError: a result is never silently short.
    Returns interrupted."""
    from ..core.progress import Progress
    check_number("seed", seed, 0)
    check_number("chunk_games", chunk_games, 1)
    n_chunks = -(-n_games // chunk_games)
    todo = range(n_chunks) if todo is None else todo

    def bounds(i):
        return i * chunk_games, min((i + 1) * chunk_games, n_games)

    client, owned = _client(scheduler, n_workers)
    interrupted = False
    try:
        distributed = _require_distributed()
        if n_chunks:
            _warm_workers(client, game, labels, rules)
        tries = {}

        def submit(i):
            lo, hi = bounds(i)
            tries[i] = tries.get(i, 0) + 1
            return client.submit(task, game, hi - lo, labels, int(seed), rules, start + lo, pure=False)

        futures = {}
        window = 4 * max(len(client.scheduler_info().get("workers", {})), 1) + 4
        it = iter(todo)
        for i in it:                                # a bounded window: 10^6 chunks are no burden
            futures[submit(i)] = i
            if len(futures) >= window:
                break
        pending = distributed.as_completed(list(futures))
        total = n_games if isinstance(todo, range) else sum(bounds(i)[1] - bounds(i)[0] for i in todo)
        bar = Progress(total, label=f"dask cluster: {len(labels)} players", enabled=progress and total > 0)
        try:
            for fut in _arrivals(pending, client):
                i = futures.pop(fut)
                try:
                    result = fut.result()
                except Exception as e:              # noqa: BLE001 - sorted by _lost below
                    if not _lost(e):
                        raise
                    if tries[i] >= RETRIES:
                        _raise_if_scheduler_lost(client, e)
                        raise ClusterError(f"Dask: the chunk of games {bounds(i)[0]}..{bounds(i)[1] - 1} "
                                           f"was lost with its worker {tries[i]} times "
                                           f"({e.__class__.__name__}); the cluster is not healthy") from None
                    new = submit(i)
                    futures[new] = i
                    pending.add(new)
                    continue
                on_result(i, *bounds(i), result)
                fut.release()
                bar.update(bounds(i)[1] - bounds(i)[0])
                nxt = next(it, None)
                if nxt is not None:
                    new = submit(nxt)
                    futures[new] = nxt
                    pending.add(new)
        except KeyboardInterrupt:
            interrupted = True
            client.cancel(list(futures))
        except ClusterError:
            raise
        except Exception as e:                      # noqa: BLE001 - a closed client: one line
            if client.status == "running":
                raise
            raise ClusterError(f"Dask: lost the scheduler mid-run ({e.__class__.__name__}: the "
                               f"client is {client.status}); the chunks that arrived are kept only "
                               f"in a run folder (--out), which a rerun resumes") from None
        finally:
            if bar.enabled:
                bar.close()
    finally:
        for obj in owned:
            with contextlib.suppress(Exception):
                obj.close()
    return interrupted


def simulate_dask(n_games: int, players, seed: int = 0, rules=None, scheduler=None,
                  chunk_games: int = 100_000, n_workers: int = 2, progress: bool = True,
                  start: int = 0, game=None, check_bots: bool = True):
    """``simulate()`` of ``game`` (default Cargo Noir) on a Dask cluster; returns
    the same results object (``check_bots`` as ``simulate``).

    ``scheduler``: the scheduler's address (``"tcp://host:8786"``), an existing
    ``distributed.Client`` (left open), or None for a ``LocalCluster`` of
    ``n_workers`` single-threaded processes (closed at the end). Chunks of
    ``chunk_games`` games are the tasks; results are merged in game order.
    """
    from ..core.contract import get_game
    from ..core.runner import check_fits, seat_players, simulate
    from ..core.columns import narrow
    from .runs.plan import check_chunk_games
    game = get_game(game)
    seated, rules = seat_players(game, n_games, players, rules)
    labels = [p.label for p in seated]
    # the results come back into this process: refused up front if they cannot fit
    check_fits(game.table_bytes(n_games, len(seated)), n_games, game)
    check_chunk_games(chunk_games)
    parts = {}

    def keep(i, lo, hi, result):
        parts[i] = result

    interrupted = _run_chunks(partial(_task, check_bots=check_bots), game, n_games, labels, seed,
                              rules, scheduler, chunk_games, n_workers, progress, keep, start=start)
    k = 0
    while k in parts:                                # the finished prefix, in game order
        k += 1
    if k:
        games = narrow(pd.concat([parts[i][0] for i in range(k)], ignore_index=True))
        pl = narrow(pd.concat([parts[i][1] for i in range(k)], ignore_index=True))
    else:
        empty = simulate(game, 0, labels, seed=seed, rules=rules, progress=False)
        games, pl = empty.games, empty.players
    config = {"n_games": n_games, "players": labels, "seed": seed, "start": start,
              "rules_digest": rules.digest, "backend": "dask", "chunk_games": chunk_games}
    return game.results(games, pl, rules, config, interrupted, None)


def _agg_task(game, n, players, seed, rules, start, check_bots=True):
    """One chunk on a worker: its aggregate counters (a fixed-size int64 array)."""
    from ..core.contract import counters_of
    a = counters_of(game).aggregate(n, players, seed=seed, rules=rules, workers=1, progress=False,
                                    start=start, check_bots=check_bots)
    if a.interrupted:
        raise RuntimeError(f"chunk starting at game {start} was interrupted")
    return a.counts


def aggregate_dask(n_games: int, players, seed: int = 0, rules=None, scheduler=None,
                   chunk_games: int = 100_000, n_workers: int = 2, progress: bool = True,
                   start: int = 0, game=None, check_bots: bool = True):
    """``aggregate()`` on a Dask cluster (arguments as ``simulate_dask``); returns
    the same counters object. Each task returns one chunk's counters, summed as
    they arrive: the client's memory stays flat. Ctrl-C keeps the finished
    chunks (their game ranges are in ``config["parts"]``)."""
    from ..core.contract import counters_of, get_game
    from ..core.runner import seat_players
    game = get_game(game)
    counters = counters_of(game)
    seated, rules = seat_players(game, n_games, players, rules)
    labels = [p.label for p in seated]
    out = counters.new(seated, rules, seed, n_games)
    total = out.counts
    finished = []

    def add(i, lo, hi, counts):
        total[:] += counts
        finished.append([int(seed), start + lo, start + hi])

    interrupted = _run_chunks(partial(_agg_task, check_bots=check_bots), game, n_games, labels,
                              seed, rules, scheduler, chunk_games, n_workers, progress, add,
                              start=start)
    out.config["parts"] = counters.join_parts(sorted(finished))
    out.interrupted = interrupted
    return out


def run_to_dir_dask(out_dir, n_games: int, players, seed: int = 0, rules=None, scheduler=None,
                    chunk_games: int = 100_000, n_workers: int = 2, resume: bool = False,
                    progress: bool = True, quiet: bool = False, game=None,
                    check_bots: bool = True):
    """``runs.run_to_dir`` with the chunks played on a Dask cluster: the same
    folder, byte for byte (markers, lock, resume), written by this process as
    the chunks arrive (``check_bots`` as ``simulate``)."""
    import sys
    import time
    from pathlib import Path
    from ..core.contract import get_game
    from .runs.layout import games_done_in, verified_chunks
    from .runs.plan import check_folder_game, open_run_folder, plan
    from .runs.write import RunInfo, interrupted_message, rows_chunk_writer
    folder = Path(out_dir)
    game = get_game(game)
    check_folder_game(folder, game, resume)
    manifest, rules = plan(n_games, players, seed, rules, chunk_games, game)
    lock = open_run_folder(folder, manifest, resume)
    try:
        done = set(verified_chunks(folder, manifest, "replay"))
        todo = [k for k in range(manifest["n_chunks"]) if k not in done]
        write = rows_chunk_writer(folder, manifest["seed"])
        written = []

        def save(i, lo, hi, result):
            write(i, lo, hi, *result)
            written.append(hi - lo)

        t0 = time.perf_counter()
        interrupted = _run_chunks(partial(_task, check_bots=check_bots), game, n_games,
                                  manifest["players"], manifest["seed"], rules,
                                  scheduler, manifest["chunk_games"], n_workers, progress, save,
                                  todo=todo)
        seconds = time.perf_counter() - t0
    finally:
        lock.release()
    games_done = games_done_in(done, manifest["chunk_games"], n_games) + sum(written)
    n_done = len(done) + len(written)
    if interrupted and not quiet:
        print(interrupted_message(folder, n_done, manifest["n_chunks"], games_done, n_games,
                                  "run_to_dir_dask"), file=sys.stderr)
    return RunInfo(folder, n_games, games_done, n_done, manifest["n_chunks"], sum(written),
                   seconds, interrupted, manifest)
