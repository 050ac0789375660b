"""Reading run folders back: one folder as the results of its game
(``load_results``), several as one with their rows kept apart (``load_several``).
Every chunk is checked against its marker before it is read."""
from __future__ import annotations

import warnings
from pathlib import Path

import pandas as pd

from ...core.columns import narrow
from ...core.contract import game_of_manifest
from ...core.errors import ConfigError
from .folder import read_manifest
from .layout import (ROW_FORMATS, ROWS, TABLES, check_table_folders, chunk_file, games_done_in,
                     manifest_rules, verified)
from .tablefiles import run_columns_of


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
    ks = verified(folder, manifest, ROWS, "raise", checksums=verify)
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
    ids = [read_manifest(p).get("run_id") for p in paths]
    same = next((i for i in ids if i is not None and ids.count(i) > 1), None)
    if same is not None:                  # the id derives from the request: equal games
        raise ConfigError(f"load_results: two of these run folders hold the same run (run id "
                          f"{same}: same request, so the same games): its games would count twice")
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

