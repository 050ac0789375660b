"""Run folders: the manifest, the writer's lock and the chunk markers.

A run folder (``cargo_sim.runs``) holds ``manifest.json``, per-chunk data files
and one marker per finished chunk. A marker records the chunk's game range, the
run seed and the size and SHA-256 of each of its files; a chunk counts as done
only when its marker matches its files, so a truncated, damaged or swapped file
is never read as data. ``run.lock`` (pid, host) keeps a second writer out.
docs/runs.md describes the format.
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import socket
import time
from pathlib import Path

from .core.errors import ConfigError
from .core.checks import whole
from .core.fileio import atomic_write

MANIFEST = "manifest.json"
LOCK = "run.lock"
TMP_SUFFIX = ".tmp"
MAX_SEED = 2**64 - 1


def atomic_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically (temp names end in TMP_SUFFIX)."""
    atomic_write(path, lambda tmp: Path(tmp).write_text(text, encoding="utf-8"), suffix=TMP_SUFFIX)


# ---------------------------------------------------------------------------
# manifest
def _whole(v, lo, hi=None) -> bool:
    return whole(v, numpy=False) and v >= lo and (hi is None or v <= hi)


def read_manifest(folder: Path, fmt: str | None = None) -> dict:
    """The folder's manifest, checked field by field (a crafted or damaged one
    is a ConfigError naming the field, never a TypeError later)."""
    try:
        m = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"{folder} is not a cargo_sim run folder (no {MANIFEST})") from None
    except (OSError, ValueError, RecursionError) as e:
        raise ConfigError(f"cannot read {folder / MANIFEST}: {e}") from None
    bad = _manifest_problem(m)
    if bad:
        raise ConfigError(f"{folder / MANIFEST} is damaged or not a cargo_sim manifest: {bad}")
    if fmt is not None and m["format"] != fmt:
        raise ConfigError(f"{folder} holds a run of another kind ({m['format']}), not {fmt}")
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
    with contextlib.suppress(OSError, ValueError):
        d = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(d, dict) and _whole(d.get("pid"), 1) and isinstance(d.get("host"), str):
            return d
    return None


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
        tmp = self.path.with_name(f".{LOCK}.{os.getpid()}{TMP_SUFFIX}")
        try:
            tmp.write_text(text, encoding="utf-8")
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


# ---------------------------------------------------------------------------
# chunk markers
def file_sha256(path: Path) -> str:
    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def write_marker(folder: Path, marker: str, k: int, lo: int, hi: int, seed: int,
                 data_files) -> None:
    """The marker of chunk ``k`` (games lo..hi-1 of the run seed ``seed``),
    written after its data files, with their sizes and checksums."""
    files = {name: {"bytes": (folder / name).stat().st_size, "sha256": file_sha256(folder / name)}
             for name in data_files}
    atomic_text(folder / marker, json.dumps({"chunk": k, "first_game": lo, "n_games": hi - lo,
                                             "seed": seed, "files": files}) + "\n")


def marked_chunks(folder: Path, pattern: str, n_chunks: int) -> list[int]:
    """Chunk numbers < n_chunks that have a marker named like ``pattern``
    (a regex with one group for the number), from one listing of the folder:
    a manifest claiming 10^12 chunks costs nothing."""
    rx = re.compile(pattern)
    out = []
    with os.scandir(folder) as it:
        for e in it:
            m = rx.fullmatch(e.name)
            if m and int(m.group(1)) < n_chunks:
                out.append(int(m.group(1)))
    return sorted(out)


def marker_problem(folder: Path, marker: str, k: int, lo: int, hi: int, seed: int,
                   data_files, checksums: bool = True) -> str | None:
    """Why chunk ``k``'s marker does not vouch for its files (None if it does)."""
    try:
        d = json.loads((folder / marker).read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        return f"marker {marker} unreadable ({e.__class__.__name__})"
    if not isinstance(d, dict) or not isinstance(d.get("files"), dict):
        return f"marker {marker} has no checksums (damaged, or written by an older cargo_sim)"
    if (d.get("chunk"), d.get("first_game"), d.get("n_games"), d.get("seed")) != (k, lo, hi - lo, seed):
        return (f"marker {marker} is for another chunk or run (chunk {d.get('chunk')}, first game "
                f"{d.get('first_game')}, seed {d.get('seed')})")
    for name in data_files:
        want = d["files"].get(name)
        path = folder / name
        if not isinstance(want, dict):
            return f"marker {marker} does not list {name}"
        try:
            size = path.stat().st_size
        except OSError:
            return f"{name} is missing"
        if size != want.get("bytes"):
            return f"{name} has {size} bytes, its marker says {want.get('bytes')} (truncated or replaced)"
        if checksums and file_sha256(path) != want.get("sha256"):
            return f"{name} does not match its marker's checksum (damaged or replaced)"
    return None


def clean_temps(folder: Path) -> None:
    for p in folder.glob(f".*{TMP_SUFFIX}"):
        with contextlib.suppress(OSError):
            p.unlink()
