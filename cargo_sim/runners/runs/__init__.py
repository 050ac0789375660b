"""Long runs on disk: play a run chunk by chunk into a folder of Parquet files.

``run_to_dir(out, 10_000_000, ["random"] * 4, seed=1)`` plays the run in
chunks of ``chunk_games`` games (chunk k = games k*chunk_games ...), writes
each chunk's ``games`` and ``players`` tables as ``games/part-00000.parquet`` /
``players/part-00000.parquet`` (a folder per table, so other readers take a
table folder as one dataset; each row carries the run's run_id, run_seed and
n_players) and then a ``chunk-00000.done`` marker (game range,
seed, each file's size and SHA-256: ``folder``). Every file
is written under a temporary name in the same folder and renamed into place
(``os.replace``), so a crash or Ctrl-C loses at most the chunk in flight and
never leaves a half-written file under a final name. Memory stays flat: only
one chunk's tables are held at a time.

``manifest.json`` (written first) records the configuration: the run id (a
hash of what defines the run, so the same request writes the same bytes), game count, players, seed, chunk size, the rules' digest and full TOML, and the
library version. Each marker repeats the run id, seed, players and rules digest
(``folder.binding``) and is checked against the manifest on load and resume: a
chunk of another run is never read as this run's games. ``run_to_dir(..., resume=True)`` on the same folder skips the chunks
whose marker matches their files and plays the rest; since game i depends only on
(seed, i), the folder ends up with exactly the files of an uninterrupted run.

``load_results(out)`` reads a folder back as a ``SimResults`` (tables equal
to one ``simulate()`` call with the same arguments), or as pyarrow datasets
with ``lazy=True``.

The package by job: ``plan`` (a request checked into its manifest, the folder
claimed and checked), ``write`` (``run_to_dir``), ``load`` (``load_results``),
``aggregate`` (``aggregate_to_dir``, ``load_aggregate_dir``), ``layout``
(formats, file names, which chunks are intact), ``folder`` (manifest, lock,
markers) and ``tablefiles`` (the Parquet columns and codec).
"""
from .aggregate import aggregate_to_dir, load_aggregate_dir
from .folder import MANIFEST, read_manifest
from .layout import (AGG_FILE, AGG_FORMAT, FLAT_FORMAT, FORMAT, ROW_FORMATS, TABLES, chunk_file,
                     chunks_done, manifest_rules)
from .load import load_results, load_several
from .plan import check_folder_game, plan
from .write import RunInfo, run_to_dir

__all__ = ["run_to_dir", "load_results", "load_several", "aggregate_to_dir", "load_aggregate_dir",
           "RunInfo", "plan", "check_folder_game", "read_manifest", "manifest_rules", "chunk_file",
           "chunks_done", "MANIFEST", "FORMAT", "FLAT_FORMAT", "ROW_FORMATS", "TABLES",
           "AGG_FORMAT", "AGG_FILE"]
