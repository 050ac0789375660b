"""Aggregates: statistics of very large runs folded inside the compiled kernel.

``aggregate(10_000_000, ["random"] * 4, seed=1)`` plays the games in chunks on
a thread pool like ``simulate`` (the core's driver, core/aggregate.py), but no per-game or per-event table is ever
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

from ...core.aggregate import Fold, GameCounters, run_chunk as core_run_chunk
from . import aggregate_nb as K
from .agg.bidding import BiddingTables
from .agg.casino import CasinoTables
from .agg.counters import FORMAT, Counters, join_parts  # noqa: F401  (names of this module too)
from .agg.outcomes import OutcomeTables
from .agg.trading import TradingTables
from .enums import ERR_NEED_SOLVER, N_EVENT_FIELDS, R_N_PLAYERS
from .rules import Rules
from .simulate import DEFAULT_CHUNK, EVENT_ROWS_PER_SEAT, NAME, load_solver, solver_address


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
def _kernel(template, decide, seeds, log, acc, err):
    # the solver's address is read per call: a chunk that needed it loads it and replays
    return K.aggregate_games_nb(template, decide, solver_address(), seeds, log, acc, err)


def _retry(err) -> bool:
    """A game needed the exact trade solver: load it and play the chunk again."""
    if err[1] == ERR_NEED_SOLVER:
        load_solver()
        return True
    return False


def fold() -> Fold:
    """Cargo Noir's fold kernel for the core's driver (core.aggregate)."""
    return Fold(_kernel, K.ACC_SIZE, N_EVENT_FIELDS, lambda: EVENT_ROWS_PER_SEAT,
                K.ensure_compiled, _retry)


def run_chunk(template, decide, seed: int, first: int, n: int, rows_per_seat: int | None = None,
              hint: list | None = None):
    """Fold games first .. first+n-1 of run ``seed``: (counters, None) or
    (None, err) on an illegal decision (core.aggregate.run_chunk: an overflowing
    event buffer replays the chunk larger, ``hint`` remembers the size)."""
    return core_run_chunk(fold(), template, decide, int(template[R_N_PLAYERS]), seed, first, n,
                          rows_per_seat, hint)


def new_config(seated, rules, seed, n_games) -> dict:
    return Aggregates.config_for(seated, rules, seed, n_games)


def aggregate(n_games: int, players, seed: int = 0, rules: Rules | None = None,
              workers: int | None = None, progress: bool = True, start: int = 0,
              chunk_size: int = DEFAULT_CHUNK, check_bots: bool = True) -> Aggregates:
    """Play ``n_games`` games like ``simulate`` (same arguments, same games)
    but keep only fixed-size counters folded in the compiled kernel: memory
    does not grow with ``n_games``. Returns an ``Aggregates``; identical for
    any ``workers`` and ``chunk_size``. Ctrl-C stops early and returns the
    finished chunks (``interrupted=True``). ``check_bots`` as ``simulate``.
    """
    # each chunk goes through this module's run_chunk (looked up when called)
    return GameCounters.aggregate(COUNTERS, n_games, players, seed, rules, workers, progress, start,
                                  chunk_size, check_bots, lambda *a: run_chunk(*a))


class CargoNoirCounters(GameCounters):
    """The contract's ``counters`` member: what the runners (``cargo_sim.aggregate``,
    run folders, Dask) and the CLI need of Cargo Noir's aggregate counters."""

    def __init__(self):
        super().__init__(NAME, Aggregates, fold, _summary_lines)

    def aggregate(self, *args, **kw) -> Aggregates:
        """``aggregate`` of this module (looked up when called: a test may stand in for it)."""
        return aggregate(*args, **kw)


def _summary_lines(agg) -> list:
    from .measures import aggregate_lines
    return aggregate_lines(agg)


COUNTERS = CargoNoirCounters()
