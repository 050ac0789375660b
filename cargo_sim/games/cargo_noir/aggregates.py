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

import numpy as np

from ...core.checks import check_games, check_number, check_seed
from ...core.progress import Progress
from ...core.contract import get_game
from ...core.runner import Table, chunk_jobs, default_workers, run_jobs
from ...core.seeds_nb import game_seeds
from . import aggregate_nb as K
from .agg.bidding import BiddingTables
from .agg.casino import CasinoTables
from .agg.counters import FORMAT, Counters, join_parts  # noqa: F401  (names of this module too)
from .agg.outcomes import OutcomeTables
from .agg.trading import TradingTables
from .enums import ERR_NEED_SOLVER, N_EVENT_FIELDS, R_N_PLAYERS
from .rules import Rules
from .simulate import DEFAULT_CHUNK, EVENT_ROWS_PER_SEAT, NAME, check_request, load_solver, solver_address


class Aggregates(OutcomeTables, BiddingTables, CasinoTables, TradingTables, Counters):
    """Counters of a run (layout ``aggregate_nb.SECTIONS``), its configuration and rules.

    ``agg["vp_hist"]`` is a section as an array of its shape (seat, VP bin...);
    the methods give labelled DataFrames (the counters' own in ``agg.counters``, the
    tables by topic in ``agg.outcomes``, ``agg.bidding``, ``agg.casino``,
    ``agg.trading``). ``config``: players (labels per seat), n_players, seed, parts
    (``[[seed, first_game, stop], ...]`` game ranges folded in), n_games (requested),
    rules_digest, layout.
    """


def load_aggregates(path) -> Aggregates:
    """Read an ``Aggregates.save`` file (``cargo_sim.load_aggregates`` also reads a
    ``runs.aggregate_to_dir`` folder)."""
    return Aggregates.load(path)


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
              chunk_size: int = DEFAULT_CHUNK, check_bots: bool = True) -> Aggregates:
    """Play ``n_games`` games like ``simulate`` (same arguments, same games)
    but keep only fixed-size counters folded in the compiled kernel: memory
    does not grow with ``n_games``. Returns an ``Aggregates``; identical for
    any ``workers`` and ``chunk_size``. Ctrl-C stops early and returns the
    finished chunks (``interrupted=True``). ``check_bots`` as ``simulate``.
    """
    seated, rules = check_request(n_games, players, rules)
    workers = default_workers(workers)
    seed = check_seed(seed)
    check_games(start, n_games)
    check_number("chunk_size", chunk_size, 1)
    table = Table.build(get_game(NAME), rules, seated, check_bots)
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


class CargoNoirCounters:
    """The contract's ``counters`` member: what the runners (``cargo_sim.aggregate``,
    run folders, Dask) and the CLI need of Cargo Noir's aggregate counters."""
    layout = K.LAYOUT_ID
    size = K.ACC_SIZE
    load = staticmethod(load_aggregates)
    join_parts = staticmethod(join_parts)

    def aggregate(self, *args, **kw) -> Aggregates:
        """``aggregate`` of this module (looked up when called: a test may stand in for it)."""
        return aggregate(*args, **kw)

    @staticmethod
    def new(seated, rules, seed, n_games, counts=None, interrupted: bool = False) -> Aggregates:
        """Counters of a run of ``n_games`` (zero, or ``counts``) with its configuration."""
        counts = np.zeros(K.ACC_SIZE, np.int64) if counts is None else counts
        return Aggregates(counts, rules, new_config(seated, rules, seed, n_games), interrupted)

    @staticmethod
    def summary_lines(agg) -> list:
        from .measures import aggregate_lines
        return aggregate_lines(agg)


COUNTERS = CargoNoirCounters()
