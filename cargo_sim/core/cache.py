"""Where numba keeps compiled kernels, keyed by the library's source.

numba's on-disk cache does not notice when a function's callees or the
module-level constants it froze (the state layout in ``enums``) change in
another file, and then runs stale machine code. So every distinct version of
cargo_sim's source gets its own folder, ``<root>/cargo_sim-cache/<source hash>``,
holding a marker file that names cargo_sim and the version. Pruning old
versions only ever deletes folders carrying that marker: the library never
removes what it did not create. See docs/safety.md.
"""
import atexit
import hashlib
import os
import shutil
import stat
import sys
import tempfile
from pathlib import Path

_PKG = Path(__file__).resolve().parent.parent     # the cargo_sim package (this file is in core/)
SUBFOLDER = "cargo_sim-cache"
MARKER = "CARGO_SIM_CACHE"


def source_hash() -> str:
    """Hash of the source that compiled code can depend on: every module that
    uses numba, and the enums and the core header's layout (constants frozen
    into kernels)."""
    h = hashlib.sha256()
    for path in sorted(_PKG.rglob("*.py")):
        text = path.read_bytes()
        if b"numba" in text or path.name in ("enums.py", "layout.py"):
            h.update(str(path.relative_to(_PKG)).encode())
            h.update(text)
    return h.hexdigest()[:16]


def marker_text(version: str) -> str:
    return f"cargo_sim numba cache, source version {version}\n"


def _writable(path: Path) -> bool:
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = path / f".probe-{os.getpid()}"
        probe.write_text("")
        probe.unlink()
        return True
    except OSError:
        return False


def private_dir(path: Path) -> bool:
    """Create ``path`` as a folder only this user can enter (0700), or check
    that the existing one is exactly that: a real folder (no symlink), owned
    by this user, closed to group and others. numba's cache index is pickled,
    so a folder others can write to would let them plant code."""
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass
    except OSError:
        return False
    try:
        st = os.lstat(path)
    except OSError:
        return False
    return (stat.S_ISDIR(st.st_mode) and st.st_uid == os.getuid()
            and stat.S_IMODE(st.st_mode) & 0o077 == 0)


def cache_root(environ=os.environ) -> Path | None:
    """The root the cache folder goes under: $NUMBA_CACHE_DIR (or
    $CARGO_SIM_CACHE_ROOT) if set, else $XDG_CACHE_HOME or ~/.cache when
    writable, else a private per-user folder in the temporary directory.
    None when even that is unsafe (caching is then off for this process)."""
    root = environ.get("NUMBA_CACHE_DIR") or environ.get("CARGO_SIM_CACHE_ROOT")
    if root:
        return Path(root)
    home = Path(environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    if _writable(home / SUBFOLDER):
        return home
    private = Path(tempfile.gettempdir()) / f"cargo_sim-{os.getuid()}"
    return private if private_dir(private) else None


def cache_folder(environ=os.environ) -> Path:
    """This source version's cache folder, created and marked."""
    version = source_hash()
    root = cache_root(environ)
    folder = root / SUBFOLDER / version if root is not None else None
    if folder is None or not _writable(folder):
        where = root if root is not None else Path(tempfile.gettempdir()) / f"cargo_sim-{os.getuid()}"
        print(f"cargo_sim: warning: no safe cache folder ({where} is not a private writable "
              "folder); compiling without a persistent cache", file=sys.stderr)
        folder = Path(tempfile.mkdtemp(prefix="cargo_sim-nocache-"))  # 0700, unguessable
        atexit.register(shutil.rmtree, folder, True)
        return folder
    marker = folder / MARKER
    try:
        marker.write_text(marker_text(version))  # also marks the folder recently used
    except OSError:
        pass
    return folder


COMPILE_NOTICE = ("cargo_sim: compiling the engine for this version "
                  "(about 1-2 minutes, once; later imports load it from {folder})")


def announce_first_compile(folder: Path, stream=None) -> bool:
    """Print one line to stderr when ``folder`` holds no compiled kernel yet
    (numba's ``*.nbi`` index files): the import is about to compile everything,
    which would otherwise look like a hang. Returns whether it printed."""
    try:
        cold = not any(folder.rglob("*.nbi"))
    except OSError:
        cold = True
    if cold:
        print(COMPILE_NOTICE.format(folder=folder), file=stream or sys.stderr, flush=True)
    return cold


def package_locator(folder: Path):
    """A numba cache locator for this package's kernels: the cache path is the
    version folder plus the module's folder *relative to the package*, and the
    source stamp is the file's content hash. numba's own locator keys the path
    by the source's absolute path, so a second environment (a new venv, another
    checkout) of the same version compiled everything again; with this one all
    installs of a version share one cache (the version folder is a hash of the
    whole numba source, so sharing is safe)."""
    from numba.core import caching

    class PackageLocator(caching._CacheLocator):
        def __init__(self, py_func, py_file):
            self._py_file = py_file
            self._lineno = py_func.__code__.co_firstlineno
            rel = Path(py_file).resolve().parent.relative_to(_PKG)
            self._cache_path = str(folder / ("cargo_sim_" + "_".join(rel.parts)))

        def get_cache_path(self):
            return self._cache_path

        def get_source_stamp(self):
            return hashlib.sha256(Path(self._py_file).read_bytes()).hexdigest()

        def get_disambiguator(self):
            return str(self._lineno)

        @classmethod
        def from_function(cls, py_func, py_file):
            try:
                Path(py_file).resolve().relative_to(_PKG)
            except (ValueError, OSError):
                return None                    # not ours: numba's own locators
            self = cls(py_func, py_file)
            try:
                self.ensure_cache_path()
            except OSError:
                return None
            return self

    return PackageLocator


def configure_numba_cache() -> Path:
    """Point numba's cache at this source version's folder (before any kernel
    module decorates a function: each kernel module imports this one first).
    Returns the folder."""
    import numba
    folder = cache_folder()
    numba.config.CACHE_DIR = str(folder)
    from numba.core import caching           # numba internals: else its own locators
    impl = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl", None)
    classes = getattr(impl, "_locator_classes", None)
    if isinstance(classes, list) and hasattr(caching, "_CacheLocator") and not any(
            getattr(c, "__name__", "") == "PackageLocator" for c in classes):
        classes.insert(0, package_locator(folder))
    if folder.parent.name == SUBFOLDER:      # a persistent cache (not the no-cache fallback)
        announce_first_compile(folder)
        prune(folder.parent, keep=folder.name)
    return folder


def _ours(p: Path) -> bool:
    """A version folder this library created: a real folder whose marker names it."""
    try:
        return (not p.is_symlink() and p.is_dir()
                and (p / MARKER).read_text() == marker_text(p.name))
    except (OSError, UnicodeDecodeError):
        return False


def prune(base: Path, keep: str, n_keep: int = 4) -> None:
    """Remove all but the n_keep most recently used source versions' folders,
    only among folders carrying this library's marker."""
    try:
        olds = sorted((p for p in base.iterdir() if p.name != keep and _ours(p)),
                      key=lambda p: (p / MARKER).stat().st_mtime, reverse=True)
        for p in olds[n_keep - 1:]:
            shutil.rmtree(p, ignore_errors=True)
    except OSError:
        pass


CACHE_DIR = configure_numba_cache()
