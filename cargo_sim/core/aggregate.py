"""The chunked driver of aggregate runs, for any game with a fold kernel.

A game supplies a ``Fold``: its kernel ``(template, decide, seeds, log, acc, err) ->
bool`` that plays a chunk of games into a re-used event buffer ``log`` and adds each
game's statistics into ``acc`` (its layout's size), the event buffer's rows per seat,
and optionally a hook for a stopped chunk it can fix (a game that loads a solver on
first need, then the chunk is played again). The core plays the run's chunks on a thread
pool like ``simulate`` (same seeds: game i is game i of ``simulate``), sums the chunks'
counters (identical for any workers and chunk size), replays a chunk whose event
buffer overflowed with a buffer twice as large, shows progress and keeps the finished
chunks on Ctrl-C. ``GameCounters`` is the contract's ``counters`` member built from a
game's ``Fold``, its ``core.counters.Counters`` subclass and its summary lines.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .checks import check_games, check_number, check_seed
from .contract import ERR_SIZE, get_game
from .counters import join_parts
from .counters_nb import OVERFLOW_KIND, OVERFLOW_ROWS
from .progress import Progress
from .runner import DEFAULT_CHUNK, Table, chunk_jobs, default_workers, run_jobs, seat_players
from .seeds_nb import game_seeds


@dataclass
class Fold:
    """A game's fold kernel and what the driver needs around it.

    ``kernel(template, decide, seeds, log, acc, err) -> bool``: False with
    err[OVERFLOW_KIND] == -1 and err[OVERFLOW_ROWS] >= 0 when a game's events filled
    ``log`` (the chunk is replayed larger), else as the game's chunk kernel (an illegal
    decision: err[0] the game). ``rows_per_seat()``: the event buffer's first size.
    ``compile()``: compile (or load) the kernel before the clock starts. ``retry(err)``:
    True when the game fixed what stopped the chunk (the chunk is played again)."""
    kernel: Callable
    size: int
    n_event_fields: int
    rows_per_seat: Callable[[], int]
    compile: Callable[[], None] = lambda: None
    retry: Callable | None = None


def run_chunk(fold: Fold, template, decide, n_seats: int, seed: int, first: int, n: int,
              rows_per_seat: int | None = None, hint: list | None = None):
    """Fold games first .. first+n-1 of run ``seed``: (counters, None) or (None, err)
    on an illegal decision. A game whose events overflow the buffer makes the chunk
    replay with a buffer twice as large (same games, fresh counters); ``hint`` (a
    one-item list shared by the chunks of a run) remembers the larger size."""
    seeds = game_seeds(seed, first, n)
    per_seat = int(rows_per_seat or fold.rows_per_seat())
    if hint:
        per_seat = max(per_seat, int(hint[0]))
    rows = max(per_seat * n_seats, 1)
    while True:
        acc = np.zeros(fold.size, np.int64)
        err = np.full(max(ERR_SIZE, OVERFLOW_ROWS + 1), -1, np.int64)
        log = np.zeros((rows, fold.n_event_fields), np.int64)
        fold.compile()
        if fold.kernel(template, decide, seeds, log, acc, err):
            return acc, None
        if fold.retry is not None and fold.retry(err):
            continue
        if err[OVERFLOW_KIND] == -1 and err[OVERFLOW_ROWS] >= 0:
            rows *= 2
            if hint is not None:
                hint[0] = max(int(hint[0]), rows // n_seats)
            continue
        return None, err


@dataclass
class AggregateRun:
    """What ``aggregate_run`` played: the checked table, the summed counters, the
    games done from ``start`` and whether Ctrl-C stopped it."""
    seated: list
    rules: object
    seed: int
    start: int
    total: np.ndarray
    done: int
    interrupted: bool


def aggregate_run(game, fold: Fold, n_games: int, players, seed: int = 0, rules=None,
                  workers: int | None = None, progress: bool = True, start: int = 0,
                  chunk_size: int = DEFAULT_CHUNK, check_bots: bool = True,
                  chunk: Callable | None = None) -> AggregateRun:
    """Play games ``start .. start + n_games - 1`` of run ``seed`` folded into
    counters, chunk by chunk on ``workers`` threads. ``chunk(template, decide, seed,
    first, n, rows_per_seat, hint) -> (acc, err)`` plays one chunk (default
    ``run_chunk`` with ``fold``; a game may route it through its own module)."""
    game = get_game(game)
    seated, rules = seat_players(game, n_games, players, rules)
    workers = default_workers(workers)
    seed = check_seed(seed)
    check_games(start, n_games)
    check_number("chunk_size", chunk_size, 1)
    table = Table.build(game, rules, seated, check_bots)
    n_games, seed, start = int(n_games), int(seed), int(start)
    n_seats = len(seated)
    if chunk is None:
        def chunk(template, decide, seed_, first, n, rows_per_seat=None, hint=None):
            return run_chunk(fold, template, decide, n_seats, seed_, first, n, rows_per_seat, hint)
    if n_games > 0:
        # compile the table's bots (first use only) and the fold kernel before the clock starts
        table.compile(game_seeds(seed, start, 1), progress)
        fold.compile()
    total = np.zeros(fold.size, np.int64)
    done = 0
    bar = Progress(n_games, label=f"aggregate: {n_seats} players ({', '.join(table.labels)})",
                   enabled=progress and n_games > 0)
    hint = [int(fold.rows_per_seat())]      # event-buffer rows per seat, grown on overflow

    def work(job):
        lo, hi = job
        acc, err = chunk(table.template, table.decide, seed, start + lo, hi - lo, None, hint)
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
    return AggregateRun(seated, rules, seed, start, total, done, interrupted)


class GameCounters:
    """The contract's ``counters`` member (docs/contract.md): what the runners
    (``cargo_sim.aggregate``, run folders, Dask) and the CLI need of a game's counters.
    A game gives its name, its ``Counters`` subclass, a function returning its ``Fold``
    (called on first use: the kernel compiles then) and ``summary_lines(agg)``."""

    def __init__(self, game: str, counters_class, fold: Callable[[], Fold],
                 summary_lines: Callable[[object], list]):
        self.game = game
        self.cls = counters_class
        self._fold = fold
        self._summary = summary_lines

    @property
    def layout(self) -> str:
        return self.cls.LAYOUT.id

    @property
    def size(self) -> int:
        return self.cls.LAYOUT.size

    def load(self, path):
        return self.cls.load(path)

    join_parts = staticmethod(join_parts)

    def aggregate(self, n_games: int, players, seed: int = 0, rules=None,
                  workers: int | None = None, progress: bool = True, start: int = 0,
                  chunk_size: int = DEFAULT_CHUNK, check_bots: bool = True, chunk=None):
        """Play ``n_games`` like ``simulate`` (same arguments, same games) keeping only
        the counters; identical for any ``workers`` and ``chunk_size``; Ctrl-C returns
        the finished chunks (``interrupted=True``)."""
        run = aggregate_run(self.game, self._fold(), n_games, players, seed, rules, workers,
                            progress, start, chunk_size, check_bots, chunk)
        config = self.cls.config_for(run.seated, run.rules, run.seed, n_games)
        config["parts"] = [[run.seed, run.start, run.start + run.done]] if run.done else []
        return self.cls(run.total, run.rules, config, run.interrupted)

    def new(self, seated, rules, seed, n_games, counts=None, interrupted: bool = False):
        """Counters of a run of ``n_games`` (zero, or ``counts``) with its configuration."""
        counts = np.zeros(self.size, np.int64) if counts is None else counts
        return self.cls(counts, rules, self.cls.config_for(seated, rules, seed, n_games), interrupted)

    def summary_lines(self, agg) -> list:
        return self._summary(agg)
