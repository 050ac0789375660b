"""Where numba keeps compiled kernels: one folder per game, keyed by that game's source.

numba's on-disk cache does not notice when a function's callees or the
module-level constants it froze (the state layout in ``enums``) change in
another file, and then runs stale machine code. So every distinct version of
the compiled source gets its own folder under ``<root>/cargo_sim-cache/``,
one per *unit* (docs/safety.md, "The compiled-code cache"):

* ``core-<hash>``: the core's kernels (``core/*_nb.py``); the hash covers the core
  modules that define kernels or that a kernel module or a constants module (no
  top-level def/class) imports, then what those import within the core: not the
  Python-only runners (``runner.py``, ``bots.py``, ...);
* ``<game>-<hash>``: a game's kernels (``games/<game>/``); the hash covers the core's
  compiled source and the game's compiled source, found the same way within its
  package (kernel modules, constants modules of any name, what they import there),
  and nothing of another game: editing one game recompiles that game only, and
  editing its Python-only modules (analyses, figures, runners) recompiles nothing;
* ``<hash>``: code outside the package (user bots), keyed by everything compiled.

Each folder holds a marker file that names cargo_sim and the folder. Pruning old
versions only ever deletes folders carrying that marker: the library never
removes what it did not create.
"""
import atexit
import hashlib
import os
import re
import shutil
import stat
import sys
import tempfile
from pathlib import Path

# Every kernel module imports this one first, so it also sets what numba's OpenMP thread
# pool reads once, when it starts: idle workers sleep instead of spinning. Spinning (the
# OpenMP default) made a root-parallel search's finished tree burn the core its sibling
# needed on a shared machine (docs/forward.md, "Cut playouts"); a user's own value is kept.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

_PKG = Path(__file__).resolve().parent.parent     # the cargo_sim package (this file is in core/)
SUBFOLDER = "cargo_sim-cache"
MARKER = "CARGO_SIM_CACHE"
CORE = "core"
THIS = "core/cache.py"

# a module that defines kernels imports this one first (tests/core/test_startup.py checks it)
_KERNEL_MARK = re.compile(rb"^from (\.+|\.*core|cargo_sim\.core) import cache\b", re.M)
_FROM = re.compile(rb"^[ \t]*from[ \t]+([.\w]+)[ \t]+import[ \t]+(\([^)]*\)|[^\n#]*)", re.M)
_IMPORT = re.compile(rb"^[ \t]*import[ \t]+([\w.]+)", re.M)
_DEFS = re.compile(rb"^(async def|def|class) ", re.M)
# a top-level call statement (``REGISTRY.register_builtin(...)``): Python run time, so a
# module with one is not a constants module even without a def (a bot registry)
_CALLS = re.compile(rb"^[A-Za-z_][\w.]*\(", re.M)


def unit_of(rel: str) -> str:
    """The cache unit of a file (posix path below the package): its game, else the core."""
    parts = rel.split("/")
    return parts[1] if len(parts) > 2 and parts[0] == "games" else CORE


def _sources() -> dict:
    """Posix path below the package -> bytes, for every .py of the package."""
    return {p.relative_to(_PKG).as_posix(): p.read_bytes() for p in sorted(_PKG.rglob("*.py"))
            if "__pycache__" not in p.parts}


def _module_file(parts, files):
    """The file (posix path below the package) of the longest prefix of a dotted name
    (``parts``, below the package) that is a module of the package, or None."""
    for k in range(len(parts), 0, -1):
        stem = "/".join(parts[:k])
        for cand in (stem + ".py", stem + "/__init__.py"):
            if cand in files:
                return cand
    return None


def _core_imports(rel: str, text: bytes, files, unit: str = CORE) -> set:
    """The files of ``unit`` (the core, or a game) a module imports (``from``/``import``
    lines, relative ones resolved; a regular expression, not ``ast``: this runs at
    every import)."""
    pkg = rel.split("/")[:-1]
    out = set()
    for m in _FROM.finditer(text):
        mod = m.group(1).decode()
        if mod.startswith("."):
            level = len(mod) - len(mod.lstrip("."))
            parts = pkg[:len(pkg) - (level - 1)] if level > 1 else list(pkg)
            parts += [p for p in mod.lstrip(".").split(".") if p]
        elif mod.startswith("cargo_sim."):
            parts = mod.split(".")[1:]
        else:
            continue
        names = [n.split()[0] for n in m.group(2).decode().strip("()").replace("\n", " ").split(",")
                 if n.strip() and n.strip() != "*"]
        for n in names:
            stem = "/".join(parts + [n])
            sub = [c for c in (stem + ".py", stem + "/__init__.py") if c in files]
            f = sub[0] if sub else _module_file(parts, files)     # a submodule, else the module
            if f is not None and unit_of(f) == unit:
                out.add(f)
    for m in _IMPORT.finditer(text):
        parts = m.group(1).decode().split(".")
        if parts[0] == "cargo_sim":
            f = _module_file(parts[1:], files)
            if f is not None and unit_of(f) == unit:
                out.add(f)
    return out


def _compiled(files: dict, unit: str = CORE) -> list:
    """A unit's compiled source: its modules that define kernels, and the modules of
    the unit that a kernel module or a constants module (no top-level ``def``/``class``
    or call statement:
    e.g. a game's ``enums.py`` re-exporting the core's state layout) imports, then
    what those import within the unit; sorted. For a game, only its own kernel
    modules count (what they read of the core is in the core's hash)."""
    kernels = [r for r, t in files.items() if _KERNEL_MARK.search(t)]
    readers = kernels + [r for r, t in files.items()
                         if not _DEFS.search(t) and not _CALLS.search(t)
                         and not r.endswith(("__init__.py", "__main__.py"))]
    if unit != CORE:
        readers = [r for r in kernels if unit_of(r) == unit]
    todo = [r for r in kernels if unit_of(r) == unit]
    for k in readers:
        todo += _core_imports(k, files[k], files, unit)
    seen = set()
    while todo:
        r = todo.pop()
        if r not in seen and unit_of(r) == unit:
            seen.add(r)
            todo += _core_imports(r, files[r], files, unit)
    return sorted(seen - {THIS})            # this module only places the files: no kernel reads it


def _core_compiled(files: dict) -> list:
    return _compiled(files, CORE)


def _digest(items) -> str:
    h = hashlib.sha256()
    for rel, text in items:
        h.update(str(rel).encode() + b"\0")
        h.update(text)
    return h.hexdigest()[:16]


def unit_hashes(files: dict | None = None) -> dict:
    """Cache unit -> hash of its compiled source: ``"core"`` and every game package
    (``games/<name>/``, by folder name). A game's hash covers the core's compiled
    source and its own compiled source, nothing else."""
    files = _sources() if files is None else files
    core = _digest((r, files[r]) for r in _core_compiled(files))
    out = {CORE: core}
    games = sorted({unit_of(r) for r in files} - {CORE})
    for g in games:
        out[g] = _digest([("core", core.encode())] + [(r, files[r]) for r in _compiled(files, g)])
    return out


def opt_tag() -> str:
    """numba's optimisation level, in the folder names when it is not the default (3):
    numba's own cache index ignores the level, so kernels compiled at another one
    (``NUMBA_OPT``; the test suite uses 1) would otherwise be loaded, slower, by
    every later process at the default level."""
    from numba.core import config
    opt = config.OPT
    if getattr(opt, "is_opt_max", False):
        return "omax"
    return "" if int(opt) == 3 else f"o{int(opt)}"


def unit_folder_name(unit: str, hashes: dict | None = None) -> str:
    return f"{unit}-{(hashes or HASHES)[unit]}{opt_tag()}"


def outside_folder_name(hashes: dict | None = None) -> str:
    """The folder of code outside the package (user bots)."""
    return source_hash(hashes) + opt_tag()


def source_hash(hashes: dict | None = None) -> str:
    """Hash of everything compiled (the core and every game): the folder of code
    outside the package (user bots, which inline a game's kit), and the
    ``engine_source`` of run folders."""
    hashes = HASHES if hashes is None else hashes
    return _digest([(k, v.encode()) for k, v in sorted(hashes.items())])


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


def cache_folder(environ=os.environ, unit: str | None = None) -> Path:
    """A cache folder, created and marked: the folder of ``unit`` (``"core"`` or a game)
    for this version of its source, or (None) the folder of code outside the package."""
    version = outside_folder_name() if unit is None else unit_folder_name(unit)
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
_ANNOUNCED = []                 # the notice is printed at most once per process


def announce_first_compile(folder: Path, stream=None) -> bool:
    """Print one line to stderr when ``folder`` holds no compiled kernel yet
    (numba's ``*.nbi`` index files): the import is about to compile everything,
    which would otherwise look like a hang. Returns whether it printed."""
    try:
        cold = not any(folder.rglob("*.nbi"))
    except OSError:
        cold = True
    if cold:
        _said(stream, COMPILE_NOTICE.format(folder=folder))
    return cold


SLOW_COMPILE_NOTICE = ("cargo_sim: compiling {what} for this version (once: later runs load it "
                       "from the cache in {folder})")
NOTICE_AFTER = 3.0               # seconds a compile runs before it is announced
_QUIET_AFTER_NOTICE = 120.0      # no second notice within this many seconds of one
_LAST_NOTICE = [float("-inf")]


def _said(stream=None, text: str = "") -> None:
    import time
    _LAST_NOTICE[0] = time.monotonic()
    if text:
        print(text, file=stream or sys.stderr, flush=True)


class CompileNotice:
    """Says on stderr when a compilation runs longer than ``after`` seconds (numba's
    ``numba:compile`` events fire only when a kernel is not in the cache): whatever
    the cache held before (a new bot, a new signature, another environment), a
    compile of minutes never looks like a hang. Outermost compiles only; at most
    one line per ``_QUIET_AFTER_NOTICE`` seconds."""

    def __init__(self, folder, after: float = NOTICE_AFTER, stream=None):
        import threading
        self.folder, self.after, self.stream = folder, after, stream
        self.depth, self.timer, self.lock = 0, None, threading.Lock()

    def on_start(self, event):
        import threading
        with self.lock:
            self.depth += 1
            if self.depth == 1:
                disp = (event.data or {}).get("dispatcher")
                what = getattr(getattr(disp, "py_func", None), "__qualname__", "the kernels")
                self.timer = threading.Timer(self.after, self.say, args=(what,))
                self.timer.daemon = True
                self.timer.start()

    def on_end(self, event):
        with self.lock:
            self.depth = max(0, self.depth - 1)
            if self.depth == 0 and self.timer is not None:
                self.timer.cancel()
                self.timer = None

    def say(self, what: str) -> None:
        import time
        if time.monotonic() - _LAST_NOTICE[0] < _QUIET_AFTER_NOTICE:
            return
        _said(self.stream, SLOW_COMPILE_NOTICE.format(what=what, folder=self.folder))


def install_compile_notice(folder, after: float = NOTICE_AFTER, stream=None):
    """Register a ``CompileNotice`` with numba (once per process unless ``stream`` is
    given: tests); returns it."""
    from numba.core import event
    listener = type("CompileNoticeListener", (CompileNotice, event.Listener), {})(folder, after, stream)
    if stream is None:
        if _NOTICE:
            return _NOTICE[0]
        _NOTICE.append(listener)
    event.register("numba:compile", listener)
    return listener


_NOTICE: list = []


def unit_folder(unit: str) -> Path:
    """The folder of a unit's kernels (created and marked on first use in this process);
    the first cold one (no compiled kernel yet) prints the compile notice."""
    folder = _UNIT_FOLDERS.get(unit)
    if folder is None:
        if CACHE_DIR.parent.name == SUBFOLDER:          # a persistent cache
            folder = cache_folder(unit=unit) if unit in HASHES else CACHE_DIR
            if not _ANNOUNCED and folder.parent.name == SUBFOLDER and announce_first_compile(folder):
                _ANNOUNCED.append(unit)
        else:                                             # no safe cache: the process's temp folder
            folder = CACHE_DIR / unit
        _UNIT_FOLDERS[unit] = folder
    return folder


_UNIT_FOLDERS: dict = {}


def package_locator(folder=None):
    """A numba cache locator for this package's kernels: the cache path is the
    folder of the kernel's unit (``unit_folder``: the core or its game, keyed by
    that unit's source) plus the module's folder *relative to the package*, and
    the source stamp is the file's content hash. numba's own locator keys the
    path by the source's absolute path, so a second environment (a new venv,
    another checkout) of the same version compiled everything again; with this
    one all installs of a version share one cache (a unit's folder is a hash of
    its whole compiled source, so sharing is safe). ``folder``: one folder for
    every unit instead (tests)."""
    from numba.core import caching

    class PackageLocator(caching._CacheLocator):
        def __init__(self, py_func, py_file):
            self._py_file = py_file
            self._lineno = py_func.__code__.co_firstlineno
            rel = Path(py_file).resolve().parent.relative_to(_PKG)
            base = folder if folder is not None else unit_folder(unit_of((rel / "x.py").as_posix()))
            self._cache_path = str(base / ("cargo_sim_" + "_".join(rel.parts)))

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
    """Point numba's cache at this source version's folders (before any kernel
    module decorates a function: each kernel module imports this one first):
    the package's kernels go to their unit's folder (``package_locator``), code
    outside the package to the returned folder (``numba.config.CACHE_DIR``)."""
    import numba
    folder = cache_folder()
    numba.config.CACHE_DIR = str(folder)
    from numba.core import caching           # numba internals: else its own locators
    impl = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl", None)
    classes = getattr(impl, "_locator_classes", None)
    if isinstance(classes, list) and hasattr(caching, "_CacheLocator") and not any(
            getattr(c, "__name__", "") == "PackageLocator" for c in classes):
        classes.insert(0, package_locator())
    if folder.parent.name == SUBFOLDER:      # a persistent cache (not the no-cache fallback)
        prune(folder.parent, keep={folder.name} | {unit_folder_name(u) for u in HASHES})
    install_compile_notice(folder.parent)
    return folder


def _ours(p: Path) -> bool:
    """A version folder this library created: a real folder whose marker names it."""
    try:
        return (not p.is_symlink() and p.is_dir()
                and (p / MARKER).read_text() == marker_text(p.name))
    except (OSError, UnicodeDecodeError):
        return False


def _unit_of_folder(name: str) -> str:
    """``<game>-<hash>`` -> ``<game>``; ``<hash>`` (code outside the package, and
    the single folder of versions before per-game caches) -> ``""``."""
    return name.rpartition("-")[0]


def prune(base: Path, keep, n_keep: int = 4) -> None:
    """Per unit (the core, each game, code outside the package), remove all but the
    n_keep most recently used source versions' folders, only among folders carrying
    this library's marker. ``keep``: the current folders' names (one name or a set)."""
    keep = {keep} if isinstance(keep, str) else set(keep)
    try:
        olds = sorted((p for p in base.iterdir() if p.name not in keep and _ours(p)),
                      key=lambda p: (p / MARKER).stat().st_mtime, reverse=True)
        seen: dict = {}
        for p in olds:
            unit = _unit_of_folder(p.name)
            seen[unit] = seen.get(unit, 0) + 1
            if seen[unit] > n_keep - 1:
                shutil.rmtree(p, ignore_errors=True)
    except OSError:
        pass


HASHES = unit_hashes()
CACHE_DIR = configure_numba_cache()
