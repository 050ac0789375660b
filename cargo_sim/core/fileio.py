"""Output files are written completely or not at all.

``atomic_write(path, write)`` calls ``write(tmp)`` for a temporary file in the
same folder, flushes it to disk and renames it over ``path`` (``os.replace``
is atomic on one file system); on any failure the temporary file is removed.
The CLI, the report, the figures and the chunked runs all write through it.
"""
import contextlib
import os
import tempfile
from pathlib import Path

from .errors import ConfigError


def _fsync_path(path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def atomic_write(path, write, suffix: str = ".tmp") -> Path:
    """Call ``write(tmp_path)`` for a temp file beside ``path`` (named
    ``.<name>.<random><suffix>``), then rename it over ``path``: the file is
    either complete or absent, never half-written."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=suffix)
    os.close(fd)
    try:
        write(tmp)
        _fsync_path(tmp)
        os.chmod(tmp, 0o666 & ~_umask())          # mkstemp makes 0600 files
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return path


def atomic_write_text(path, text: str) -> Path:
    return atomic_write(path, lambda tmp: Path(tmp).write_text(text, encoding="utf-8"))


def check_owned(path, marker: str) -> None:
    """ConfigError unless ``path`` is free or a file whose first 4 KB hold
    ``marker`` (a file this library wrote, so it may be replaced)."""
    path = Path(path)
    if path.is_dir():
        raise ConfigError(f"{path} is a folder, not a file")
    if not (path.exists() or path.is_symlink()):
        return
    try:
        with open(path, "rb") as f:
            head = f.read(4096).decode("utf-8", "replace")
    except OSError as exc:
        raise ConfigError(f"cannot read {path} to check it is ours: {exc.strerror}") from None
    if path.is_symlink() or marker not in head:
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
