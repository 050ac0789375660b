"""``cargo-sim simulate`` with ``--out`` or ``--aggregate``: runs streamed to disk.

``--out DIR`` plays the run chunk by chunk into a run folder (cargo_sim.runs:
per-chunk Parquet, markers, manifest; resumable with ``--resume``) or, with
``--layout files`` / ``--format csv``, into one file per table; either way only
a chunk or two of tables is in memory. ``--aggregate`` keeps counters only.
docs/runs.md describes the folders.
"""
from __future__ import annotations

import contextlib
import json
import os
import shlex
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

from .common import (EXIT_INTERRUPTED, PROG, format_summary_of, jsonable, load_rules,
                         parse_players, run_headline, versions)
from ..core.contract import counters_of, get_game
from ..core.errors import ConfigError
from ..core.fileio import TMP_SUFFIX, atomic_write, atomic_write_text, own_output, publish
from ..core.progress import Progress
from ..runners import runs
from ..runners.runs.folder import LOCK, claim_locked
from ..runners.runs.tablefiles import canonical, parquet_options, run_table, with_run_columns
from ..runners.runs.write import run_of, stream_chunks

DEFAULT_CHUNK_GAMES = 100_000


def check_run_options(args) -> None:
    """Option combinations refused before anything runs."""
    if args.out is not None and not args.out.strip():
        raise ConfigError("--out needs a folder name (got an empty one)")
    if args.chunk_games is not None and args.chunk_games < 1:
        raise ConfigError(f"--chunk-games must be >= 1, got {args.chunk_games}")
    if args.resume and not args.out:
        raise ConfigError("--resume needs --out DIR (the run folder to continue)")
    if args.chunk_games is not None and not args.out and not args.dask:
        raise ConfigError("--chunk-games needs --out DIR (or --dask: games per task)")
    if args.workers is not None and args.workers < 1:
        raise ConfigError(f"--workers must be >= 1, got {args.workers}")
    if args.dask is not None:
        if args.workers is not None:
            raise ConfigError("--workers is for local runs; on Dask each task plays on one thread")
        if args.aggregate and args.out:
            raise ConfigError("--dask --aggregate keeps the counters in memory: drop --out "
                              "(or run --aggregate --out without --dask)")
        if args.out and (args.layout == "files" or args.format == "csv"):
            raise ConfigError("--dask --out writes a run folder (--layout chunks)")
        if not args.dask.strip():
            raise ConfigError("--dask needs a scheduler address (tcp://host:8786) or 'local'")
    if args.start and args.out and not args.aggregate:
        raise ConfigError("--start does not apply to --out runs (a run folder always starts at "
                          "game 0; use --start without --out, or --aggregate)")


def _progress(args) -> bool:
    return not args.no_progress and sys.stderr.isatty()


def _layout(args) -> str:
    if args.format == "csv" and args.layout == "chunks":
        raise ConfigError("run folders (--layout chunks) are Parquet: use --layout files for CSV")
    return args.layout or ("files" if args.format == "csv" else "chunks")


# ---------------------------------------------------------------------------
# summary of a run on disk, read back one chunk at a time
class Tally:
    """Per-seat sums of the summary's core columns and the game's own counts
    (``Game.summary_counts``), chunk by chunk (memory flat)."""

    def __init__(self, game=None):
        self.game = get_game(game)
        self.sums = None                # seat -> [games, win_share, vp, rank] (float64)
        self.bots = None
        self.n = 0
        self.counts: dict = {}

    def add(self, games, players) -> None:
        """Add a chunk's tables (DataFrames, or dicts of columns)."""
        seat = np.asarray(players["seat"])
        if not len(seat):
            return
        k = int(seat.max()) + 1
        part = np.stack([np.bincount(seat, minlength=k)] +
                        [np.bincount(seat, weights=np.asarray(players[c], np.float64), minlength=k)
                         for c in ("win_share", "vp", "rank")], axis=1).astype(np.float64)
        if self.sums is None:
            seats, first = np.unique(seat, return_index=True)
            bot = np.asarray(players["bot"])
            self.bots = {int(s): str(bot[i]) for s, i in zip(seats, first)}
            self.sums = part
        else:
            self.sums = self.sums + part
        self.n += len(games["game"])
        for k, v in self.game.summary_counts(games).items():
            self.counts[k] = self.counts.get(k, 0) + v

    def summary(self) -> pd.DataFrame:
        s = self.sums
        seats = [i for i in range(len(s)) if s[i, 0] > 0]
        g = s[seats, 0]
        return pd.DataFrame({"bot": [self.bots[i] for i in seats], "games": g.astype(int),
                             "win_rate": s[seats, 1] / g, "mean_vp": s[seats, 2] / g,
                             "mean_rank": s[seats, 3] / g},
                            index=pd.Index(seats, name="seat"))


def tally_dir(folder: Path, tally: Tally | None = None, skip=()) -> Tally:
    """The summary sums of a run folder's chunks, read one at a time, added to
    ``tally`` (which already holds the chunks in ``skip``)."""
    import pyarrow.parquet as pq
    from ..core.contract import game_of_manifest
    m = runs.read_manifest(folder, runs.ROW_FORMATS)
    t = tally or Tally(game_of_manifest(m, f"run folder {folder}"))
    for k in runs.chunks_done(folder, m["n_chunks"]):
        if k in skip:
            continue
        # the whole games chunk (a few columns): the game's counts read what they need
        g = pq.read_table(folder / runs.chunk_file("games", k, m["format"])).to_pandas()
        p = pq.read_table(folder / runs.chunk_file("players", k, m["format"]),
                          columns=["seat", "bot", "vp", "rank", "win_share"]).to_pandas()
        t.add(g, p)
    return t


# ---------------------------------------------------------------------------
def _meta(args, argv, cfg_players, rules, workers, n_done, interrupted, elapsed) -> dict:
    return {"command": shlex.join([PROG] + list(argv)), "game": get_game(args.game_name).name,
            "seed": args.seed, "start": args.start,
            "players": cfg_players, "n_games_requested": args.games, "n_games": n_done,
            "interrupted": bool(interrupted), "workers": workers, "elapsed_s": round(elapsed, 3),
            "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "rules_digest": rules.digest, "rules_name": rules["name"],
            "rules_file": str(Path(args.rules).resolve()) if args.rules else None,
            "rules_overrides": rules.overrides, "estimated_rules": rules.estimated,
            "versions": versions(), "rules": rules.flat()}


def _write_run_json(path: Path, meta: dict) -> None:
    atomic_write_text(path, json.dumps(jsonable(meta), indent=2) + "\n")


RUN_KIND = "cargo_sim.run_record/1"      # run.json of a run folder (beside its manifest)
RUN_JSON = "run.json"
FILES_KIND = "cargo_sim.files/1"          # run.json of a --layout files folder
FILES_NAMES = ("games.parquet", "players.parquet", "games.csv", "players.csv", "run.json",
               LOCK)


def _files_run_json(d: dict) -> bool:
    """A run.json this layout wrote (with its kind, or from before it was recorded)."""
    if d.get("kind") == FILES_KIND:
        return True
    return (str(d.get("command", "")).startswith(f"{PROG} simulate") and isinstance(d.get("files"), list)
            and "n_games_requested" in d)


def claim_files_folder(out_dir):
    """The --layout files folder: new, empty, or an earlier --layout files run's
    own (only its files and its run.json); anything else is refused before play.
    Then locked (run.lock, as a run folder), so a second writer is refused while
    this one runs. Returns the held lock."""
    return claim_locked(out_dir, "--layout files output", own_output(FILES_NAMES, "run.json", _files_run_json))


class _FilesSink:
    """games.<fmt> and players.<fmt> written chunk by chunk to temp files (Parquet
    row groups at the run folder's column widths, or CSV rows) and renamed into
    place at the end: complete or absent, like every output file."""

    def __init__(self, out_dir: Path, fmt: str, game=None, run: dict | None = None):
        import tempfile
        self.out_dir, self.fmt, self.run = out_dir, fmt, run     # run: run_of
        self.tmp = {}
        for t in runs.TABLES:                    # fresh names of our own, never a user's file
            fd, name = tempfile.mkstemp(dir=out_dir, prefix=f".{t}.{fmt}.", suffix=TMP_SUFFIX)
            os.close(fd)
            self.tmp[t] = Path(name)
        self.writers = {}
        self.tally = Tally(game)

    def __call__(self, k, lo, hi, games, players):
        self.tally.add(games, players)
        for t, df in (("games", games), ("players", players)):
            if self.fmt == "csv":
                cols, _ = with_run_columns(df, **self.run)
                canonical(cols, t).to_csv(self.tmp[t], mode="a", header=t not in self.writers,
                                          index=False)
                self.writers[t] = True
            else:
                import pyarrow.parquet as pq
                table = run_table(df, t, self.run)
                if t not in self.writers:
                    self.writers[t] = pq.ParquetWriter(self.tmp[t], table.schema,
                                                       **parquet_options(table.schema))
                self.writers[t].write_table(table)

    def finish(self) -> list[Path]:
        out = []
        for t in runs.TABLES:
            w = self.writers.pop(t, None)
            if w is not None and w is not True:
                w.close()
            dest = self.out_dir / f"{t}.{self.fmt}"
            if w is None:                         # no chunk finished: an empty table
                atomic_write(dest, lambda f: pd.DataFrame().to_csv(f, index=False)
                             if self.fmt == "csv" else pd.DataFrame().to_parquet(f))
                self.tmp[t].unlink()
            else:
                publish(self.tmp[t], dest)        # on disk before it takes its final name
            out.append(dest)
        return out

    def discard(self) -> None:
        for t in runs.TABLES:
            w = self.writers.pop(t, None)
            if w is not None and w is not True:
                with contextlib.suppress(Exception):
                    w.close()
            with contextlib.suppress(OSError):
                self.tmp[t].unlink()


def _files_run(args, manifest, rules, workers, out_dir: Path, fmt: str):
    """One file per table, streamed (the folder claimed and locked); returns
    (tally, files, interrupted)."""
    with contextlib.suppress(FileNotFoundError):
        (out_dir / "run.json").unlink()         # ours (claimed); written last: present = complete
    sink = _FilesSink(out_dir, fmt, args.game_name, run_of(manifest))
    bar = Progress(args.games, label=f"simulate to {out_dir.name}: {len(manifest['players'])} players",
                   enabled=_progress(args) and args.games > 0)
    try:
        _, _, interrupted = stream_chunks(range(manifest["n_chunks"]), manifest, rules,
                                          workers, bar, sink, check_bots=not args.fast_bots)
        files = sink.finish()
    except BaseException:
        sink.discard()
        raise
    finally:
        if bar.enabled:
            bar.close()
    return sink.tally, files, interrupted


def cli_out(args, argv) -> int:
    """``cargo-sim simulate --out DIR`` (without --aggregate)."""
    game = get_game(args.game_name)
    rules = load_rules(args.rules, args.set, game)
    players = parse_players(args.players)
    out_dir = Path(args.out)
    if out_dir.exists() and not out_dir.is_dir():
        raise ConfigError(f"--out {out_dir} exists and is not a folder")
    layout = _layout(args)
    if layout == "chunks":
        return _cli_out(args, argv, game, rules, players, out_dir, layout)
    if args.resume:
        raise ConfigError("--resume needs a run folder (--layout chunks, the default for Parquet)")
    plan = runs.plan(args.games, players, args.seed, rules,
                     args.chunk_games or DEFAULT_CHUNK_GAMES, args.game_name)
    lock = claim_files_folder(out_dir)           # after the common mistakes: no folder for them
    try:
        return _cli_out(args, argv, game, rules, players, out_dir, layout, plan)
    finally:
        lock.release()


def _cli_out(args, argv, game, rules, players, out_dir, layout, plan=None) -> int:
    workers = args.workers or os.cpu_count() or 1
    tally, tallied = Tally(game), set()

    def tally_chunk(k, games, players):       # the summary of a chunk played now, from memory
        tally.add(games, players)
        tallied.add(k)

    t0 = time.perf_counter()
    if layout == "files":
        manifest, rules = plan
        tally, files, interrupted = _files_run(args, manifest, rules, workers, out_dir, args.format)
        cfg_players = manifest["players"]
        played = None
    else:
        if args.dask:
            from ..runners.dask_backend import run_to_dir_dask
            info = run_to_dir_dask(out_dir, args.games, players, seed=args.seed, rules=rules,
                                   scheduler=args.dask, resume=args.resume, progress=_progress(args),
                                   chunk_games=args.chunk_games or DEFAULT_CHUNK_GAMES, quiet=True,
                                   game=game, check_bots=not args.fast_bots)
        else:
            info = runs.run_to_dir(out_dir, args.games, players, seed=args.seed, rules=rules,
                                   workers=workers, chunk_games=args.chunk_games or DEFAULT_CHUNK_GAMES,
                                   resume=args.resume, progress=_progress(args), quiet=True,
                                   on_chunk=tally_chunk, game=game, check_bots=not args.fast_bots)
        interrupted = info.interrupted
        tally = tally_dir(out_dir, tally, skip=tallied)     # chunks on disk before this call
        cfg_players = info.config["players"]
        files = [out_dir]
        played = info.games_played
    elapsed = time.perf_counter() - t0
    cfg = {"n_games": args.games, "players": cfg_players, "seed": args.seed}
    print(format_summary_of(tally.summary() if tally.n else None, tally.n, tally.counts, cfg,
                            interrupted, rules, elapsed, workers, played=played, game=game))
    if layout == "files":
        meta = {"kind": FILES_KIND, "run_id": manifest["run_id"],
                **_meta(args, argv, cfg_players, rules, workers, tally.n, interrupted, elapsed)}
        meta["files"] = [p.name for p in files] + ["run.json"]
        _write_run_json(out_dir / "run.json", meta)
        files.append(out_dir / "run.json")
        print(f"wrote {', '.join(str(f) for f in files)}"
              + (f" ({tally.n:,} finished games)" if interrupted else ""))
    else:
        meta = {"kind": RUN_KIND, "run_id": info.config.get("run_id"),
                **_meta(args, argv, cfg_players, rules, workers, info.games_done, interrupted, elapsed)}
        meta["n_games"] = info.games_done
        _write_run_json(out_dir / RUN_JSON, meta)   # after the chunks: this call's record
        print(f"wrote {out_dir} ({info.chunks_done} of {info.n_chunks} chunks, {info.games_done:,} "
              f"games, run.json; read it with cargo_sim.load_results)")
    if interrupted:
        how = ("; the finished chunks are saved there: the same command with --resume finishes "
               "the run" if layout == "chunks" else "; the finished games were saved there")
        print(f"{PROG}: interrupted after {tally.n:,} of {args.games:,} games{how}", file=sys.stderr)
        return EXIT_INTERRUPTED
    return 0


# ---------------------------------------------------------------------------
def format_aggregate_summary(agg, elapsed: float, workers, game=None) -> str:
    """The ``cargo-sim simulate --aggregate`` report: the run's headline, then the
    lines the game's counters print (``counters.summary_lines``)."""
    n = agg.n_games
    lines = [run_headline(n, agg.config, agg.interrupted, agg.n_players, agg.rules, elapsed,
                          workers, kind=" (aggregated)")]
    if n == 0:
        lines.append("no games finished")
        return "\n".join(lines)
    lines += counters_of(get_game(game)).summary_lines(agg)
    return "\n".join(lines)


def cli_aggregate(args, argv) -> int:
    """``cargo-sim simulate --aggregate``: counters only; with --out, chunk files,
    a manifest and the merged aggregates.npz (resumable with --resume)."""
    from ..runners.api import aggregate
    game = get_game(args.game_name)
    counters_of(game)                            # a game without counters: one line, before anything
    rules = load_rules(args.rules, args.set, game)
    players = parse_players(args.players)
    workers = args.workers or os.cpu_count() or 1
    progress = _progress(args)
    if args.format != "parquet" or args.layout:
        raise ConfigError("--format and --layout do not apply to --aggregate (it writes aggregates.npz)")
    t0 = time.perf_counter()
    if args.out:
        info = runs.aggregate_to_dir(args.out, args.games, players, seed=args.seed, rules=rules,
                                     workers=workers, chunk_games=args.chunk_games or DEFAULT_CHUNK_GAMES,
                                     resume=args.resume, progress=progress, start=args.start,
                                     quiet=True, game=game, check_bots=not args.fast_bots)
        agg = runs.load_aggregate_dir(args.out, warn=False)
        interrupted = info.interrupted
    elif args.dask:
        agg = aggregate(args.games, players, seed=args.seed, rules=rules, progress=progress,
                        start=args.start, backend="dask", scheduler=args.dask,
                        chunk_games=args.chunk_games or DEFAULT_CHUNK_GAMES, game=game,
                        check_bots=not args.fast_bots)
        interrupted = agg.interrupted
    else:
        agg = aggregate(args.games, players, seed=args.seed, rules=rules, workers=workers,
                        progress=progress, start=args.start, game=game,
                        check_bots=not args.fast_bots)
        interrupted = agg.interrupted
    elapsed = time.perf_counter() - t0
    print(format_aggregate_summary(agg, elapsed, workers, game))
    if args.out:
        meta = {"kind": RUN_KIND, "run_id": info.config.get("run_id"),
                **_meta(args, argv, info.config["players"], rules, workers, agg.n_games,
                        interrupted, elapsed)}
        _write_run_json(Path(args.out) / RUN_JSON, meta)
        print(f"wrote {Path(args.out) / runs.AGG_FILE} ({agg.n_games:,} games) and run.json")
    if interrupted:
        print(f"cargo-sim: interrupted after {agg.n_games:,} of {args.games:,} games"
              + (f"; the finished chunks are saved in {args.out}: the same command with --resume "
                 "finishes the run" if args.out else ""), file=sys.stderr)
        return EXIT_INTERRUPTED
    return 0
