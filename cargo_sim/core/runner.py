"""The one chunk runner: every way of playing many games goes through here.

``run_jobs`` plays jobs (chunks of games) on a thread pool, a bounded window
of them in flight, and hands the results back in job order; Ctrl-C stops it
and keeps what finished. ``Table`` is one table of a game (rules, seated bots,
template, decide): ``Table.run`` plays a chunk into typed buffers with the
game's chunk kernel, ``Table.play`` also turns an illegal answer or a bot fault
into the game's one-line error. ``simulate`` is the generic run behind every
game's ``simulate``. The runner knows no game: it sees a template, a decide
function, seeds, typed output buffers and the ``core.contract.Game`` object.
Game i's seed depends on (run seed, i) alone, so results are the same for any
number of workers and any chunk size.
"""
from __future__ import annotations

import os
import re
import sys
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
import pandas as pd
from numba.core.errors import NumbaError

from . import interrupt
from .checks import check_games, check_number, check_seed
from .errors import BotError, ConfigError
from .progress import Progress
from .columns import ColumnSink
from .contract import ERR_EVENTS, ERR_GAME, ERR_SIZE, check_columns, get_game
from .seeds_nb import game_seeds

DEFAULT_CHUNK = 2048


# ---------------------------------------------------------------------------
# the thread pool
def run_jobs(jobs, work, take, workers: int, interruptible: bool = True) -> bool:
    """``work(job)`` for every job on ``workers`` threads, ``take(job, result)`` in
    job order on this thread. At most 2 * workers + 2 jobs are in flight (``jobs``
    may be a lazy iterable: 10^12 games cost no memory). An exception from
    ``work`` or ``take`` stops the run (the jobs in flight are cancelled or
    awaited) and propagates. Ctrl-C: returns True after the same clean-up, the
    results taken so far kept; with ``interruptible=False`` it propagates."""
    pool = ThreadPoolExecutor(max_workers=max(1, int(workers)))
    todo = iter(jobs)
    window = deque()
    limit = 2 * max(1, int(workers)) + 2
    try:
        while True:
            while len(window) < limit:
                job = next(todo, _END)
                if job is _END:
                    break
                window.append((job, pool.submit(work, job)))
            if not window:
                return False
            job, fut = window.popleft()
            take(job, interrupt.wait(fut))
    except KeyboardInterrupt:
        if not interruptible:
            raise
        return True
    finally:
        for _, f in window:
            f.cancel()
        pool.shutdown(wait=True, cancel_futures=True)


_END = object()


def chunk_jobs(n_games: int, chunk_size: int):
    """(lo, hi) of each chunk of a run, lazily."""
    for lo in range(0, n_games, chunk_size):
        yield lo, min(lo + chunk_size, n_games)


def default_workers(workers) -> int:
    return check_number("workers", (os.cpu_count() or 1) if workers is None else workers, 1)


# ---------------------------------------------------------------------------
# a table and its chunks
def seat_players(game, n_games, players, rules):
    """(seated players, rules) of a request, checked: ``rules`` a ``game.Rules``
    (default rules when None), one bot name or Player per seat, a valid count."""
    if rules is None:
        rules = game.Rules.default()
    if not isinstance(rules, game.Rules):
        raise ConfigError(f"rules must be a {game.rules_type_name}")
    if isinstance(players, str):
        players = [p for p in players.split(",") if p]
    try:
        players = list(players)
    except TypeError:
        raise ConfigError("players must be a list of bot names, one per seat") from None
    rules.check_players(len(players))
    check_number("number of games", n_games, 0)
    return [game.bots.parse(p) for p in players], rules


@dataclass
class Table:
    """One table of a game: its rules, the seated players, the template state and
    the table's decide function."""
    game: object
    rules: object
    players: list
    template: np.ndarray
    decide: object

    @classmethod
    def build(cls, game, rules, players, check_bots: bool = True) -> "Table":
        template, decide = game.table_template(rules, players, bool(check_bots))
        return cls(game, rules, list(players), template, decide)

    @property
    def labels(self) -> list[str]:
        return [p.label for p in self.players]

    def run(self, seeds, log=None, events: bool = False):
        """Play a chunk: (games, players, err or None) as the kernel's typed arrays,
        with the chunk's event rows as a 4th item when ``events`` (the chunk is
        replayed with a larger log if it overflows: games are deterministic, so
        the replay is the same games)."""
        game, n, n_seats = self.game, len(seeds), len(self.players)
        gf, pf = game.game_fields(self.rules), game.player_fields(self.rules)
        n_ev = len(game.event_fields)
        per_game = game.event_rows_per_seat * n_seats
        while True:
            games, pl = gf.buffer(n), pf.buffer(n, n_seats)
            err = np.full(ERR_SIZE, -1, dtype=np.int64)
            if events:
                log = np.zeros((max(n * per_game, 1), n_ev), dtype=np.int64)
            elif log is None:
                log = np.zeros((0, n_ev), dtype=np.int64)
            ok = game.chunk_kernel(self.template, self.decide, seeds, games, pl, log, err)
            if not events:
                return games, pl, (None if ok else err)
            if not ok or err[ERR_EVENTS] < log.shape[0]:
                return games, pl, (None if ok else err), log[:max(int(err[ERR_EVENTS]), 0)]
            per_game *= 2

    def error(self, err, first: int, seeds) -> Exception:
        """The game's one-line error for a stopped chunk (``err`` as the kernel left
        it) whose game 0 is game ``first`` of the run, with seeds ``seeds``."""
        i = int(err[ERR_GAME])
        return self.game.describe_error(self.players, err, first + i, int(seeds[i]), self.rules)

    def play(self, seeds, first: int, log=None, events: bool = False):
        """``run``, raising the game's error on an illegal answer or a bot fault."""
        out = self.run(seeds, log, events)
        if out[2] is not None:
            raise self.error(out[2], first, seeds)
        return out

    def compile(self, seeds, progress: bool = False) -> None:
        """Play one game to compile the table's bots (first use only); see compile_table."""
        compile_table(lambda: self.run(seeds[:1]), self.decide, self.players, progress)


# ---------------------------------------------------------------------------
# first compile of a table's bots
_NUMBA_NOISE = ("Failed in ", "During:", "File ", "<source", "^", "Enable logging", "For more")


def numba_first_message(text: str) -> str:
    """The first line of a numba error that says what is wrong (``NameError:
    name 'X' is not defined``), not the pipeline's boilerplate around it."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    real = [ln for ln in lines if not ln.startswith(_NUMBA_NOISE)]
    for ln in real:
        if re.match(r"\w+(Error|Exception)\b", ln) or any(
                k in ln for k in ("No implementation", "Cannot", "Unknown", "Untyped", "nvalid")):
            return ln
    return real[0] if real else (lines[0] if lines else "")


def first_compile(decide) -> bool:
    """True when the table's decide function is neither compiled in this
    process nor in numba's disk cache (so the next game compiles it)."""
    if getattr(decide, "signatures", None):
        return False
    path = getattr(getattr(getattr(decide, "_cache", None), "_cache_file", None), "_index_path", None)
    return path is None or not os.path.exists(path)


def compile_table(play_one_game, decide, players, progress: bool = False) -> None:
    """Run ``play_one_game()`` to compile a table's bots; a bot that numba cannot
    compile gets a BotError naming it (the bots of the table when numba does
    not say which) with numba's first real message, not a numba traceback.
    With ``progress``, a first compile says so on stderr first."""
    if progress and first_compile(decide):
        names = ", ".join(sorted({p.spec.name for p in players}))
        print(f"compiling the bots ({names}) for their first use: about 1-3 minutes, "
              f"cached afterwards", file=sys.stderr, flush=True)
    try:
        play_one_game()
    except (NumbaError, TypeError) as exc:   # numba reports typing failures of FT args as TypeError
        raise bot_compile_error(exc, players) from None


def bot_compile_error(exc: Exception, players) -> BotError:
    """A numba compile failure of a table's bots as one BotError naming the bot
    (the bots of the table when numba does not say which), numba's first real
    message and, when numba gives it, the bot's file and line."""
    text = str(exc)
    names = sorted({p.spec.name for p in players})
    named = [n for n in names if re.search(rf"<function {re.escape(n)}\b", text)
             or re.search(rf"\bfunction {re.escape(n)}\b", text)]
    where = re.search(r'File "([^"]+)", line (\d+)', text)
    at = f" ({where.group(1)}, line {where.group(2)})" if where and "<" not in where.group(1) else ""
    who = f"bot {', '.join(named)}" if named else f"a bot of this table ({', '.join(names)})"
    return BotError(f"{who} does not compile with numba: {numba_first_message(text)}{at}")


# ---------------------------------------------------------------------------
# memory
def available_memory() -> int | None:
    """Bytes of memory available to a new allocation (Linux MemAvailable; None elsewhere)."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def check_fits(need_bytes: float, n_games: int, game=None) -> None:
    """Refuse up front a run whose tables cannot fit in the memory available
    (with the ways to run ``game`` that keep memory flat: counters only if it has them)."""
    need = need_bytes * 1.5 + n_games * 8
    avail = available_memory()
    if avail is not None and need > avail:
        ways = "write the games to disk chunk by chunk (cargo-sim simulate --out DIR, or " \
               "cargo_sim.runs.run_to_dir)"
        if game is None or getattr(game, "counters", None) is not None:
            ways += " or keep counters only (--aggregate, cargo_sim.aggregate)"
        raise ConfigError(f"{n_games:,} games need about {need / 2**30:.1f} GiB in memory and "
                          f"{avail / 2**30:.1f} GiB is available: {ways}")


# ---------------------------------------------------------------------------
# simulate: the games and players tables of a run
@dataclass
class Played:
    """What ``play_columns`` played: the table's columns (dicts, first ``n_done``
    games), whether Ctrl-C stopped it, and what ``simulate`` needs besides."""
    games: dict
    players: dict
    n_done: int
    interrupted: bool
    table: Table
    logs: list


def play_columns(game, n_games: int, players, seed: int = 0, rules=None, workers: int | None = None,
                 progress: bool = True, start: int = 0, chunk_size: int = DEFAULT_CHUNK,
                 events: bool = False, check_bots: bool = True, narrow: bool = True) -> Played:
    """Play games ``start .. start + n_games - 1`` of run ``seed`` into the game's
    table columns: integers at their smallest width, or with ``narrow=False`` at
    the kernel's widths (what a chunk of a run folder is written at)."""
    game = get_game(game)
    seated, rules = seat_players(game, n_games, players, rules)
    n = len(seated)
    workers = default_workers(workers)
    seed = check_seed(seed)
    check_games(start, n_games)
    check_number("chunk_size", chunk_size, 1)
    check_fits(game.table_bytes(n_games, n), n_games, game)
    table = Table.build(game, rules, seated, check_bots)
    seeds = game_seeds(seed, start, n_games)
    if n_games > 0:
        table.compile(seeds, progress)    # before the clock starts
    # Each finished chunk's tables are built at once (derived columns added) and
    # copied into the run's final columns; its raw kernel arrays are freed.
    # Peak memory: the final tables plus a few chunks.
    sinks = (ColumnSink(n_games), ColumnSink(n_games * n))
    logs = []
    bar = Progress(n_games, label=f"simulate: {n} players ({', '.join(table.labels)})",
                   enabled=progress and n_games > 0)

    def work(job):
        lo, hi = job
        return table.play(seeds[lo:hi], start + lo, events=events)

    def take(job, out):
        lo, hi = job
        g, p = game.table_columns(out[0], out[1], seeds[lo:hi], start + lo, seated, rules,
                                  narrow=narrow)
        if events:
            logs.append(offset_log(game, out[3], start + lo))
        sinks[0].add(g)
        sinks[1].add(p)
        bar.update(hi - lo)

    try:
        interrupted = run_jobs(chunk_jobs(n_games, chunk_size), work, take, workers)
    finally:
        if bar.done:
            bar.close()
    n_done = min(sinks[0].filled, sinks[1].filled // n)    # a Ctrl-C between the two adds
    if n_done:
        g, p = sinks[0].columns(n_done), sinks[1].columns(n_done * n)
    else:
        g, p = game.table_columns(game.game_fields(rules).buffer(0),
                                  game.player_fields(rules).buffer(0, n), seeds[:0], start,
                                  seated, rules, narrow=narrow)
    check_columns(game, g, p)          # what the summaries, folders and ratings read
    return Played(g, p, n_done, interrupted, table, logs)


def simulate(game, n_games: int, players, seed: int = 0, rules=None, workers: int | None = None,
             progress: bool = True, start: int = 0, chunk_size: int = DEFAULT_CHUNK,
             events: bool = False, check_bots: bool = True):
    """Play games ``start .. start + n_games - 1`` of run ``seed`` of ``game`` (a
    name or a Game) and return the game's results object (``game.results``).
    Arguments as ``cargo_sim.simulate`` (docs there)."""
    game = get_game(game)
    run = play_columns(game, n_games, players, seed, rules, workers, progress, start, chunk_size,
                       events, check_bots)
    table, n = run.table, len(run.table.players)
    g, p = pd.DataFrame(run.games, copy=False), pd.DataFrame(run.players, copy=False)
    config = {"n_games": n_games, "players": table.labels, "seed": check_seed(seed),
              "start": start, "rules_digest": table.rules.digest}
    ev_frame = None
    if events:
        n_ev = len(game.event_fields)
        all_ev = np.concatenate(run.logs) if run.logs else np.zeros((0, n_ev), np.int64)
        all_ev = all_ev[all_ev[:, game.event_fields.index("game")] < start + run.n_done]
        ev_frame = game.events_frame(all_ev, table.rules, n, table.labels)
    return game.results(g, p, table.rules, config, run.interrupted, ev_frame)


def play_one(game, seed: int, players, rules=None, check_bots: bool = True):
    """One game of ``game`` from its game seed: ``(events, text, rules, labels)``,
    the game's events table and move-by-move text (``cargo-sim play`` of any game)."""
    game = get_game(game)
    seated, rules = seat_players(game, 1, players, rules)
    seeds = np.asarray([check_seed(seed, "a game seed") % 2**64], dtype=np.uint64)
    table = Table.build(game, rules, seated, check_bots)
    table.compile(seeds)
    log = table.play(seeds, 0, events=True)[3]
    events = game.events_frame(log, rules, len(seated), table.labels)
    return events, game.render_events(events, rules), rules, table.labels


def offset_log(game, log, first_game: int):
    """A chunk's event rows with the run's game numbers (the kernel counts from 0)."""
    log = log.copy()
    log[:, game.event_fields.index("game")] += first_game
    return log
