"""Long runs on disk: play a run chunk by chunk into a folder of Parquet files.

``run_to_dir(out, 10_000_000, ["random"] * 4, seed=1)`` plays the run in
chunks of ``chunk_games`` games (chunk k = games k*chunk_games ...), writes
each chunk's ``games`` and ``players`` tables as ``games/part-00000.parquet`` /
``players/part-00000.parquet`` (a folder per table, so other readers take a
table folder as one dataset; each row carries the run's run_id, run_seed and
n_players) and then a ``chunk-00000.done`` marker (game range,
seed, each file's size and SHA-256: cargo_sim.runfolder). Every file
is written under a temporary name in the same folder and renamed into place
(``os.replace``), so a crash or Ctrl-C loses at most the chunk in flight and
never leaves a half-written file under a final name. Memory stays flat: only
one chunk's tables are held at a time.

``manifest.json`` (written first) records the configuration: a random run id,
game count, players, seed, chunk size, the rules' digest and full TOML, and the
library version. Each marker repeats the run id, seed, players and rules digest
(runfolder.binding) and is checked against the manifest on load and resume: a
chunk of another run is never read as this run's games. ``run_to_dir(..., resume=True)`` on the same folder skips the chunks
whose marker matches their files and plays the rest; since game i depends only on
(seed, i), the folder ends up with exactly the files of an uninterrupted run.

``load_results(out)`` reads a folder back as a ``SimResults`` (tables equal
to one ``simulate()`` call with the same arguments), or as pyarrow datasets
with ``lazy=True``.
"""
from __future__ import annotations

import json
import os
import re
import signal
import stat
import sys
import threading
import time
import uuid
import warnings
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from ..core.checks import check_games, check_number, check_seed
from ..core.columns import concat_columns, narrow
from ..core.contract import counters_of, game_of_manifest, get_game
from ..core.errors import ConfigError
from ..core.fileio import atomic_write, claim_folder, is_temp_name
from ..core.progress import Progress
from .tablefiles import (CODEC, LEGACY_CODEC, RUN_COLUMNS, check_codec, parquet_options,  # noqa: F401
                         run_columns_of, run_table)
from .runfolder import (LOCK, MANIFEST, TMP_SUFFIX, RunLock, atomic_text, binding, clean_temps,
                        marked_chunks, marker_problem, read_manifest, temp_tag, write_marker)

FORMAT = "cargo_sim.run/2"          # one folder per table: games/part-00000.parquet, ...
FLAT_FORMAT = "cargo_sim.run/1"     # before: games-00000.parquet beside the markers
ROW_FORMATS = (FORMAT, FLAT_FORMAT)
TABLES = ("games", "players")
# a run/2 folder's chunks carry run_id, run_seed and n_players in front, so runs
# read together stay apart (tablefiles.RUN_COLUMNS; docs/runs.md "Reading runs")


# ---------------------------------------------------------------------------
# file names
def chunk_file(table: str, k: int, fmt: str = FORMAT) -> str:
    """Chunk k's file of ``table``, relative to the run folder (its layout by format)."""
    if fmt == FLAT_FORMAT:
        return f"{table}-{k:05d}.parquet"
    return f"{table}/part-{k:05d}.parquet"


_PART_RX = re.compile(r"part-(\d{5,})\.parquet")


def check_table_folders(folder: Path, manifest: dict, create: bool = False) -> None:
    """A run/2 folder's ``games/`` and ``players/`` (created if missing when
    ``create``) must be real folders holding only this run's chunk files
    (``part-NNNNN.parquet``, spelled as written, for a chunk of the run),
    its temp files, or names that readers skip (a leading ``.`` or ``_``):
    pyarrow, DuckDB and pandas read every other file there as data. Anything
    else is one ConfigError line; nothing is moved or deleted."""
    if manifest["format"] != FORMAT:
        return
    for t in TABLES:
        d = folder / t
        try:
            st = os.lstat(d)
        except FileNotFoundError:
            if create:
                d.mkdir()
            continue
        if not stat.S_ISDIR(st.st_mode):
            raise ConfigError(f"run folder {folder}: {t} is not a folder (a file or a link); "
                              f"this run keeps its {t} chunks in {d}: move it away")
        with os.scandir(d) as it:
            for e in it:
                if e.name.startswith((".", "_")):
                    continue
                m = _PART_RX.fullmatch(e.name)
                k = int(m.group(1)) if m else -1
                # (a name of ours that is no regular file: its marker calls the chunk damaged)
                if not (m and e.name == f"part-{k:05d}.parquet" and k < manifest["n_chunks"]):
                    raise ConfigError(f"run folder {folder}: {t}/{e.name} is not a file this run "
                                      f"wrote (readers of {d} would take it for {t} rows): move "
                                      "it out of the folder")


def done_file(k: int) -> str:
    return f"chunk-{k:05d}.done"


_DONE_RX = r"chunk-(\d{5,})\.done"


def chunk_range(k: int, chunk_games: int, n_games: int) -> tuple[int, int]:
    """Games lo..hi-1 of chunk k (computed, never a list of all chunks)."""
    return k * chunk_games, min((k + 1) * chunk_games, n_games)


# Output files store every integer column at the engine's own width, in the
# codec their folder's manifest names: cargo_sim.tablefiles.
def _write_parquet(path: Path, table, codec: str = CODEC, tag: str = "") -> None:
    import pyarrow.parquet as pq
    atomic_write(path, lambda tmp: pq.write_table(table, tmp, **parquet_options(table.schema, codec)),
                 suffix=TMP_SUFFIX, tag=tag)


# ---------------------------------------------------------------------------
def rules_from_toml(text: str, game=None):
    """The game's rules from TOML text (as written by ``Rules.to_toml``), read as saved."""
    return get_game(game).Rules.from_saved(text)


def manifest_rules(folder: Path, manifest: dict):
    """The rules a manifest stores (with its game's Rules), refused unless they
    rebuild with the digest it records (a swapped rules TOML would otherwise pass
    as the run's rules)."""
    from ..core.errors import RulesError
    game = game_of_manifest(manifest, f"run folder {folder}")
    try:
        rules = rules_from_toml(manifest["rules_toml"], game)
    except RulesError as e:
        raise ConfigError(f"run folder {folder}: its manifest's rules are invalid ({e})") from None
    if rules.digest != manifest["rules_digest"]:
        raise ConfigError(f"run folder {folder}: the manifest's rules TOML rebuilds with digest "
                          f"{rules.digest}, not the recorded {manifest['rules_digest']} (edited or "
                          "swapped): its games were not played under these rules")
    return rules


def _version() -> str:
    from ..core.version import __version__
    return __version__


def _engine_source() -> str:
    from ..core.cache import source_hash
    return source_hash()


# A chunk is played in memory (its tables, ~300 MB for 10^6 games at 5 seats)
# and the run keeps one entry per chunk: both bounded, so any run to disk has
# bounded memory (10^12 games = 10^6 chunks of 10^6).
MAX_CHUNK_GAMES = 1_000_000
MAX_CHUNKS = 1_000_000


def check_chunk_games(chunk_games) -> int:
    return check_number("chunk_games", chunk_games, 1, MAX_CHUNK_GAMES)


def check_n_chunks(n_games: int, chunk_games: int) -> int:
    n_chunks = -(-int(n_games) // chunk_games)
    if n_chunks > MAX_CHUNKS:
        raise ConfigError(f"{n_games:,} games in chunks of {chunk_games:,} make {n_chunks:,} chunk "
                          f"files, more than {MAX_CHUNKS:,}: use larger chunks (chunk_games, "
                          f"--chunk-games up to {MAX_CHUNK_GAMES:,})")
    return n_chunks


def plan(n_games: int, players, seed, rules, chunk_games, game=None) -> dict:
    """Check a request and return the manifest it would write (its game by name:
    a folder is reloaded with that game's rules)."""
    from ..core.runner import seat_players
    game = get_game(game)
    seated, rules = seat_players(game, n_games, players, rules)
    seed = check_seed(seed)
    chunk_games = check_chunk_games(chunk_games)
    n_chunks = check_n_chunks(n_games, chunk_games)
    return {"format": FORMAT, "game": game.name, "run_id": uuid.uuid4().hex, "n_games": int(n_games), "players": [p.label for p in seated],
            "seed": int(seed), "chunk_games": chunk_games, "n_chunks": n_chunks,
            "rules_digest": rules.digest, "rules_toml": rules.to_toml(), "codec": CODEC,
            "version": _version(), "engine_source": _engine_source()}, rules


_COMPARED = ("n_games", "players", "seed", "rules_digest", "chunk_games")


def _step(workers):
    """(workers, games per ``simulate`` sub-call): at least 100,000 games, so a
    default chunk is one call; each call ends with its threads draining while the
    tables are built, which cost 10 % of the CLI's rate at 3-4 calls per chunk
    (bench_targets: 75 % -> 82 % of the kernel's rate). The progress line moves
    per sub-call: every second or two at the default chunk size."""
    if workers is None:
        workers = os.cpu_count() or 1
    return workers, max(2048 * 8 * int(workers), 100_000)


def _is_run_folder(folder: Path) -> bool:
    return (folder / MANIFEST).exists() or (folder / MANIFEST).is_symlink()


def _run_folder_or_starting(folder: Path) -> bool:
    """A run folder, or one a writer is just starting (only its lock and temp files)."""
    if _is_run_folder(folder):
        return True
    with os.scandir(folder) as it:
        return all(e.name == LOCK or is_temp_name(e.name) for e in it)


def open_run_folder(folder: Path, manifest: dict, resume: bool, extra_keys=()) -> RunLock:
    """Claim, lock and check the folder: a new (or empty) folder gets the run's
    manifest; a folder holding a run is only accepted with ``resume`` and when
    it is the same kind of run with the same settings (``extra_keys`` of the
    manifest included), and ``manifest`` takes its run id; a folder holding
    anything else is refused before a file is written in it. A second writer
    is refused. Returns the held lock."""
    folder, _ = claim_folder(folder, "run folder", owned=_run_folder_or_starting,
                             option="output folder")
    lock = RunLock(folder).acquire()
    try:
        _check_folder(folder, manifest, resume, extra_keys)
    except BaseException:
        lock.release()
        raise
    return lock


def _check_folder(folder: Path, manifest: dict, resume: bool, extra_keys) -> None:
    if not _is_run_folder(folder):
        others = [p.name for p in folder.iterdir() if p.name != LOCK and not is_temp_name(p.name)]
        if others:                       # a file appeared after the claim: not ours
            raise ConfigError(f"output folder {folder} holds files that are not a cargo_sim run "
                              f"({', '.join(sorted(others)[:3])}): give a new or empty folder")
        atomic_text(folder / MANIFEST, json.dumps(manifest, indent=1) + "\n", temp_tag(manifest))
        check_table_folders(folder, manifest, create=True)      # after the manifest: ours
        return
    if not resume:
        raise ConfigError(f"output folder {folder} is not empty: use --resume (resume=True) "
                          "to continue the run in it, or another folder")
    old = read_manifest(folder)
    if old.get("format") in ROW_FORMATS and manifest["format"] in ROW_FORMATS:
        manifest["format"] = old["format"]          # a run/1 folder resumes in its flat layout
    if old.get("format") != manifest["format"]:
        raise ConfigError(f"{folder} holds a run of another kind ({old.get('format')}), "
                          f"not {manifest['format']}: use another folder")
    _check_game(old, manifest["game"], folder)
    _check_same(old, manifest, folder)
    for key in extra_keys:
        if old.get(key) != manifest[key]:
            raise ConfigError(f"{folder} holds a different run ({key} {old.get(key)!r} there, "
                              f"{manifest[key]!r} here): use another folder")
    manifest_rules(folder, old)
    if "run_id" in old:                  # the chunks played now belong to the run on disk
        manifest["run_id"] = old["run_id"]
    else:                                # written before run ids: its markers bind the seed
        manifest.pop("run_id", None)
    check_table_folders(folder, manifest, create=True)
    clean_temps(folder, temp_tag(manifest), TABLES if manifest["format"] == FORMAT else ())


def check_folder_game(folder, game, resume: bool) -> None:
    """A folder to resume that holds a run of another game: one clear line, before
    the request is checked against the wrong game's bots and rules."""
    folder = Path(folder)
    if not resume or not (folder / MANIFEST).is_file():
        return
    try:
        old = read_manifest(folder)
    except ConfigError:
        return                          # the folder check says what is wrong with it
    _check_game(old, get_game(game).name, folder)


def _check_game(old: dict, name: str, folder) -> None:
    old_game = game_of_manifest(old, folder).name       # an old folder without one: cargo_noir
    if old_game != name:
        raise ConfigError(f"{folder} holds a run of game {old_game}, not {name}: "
                          f"resume it as {old_game} (--game {old_game}) or use another folder")


def _check_same(old: dict, new: dict, folder: Path) -> None:
    diffs = [f"{k} {old.get(k)!r} there, {new[k]!r} here" for k in _COMPARED
             if old.get(k) != new[k]]
    if diffs:
        raise ConfigError(f"{folder} holds a different run ({'; '.join(diffs)}): "
                          "resume it with its own settings or use another folder")
    if old.get("engine_source") != new["engine_source"]:
        warnings.warn(f"{folder} was started by another version of the engine source "
                      f"({old.get('engine_source')} there, {new['engine_source']} here): "
                      "the chunks played now may not match the chunks on disk if the engine changed",
                      stacklevel=4)


def _verified(folder: Path, manifest: dict, kind: "_Kind", on_bad: str,
              checksums: bool = True) -> list[int]:
    """Chunks whose marker vouches for their files. ``on_bad``: "replay" (resume:
    drop the marker with a warning, the chunk is played again) or "raise" (load:
    a ConfigError naming the chunk)."""
    n, cg = manifest["n_games"], manifest["chunk_games"]
    bound = binding(manifest)
    good = []
    for k in marked_chunks(folder, kind.marker_rx, manifest["n_chunks"], kind.marker):
        lo, hi = chunk_range(k, cg, n)
        bad = marker_problem(folder, kind.marker(k), k, lo, hi, bound,
                             kind.files(k, manifest["format"]), checksums)
        if bad is None:
            good.append(k)
        elif on_bad == "raise":
            raise ConfigError(f"run folder {folder}: chunk {k} is damaged ({bad}); it is not read "
                              "as data: resume the run (--resume, resume=True) to play it again")
        else:
            warnings.warn(f"{folder}: chunk {k} is damaged ({bad}); playing it again", stacklevel=3)
            (folder / kind.marker(k)).unlink()
    return good


def verified_chunks(folder: Path, manifest: dict, on_bad: str) -> list[int]:
    """The finished, intact chunks of a run folder (see _verified)."""
    return _verified(folder, manifest, ROWS, on_bad)


@dataclass(frozen=True)
class _Kind:
    marker_rx: str
    marker: object
    files: object


ROWS = _Kind(_DONE_RX, done_file, lambda k, fmt: [chunk_file(t, k, fmt) for t in TABLES])


def chunks_done(folder, n_chunks: int) -> list[int]:
    """Chunks with a marker (not verified: see load_results / resume)."""
    return marked_chunks(Path(folder), _DONE_RX, n_chunks)


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


def _play_chunk(game, lo, hi, seated_labels, seed, rules, workers, step, bar):
    """Play games lo..hi-1 in sub-calls of ``step`` games (so the progress line
    moves within a chunk); returns (games, players) as dicts of columns at the
    file widths (no DataFrame, no narrowing: they go to Parquet as they are), or
    raises KeyboardInterrupt if interrupted."""
    from ..core.runner import play_columns
    gs, ps = [], []
    for a in range(lo, hi, step):
        b = min(a + step, hi)
        run = play_columns(game, b - a, seated_labels, seed=seed, rules=rules, workers=workers,
                           progress=False, start=a, narrow=False)
        if run.interrupted:
            raise KeyboardInterrupt
        gs.append(run.games)
        ps.append(run.players)
        bar.update(b - a)
    return concat_columns(gs), concat_columns(ps)


def games_done_in(ks, chunk_games: int, n_games: int) -> int:
    return sum(chunk_range(k, chunk_games, n_games)[1] - chunk_range(k, chunk_games, n_games)[0]
               for k in ks)


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


def stream_chunks(todo, manifest, rules, workers, bar, write):
    """Play the chunks ``todo`` (an iterable of chunk numbers, lazily) and hand
    each one's tables to ``write(k, lo, hi, games, players)`` on a writer
    thread, so the next chunk plays while the last is written (one chunk in
    flight each way: memory is two chunks' tables). Returns (chunks written,
    games written, interrupted). Ctrl-C (CtrlC) lets the chunk in flight finish
    and be written, then stops; a second Ctrl-C drops the chunk being played
    but still waits for the write in flight, so a finished chunk is never lost."""
    workers, step = _step(workers)
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
                g, p = _play_chunk(game, lo, hi, labels, seed, rules, workers, step, bar)
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
               progress: bool = True, quiet: bool = False, on_chunk=None, game=None) -> RunInfo:
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
    the chunk's tables as dicts of columns at the file widths.
    """
    folder = Path(out_dir)
    check_folder_game(folder, game, resume)
    manifest, rules = plan(n_games, players, seed, rules, chunk_games, game)
    lock = open_run_folder(folder, manifest, resume)
    try:
        n_chunks, cg = manifest["n_chunks"], manifest["chunk_games"]
        done = set(_verified(folder, manifest, ROWS, "replay"))
        games_done = games_done_in(done, cg, n_games)
        to_play = n_games - games_done
        bar = Progress(to_play, label=bar_label(folder, manifest, done), enabled=progress and to_play > 0)
        t0 = time.perf_counter()
        try:
            written, played, interrupted = stream_chunks(
                (k for k in range(n_chunks) if k not in done), manifest, rules, workers, bar,
                rows_chunk_writer(folder, manifest["seed"], on_chunk))
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


# ---------------------------------------------------------------------------
def _columns_for(columns, table: str, schema_names) -> list[str] | None:
    if columns is None:
        return None
    if isinstance(columns, dict):
        cols = columns.get(table)
        if cols is None:
            return None
        unknown = [c for c in cols if c not in schema_names]
        if unknown:
            raise ConfigError(f"unknown {table} columns: {', '.join(unknown)}")
        return list(cols)
    return [c for c in columns if c in schema_names]


def load_results(path, columns=None, lazy: bool = False, verify: bool = True,
                 mixed_rules: bool = False):
    """Read a ``run_to_dir`` folder back; a list of folders: ``load_several``.

    Returns the results of the game the manifest names (Cargo Noir's
    ``SimResults``; a folder from before games were recorded is Cargo Noir's)
    whose ``games`` and ``players`` are the chunks' tables concatenated in game
    order (equal to one ``simulate()`` call with the run's settings), ``rules``
    rebuilt by that game from the stored TOML and ``config`` from the manifest. ``columns``: a list of column names (each table keeps those
    it has) or a dict ``{"games": [...], "players": [...]}``. ``lazy=True``
    gives ``pyarrow.dataset.Dataset`` objects instead of DataFrames (the stored
    columns at the stored widths, a run/2 folder's ``run_id``, ``run_seed`` and
    ``n_players`` included; filter and project before ``to_table()``); eager
    loads leave those run columns out unless ``columns`` names them. A run that
    is not finished loads its finished chunks with ``interrupted=True``.
    Every chunk is checked against its marker first (size and SHA-256;
    ``verify=False``: size only): a damaged chunk is a ConfigError, never data.
    """
    if isinstance(path, (list, tuple)):
        return load_several(path, columns, verify, mixed_rules)
    import pyarrow as pa
    import pyarrow.dataset as ds
    folder = Path(path)
    manifest = read_manifest(folder, ROW_FORMATS)
    game = game_of_manifest(manifest, f"run folder {folder}")
    n_chunks = manifest["n_chunks"]
    check_table_folders(folder, manifest)
    ks = _verified(folder, manifest, ROWS, "raise", checksums=verify)
    files = {t: [str(folder / chunk_file(t, k, manifest["format"])) for k in ks] for t in TABLES}
    complete = len(ks) == n_chunks
    if not complete:
        warnings.warn(f"{folder}: run not finished ({len(ks)} of {n_chunks} chunks); "
                      "loading the finished chunks", stacklevel=2)
    rules = manifest_rules(folder, manifest)
    config = {k: v for k, v in manifest.items() if k != "rules_toml"}
    config.update(path=str(folder), chunks_done=len(ks), complete=complete,
                  games_done=games_done_in(ks, manifest["chunk_games"], manifest["n_games"]))
    if columns is not None and not isinstance(columns, dict):
        known = set()
    out = {}
    for t in TABLES:
        try:
            d = ds.dataset(files[t], format="parquet") if files[t] else None
        except (OSError, pa.ArrowException) as e:
            raise ConfigError(f"run folder {folder}: cannot read the {t} chunks: {e}") from None
        names = d.schema.names if d is not None else []
        if columns is not None and not isinstance(columns, dict):
            known.update(c for c in columns if c in names)
        cols = _columns_for(columns, t, names)
        if cols is None and not lazy and d is not None:    # simulate()'s columns: no run columns
            added = run_columns_of(d.schema)
            cols = [c for c in names if c not in added] if added else None
        if lazy:
            out[t] = d if cols is None or d is None else _project(d, cols)
        elif d is None:
            out[t] = pd.DataFrame()
        else:
            try:
                out[t] = narrow(d.to_table(columns=cols).to_pandas())
            except (OSError, pa.ArrowException) as e:
                raise ConfigError(f"run folder {folder}: cannot read the {t} chunks: {e}") from None
    if columns is not None and not isinstance(columns, dict) and ks:
        unknown = [c for c in columns if c not in known]
        if unknown:
            raise ConfigError(f"unknown columns: {', '.join(unknown)}")
    return game.results(out["games"], out["players"], rules, config, not complete, None)




def load_several(paths, columns=None, verify: bool = True, mixed_rules: bool = False):
    """Several run folders as one result: both tables concatenated in the order
    given, each row carrying its run's ``run_id``, ``run_seed`` and ``n_players``
    (a folder from before run ids: its path) so the runs stay apart. The runs
    must be of one game, and of one rules digest unless ``mixed_rules=True``
    (then ``rules`` is the first run's: read each run's from ``config["runs"]``).
    ``config["runs"]`` lists every run's config; ``interrupted`` if any is."""
    paths = [Path(p) for p in paths]
    if not paths:
        raise ConfigError("load_results: give at least one run folder")
    if len(set(p.resolve() for p in paths)) < len(paths):
        raise ConfigError("load_results: a run folder is given twice (its games would count twice)")
    results = [load_results(p, columns=columns, verify=verify) for p in paths]
    games = {game_of_manifest(r.config, p).name for p, r in zip(paths, results)}
    if len(games) > 1:
        raise ConfigError(f"load_results: these run folders hold different games "
                          f"({', '.join(sorted(games))}): load each game's runs apart")
    digests = {r.rules.digest for r in results}
    if len(digests) > 1 and not mixed_rules:
        raise ConfigError(f"load_results: these run folders were played under different rules "
                          f"(digests {', '.join(sorted(digests))}); pass mixed_rules=True to combine "
                          f"them anyway (each row's run_id tells them apart)")
    parts = {"games": [], "players": []}
    for p, r in zip(paths, results):
        tag = {"run_id": str(r.config.get("run_id") or p), "run_seed": r.config.get("seed"),
               "n_players": len(r.config.get("players", ()))}
        for t in parts:
            df = getattr(r, t)                  # (games has its own n_players)
            front = pd.DataFrame({k: [v] * len(df) for k, v in tag.items() if k not in df},
                                 index=df.index)
            parts[t].append(pd.concat([front, df], axis=1))
    out = {}
    for t, dfs in parts.items():
        df = pd.concat(dfs, ignore_index=True)
        df["run_id"] = df["run_id"].astype("category")
        df["n_players"] = df["n_players"].astype("int8")
        out[t] = df
    config = {"runs": [r.config for r in results], "game": games.pop(),
              "rules_digest": sorted(digests) if len(digests) > 1 else digests.pop()}
    first = results[0]
    game = game_of_manifest(first.config, "run folder")
    return game.results(out["games"], out["players"], first.rules, config,
                        any(r.interrupted for r in results), None)


def _project(d, cols):
    """A dataset with only ``cols`` (a lazy projection)."""
    return d.replace_schema(_sub_schema(d.schema, cols))


def _sub_schema(schema, cols):
    import pyarrow as pa
    return pa.schema([schema.field(c) for c in cols])


# ---------------------------------------------------------------------------
# aggregates: counters only (cargo_noir.aggregates), chunk by chunk
AGG_FORMAT = "cargo_sim.aggregate_run/1"
AGG_FILE = "aggregates.npz"


def agg_chunk_file(k: int) -> str:
    return f"agg-{k:05d}.npz"


def agg_done_file(k: int) -> str:
    return f"agg-{k:05d}.done"


AGG = _Kind(r"agg-(\d{5,})\.done", agg_done_file, lambda k, fmt: [agg_chunk_file(k)])


def aggregate_to_dir(out_dir, n_games: int, players, seed: int = 0, rules=None,
                     workers: int | None = None, chunk_games: int = 100_000, resume: bool = False,
                     progress: bool = True, start: int = 0, quiet: bool = False,
                     game=None) -> RunInfo:
    """``aggregate()`` a run of ``n_games`` into the folder ``out_dir``: each chunk
    of ``chunk_games`` games is folded into counters and saved as
    ``agg-NNNNN.npz`` (atomically) with its marker ``agg-NNNNN.done``
    (checksum, game range, seed), then all chunks are merged into
    ``aggregates.npz``. ``manifest.json`` records the configuration. Ctrl-C
    loses at most the chunk in flight and still writes ``aggregates.npz`` with
    the finished chunks (``interrupted``); the same call with ``resume=True``
    plays only the missing (or damaged) chunks. Memory stays flat (a chunk's
    counters are a fixed ~200 KB) and nothing grows with the number of chunks.
    ``game``: whose counters (default Cargo Noir; a game without is a ConfigError)."""
    counters = counters_of(get_game(game))
    folder = Path(out_dir)
    check_folder_game(folder, game, resume)
    manifest, rules = plan(n_games, players, seed, rules, chunk_games, game)
    check_games(start, n_games)
    manifest.update(format=AGG_FORMAT, start=int(start), layout=counters.layout)
    lock = open_run_folder(folder, manifest, resume, extra_keys=("start", "layout"))
    try:
        n_chunks, cg = manifest["n_chunks"], manifest["chunk_games"]
        done = set(_verified(folder, manifest, AGG, "replay"))
        workers, step = _step(workers)
        games_done = games_done_in(done, cg, n_games)
        bar = Progress(n_games - games_done, label=bar_label(folder, manifest, done, "aggregate"),
                       enabled=progress and n_games > games_done)
        t0 = time.perf_counter()
        played = 0
        interrupted = False
        ctrl_c = CtrlC().start()
        try:
            for k in (k for k in range(n_chunks) if k not in done):
                if ctrl_c.pressed:
                    raise KeyboardInterrupt     # at a chunk boundary: nothing is lost
                lo, hi = chunk_range(k, cg, n_games)
                part = None
                for a in range(lo, hi, step):
                    b = min(a + step, hi)
                    r = counters.aggregate(b - a, manifest["players"], seed=seed, rules=rules,
                                  workers=workers, progress=False, start=start + a)
                    if r.interrupted:
                        raise KeyboardInterrupt
                    part = r if part is None else part + r
                    bar.update(b - a)
                part.config["n_games"] = hi - lo
                part.save(folder / agg_chunk_file(k), temp_tag(manifest))
                write_marker(folder, agg_done_file(k), k, lo, hi, binding(manifest), AGG.files(k, None),
                             temp_tag(manifest))
                done.add(k)
                played += hi - lo
                games_done += hi - lo
        except KeyboardInterrupt:
            interrupted = True
        finally:
            ctrl_c.stop()
            if bar.enabled:
                bar.close()
        if done or n_chunks == 0:
            merged = load_aggregate_dir(folder, warn=False)
            merged.save(folder / AGG_FILE, temp_tag(manifest))
        seconds = time.perf_counter() - t0
    finally:
        lock.release()
    if interrupted and not quiet:
        print(interrupted_message(folder, len(done), n_chunks, games_done, n_games,
                                  "aggregate_to_dir", f" ({AGG_FILE} holds them merged)"),
              file=sys.stderr)
    return RunInfo(folder, n_games, games_done, len(done), n_chunks, played, seconds,
                   interrupted, manifest)


def load_aggregate_dir(path, warn: bool = True):
    """The merged ``Aggregates`` of an ``aggregate_to_dir`` folder (its finished
    chunks, each checked against its marker; ``interrupted=True`` if some are
    missing; a damaged chunk is a ConfigError)."""
    folder = Path(path)
    manifest = read_manifest(folder, AGG_FORMAT)
    game = game_of_manifest(manifest, f"run folder {folder}")
    counters = counters_of(game)
    n_chunks = manifest["n_chunks"]
    ks = _verified(folder, manifest, AGG, "raise")
    rules = manifest_rules(folder, manifest)
    out = counters.new([game.bots.parse(p) for p in manifest["players"]], rules, manifest["seed"],
                       manifest["n_games"])
    for k in ks:
        out = out + counters.load(folder / agg_chunk_file(k))
    out.config["n_games"] = manifest["n_games"]
    out.interrupted = len(ks) < n_chunks
    if out.interrupted and warn:
        warnings.warn(f"{folder}: run not finished ({len(ks)} of {n_chunks} chunks); "
                      "loading the finished chunks", stacklevel=2)
    return out
