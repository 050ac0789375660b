"""Long runs on disk: play a run chunk by chunk into a folder of Parquet files.

``run_to_dir(out, 10_000_000, ["random"] * 4, seed=1)`` plays the run in
chunks of ``chunk_games`` games (chunk k = games k*chunk_games ...), writes
each chunk's ``games`` and ``players`` tables as ``games-00000.parquet`` /
``players-00000.parquet`` and then a ``chunk-00000.done`` marker. Every file
is written under a temporary name in the same folder and renamed into place
(``os.replace``), so a crash or Ctrl-C loses at most the chunk in flight and
never leaves a half-written file under a final name. Memory stays flat: only
one chunk's tables are held at a time.

``manifest.json`` (written first) records the configuration: game count,
players, seed, chunk size, the rules' digest and full TOML, and the library
version. ``run_to_dir(..., resume=True)`` on the same folder skips the chunks
whose marker exists and plays the rest; since game i depends only on
(seed, i), the folder ends up with exactly the files of an uninterrupted run.

``load_results(out)`` reads a folder back as a ``SimResults`` (tables equal
to one ``simulate()`` call with the same arguments), or as pyarrow datasets
with ``lazy=True``.
"""
from __future__ import annotations

import json
import os
import sys
import tempfile
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from .checks import check_games, check_seed
from .errors import ConfigError
from .fileio import atomic_write
from .progress import Progress

MANIFEST = "manifest.json"
FORMAT = "cargo_sim.run/1"
TABLES = ("games", "players")
_TMP_SUFFIX = ".tmp"


# ---------------------------------------------------------------------------
# file names and atomic writes
def chunk_file(table: str, k: int) -> str:
    return f"{table}-{k:05d}.parquet"


def done_file(k: int) -> str:
    return f"chunk-{k:05d}.done"


def _atomic_write(path: Path, write) -> None:
    """``write(tmp_path)`` then rename over ``path`` (cargo_sim.fileio); temp names
    end in _TMP_SUFFIX so a resumed run can sweep leftovers."""
    atomic_write(path, write, suffix=_TMP_SUFFIX)


def _atomic_text(path: Path, text: str) -> None:
    atomic_write_text_sfx(path, text)


def atomic_write_text_sfx(path: Path, text: str) -> None:
    atomic_write(path, lambda tmp: Path(tmp).write_text(text, encoding="utf-8"), suffix=_TMP_SUFFIX)


# Output files store every integer column at the engine's own width (games
# int64, players int32), whatever the values, so any set of runs and chunks is
# one consistent dataset for any reader (pyarrow, pandas, DuckDB, dask...):
# docs/output_files.md lists the columns. load_results narrows them back to
# what simulate() returns.
FILE_INT = {"games": np.int64, "players": np.int32}


def canonical(df: pd.DataFrame, table: str) -> pd.DataFrame:
    """``df`` with the fixed file types of ``table`` ("games" or "players")."""
    width = FILE_INT[table]
    casts = {c: (np.int64 if c == "game" else width) for c in df.columns
             if pd.api.types.is_signed_integer_dtype(df[c].dtype)}
    return df.astype(casts)


def _write_parquet(path: Path, df: pd.DataFrame) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq
    table = pa.Table.from_pandas(df, preserve_index=False)
    _atomic_write(path, lambda tmp: pq.write_table(table, tmp, compression="zstd"))


def narrow(df: pd.DataFrame) -> pd.DataFrame:
    """Signed integer columns (but ``game``) at the smallest width that holds
    their values: the dtypes simulate() gives a table."""
    for c in df.columns:
        if c == "game" or not pd.api.types.is_signed_integer_dtype(df[c].dtype):
            continue
        col = df[c].to_numpy()
        lo, hi = (int(col.min()), int(col.max())) if len(col) else (0, 0)
        for t in (np.int8, np.int16, np.int32, np.int64):
            if np.iinfo(t).min <= lo and hi <= np.iinfo(t).max:
                if df[c].dtype != t:
                    df[c] = col.astype(t)
                break
    return df


# ---------------------------------------------------------------------------
def rules_from_toml(text: str):
    """Rules from TOML text (as written by ``Rules.to_toml``)."""
    from .cargo_noir.rules import Rules
    fd, name = tempfile.mkstemp(suffix=".toml", prefix="cargo_sim_rules_")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        return Rules.from_file(name)
    finally:
        os.unlink(name)


def _version() -> str:
    from . import __version__
    return __version__


def _engine_source() -> str:
    from ._cache import source_hash
    return source_hash()


def _plan(n_games: int, players, seed, rules, chunk_games) -> dict:
    """Check a request and return the manifest it would write."""
    from .cargo_noir.simulate import _check_request
    seated, rules = _check_request(n_games, players, rules)
    check_seed(seed)
    if (not isinstance(chunk_games, (int, np.integer)) or isinstance(chunk_games, bool)
            or chunk_games < 1):
        raise ConfigError(f"chunk_games must be a whole number >= 1, got {chunk_games!r}")
    n_chunks = -(-int(n_games) // int(chunk_games))
    return {"format": FORMAT, "n_games": int(n_games), "players": [p.label for p in seated],
            "seed": int(seed), "chunk_games": int(chunk_games), "n_chunks": n_chunks,
            "rules_digest": rules.digest, "rules_toml": rules.to_toml(),
            "version": _version(), "engine_source": _engine_source()}, rules


_COMPARED = ("n_games", "players", "seed", "rules_digest", "chunk_games")


def _read_manifest(folder: Path) -> dict:
    try:
        return json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"{folder} is not a cargo_sim run folder (no {MANIFEST})") from None
    except (OSError, ValueError) as e:
        raise ConfigError(f"cannot read {folder / MANIFEST}: {e}") from None


def _chunk_plan(n_games, chunk_games, n_chunks, done, workers):
    """(game range of each chunk, games still to play, workers, games per
    sub-call: ~8 engine chunks per thread, a progress step every second or two)."""
    bounds = {k: (k * chunk_games, min((k + 1) * chunk_games, n_games)) for k in range(n_chunks)}
    to_play = n_games - sum(bounds[k][1] - bounds[k][0] for k in done)
    if workers is None:
        workers = os.cpu_count() or 1
    return bounds, to_play, workers, max(2048 * 8 * int(workers), 1)


def _open_run_folder(folder: Path, manifest: dict, resume: bool, extra_keys=()) -> None:
    """A new (or empty) folder gets the run's manifest; a folder with files is
    only accepted with ``resume`` and when it holds the same kind of run with
    the same settings (``extra_keys`` of the manifest included)."""
    if folder.exists() and not folder.is_dir():
        raise ConfigError(f"{folder} exists and is not a folder")
    folder.mkdir(parents=True, exist_ok=True)
    if not any(folder.iterdir()):
        _atomic_text(folder / MANIFEST, json.dumps(manifest, indent=1) + "\n")
        return
    if not resume:
        raise ConfigError(f"output folder {folder} is not empty: use --resume (resume=True) "
                          "to continue the run in it, or another folder")
    old = _read_manifest(folder)
    if old.get("format") != manifest["format"]:
        raise ConfigError(f"{folder} holds a run of another kind ({old.get('format')}), "
                          f"not {manifest['format']}: use another folder")
    _check_same(old, manifest, folder)
    for key in extra_keys:
        if old.get(key) != manifest[key]:
            raise ConfigError(f"{folder} holds a different run ({key} {old.get(key)!r} there, "
                              f"{manifest[key]!r} here): use another folder")
    _clean_temps(folder)


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
                      stacklevel=3)


def _clean_temps(folder: Path) -> None:
    for p in folder.glob(f".*{_TMP_SUFFIX}"):
        try:
            p.unlink()
        except OSError:
            pass


def chunks_done(folder, n_chunks: int) -> list[int]:
    folder = Path(folder)
    return [k for k in range(n_chunks) if (folder / done_file(k)).exists()]


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


def _play_chunk(lo, hi, seated_labels, seed, rules, workers, step, bar):
    """simulate() games lo..hi-1 in sub-calls of ``step`` games (so the
    progress line moves within a chunk); returns (games, players) or None if
    interrupted."""
    from .cargo_noir.simulate import simulate
    gs, ps = [], []
    for a in range(lo, hi, step):
        b = min(a + step, hi)
        res = simulate(b - a, seated_labels, seed=seed, rules=rules, workers=workers,
                       progress=False, start=a)
        if res.interrupted:
            raise KeyboardInterrupt
        gs.append(res.games)
        ps.append(res.players)
        bar.update(b - a)
    if len(gs) == 1:
        return gs[0], ps[0]
    return (pd.concat(gs, ignore_index=True), pd.concat(ps, ignore_index=True))


def run_to_dir(out_dir, n_games: int, players, seed: int = 0, rules=None,
               workers: int | None = None, chunk_games: int = 100_000, resume: bool = False,
               progress: bool = True) -> RunInfo:
    """Play a run of ``n_games`` into the folder ``out_dir``, one chunk of
    ``chunk_games`` games at a time (see the module docstring for the files).

    ``resume=True`` continues a folder left by an interrupted call with the
    same settings (the finished chunks are kept, the rest is played); a folder
    from a different run is refused with a ConfigError. Without ``resume`` the
    folder must be new or empty. Ctrl-C stops after nothing more than the
    chunk in flight is lost, prints how to resume and returns a RunInfo with
    ``interrupted=True``.
    """
    folder = Path(out_dir)
    manifest, rules = _plan(n_games, players, seed, rules, chunk_games)
    _open_run_folder(folder, manifest, resume)
    n_chunks = manifest["n_chunks"]
    done = set(chunks_done(folder, n_chunks))
    todo = [k for k in range(n_chunks) if k not in done]
    bounds, to_play, workers, step = _chunk_plan(n_games, chunk_games, n_chunks, done, workers)
    games_done = n_games - to_play
    labels = manifest["players"]

    bar = Progress(to_play, label=f"{folder.name}: {len(labels)} players"
                   + (" (resumed)" if done else ""), enabled=progress and to_play > 0)
    t0 = time.perf_counter()
    played = 0
    interrupted = False
    try:
        for k in todo:
            lo, hi = bounds[k]
            g, p = _play_chunk(lo, hi, labels, seed, rules, workers, step, bar)
            _write_parquet(folder / chunk_file("games", k), canonical(g, "games"))
            _write_parquet(folder / chunk_file("players", k), canonical(p, "players"))
            del g, p
            _atomic_text(folder / done_file(k), json.dumps(
                {"chunk": k, "first_game": lo, "n_games": hi - lo}) + "\n")
            done.add(k)
            played += hi - lo
            games_done += hi - lo
    except KeyboardInterrupt:
        interrupted = True
    finally:
        if bar.enabled:
            bar.close()
    seconds = time.perf_counter() - t0
    if interrupted:
        print(f"interrupted: {len(done)} of {n_chunks} chunks ({games_done:,} of {n_games:,} games) "
              f"are saved in {folder}; to finish the run, call run_to_dir again with the same "
              f"settings and resume=True (CLI: --resume)", file=sys.stderr)
    return RunInfo(folder, n_games, games_done, len(done), n_chunks, played, seconds,
                   interrupted, manifest)


# ---------------------------------------------------------------------------
def _files(folder: Path, manifest: dict):
    n_chunks = manifest["n_chunks"]
    ks = chunks_done(folder, n_chunks)
    missing = [str(folder / chunk_file(t, k)) for k in ks for t in TABLES
               if not (folder / chunk_file(t, k)).exists()]
    if missing:
        raise ConfigError(f"run folder {folder} is damaged: missing {', '.join(missing[:3])}")
    return ks, {t: [str(folder / chunk_file(t, k)) for k in ks] for t in TABLES}


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


def load_results(path, columns=None, lazy: bool = False):
    """Read a ``run_to_dir`` folder back.

    Returns a ``SimResults`` whose ``games`` and ``players`` are the chunks'
    tables concatenated in game order (equal to one ``simulate()`` call with the
    run's settings), ``rules`` rebuilt from the stored TOML and ``config`` from
    the manifest. ``columns``: a list of column names (each table keeps those
    it has) or a dict ``{"games": [...], "players": [...]}``. ``lazy=True``
    gives ``pyarrow.dataset.Dataset`` objects instead of DataFrames (columns
    at the stored widths; filter and project before ``to_table()``). A run that
    is not finished loads its finished chunks with ``interrupted=True``.
    """
    import pyarrow.dataset as ds
    from .cargo_noir.simulate import SimResults
    folder = Path(path)
    manifest = _read_manifest(folder)
    if manifest.get("format") != FORMAT:
        raise ConfigError(f"{folder / MANIFEST} is not a cargo_sim run manifest")
    ks, files = _files(folder, manifest)
    complete = len(ks) == manifest["n_chunks"]
    if not complete:
        warnings.warn(f"{folder}: run not finished ({len(ks)} of {manifest['n_chunks']} chunks); "
                      "loading the finished chunks", stacklevel=2)
    rules = rules_from_toml(manifest["rules_toml"])
    if rules.digest != manifest["rules_digest"]:
        warnings.warn(f"{folder}: the stored rules rebuild with digest {rules.digest}, "
                      f"not {manifest['rules_digest']}", stacklevel=2)
    config = {k: v for k, v in manifest.items() if k != "rules_toml"}
    config.update(path=str(folder), chunks_done=len(ks), complete=complete,
                  games_done=sum(min((k + 1) * manifest["chunk_games"], manifest["n_games"])
                                 - k * manifest["chunk_games"] for k in ks))
    if columns is not None and not isinstance(columns, dict):
        known = set()
    out = {}
    for t in TABLES:
        if files[t]:
            d = ds.dataset(files[t], format="parquet")
        else:
            d = None
        names = d.schema.names if d is not None else []
        if columns is not None and not isinstance(columns, dict):
            known.update(c for c in columns if c in names)
        cols = _columns_for(columns, t, names)
        if lazy:
            out[t] = d if cols is None or d is None else _project(d, cols)
        elif d is None:
            out[t] = pd.DataFrame()
        else:
            out[t] = narrow(d.to_table(columns=cols).to_pandas())
    if columns is not None and not isinstance(columns, dict) and ks:
        unknown = [c for c in columns if c not in known]
        if unknown:
            raise ConfigError(f"unknown columns: {', '.join(unknown)}")
    return SimResults(out["games"], out["players"], rules, config, not complete)


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


def aggregate_to_dir(out_dir, n_games: int, players, seed: int = 0, rules=None,
                     workers: int | None = None, chunk_games: int = 100_000, resume: bool = False,
                     progress: bool = True, start: int = 0) -> RunInfo:
    """``aggregate()`` a run of ``n_games`` into the folder ``out_dir``: each chunk
    of ``chunk_games`` games is folded into counters and saved as
    ``agg-NNNNN.npz`` (atomically; the file is the chunk's marker), then all
    chunks are merged into ``aggregates.npz``. ``manifest.json`` records the
    configuration. Ctrl-C loses at most the chunk in flight and still writes
    ``aggregates.npz`` with the finished chunks (``interrupted``); the same
    call with ``resume=True`` plays only the missing chunks. Memory stays flat
    (a chunk's counters are a fixed ~200 KB)."""
    from .cargo_noir.aggregates import aggregate
    folder = Path(out_dir)
    manifest, rules = _plan(n_games, players, seed, rules, chunk_games)
    check_games(start, n_games)
    from .cargo_noir.aggregate_nb import LAYOUT_ID
    manifest.update(format=AGG_FORMAT, start=int(start), layout=LAYOUT_ID)
    _open_run_folder(folder, manifest, resume, extra_keys=("start", "layout"))
    n_chunks = manifest["n_chunks"]
    done = {k for k in range(n_chunks) if (folder / agg_chunk_file(k)).exists()}
    bounds, to_play, workers, step = _chunk_plan(n_games, chunk_games, n_chunks, done, workers)
    games_done = n_games - to_play
    labels = manifest["players"]
    bar = Progress(to_play, label=f"{folder.name}: aggregate, {len(labels)} players"
                   + (" (resumed)" if done else ""), enabled=progress and to_play > 0)
    t0 = time.perf_counter()
    played = 0
    interrupted = False
    try:
        for k in [k for k in range(n_chunks) if k not in done]:
            lo, hi = bounds[k]
            part = None
            for a in range(lo, hi, step):
                b = min(a + step, hi)
                r = aggregate(b - a, labels, seed=seed, rules=rules, workers=workers,
                              progress=False, start=start + a)
                if r.interrupted:
                    raise KeyboardInterrupt
                part = r if part is None else part + r
                bar.update(b - a)
            part.config["n_games"] = hi - lo
            part.save(folder / agg_chunk_file(k))
            done.add(k)
            played += hi - lo
            games_done += hi - lo
    except KeyboardInterrupt:
        interrupted = True
    finally:
        if bar.enabled:
            bar.close()
    if done or n_chunks == 0:
        merged = load_aggregate_dir(folder, warn=False)
        merged.save(folder / AGG_FILE)
    seconds = time.perf_counter() - t0
    if interrupted:
        print(f"interrupted: {len(done)} of {n_chunks} chunks ({games_done:,} of {n_games:,} games) "
              f"are saved in {folder} ({AGG_FILE} holds them merged); to finish the run, call "
              f"aggregate_to_dir again with the same settings and resume=True (CLI: --resume)",
              file=sys.stderr)
    return RunInfo(folder, n_games, games_done, len(done), n_chunks, played, seconds,
                   interrupted, manifest)


def load_aggregate_dir(path, warn: bool = True):
    """The merged ``Aggregates`` of an ``aggregate_to_dir`` folder (its finished
    chunks; ``interrupted=True`` if some are missing)."""
    from .cargo_noir.aggregates import Aggregates, load_aggregates, new_config
    from .cargo_noir.aggregate_nb import ACC_SIZE
    from .cargo_noir.bots.registry import parse_player
    folder = Path(path)
    manifest = _read_manifest(folder)
    if manifest.get("format") != AGG_FORMAT:
        raise ConfigError(f"{folder / MANIFEST} is not a cargo_sim aggregates run manifest")
    n_chunks = manifest["n_chunks"]
    ks = [k for k in range(n_chunks) if (folder / agg_chunk_file(k)).exists()]
    rules = rules_from_toml(manifest["rules_toml"])
    config = new_config([parse_player(p) for p in manifest["players"]], rules, manifest["seed"],
                        manifest["n_games"])
    out = Aggregates(np.zeros(ACC_SIZE, np.int64), rules, config)
    for k in ks:
        out = out + load_aggregates(folder / agg_chunk_file(k))
    out.config["n_games"] = manifest["n_games"]
    out.interrupted = len(ks) < n_chunks
    if out.interrupted and warn:
        warnings.warn(f"{folder}: run not finished ({len(ks)} of {n_chunks} chunks); "
                      "loading the finished chunks", stacklevel=2)
    return out


def format_aggregate_summary(agg, elapsed: float, workers) -> str:
    """The ``cargo-sim simulate --aggregate`` report: per seat win rate with
    95 % Wilson CI and mean VP with t CI, the seat test and ties."""
    from .cli import run_headline, seat_table
    n = agg.n_games
    lines = [run_headline(n, agg.config, agg.interrupted, agg.n_players, agg.rules, elapsed,
                          workers, kind=" (aggregated)")]
    if n == 0:
        lines.append("no games finished")
        return "\n".join(lines)
    s = agg.summary()
    rows = [("seat", "bot", "win rate", "95% CI", "mean VP", "95% CI")]
    for seat, r in s.iterrows():
        rows.append((str(seat), str(r["bot"]), f"{100 * r['win_rate']:.2f}%",
                     f"[{100 * r['ci_lo']:.2f}%, {100 * r['ci_hi']:.2f}%]", f"{r['mean_vp']:.2f}",
                     f"[{r['vp_ci_lo']:.2f}, {r['vp_ci_hi']:.2f}]"))
    lines += seat_table(rows)
    t = agg.seat_test()
    m = agg.margin_summary()
    lines.append(f"equal seats: chi2 {t['chi2']:.2f} on {t['dof']} df, p = {t['p_value']:.3g}; "
                 f"ties (win shared): {100 * m['tie_rate']:.2f}% of games; win rates count a "
                 f"shared win as 1/k")
    return "\n".join(lines)


def cli_aggregate(args, argv) -> int:
    """``cargo-sim simulate --aggregate``: counters only; with --out, chunk files,
    a manifest and the merged aggregates.npz (resumable with --resume)."""
    from .cargo_noir.aggregates import aggregate
    from .cli import EXIT_INTERRUPTED, load_rules, parse_players
    rules = load_rules(args.rules, args.set)
    players = parse_players(args.players)
    if args.workers is not None and args.workers < 1:
        raise ConfigError(f"--workers must be >= 1, got {args.workers}")
    workers = args.workers or os.cpu_count() or 1
    progress = not args.no_progress and sys.stderr.isatty()
    if args.format != "parquet":
        raise ConfigError("--format does not apply to --aggregate (it writes aggregates.npz)")
    t0 = time.perf_counter()
    if args.out:
        info = aggregate_to_dir(args.out, args.games, players, seed=args.seed, rules=rules,
                                workers=workers, chunk_games=args.chunk_games or 100_000,
                                resume=args.resume, progress=progress, start=args.start)
        agg = load_aggregate_dir(args.out, warn=False)
        interrupted = info.interrupted
    else:
        if args.resume or args.chunk_games is not None:
            raise ConfigError("--resume and --chunk-games need --out DIR")
        agg = aggregate(args.games, players, seed=args.seed, rules=rules, workers=workers,
                        progress=progress, start=args.start)
        interrupted = agg.interrupted
    elapsed = time.perf_counter() - t0
    print(format_aggregate_summary(agg, elapsed, workers))
    if args.out:
        print(f"wrote {Path(args.out) / AGG_FILE} ({agg.n_games:,} games)")
    if interrupted:
        print(f"cargo-sim: interrupted after {agg.n_games:,} of {args.games:,} games"
              + (f"; the finished chunks were saved in {args.out} (--resume continues)"
                 if args.out else ""), file=sys.stderr)
        return EXIT_INTERRUPTED
    return 0
