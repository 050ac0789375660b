"""Aggregate runs on disk: counters only (a game's ``counters``), chunk by
chunk into ``agg-NNNNN.npz`` with markers, merged into ``aggregates.npz``."""
from __future__ import annotations

import sys
import time
import warnings
from pathlib import Path

from ...core.checks import check_games
from ...core.contract import counters_of, game_of_manifest, get_game
from ...core.progress import Progress
from .folder import binding, read_manifest, run_id_of, temp_tag, write_marker
from .layout import (AGG, AGG_FILE, AGG_FORMAT, agg_chunk_file, agg_done_file, chunk_range,
                     games_done_in, manifest_rules, verified)
from .plan import check_folder_game, open_run_folder, plan
from .write import CtrlC, RunInfo, bar_label, interrupted_message, sub_calls


def aggregate_to_dir(out_dir, n_games: int, players, seed: int = 0, rules=None,
                     workers: int | None = None, chunk_games: int = 100_000, resume: bool = False,
                     progress: bool = True, start: int = 0, quiet: bool = False,
                     game=None, check_bots: bool = True) -> RunInfo:
    """``aggregate()`` a run of ``n_games`` into the folder ``out_dir``: each chunk
    of ``chunk_games`` games is folded into counters and saved as
    ``agg-NNNNN.npz`` (atomically) with its marker ``agg-NNNNN.done``
    (checksum, game range, seed), then all chunks are merged into
    ``aggregates.npz``. ``manifest.json`` records the configuration. Ctrl-C
    loses at most the chunk in flight and still writes ``aggregates.npz`` with
    the finished chunks (``interrupted``); the same call with ``resume=True``
    plays only the missing (or damaged) chunks. Memory stays flat (a chunk's
    counters are a fixed ~200 KB) and nothing grows with the number of chunks.
    ``game``: whose counters (default Cargo Noir; a game without is a ConfigError);
    ``check_bots`` as ``run_to_dir``."""
    counters = counters_of(get_game(game))
    folder = Path(out_dir)
    check_folder_game(folder, game, resume)
    manifest, rules = plan(n_games, players, seed, rules, chunk_games, game)
    check_games(start, n_games)
    manifest.update(format=AGG_FORMAT, start=int(start), layout=counters.layout)
    manifest["run_id"] = run_id_of(manifest)            # start and layout define the run too
    lock = open_run_folder(folder, manifest, resume, extra_keys=("start", "layout"))
    try:
        n_chunks, cg = manifest["n_chunks"], manifest["chunk_games"]
        done = set(verified(folder, manifest, AGG, "replay"))
        workers, step = sub_calls(workers)
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
                                           workers=workers, progress=False, start=start + a,
                                           check_bots=check_bots)
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
    ks = verified(folder, manifest, AGG, "raise")
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

