"""Files the library reads and writes: output complete or absent, input bounded.

``atomic_write(path, write)`` calls ``write(tmp)`` for a temporary file in the
same folder, flushes it to disk and renames it over ``path`` (``os.replace``
is atomic on one file system); on any failure the temporary file is removed.
The CLI, the report, the figures and the chunked runs all write through it.

``read_bytes`` / ``read_text`` / ``read_json`` read a file the user names (a
rules file, a manifest, a marker...): a regular file only (a FIFO, a device
such as ``/dev/zero``, a folder, or a symlink to one is refused before it is
read), at most ``limit`` bytes, UTF-8 decoded strictly. ``claim_folder``
checks an output folder before anything runs. docs/safety.md lists the rules.
"""
import contextlib
import errno
import json
import os
import stat
import tempfile
from pathlib import Path

from .errors import ConfigError

TMP_SUFFIX = ".tmp"
MB = 2**20


def publish(tmp, path) -> Path:
    """Give a finished temp file (written by the caller in ``path``'s folder)
    its final name: flushed to disk, the usual permissions, renamed atomically."""
    _fsync_path(tmp)
    os.chmod(tmp, 0o666 & ~_umask())
    rename_into_place(tmp, path)
    return Path(path)


def rename_into_place(tmp, path) -> None:
    """``os.replace(tmp, path)``, refusing (one ConfigError line) a folder in the
    file's place: a folder is never a file cargo_sim wrote, so it is not replaced."""
    try:
        if os.path.isdir(path) and not os.path.islink(path):
            raise IsADirectoryError(errno.EISDIR, "Is a directory", str(path))
        os.replace(tmp, path)
    except IsADirectoryError:
        raise ConfigError(f"cannot write {path}: a folder is in its place (cargo_sim replaces only "
                          f"files it wrote): move the folder away and run again") from None


def _fsync_path(path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    except OSError as e:                  # a file system without fsync: nothing to flush
        if e.errno not in (errno.EINVAL, errno.ENOTSUP, errno.EROFS):
            raise
    finally:
        os.close(fd)


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def atomic_write(path, write, suffix: str = TMP_SUFFIX, tag: str = "") -> Path:
    """Call ``write(tmp_path)`` for a temp file beside ``path`` (named
    ``.<name>.[<tag>.]<random><suffix>``, created exclusively), flush it to disk
    and rename it over ``path``: the file is either complete or absent, never
    half-written. A failure (a full disk: ENOSPC) removes the temp file and
    propagates."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    prefix = f".{path.name}." + (f"{tag}." if tag else "")
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=prefix, suffix=suffix)
    os.close(fd)
    try:
        write(tmp)
        _fsync_path(tmp)
        os.chmod(tmp, 0o666 & ~_umask())          # mkstemp makes 0600 files
        rename_into_place(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return path


def atomic_write_text(path, text: str, tag: str = "") -> Path:
    return atomic_write(path, lambda tmp: Path(tmp).write_text(text, encoding="utf-8"), tag=tag)


# ---------------------------------------------------------------------------
# reading files the user (or a folder on disk) hands us
def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def read_bytes(path, limit: int, what: str = "file", error=ConfigError) -> bytes:
    """The bytes of the regular file ``path`` (symlinks followed), at most
    ``limit`` bytes; anything else is ``error`` with one line. The file is
    opened non-blocking, so a FIFO with no writer cannot hang the open."""
    path = Path(path)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except FileNotFoundError:
        raise error(f"{what} {path} does not exist") from None
    except OSError as e:
        raise error(f"cannot read {what} {path}: {e.strerror}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise error(f"{what} {path} is {_kind(st.st_mode)}, not a regular file")
        if st.st_size > limit:
            raise error(f"{what} {path} is too large ({st.st_size:,} bytes; at most {limit:,})")
        chunks, n = [], 0
        while n <= limit:                          # a file growing while read stops at the cap
            b = os.read(fd, min(limit + 1 - n, MB))
            if not b:
                break
            chunks.append(b)
            n += len(b)
        if n > limit:
            raise error(f"{what} {path} is too large (over {limit:,} bytes)")
        return b"".join(chunks)
    except OSError as e:
        raise error(f"cannot read {what} {path}: {e.strerror or e}") from None
    finally:
        os.close(fd)


def decode_text(data: bytes, path, what: str = "file", error=ConfigError) -> str:
    """UTF-8 text (a leading BOM allowed); anything else one line naming the file."""
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        raise error(f"{what} {path} is UTF-16 text: save it as UTF-8")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise error(f"{what} {path} is not UTF-8 text (byte {e.start}): save it as UTF-8") from None


def read_text(path, limit: int, what: str = "file", error=ConfigError) -> str:
    """``read_bytes`` then ``decode_text``."""
    return decode_text(read_bytes(path, limit, what, error), path, what, error)


def read_json(path, limit: int, what: str = "file", error=ConfigError):
    """A JSON file (``read_text``); invalid or too deeply nested JSON is one line."""
    text = read_text(path, limit, what, error)
    try:
        return json.loads(text)
    except RecursionError:
        raise error(f"{what} {path} is nested too deeply to be a cargo_sim file") from None
    except ValueError as e:
        raise error(f"{what} {path} is not valid JSON ({e})") from None


# ---------------------------------------------------------------------------
# output folders
def is_temp_name(name: str) -> bool:
    """A name ``atomic_write`` gives its temporary files."""
    return name.startswith(".") and name.endswith(TMP_SUFFIX)


def claim_folder(path, what: str = "output", owned=None, option: str = "--out") -> tuple[Path, bool]:
    """Check an output folder before any work: it is created if missing; an
    existing one must be a folder that is empty, or one ``owned(folder)``
    recognises as this command's own earlier output; a file is never a folder.
    Writability is proven by creating (and removing) a probe file in it.
    Returns (folder, reused). Anything else is one ConfigError line."""
    folder = Path(path)
    if folder.is_symlink() and not folder.exists():
        raise ConfigError(f"{option} {folder} is a broken symlink")
    if folder.exists() and not folder.is_dir():
        raise ConfigError(f"{option} {folder} exists and is not a folder: give a new or empty folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with os.scandir(folder) as it:
            names = sorted(e.name for e in it)
    except OSError as e:
        raise ConfigError(f"cannot create or open {option} folder {folder}: "
                          f"{e.strerror or e}") from None
    reused = False
    names = [n for n in names if not is_temp_name(n)]     # a killed writer's leftovers: left alone
    if names:
        if owned is None or not owned(folder):
            shown = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
            raise ConfigError(f"{option} {folder} already holds files that are not a cargo_sim "
                              f"{what} ({shown}): give a new or empty folder")
        reused = True
    probe_writable(folder, option)
    return folder, reused


def probe_writable(folder: Path, option: str = "--out") -> None:
    """Create and remove a small file in ``folder``: a read-only or full file
    system, or a folder like /proc, fails here, before any game is played."""
    try:
        fd, probe = tempfile.mkstemp(dir=folder, prefix=".cargo_sim-probe.", suffix=TMP_SUFFIX)
        try:
            os.write(fd, b"cargo_sim write probe\n" * 64)
            try:
                os.fsync(fd)
            except OSError as e:
                if e.errno not in (errno.EINVAL, errno.ENOTSUP):
                    raise
        finally:
            os.close(fd)
            os.unlink(probe)
    except OSError as e:
        raise ConfigError(f"cannot write in {option} folder {folder}: {e.strerror or e}") from None


def own_output(names, record: str, is_ours, subfolders=None):
    """An ``owned`` test for ``claim_folder``: the folder is this command's own
    earlier output when every entry in it is one of ``names`` (or a temp file
    of ours), each subfolder in ``subfolders`` ({name: regex of its files})
    holds only such files, and the JSON file ``record`` reads as a dict for
    which ``is_ours(d)`` holds."""
    import re
    names, subfolders = set(names), dict(subfolders or {})

    def owned(folder: Path) -> bool:
        with os.scandir(folder) as it:
            entries = [(e.name, e.is_dir(follow_symlinks=False)) for e in it]
        for name, is_dir in entries:
            if name in subfolders and is_dir:
                rx = re.compile(subfolders[name])
                with os.scandir(folder / name) as it:
                    if any(not (rx.fullmatch(e.name) and e.is_file(follow_symlinks=False))
                           for e in it):
                        return False
            elif name not in names and not is_temp_name(name):
                return False
        try:
            d = read_json(folder / record, MB, "output record")
        except ConfigError:
            return False
        return isinstance(d, dict) and bool(is_ours(d))
    return owned


class Staged:
    """Several output files that appear together or not at all: each is written
    to a temp name in ``folder`` (``write(name, fn)``), and only when all are
    written are they renamed into place, in the order written (put the record,
    e.g. run.json, last). An exception inside the ``with`` block removes the
    temp files and leaves every final name as it was."""

    def __init__(self, folder):
        self.folder = Path(folder)
        self.temps = []

    def write(self, name: str, write) -> None:
        fd, tmp = tempfile.mkstemp(dir=self.folder, prefix=f".{name}.", suffix=TMP_SUFFIX)
        os.close(fd)
        self.temps.append((tmp, name))
        write(tmp)

    def __enter__(self) -> "Staged":
        return self

    def __exit__(self, kind, value, tb):
        try:
            if kind is None:
                for tmp, name in self.temps:
                    publish(tmp, self.folder / name)
        finally:
            for tmp, _ in self.temps:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)                # (gone already once published)


MAX_OWNED = 64 * MB     # a page of ours is far smaller; a bigger file is not ours


def check_owned(path, marker: str) -> None:
    """ConfigError unless ``path`` is free or a file whose first 4 KB hold
    ``marker`` (a file this library wrote, so it may be replaced)."""
    path = Path(path)
    if path.is_dir():
        raise ConfigError(f"{path} is a folder, not a file")
    if not (path.exists() or path.is_symlink()):
        return
    if path.is_symlink():
        raise ConfigError(f"{path} is a symbolic link: not overwritten (choose another name)")
    head = read_bytes(path, MAX_OWNED, "file").decode("utf-8", "replace")[:4096]
    if marker not in head:
        raise ConfigError(f"{path} exists and was not written by cargo-sim: "
                          f"not overwritten (remove it or choose another name)")


def atomic_write_owned(path, text: str, marker: str) -> Path:
    """``atomic_write_text``, but an existing ``path`` is replaced only when it
    is ours (``check_owned``); any other file is left alone with a ConfigError.
    ``text`` must hold ``marker`` in its first 4 KB."""
    if marker not in text[:4096]:
        raise ValueError("the text must carry its marker in its first 4 KB")
    check_owned(path, marker)
    return atomic_write_text(path, text)
