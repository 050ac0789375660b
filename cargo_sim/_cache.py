"""Where numba keeps compiled kernels, keyed by the library's source.

numba's on-disk cache does not notice when a function's callees or the
module-level constants it froze (the state layout in ``enums``) change in
another file, and then runs stale machine code. So every distinct version of
cargo_sim's source gets its own cache folder: ``<root>/<source hash>``. The
root is $NUMBA_CACHE_DIR if set, else $XDG_CACHE_HOME/cargo_sim (~/.cache),
else a temporary folder when that is not writable.
"""
import hashlib
import os
import tempfile
from pathlib import Path

_PKG = Path(__file__).resolve().parent


def source_hash() -> str:
    """Hash of the source that compiled code can depend on: every module that
    uses numba, and the enums (constants frozen into kernels)."""
    h = hashlib.sha256()
    for path in sorted(_PKG.rglob("*.py")):
        text = path.read_bytes()
        if b"numba" in text or path.name == "enums.py":
            h.update(str(path.relative_to(_PKG)).encode())
            h.update(text)
    return h.hexdigest()[:16]


def _writable(path: Path) -> bool:
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = path / f".probe-{os.getpid()}"
        probe.write_text("")
        probe.unlink()
        return True
    except OSError:
        return False


def configure_numba_cache() -> Path:
    """Point numba's cache at this source version's folder (call before any
    kernel module is imported). Returns the folder."""
    import numba
    root = os.environ.get("NUMBA_CACHE_DIR") or os.environ.get("CARGO_SIM_CACHE_ROOT")
    if root:
        base = Path(root)
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "cargo_sim"
    folder = base / source_hash()
    if not _writable(folder):
        folder = Path(tempfile.gettempdir()) / "cargo_sim_numba" / source_hash()
        folder.mkdir(parents=True, exist_ok=True)
    numba.config.CACHE_DIR = str(folder)
    _prune(folder.parent, keep=folder.name)
    return folder


def _prune(base: Path, keep: str, n_keep: int = 4) -> None:
    """Remove all but the n_keep most recently used source versions' folders."""
    import shutil
    try:
        olds = sorted((p for p in base.iterdir() if p.is_dir() and p.name != keep
                       and len(p.name) == 16), key=lambda p: p.stat().st_mtime, reverse=True)
        for p in olds[n_keep - 1:]:
            shutil.rmtree(p, ignore_errors=True)
    except OSError:
        pass


CACHE_DIR = configure_numba_cache()
