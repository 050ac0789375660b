"""The numba cache is per game: a game's folder is keyed by the core's compiled source
and its own package, so editing one game does not recompile another, and editing a
Python-only runner recompiles nothing (cargo_sim/core/cache.py; docs/safety.md)."""
import os
import subprocess
import sys
import time

from cargo_sim.core import cache as _cache

KERNEL = b"from ..core import cache  # noqa: F401\nfrom numba import njit\nfrom .consts import K\n"


def _tree():
    """The real package's sources plus a second game ``toy2`` with a kernel module, a
    constants module not named enums.py, and a Python-only module."""
    files = dict(_cache._sources())
    files["games/toy2/__init__.py"] = b""
    files["games/toy2/engine_nb.py"] = KERNEL.replace(b"..core", b"...core")
    files["games/toy2/consts.py"] = b"K = 3\n"
    files["games/toy2/game.py"] = b"from ...core import runner\n\n\ndef make():\n    return runner\n"
    return files


def _edit(files, rel):
    out = dict(files)
    out[rel] = files[rel] + b"\n# edited\n"
    return out


def test_editing_one_game_changes_its_key_only():
    files = _tree()
    base = _cache.unit_hashes(files)
    assert {"core", "cargo_noir", "toy2"} <= set(base)
    games = set(base) - {"core"}
    for rel, changed in [("games/toy2/consts.py", {"toy2"}),            # constants of any name
                         ("games/toy2/game.py", set()),                 # Python-only: nothing
                         ("games/cargo_noir/enums.py", {"cargo_noir"}),
                         ("games/cargo_noir/engine_nb.py", {"cargo_noir"}),
                         ("core/rng_nb.py", {"core"} | games),   # the core's kernels: every game
                         ("core/runner.py", set()),                      # Python-only: nothing
                         ("core/cache.py", set()),                       # places files, compiles nothing
                         ("core/bots.py", set()),
                         ("games/__init__.py", set())]:                  # the registry of games
        after = _cache.unit_hashes(_edit(files, rel))
        assert {u for u in base if after[u] != base[u]} == changed, rel
        assert (_cache.source_hash(after) != _cache.source_hash(base)) == bool(changed), rel


def test_a_games_compiled_source_is_its_kernels_and_what_they_import():
    files = _tree()
    assert _cache._compiled(files, "toy2") == ["games/toy2/consts.py", "games/toy2/engine_nb.py"]
    mine = _cache._compiled(files, "cargo_noir")
    assert "games/cargo_noir/engine_nb.py" in mine and "games/cargo_noir/enums.py" in mine
    assert "games/cargo_noir/game.py" not in mine and not any(r.startswith("core/") for r in mine)
    assert not any(r.startswith("games/cargo_noir/") for r in _cache._compiled(files, "macao"))


def test_a_core_module_a_kernel_imports_is_compiled_source():
    """A core constants module (no numba) read by a game's kernel is part of the key."""
    files = _tree()
    files["core/layout.py"] = b"SLOT = 7\n"
    files["games/toy2/engine_nb.py"] += b"from ...core.layout import SLOT\n"
    base = _cache.unit_hashes(files)
    after = _cache.unit_hashes(_edit(files, "core/layout.py"))
    assert all(after[u] != base[u] for u in base)
    assert "core/layout.py" in _cache._core_compiled(files)
    assert "core/runner.py" not in _cache._core_compiled(files)


def test_a_core_module_a_games_constants_module_imports_is_compiled_source():
    """The state layout in the core, re-exported by a game's constants module (no def or
    class) that the kernels read: editing it recompiles the game."""
    files = _tree()
    files["core/layout.py"] = b"SLOT = 7\n"
    files["games/toy2/consts.py"] = b"from ...core.layout import SLOT  # noqa: F401\nK = 3\n"
    base = _cache.unit_hashes(files)
    after = _cache.unit_hashes(_edit(files, "core/layout.py"))
    assert after["toy2"] != base["toy2"]


def test_kernels_go_to_their_units_folder():
    assert _cache.unit_of("games/cargo_noir/bots/random_nb.py") == "cargo_noir"
    assert _cache.unit_of("core/rng_nb.py") == "core"
    assert _cache.unit_folder_name("cargo_noir") == f"cargo_noir-{_cache.HASHES['cargo_noir']}{_cache.opt_tag()}"
    import cargo_sim.games.cargo_noir.chunk_nb as eng
    import cargo_sim.core.rng_nb as rng
    path = lambda f: f._cache._cache_path            # noqa: E731
    assert os.path.basename(os.path.dirname(path(eng.run_games_nb))) == _cache.unit_folder_name("cargo_noir")
    assert os.path.basename(os.path.dirname(path(rng.game_seed_nb))) == _cache.unit_folder_name("core")


def test_prune_keeps_recent_versions_of_each_unit(tmp_path):
    def version(name, age):
        d = tmp_path / name
        d.mkdir()
        (d / _cache.MARKER).write_text(_cache.marker_text(name))
        t = time.time() - age
        os.utime(d / _cache.MARKER, (t, t))
        return d
    games = [version(f"cargo_noir-{i:016x}", 100 * (i + 1)) for i in range(5)]
    cores = [version(f"core-{i:016x}", 10 * (i + 1)) for i in range(2)]
    _cache.prune(tmp_path, keep={"cargo_noir-ffffffffffffffff"}, n_keep=3)
    assert [d.exists() for d in games] == [True, True, False, False, False]
    assert all(d.exists() for d in cores)          # another unit's versions are not counted


def test_another_optimisation_level_has_its_own_folders():
    """numba's cache index ignores NUMBA_OPT: kernels compiled at level 1 (the test
    suite's) must never be what a default process loads."""
    code = ("from cargo_sim.core import cache as c; "
            "print(c.opt_tag(), c.unit_folder_name('core'), c.outside_folder_name())")
    out = {}
    for level in ("1", "3", "max"):
        env = dict(os.environ, NUMBA_OPT=level)
        r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                           timeout=120)
        assert r.returncode == 0, r.stderr[-1000:]
        out[level] = r.stdout.split()
    assert len(out["3"]) == 2                               # no tag at the default level
    assert out["1"][-2:] == [n + "o1" for n in out["3"][-2:]]
    assert out["max"][-2:] == [n + "omax" for n in out["3"][-2:]]
    assert out["1"][-2].rpartition("-")[0] == "core"        # pruning still sees the unit
