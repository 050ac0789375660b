"""A run folder's layout: its formats, file names and chunk ranges, and which
chunks on disk are finished and intact (their markers, checked by ``folder``);
the rules a manifest stores. docs/runs.md describes the format."""
from __future__ import annotations

import os
import re
import stat
import warnings
from dataclasses import dataclass
from pathlib import Path

from ...core.contract import game_of_manifest, get_game
from ...core.errors import ConfigError
from .folder import binding, marked_chunks, marker_problem

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


def games_done_in(ks, chunk_games: int, n_games: int) -> int:
    """Games in the chunks ``ks``."""
    return sum(chunk_range(k, chunk_games, n_games)[1] - chunk_range(k, chunk_games, n_games)[0]
               for k in ks)


# ---------------------------------------------------------------------------
# the two kinds of chunks: rows (games and players tables) and counters
@dataclass(frozen=True)
class ChunkKind:
    """A kind of chunk: its markers' name pattern, chunk -> marker name, and
    (chunk, format) -> its data files."""
    marker_rx: str
    marker: object
    files: object


ROWS = ChunkKind(_DONE_RX, done_file, lambda k, fmt: [chunk_file(t, k, fmt) for t in TABLES])

AGG_FORMAT = "cargo_sim.aggregate_run/1"
AGG_FILE = "aggregates.npz"


def agg_chunk_file(k: int) -> str:
    return f"agg-{k:05d}.npz"


def agg_done_file(k: int) -> str:
    return f"agg-{k:05d}.done"


AGG = ChunkKind(r"agg-(\d{5,})\.done", agg_done_file, lambda k, fmt: [agg_chunk_file(k)])


def verified(folder: Path, manifest: dict, kind: ChunkKind, on_bad: str,
              checksums: bool = True) -> list[int]:
    """Chunks whose marker vouches for their files. ``on_bad``: "replay" (resume:
    drop the marker with a warning, the chunk is played again) or "raise" (load:
    a ConfigError naming the chunk)."""
    n, cg = manifest["n_games"], manifest["chunk_games"]
    bound = binding(manifest)
    good = []
    marked = list(marked_chunks(folder, kind.marker_rx, manifest["n_chunks"], kind.marker))
    in_place_of_files(folder, [f for k in marked for f in kind.files(k, manifest["format"])])
    for k in marked:
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


def in_place_of_files(folder: Path, names) -> None:
    """Refuse (load and resume alike) a run whose data file is a folder: it is not
    the run's, so it is neither read nor replaced (a file would be replaced)."""
    for name in names:
        if (folder / name).is_dir():
            raise ConfigError(f"run folder {folder}: {name} is a folder, so not a chunk this run "
                              f"wrote; it is left alone: move it away, then resume the run "
                              f"(--resume, resume=True) to play its chunk again")


def verified_chunks(folder: Path, manifest: dict, on_bad: str) -> list[int]:
    """The finished, intact chunks of a run folder (see ``verified``)."""
    return verified(folder, manifest, ROWS, on_bad)

def chunks_done(folder, n_chunks: int) -> list[int]:
    """Chunks with a marker (not verified: see load_results / resume)."""
    return marked_chunks(Path(folder), _DONE_RX, n_chunks)


# ---------------------------------------------------------------------------
def rules_from_toml(text: str, game=None):
    """The game's rules from TOML text (as written by ``Rules.to_toml``), read as saved."""
    return get_game(game).Rules.from_saved(text)


def manifest_rules(folder: Path, manifest: dict):
    """The rules a manifest stores (with its game's Rules), refused unless they
    rebuild with the digest it records (a swapped rules TOML would otherwise pass
    as the run's rules)."""
    from ...core.errors import RulesError
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

