"""Run folders: the manifest, the writer's lock and the chunk markers.

A run folder (``cargo_sim.runners.runs``) holds ``manifest.json``, per-chunk data
files and one marker per finished chunk. The manifest names the run (its
``run_id``, a hash of what defines the run: ``run_id_of``); a marker binds its
chunk to the run (run id, seed, players, rules digest, game range) and records
the size and SHA-256 of each of its files; a chunk counts as done only when its
marker matches the manifest and its files,
so a truncated, damaged, swapped or foreign file is never read as data.
``run.lock`` (pid, host) keeps a second writer out. Every file is read as a
regular file with a size cap (core.fileio). docs/runs.md describes the format.
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import socket
import stat
import tempfile
import time
from pathlib import Path

from ...core.errors import ConfigError
from ...core.checks import whole
from ...core.fileio import MB, TMP_SUFFIX, atomic_write, claim_folder, is_temp_name, read_json

MANIFEST = "manifest.json"
LOCK = "run.lock"
MAX_SEED = 2**64 - 1
MANIFEST_LIMIT = 16 * MB          # the rules TOML is ~10 KB
MARKER_LIMIT = MB
LOCK_LIMIT = 64 * 2**10
RUN_ID_RX = re.compile(r"[0-9a-f]{32}")


def temp_tag(manifest: dict) -> str:
    """The tag in this run's temporary file names (``.NAME.<tag>.XXXX.tmp``):
    resume sweeps only temp files that carry it."""
    rid = manifest.get("run_id")
    return f"run{rid[:12]}" if isinstance(rid, str) else ""


def atomic_text(path: Path, text: str, tag: str = "") -> None:
    """Write ``text`` to ``path`` atomically (temp names end in TMP_SUFFIX)."""
    atomic_write(path, lambda tmp: Path(tmp).write_text(text, encoding="utf-8"), suffix=TMP_SUFFIX,
                 tag=tag)


# ---------------------------------------------------------------------------
# manifest
def _whole(v, lo, hi=None) -> bool:
    return whole(v, numpy=False) and v >= lo and (hi is None or v <= hi)


def read_manifest(folder: Path, fmt=None) -> dict:
    """The folder's manifest, checked field by field (a crafted or damaged one
    is a ConfigError naming the field, never a TypeError later); ``fmt``: the
    format, or a tuple of formats, the caller reads."""
    if not (folder / MANIFEST).exists() and not (folder / MANIFEST).is_symlink():
        raise ConfigError(f"{folder} is not a cargo_sim run folder (no {MANIFEST})")
    m = read_json(folder / MANIFEST, MANIFEST_LIMIT, "run manifest")
    bad = _manifest_problem(m)
    if bad:
        raise ConfigError(f"{folder / MANIFEST} is damaged or not a cargo_sim manifest: {bad}")
    kinds = (fmt,) if isinstance(fmt, str) else fmt
    if kinds is not None and m["format"] not in kinds:
        newer = any(m["format"].startswith(k.rsplit("/", 1)[0] + "/") for k in kinds)
        raise ConfigError(f"{folder} holds a run of another kind ({m['format']}), not "
                          f"{' or '.join(kinds)}"
                          + (": written by a newer cargo_sim? read it with that version" if newer else ""))
    return m


def _manifest_problem(m) -> str | None:
    if not isinstance(m, dict):
        return "not a JSON object"
    if not isinstance(m.get("format"), str):
        return "no format"
    if not _whole(m.get("n_games"), 0, MAX_SEED):
        return f"n_games {m.get('n_games')!r}"
    if not _whole(m.get("chunk_games"), 1):
        return f"chunk_games {m.get('chunk_games')!r}"
    if m.get("n_chunks") != -(-m["n_games"] // m["chunk_games"]):
        return f"n_chunks {m.get('n_chunks')!r} does not match n_games and chunk_games"
    if not _whole(m.get("seed"), 0, MAX_SEED):
        return f"seed {m.get('seed')!r}"
    if "start" in m and not _whole(m["start"], 0, MAX_SEED):
        return f"start {m.get('start')!r}"
    players = m.get("players")
    if not isinstance(players, list) or not players or not all(isinstance(p, str) for p in players):
        return "players"
    if "run_id" in m and not (isinstance(m["run_id"], str) and RUN_ID_RX.fullmatch(m["run_id"])):
        return f"run_id {m['run_id']!r}"
    if "codec" in m and not isinstance(m["codec"], str):
        return f"codec {m['codec']!r}"
    for key in ("rules_toml", "rules_digest"):
        if not isinstance(m.get(key), str):
            return key
    return None


# ---------------------------------------------------------------------------
# lock
def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:              # someone else's live process
        return True
    return True


def _read_lock(path: Path):
    with contextlib.suppress(ConfigError):
        d = read_json(path, LOCK_LIMIT, "lock file")
        if isinstance(d, dict) and _whole(d.get("pid"), 1) and isinstance(d.get("host"), str):
            return d
    return None


def _check_lock_path(path: Path) -> None:
    """A lock path that exists must be a regular file (never a folder, FIFO or link)."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return
    if not stat.S_ISREG(st.st_mode):
        raise ConfigError(f"the lock file {path} is not a regular file: move it away "
                          "(cargo_sim creates and removes it)")


class RunLock:
    """``run.lock`` in a run folder, created atomically (a complete file is
    hard-linked into place) with the owner's pid and host. A lock whose owner
    is a dead process on this host, or which is unreadable and over a minute
    old, is stale and taken over; a live owner is refused with a ConfigError."""

    def __init__(self, folder: Path):
        self.path = Path(folder) / LOCK
        self.me = {"pid": os.getpid(), "host": socket.gethostname(), "since": time.time()}
        self.held = False

    def acquire(self) -> "RunLock":
        for _ in range(3):
            _check_lock_path(self.path)
            if self._try_link():
                self.held = True
                return self
            owner = _read_lock(self.path)
            if not self._stale(owner):
                who = (f"process {owner['pid']} on {owner['host']}" if owner else "another process")
                raise ConfigError(f"{self.path.parent} is in use by {who} (lock file {self.path}); "
                                  "wait for it to finish, or delete the lock file if that process "
                                  "is gone")
            with contextlib.suppress(FileNotFoundError):
                self.path.unlink()
        raise ConfigError(f"cannot take the lock {self.path}: another process keeps taking it")

    def _try_link(self) -> bool:
        text = json.dumps(self.me) + "\n"
        try:                                 # a fresh name of our own: never a user's file
            fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=f".{LOCK}.", suffix=TMP_SUFFIX)
        except OSError as e:
            raise ConfigError(f"cannot write in {self.path.parent}: {e.strerror or e}") from None
        tmp = Path(tmp)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
            os.link(tmp, self.path)
            return True
        except FileExistsError:
            return False
        except FileNotFoundError:            # our temp file swept by another run's clean-up
            return False
        except OSError:                      # no hard links here: an exclusive create instead
            return self._try_create(text)
        finally:
            with contextlib.suppress(OSError):
                tmp.unlink()

    def _try_create(self, text: str) -> bool:
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            return False
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        return True

    def _stale(self, owner) -> bool:
        if owner is None:                 # unreadable: stale once it is clearly not being written
            with contextlib.suppress(OSError):
                return time.time() - self.path.stat().st_mtime > 60
            return True
        if owner["host"] != self.me["host"]:
            return False                  # cannot see another host's processes: trust the lock
        return owner["pid"] != self.me["pid"] and not _alive(owner["pid"])

    def release(self) -> None:
        if self.held:
            owner = _read_lock(self.path)
            if owner and owner["pid"] == self.me["pid"] and owner["host"] == self.me["host"]:
                with contextlib.suppress(FileNotFoundError):
                    self.path.unlink()
            self.held = False

    def __enter__(self):
        return self.acquire() if not self.held else self

    def __exit__(self, *exc):
        self.release()


def lock_only(folder: Path) -> bool:
    """A folder holding only ``run.lock`` and temp files: a writer just starting,
    or one that died before writing anything."""
    return all(n == LOCK or is_temp_name(n) for n in os.listdir(folder))


def claim_locked(out, what: str, owned=None, option: str = "--out") -> RunLock:
    """``claim_folder`` (``owned`` must accept ``run.lock``), then ``run.lock``
    taken in it: a second writer of the folder is refused in one line while
    this one runs. Returns the held lock (release it when done)."""
    folder, _ = claim_folder(out, what, lambda f: lock_only(f) or bool(owned and owned(f)), option)
    return RunLock(folder).acquire()


# ---------------------------------------------------------------------------
# chunk markers
def file_sha256(path: Path) -> str:
    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


# what defines a run: its id is a hash of these manifest fields (those it has),
# so the same request writes the same files (a rerun, a resumed run) and two
# runs that differ in any of them never share an id; the rules by their digest,
# the code that plays the games by its source hash (docs/runs.md "Run ids")
RUN_ID_FIELDS = ("format", "game", "n_games", "players", "seed", "chunk_games", "rules_digest",
                 "codec", "engine_source", "start", "layout")


def run_id_of(manifest: dict) -> str:
    """The run id of a new run: 32 hex digits of a SHA-256 of its defining fields."""
    fields = {k: manifest[k] for k in RUN_ID_FIELDS if k in manifest}
    blob = json.dumps(fields, sort_keys=True, separators=(",", ":")).encode()
    return hashlib.sha256(b"cargo_sim run id\n" + blob).hexdigest()[:32]


# what binds a chunk to its run: these manifest fields are copied into every
# marker and compared on load and resume (a folder from before run ids: seed only)
BINDING = ("run_id", "seed", "players", "rules_digest", "start", "layout")


def binding(manifest: dict) -> dict:
    if "run_id" not in manifest:             # written before run ids: what its markers hold
        return {"seed": manifest["seed"]}
    return {k: manifest[k] for k in BINDING if k in manifest}


def write_marker(folder: Path, marker: str, k: int, lo: int, hi: int, bound: dict,
                 data_files, tag: str = "") -> None:
    """The marker of chunk ``k`` (games lo..hi-1 of the run ``bound``: its
    ``binding``), written after its data files, with their sizes and checksums."""
    files = {name: {"bytes": (folder / name).stat().st_size, "sha256": file_sha256(folder / name)}
             for name in data_files}
    d = {"chunk": k, "first_game": lo, "n_games": hi - lo, **bound, "files": files}
    atomic_text(folder / marker, json.dumps(d) + "\n", tag)


def marked_chunks(folder: Path, pattern: str, n_chunks: int, name=None) -> list[int]:
    """Chunk numbers that have a marker named like ``pattern`` (a regex with
    one group for the number), from one listing of the folder: a manifest
    claiming 10^12 chunks costs nothing. With ``name`` (chunk -> its marker's
    name) a marker under another spelling (a duplicate: ``chunk-000001.done``)
    or beyond the run's last chunk is a ConfigError: it is not this run's."""
    rx = re.compile(pattern)
    out = set()
    with os.scandir(folder) as it:
        for e in it:
            m = rx.fullmatch(e.name)
            if not m:
                continue
            k = int(m.group(1))
            if name is not None and (name(k) != e.name or k >= n_chunks):
                why = ("a second marker for chunk {k}" if name(k) != e.name
                       else f"a marker beyond the run's {n_chunks} chunks")
                raise ConfigError(f"run folder {folder}: {e.name} is {why.format(k=k)}, not a file "
                                  "this run wrote: move it out of the folder")
            if k < n_chunks:
                out.add(k)
    return sorted(out)


def marker_problem(folder: Path, marker: str, k: int, lo: int, hi: int, bound: dict,
                   data_files, checksums: bool = True) -> str | None:
    """Why chunk ``k``'s marker does not vouch for its files as games lo..hi-1
    of the run ``bound`` (None if it does)."""
    try:
        d = read_json(folder / marker, MARKER_LIMIT, "marker")
    except ConfigError as e:
        return f"marker {marker} unreadable: {e}"
    if not isinstance(d, dict) or not isinstance(d.get("files"), dict):
        return f"marker {marker} has no checksums (damaged, or written by an older cargo_sim)"
    if (d.get("chunk"), d.get("first_game"), d.get("n_games")) != (k, lo, hi - lo):
        return (f"marker {marker} is for another chunk (chunk {d.get('chunk')!r}, first game "
                f"{d.get('first_game')!r}, {d.get('n_games')!r} games; this chunk is games "
                f"{lo}..{hi - 1})")
    for key, want in bound.items():
        if d.get(key) != want:
            return (f"marker {marker} belongs to another run ({key} {d.get(key)!r}, "
                    f"this run's {want!r})")
    for name in data_files:
        want = d["files"].get(name)
        path = folder / name
        if not isinstance(want, dict):
            return f"marker {marker} does not list {name}"
        try:
            st = os.stat(path)
        except OSError:
            return f"{name} is missing"
        if not stat.S_ISREG(st.st_mode):
            return f"{name} is not a regular file"
        if st.st_size != want.get("bytes"):
            return (f"{name} has {st.st_size} bytes, its marker says {want.get('bytes')} "
                    "(truncated or replaced)")
        if checksums and file_sha256(path) != want.get("sha256"):
            return f"{name} does not match its marker's checksum (damaged or replaced)"
    return None


# the names a run writes; only its own temp files (with its tag) are ever swept
_OWN_NAME = (r"(manifest\.json|run\.lock|(games|players|chunk|agg)-\d{5,}\.(parquet|done|npz)"
             r"|aggregates\.npz|part-\d{5,}\.parquet)")


def clean_temps(folder: Path, tag: str, subfolders=()) -> None:
    """Remove the temporary files an interrupted writer of this run left:
    ``.NAME.<tag>.XXXX.tmp`` with NAME one of the run's own file names, in the
    folder and in its ``subfolders`` (the table folders). Any other file (a
    user's ``.notes.tmp``) is left alone; so is everything in a folder whose
    run has no tag (written before run ids)."""
    if not tag:
        return
    rx = re.compile(r"\." + _OWN_NAME + r"\." + re.escape(tag) + r"\.[A-Za-z0-9_]+" + re.escape(TMP_SUFFIX))
    for d in [folder] + [folder / s for s in subfolders]:
        if d.is_symlink() or not d.is_dir():
            continue
        with os.scandir(d) as it:
            names = [e.name for e in it if rx.fullmatch(e.name) and e.is_file(follow_symlinks=False)]
        for name in names:
            with contextlib.suppress(OSError):
                os.unlink(d / name)
