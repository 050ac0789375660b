"""The layering rules, read from the source (ast; nothing is imported or compiled).

* no ``cargo_sim`` module imports ``analyses`` (the library never imports its consumer),
  except the CLI, the top layer, whose ``report``/``robustness``/``ladder`` commands run them,
  and a game's report modules (its ``analyses``, ``report``, ``figures``), which build on
  what every game's report shares (the analyses load them by the Game object's names);
* a game package imports only ``core``, itself, the catalogue and (its report modules)
  the shared ``analyses``: never another game, the runners or the CLI;
* ``cargo_sim.core`` imports nothing of cargo_sim outside ``core`` (it knows no game) but
  the catalogue of built-in games ``cargo_sim.games`` (which imports nothing);
* no private ``_name`` is imported from another module (make a public name instead);
* ``analyses`` uses the API, not the kernels (``*_nb``).

Imports are found at any depth, by string too (tests/project/importgraph.py); the game and
cycle rules are in test_imports.py.
"""
from pathlib import Path

from .importgraph import ImportGraph, in_package

ROOT = Path(__file__).resolve().parents[2]
GRAPH = ImportGraph(ROOT)
EDGES = GRAPH.edges

# Private names imported across modules on purpose (none since the one chunk runner).
KNOWN_PRIVATE: set = set()

# The top layer: the command line dispatches to analyses modules by name (cli.DELEGATED).
CLI_ABOVE_ANALYSES = {"cargo_sim.cli.main", "cargo_sim.cli.analyses"}

# The one thing outside core that core reads: the catalogue of the library's own games
# (``cargo_sim/games/__init__.py``: names and module paths, importing nothing), so that
# the registry can load them on first use. No game package is ever imported by core.
CATALOGUE = "cargo_sim.games"


def game_of(mod: str):
    """The game package a module belongs to (``cargo_sim.games.<name>``), or None."""
    parts = mod.split(".")
    return ".".join(parts[:3]) if len(parts) > 3 and parts[:2] == ["cargo_sim", "games"] else None


def is_game_report_module(mod: str) -> bool:
    """A game's report layer: ``cargo_sim.games.<name>.analyses`` (module or package),
    ``.report``, ``.figures``."""
    game = game_of(mod)
    return game is not None and mod[len(game) + 1:].split(".")[0] in ("analyses", "report", "figures")


def test_the_walk_sees_imports():
    """The walk itself: known imports are found (relative, nested, from-package)."""
    seen = {(i.module, i.name) for i in EDGES["cargo_sim.games.cargo_noir.simulate"]}
    assert ("cargo_sim.core.errors", "IllegalDecisionError") in seen
    assert any(m == "cargo_sim.games.cargo_noir.chunk_nb" for m, _ in seen)
    assert ("cargo_sim.games.cargo_noir.enums", None) in {
        (i.module, i.name) for i in EDGES["cargo_sim.games.cargo_noir.forward"]}  # from . import enums


def test_library_never_imports_analyses():
    bad = GRAPH.violations(lambda m: in_package(m, "cargo_sim") and not is_game_report_module(m),
                           "analyses", allow=CLI_ABOVE_ANALYSES)
    assert not bad, "\n".join(bad)


def test_a_game_package_uses_only_core_itself_and_the_shared_analyses():
    def foreign(src):
        game = game_of(src)
        return lambda m: (in_package(m, "cargo_sim") and not in_package(m, "cargo_sim.core")
                          and not in_package(m, game) and m != CATALOGUE
                          and not (is_game_report_module(src) and m == "cargo_sim.runners.api")) \
            or (in_package(m, "analyses") and not is_game_report_module(src))
    bad = [v for name in GRAPH.modules if game_of(name)
           for v in GRAPH.violations(lambda m, n=name: m == n, foreign(name))]
    assert not bad, "\n".join(bad)


def test_game_report_modules_are_told_apart():
    assert is_game_report_module("cargo_sim.games.cargo_noir.analyses.balance")
    assert is_game_report_module("cargo_sim.games.macao.figures")
    assert not is_game_report_module("cargo_sim.games.macao.engine_nb")
    assert not is_game_report_module("cargo_sim.games")
    assert game_of("cargo_sim.games.macao.bots.registry") == "cargo_sim.games.macao"


def test_only_the_top_layer_imports_the_cli():
    """The command line is the top layer: the core, the games and the runners never import it
    (the benchmark, beside it, times the command users type)."""
    for below in ("cargo_sim.core", "cargo_sim.games", "cargo_sim.runners"):
        bad = GRAPH.violations(below, lambda m: m == "cargo_sim.cli" or m.startswith("cargo_sim.cli."))
        assert not bad, "\n".join(bad)


def test_core_imports_only_core():
    bad = GRAPH.violations("cargo_sim.core", lambda m: in_package(m, "cargo_sim")
                           and not in_package(m, "cargo_sim.core") and m != CATALOGUE)
    assert not bad, "\n".join(bad)


def test_the_game_catalogue_imports_nothing():
    assert not [i.module for i in EDGES[CATALOGUE] if in_package(i.module, "cargo_sim")
                and i.how != "module:attr"]


def test_no_private_names_across_modules():
    bad = [f"{name}:{i.line} imports {i.name} from {i.module}" for name, imps in EDGES.items()
           for i in imps
           if i.name and i.name.startswith("_") and not i.name.startswith("__")
           and i.module in GRAPH.modules and (i.module, i.name) not in KNOWN_PRIVATE]
    assert not bad, "\n".join(bad)


def test_analyses_use_the_api_not_the_kernels():
    bad = GRAPH.violations("analyses", lambda m: in_package(m, "cargo_sim")
                           and m.rsplit(".", 1)[-1].endswith("_nb"))
    assert not bad, "\n".join(bad)
