"""The ``games`` and ``players`` tables as Parquet files: fixed column widths and
the codec (how the columns are encoded and compressed).

Run-folder chunks (cargo_sim.runs) and the one-file-per-table layout
(cargo_sim.cli_runs) are written through ``arrow_table`` + ``parquet_options``:
the pyarrow table is built straight from the chunk's numpy columns (no pandas
conversion) and every integer column is stored at the engine's width (games
int64, players int32; docs/output_files.md), whatever its values.

Codecs (a run folder's manifest names its own, so a resumed folder keeps one):

* ``zstd-delta-required`` (new folders): as ``zstd-delta``, but every column is
  *required* (non-null: no definition levels to encode) and only ``game`` has
  min/max statistics (what readers skip files by). ~20 % less CPU, same bytes.
* ``zstd-delta``: integer columns ``DELTA_BINARY_PACKED``, ``bot``
  dictionary-encoded, zstd. Half the CPU of ``zstd-dict`` for ~8 % more bytes.
* ``zstd-dict``: pyarrow's defaults (dictionary encoding of every column) and
  zstd, built through pandas: what folders from before the ``codec`` field hold.

docs/runs.md ("Codec") has the measurements behind the choice.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ...core.errors import ConfigError

FILE_INT = {"games": np.int64, "players": np.int32}
CODEC = "zstd-delta-required"
DELTA_CODEC = "zstd-delta"
LEGACY_CODEC = "zstd-dict"          # a manifest without "codec"
CODECS = (CODEC, DELTA_CODEC, LEGACY_CODEC)
STATS_COLUMNS = ["game"]            # CODEC: the only column with min/max statistics


def check_codec(codec) -> str:
    if codec not in CODECS:
        raise ConfigError(f"unknown Parquet codec {codec!r} (this cargo_sim writes "
                          f"{', '.join(CODECS)}): resume the run with the cargo_sim that started it")
    return codec


def canonical(df, table: str) -> pd.DataFrame:
    """``df`` (a DataFrame or a dict of columns) with the fixed file types of
    ``table`` ("games" or "players")."""
    if not isinstance(df, pd.DataFrame):
        df = pd.DataFrame(df, copy=False)
    width = FILE_INT[table]
    casts = {c: (np.int64 if c == "game" else width) for c in df.columns
             if pd.api.types.is_signed_integer_dtype(df[c].dtype)}
    return df.astype(casts)


def _arrow_column(col, width):
    import pyarrow as pa
    if isinstance(col, pa.Array):
        return col
    if isinstance(col, pd.Series):
        col = col.array if isinstance(col.dtype, pd.CategoricalDtype) else col.to_numpy()
    if isinstance(col, pd.Categorical):
        # large_string values: the type pyarrow gives a pandas Categorical of str
        return pa.DictionaryArray.from_arrays(
            pa.array(col.codes), pa.array(np.asarray(col.categories, dtype=object),
                                          type=pa.large_string()))
    col = np.asarray(col)
    if col.dtype.kind == "i" and col.dtype != width:
        col = col.astype(width)
    return pa.array(col)


def arrow_table(cols, table: str, codec: str = CODEC):
    """A chunk of ``table`` ("games" or "players") as a pyarrow Table at the file
    widths. ``cols``: a DataFrame or a dict of numpy columns (``bot`` a
    Categorical). The legacy codec goes through pandas, as its files always did."""
    import pyarrow as pa
    if codec == LEGACY_CODEC:
        return pa.Table.from_pandas(canonical(cols, table), preserve_index=False)
    width = FILE_INT[table]
    names = list(cols.keys())
    arrays = [_arrow_column(cols[c], np.int64 if c == "game" else width) for c in names]
    if codec == DELTA_CODEC:
        return pa.table(arrays, names=names)
    return pa.table(arrays, schema=pa.schema([pa.field(c, a.type, nullable=False)
                                              for c, a in zip(names, arrays)]))


RUN_COLUMNS = ("run_id", "run_seed", "n_players")
RUN_COLUMNS_KEY = b"cargo_sim.run_columns"     # schema metadata: the run columns a file added


def with_run_columns(cols, run_id: str, seed: int, n_players: int) -> tuple[dict, list]:
    """``cols`` (a dict of columns or a DataFrame) with the run's ``run_id``
    (dictionary), ``run_seed`` (uint64) and ``n_players`` in front, each added
    only if the table lacks it; returns (columns, names added). Constant
    columns cost next to nothing once encoded (one dictionary value, RLE)."""
    n = len(cols["game"])
    front = {"run_id": pd.Categorical.from_codes(np.zeros(n, np.int8), [run_id]),
             "run_seed": np.full(n, seed, np.uint64),
             "n_players": np.full(n, n_players, np.int64)}
    added = [c for c in RUN_COLUMNS if c not in cols]
    return {**{c: front[c] for c in added}, **{c: cols[c] for c in cols.keys()}}, added


def _run_arrays(n: int, table: str, run: dict) -> dict:
    """The run columns as constant arrow arrays (the types ``with_run_columns``
    gives through pandas), built without numpy copies: ~1 ms per 100,000 rows."""
    import pyarrow as pa
    return {"run_id": pa.DictionaryArray.from_arrays(pa.repeat(pa.scalar(0, pa.int8()), n),
                                                     pa.array([run["run_id"]], pa.large_string())),
            "run_seed": pa.repeat(pa.scalar(run["seed"], pa.uint64()), n),
            "n_players": pa.repeat(pa.scalar(run["n_players"], pa.from_numpy_dtype(FILE_INT[table])), n)}


def run_table(cols, table: str, run: dict | None, codec: str = CODEC):
    """``arrow_table``, with the run columns of ``run`` (``run_id``, ``seed``,
    ``n_players``; None: none) and the names added in the schema's metadata, so
    ``load_results`` can give back exactly ``simulate()``'s columns."""
    if run is None:
        return arrow_table(cols, table, codec)
    front = _run_arrays(len(cols["game"]), table, run)
    added = [c for c in RUN_COLUMNS if c not in cols]
    t = arrow_table({**{c: front[c] for c in added}, **{c: cols[c] for c in cols.keys()}}, table, codec)
    return t.replace_schema_metadata({RUN_COLUMNS_KEY: ",".join(added).encode()})


def run_columns_of(schema) -> list[str]:
    """The run columns a file's writer added (its schema metadata); none for older files."""
    meta = schema.metadata or {}
    return [c for c in meta.get(RUN_COLUMNS_KEY, b"").decode().split(",") if c]


def parquet_options(schema, codec: str = CODEC) -> dict:
    """Keyword arguments of ``pyarrow.parquet.write_table`` / ``ParquetWriter``
    for a table with ``schema`` in ``codec``."""
    import pyarrow as pa
    check_codec(codec)
    if codec == LEGACY_CODEC:
        return {"compression": "zstd"}
    ints = [f.name for f in schema if pa.types.is_signed_integer(f.type)]   # not the random seeds
    options = {"compression": "zstd",
               "use_dictionary": [f.name for f in schema if pa.types.is_dictionary(f.type)
                                  or f.name == "run_seed"],      # a constant: one value, RLE
               "column_encoding": dict.fromkeys(ints, "DELTA_BINARY_PACKED")}
    if codec == CODEC:
        options["write_statistics"] = [c for c in STATS_COLUMNS if c in schema.names]
    return options
