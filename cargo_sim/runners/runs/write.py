"""Playing a run into its folder: chunk after chunk, each written (files, then
marker) on a writer thread while the next is played; Ctrl-C stops at a chunk
boundary. ``run_to_dir`` (the package docstring describes the files)."""
from __future__ import annotations

import os
import signal
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from ...core.columns import concat_columns
from ...core.contract import game_of_manifest
from ...core.errors import ConfigError
from ...core.fileio import atomic_write
from ...core.progress import Progress
from .folder import TMP_SUFFIX, binding, read_manifest, temp_tag, write_marker
from .layout import FORMAT, ROWS, chunk_file, chunk_range, done_file, games_done_in, verified
from .load import load_results
from .plan import check_folder_game, open_run_folder, plan
from .tablefiles import CODEC, LEGACY_CODEC, check_codec, parquet_options, run_table


# Output files store every integer column at the engine's own width, in the
# codec their folder's manifest names: tablefiles.
def _write_parquet(path: Path, table, codec: str = CODEC, tag: str = "") -> None:
    import pyarrow.parquet as pq
    atomic_write(path, lambda tmp: pq.write_table(table, tmp, **parquet_options(table.schema, codec)),
                 suffix=TMP_SUFFIX, tag=tag)


def sub_calls(workers):
    """(workers, games per ``simulate`` sub-call): at least 100,000 games, so a
    default chunk is one call; each call ends with its threads draining while the
    tables are built, which cost 10 % of the CLI's rate at 3-4 calls per chunk
    (bench_targets: 75 % -> 82 % of the kernel's rate). The progress line moves
    per sub-call: every second or two at the default chunk size."""
    if workers is None:
        workers = os.cpu_count() or 1
    return workers, max(2048 * 8 * int(workers), 100_000)


@dataclass
class RunInfo:
    """What ``run_to_dir`` did: the folder, games on disk, and whether it was interrupted."""
    path: Path
    n_games: int
    games_done: int
    chunks_done: int
    n_chunks: int
    games_played: int = 0            # by this call (not skipped on resume)
    seconds: float = 0.0
    interrupted: bool = False
    config: dict = field(default_factory=dict, repr=False)

    @property
    def complete(self) -> bool:
        return self.chunks_done == self.n_chunks

    @property
    def rate(self) -> float:
        return self.games_played / self.seconds if self.seconds > 0 else float("nan")

    def load(self, **kw):
        return load_results(self.path, **kw)


def _play_chunk(game, lo, hi, seated_labels, seed, rules, workers, step, bar, check_bots=True):
    """Play games lo..hi-1 in sub-calls of ``step`` games (so the progress line
    moves within a chunk); returns (games, players) as dicts of columns at the
    file widths (no DataFrame, no narrowing: they go to Parquet as they are), or
    raises KeyboardInterrupt if interrupted."""
    from ...core.runner import play_columns
    gs, ps = [], []
    for a in range(lo, hi, step):
        b = min(a + step, hi)
        run = play_columns(game, b - a, seated_labels, seed=seed, rules=rules, workers=workers,
                           progress=False, start=a, narrow=False, check_bots=check_bots)
        if run.interrupted:
            raise KeyboardInterrupt
        gs.append(run.games)
        ps.append(run.players)
        bar.update(b - a)
    return concat_columns(gs), concat_columns(ps)



class CtrlC:
    """Ctrl-C as a flag while a chunk loop runs: the first SIGINT only sets
    ``pressed`` and the loop stops at its next chunk boundary. A KeyboardInterrupt
    raised at an arbitrary point can land in a weakref callback or finaliser,
    where Python reports it as "Exception ignored ..." instead of stopping. A
    second Ctrl-C stops at once (KeyboardInterrupt). Outside the main thread
    (where signal handlers cannot be set) this does nothing."""

    def __init__(self):
        self.pressed = False
        self.old = None

    def _on_sigint(self, signum, frame):
        if self.pressed:
            raise KeyboardInterrupt
        self.pressed = True
        if sys.stderr.isatty():
            print("\nstopping after the chunk in flight (Ctrl-C again to stop at once)",
                  file=sys.stderr, flush=True)

    def start(self) -> "CtrlC":
        if threading.current_thread() is threading.main_thread():
            self.old = signal.signal(signal.SIGINT, self._on_sigint)
        return self

    def stop(self) -> None:
        if self.old is not None:
            signal.signal(signal.SIGINT, self.old)
            self.old = None

    def __enter__(self) -> "CtrlC":
        return self.start()

    def __exit__(self, *exc):
        self.stop()


def stream_chunks(todo, manifest, rules, workers, bar, write, check_bots: bool = True):
    """Play the chunks ``todo`` (an iterable of chunk numbers, lazily) and hand
    each one's tables to ``write(k, lo, hi, games, players)`` on a writer
    thread, so the next chunk plays while the last is written (one chunk in
    flight each way: memory is two chunks' tables). Returns (chunks written,
    games written, interrupted). Ctrl-C (CtrlC) lets the chunk in flight finish
    and be written, then stops; a second Ctrl-C drops the chunk being played
    but still waits for the write in flight, so a finished chunk is never lost.
    ``check_bots``: user bots run checked (docs/safety.md)."""
    workers, step = sub_calls(workers)
    n, cg = manifest["n_games"], manifest["chunk_games"]
    labels, seed = manifest["players"], manifest["seed"]
    game = game_of_manifest(manifest, "the run")
    written, games = [], 0
    pending = None
    pool = ThreadPoolExecutor(max_workers=1)

    def settle():
        nonlocal pending, games
        if pending is not None:
            f, k, lo, hi = pending
            f.result()                   # (Ctrl-C here: the except below waits again)
            pending = None
            written.append(k)
            games += hi - lo

    try:
        with CtrlC() as ctrl_c:
            for k in todo:
                if ctrl_c.pressed:
                    settle()
                    return written, games, True
                lo, hi = chunk_range(k, cg, n)
                g, p = _play_chunk(game, lo, hi, labels, seed, rules, workers, step, bar,
                                   check_bots)
                settle()
                pending = (pool.submit(write, k, lo, hi, g, p), k, lo, hi)
                del g, p
            settle()
        return written, games, False
    except KeyboardInterrupt:
        settle()
        return written, games, True
    finally:
        pool.shutdown(wait=True)


def folder_codec(folder: Path) -> str:
    """The Parquet codec of a run folder's chunks (tablefiles; a manifest from
    before the field: the legacy codec), so a resumed run writes like its start."""
    return check_codec(read_manifest(folder).get("codec", LEGACY_CODEC))


def rows_chunk_writer(folder: Path, seed: int, on_chunk=None):
    """``write(k, lo, hi, games, players)``: chunk k's two files in the folder's
    codec, then its marker (bound to the folder's run: its manifest); then
    ``on_chunk(k, games, players)`` if given."""
    manifest = read_manifest(folder)
    if manifest["seed"] != seed:
        raise ConfigError(f"run folder {folder} holds seed {manifest['seed']}, not {seed}")
    codec = check_codec(manifest.get("codec", LEGACY_CODEC))
    bound, tag, fmt = binding(manifest), temp_tag(manifest), manifest["format"]
    run = run_of(manifest) if fmt == FORMAT else None        # run/1: the columns it always had

    def write(k, lo, hi, g, p):
        for t, cols in (("games", g), ("players", p)):
            _write_parquet(folder / chunk_file(t, k, fmt), run_table(cols, t, run, codec), codec, tag)
        write_marker(folder, done_file(k), k, lo, hi, bound, ROWS.files(k, fmt), tag)
        if on_chunk is not None:
            on_chunk(k, g, p)
    return write


def run_of(manifest: dict) -> dict:
    """What a run's chunks carry in their run columns (tablefiles.run_table)."""
    return {"run_id": manifest["run_id"], "seed": manifest["seed"],
            "n_players": len(manifest["players"])}


def interrupted_message(folder, done: int, n_chunks: int, games_done: int, n_games: int,
                        what: str, extra: str = "") -> str:
    return (f"interrupted: {done} of {n_chunks} chunks ({games_done:,} of {n_games:,} games) "
            f"are saved in {folder}{extra}; to finish the run, call {what} again with the same "
            f"settings and resume=True (CLI: the same command with --resume)")


def bar_label(folder: Path, manifest: dict, done, what: str = "simulate") -> str:
    """What a run's progress bar says it is doing (Progress adds the game count)."""
    return (f"{what} to {folder.name}: {len(manifest['players'])} players"
            + (f" (resumed, {len(done)} chunks done)" if done else ""))


def run_to_dir(out_dir, n_games: int, players, seed: int = 0, rules=None,
               workers: int | None = None, chunk_games: int = 100_000, resume: bool = False,
               progress: bool = True, quiet: bool = False, on_chunk=None, game=None,
               check_bots: bool = True) -> RunInfo:
    """Play a run of ``n_games`` of ``game`` (default Cargo Noir) into the folder
    ``out_dir``, one chunk of ``chunk_games`` games at a time (see the module
    docstring for the files; the manifest names the game).

    ``resume=True`` continues a folder left by an interrupted call with the
    same settings (the finished chunks are kept, a damaged one is played
    again, the rest is played); a folder from a different run, or one another
    process is writing, is refused with a ConfigError. Without ``resume`` the
    folder must be new or empty. Ctrl-C lets the chunk in flight finish and be
    saved (a second Ctrl-C drops it), prints how to resume (unless ``quiet``)
    and returns a RunInfo with ``interrupted=True``. ``on_chunk(k, games, players)``
    is called (on the writer thread) after each chunk played here is saved, with
    the chunk's tables as dicts of columns at the file widths. ``check_bots``: user
    bots run checked (the default; False trusts them, docs/safety.md).
    """
    folder = Path(out_dir)
    check_folder_game(folder, game, resume)
    manifest, rules = plan(n_games, players, seed, rules, chunk_games, game)
    lock = open_run_folder(folder, manifest, resume)
    try:
        n_chunks, cg = manifest["n_chunks"], manifest["chunk_games"]
        done = set(verified(folder, manifest, ROWS, "replay"))
        games_done = games_done_in(done, cg, n_games)
        to_play = n_games - games_done
        bar = Progress(to_play, label=bar_label(folder, manifest, done), enabled=progress and to_play > 0)
        t0 = time.perf_counter()
        try:
            written, played, interrupted = stream_chunks(
                (k for k in range(n_chunks) if k not in done), manifest, rules, workers, bar,
                rows_chunk_writer(folder, manifest["seed"], on_chunk), check_bots)
        finally:
            if bar.enabled:
                bar.close()
        seconds = time.perf_counter() - t0
    finally:
        lock.release()
    n_done = len(done) + len(written)
    games_done += played
    if interrupted and not quiet:
        print(interrupted_message(folder, n_done, n_chunks, games_done, n_games, "run_to_dir"),
              file=sys.stderr)
    return RunInfo(folder, n_games, games_done, n_done, n_chunks, played, seconds,
                   interrupted, manifest)


