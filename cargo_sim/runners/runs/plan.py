"""Starting or resuming a run: the request checked into the manifest it would
write (``plan``), and the folder claimed, locked and checked against it
(``open_run_folder``): a folder holding anything else is refused before a file
is written in it."""
from __future__ import annotations

import json
import os
import warnings
from pathlib import Path

from ...core.checks import check_number, check_seed
from ...core.contract import game_of_manifest, get_game
from ...core.errors import ConfigError
from ...core.fileio import claim_folder, is_temp_name
from .folder import (LOCK, MANIFEST, RunLock, atomic_text, clean_temps, read_manifest, run_id_of,
                     temp_tag)
from .layout import FORMAT, ROW_FORMATS, TABLES, check_table_folders, manifest_rules
from .tablefiles import CODEC


def _version() -> str:
    from ...core.version import __version__
    return __version__


def _engine_source() -> str:
    from ...core.cache import source_hash
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
    a folder is reloaded with that game's rules); its run id is derived from what
    defines the run (``folder.run_id_of``: a caller adding a defining field
    derives it again)."""
    from ...core.runner import seat_players
    game = get_game(game)
    seated, rules = seat_players(game, n_games, players, rules)
    seed = check_seed(seed)
    chunk_games = check_chunk_games(chunk_games)
    n_chunks = check_n_chunks(n_games, chunk_games)
    manifest = {"format": FORMAT, "game": game.name, "run_id": None, "n_games": int(n_games),
                "players": [p.label for p in seated], "seed": int(seed), "chunk_games": chunk_games,
                "n_chunks": n_chunks, "rules_digest": rules.digest, "rules_toml": rules.to_toml(),
                "codec": CODEC, "version": _version(), "engine_source": _engine_source()}
    manifest["run_id"] = run_id_of(manifest)
    return manifest, rules


_COMPARED = ("n_games", "players", "seed", "rules_digest", "chunk_games")


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

