"""Who may import a game, and no cycles: the layering, read from the source.

Every module of ``cargo_sim/`` and ``analyses/`` is parsed with ``ast`` (tests/project/importgraph.py):
imports at any depth (inside functions too), relative ones resolved, ``importlib.import_module``
/ ``__import__`` with a string constant, and ``"pkg.mod:attr"`` strings (what ``BotSpec.resolve``
and the CLI's delegated commands import at run time). The rules:

(a) no module outside ``cargo_sim/games/`` imports a game package (``cargo_sim.games.<name>``
    or below); ``cargo_sim.games`` itself, the catalogue of built-in games, is not a game;
(b) no import cycle among the modules of ``cargo_sim``, of ``analyses``, nor of both together;
(c) ``analyses`` never imports the CLI (``cargo_sim.cli*``);
(d) ``cargo_sim.core`` imports nothing of ``cargo_sim`` outside the core but the catalogue
    ``cargo_sim.games`` (its ``__init__``: names and module paths, importing nothing; the
    registry loads a game from it by name on first use). Checked in test_layers.py.

The checker itself is tested on a small tree planted in tmp_path.
"""
from pathlib import Path

import pytest

from .importgraph import ImportGraph, cycle_path, cycles, in_package

ROOT = Path(__file__).resolve().parents[2]
GRAPH = ImportGraph(ROOT)

CATALOGUE = "cargo_sim.games"      # the registry's list of built-in games: not a game package

# Public faces that may re-export Cargo Noir (the default game), each with its reason.
PUBLIC_FACES = {
    "cargo_sim": "the package's public names are Cargo Noir's defaults (cargo_sim.simulate, Rules, ...)",
    "cargo_sim.botkit": "the documented one-import kit for user bots (docs/bots.md) is Cargo Noir's",
}



def is_game_module(mod: str) -> bool:
    return in_package(mod, "cargo_sim.games") and mod != CATALOGUE


def outside_games(mod: str) -> bool:
    return not in_package(mod, "cargo_sim.games")


def is_cli(mod: str) -> bool:
    return mod == "cargo_sim.cli" or mod.startswith("cargo_sim.cli.")


# ---------------------------------------------------------------------------
# the rules, on the real tree
def test_nothing_outside_the_games_imports_a_game():
    bad = GRAPH.violations(outside_games, is_game_module, allow=set(PUBLIC_FACES))
    assert not bad, "import the game through core.contract.get_game(name):\n" + "\n".join(bad)


@pytest.mark.parametrize("package", ["cargo_sim", "analyses", None])
def test_no_import_cycles(package):
    g = GRAPH.graph(package)
    found = cycles(g)
    assert not found, "import cycles:\n" + "\n".join(" -> ".join(cycle_path(g, c)) for c in found)


def test_analyses_never_import_the_cli():
    bad = GRAPH.violations("analyses", is_cli)
    assert not bad, "\n".join(bad)


def test_the_cli_dependency_on_analyses_is_seen():
    """cargo-sim report/robustness/ladder run analyses modules named by strings."""
    seen = {i.module for m in ("cargo_sim.cli.main", "cargo_sim.cli.analyses") for i in GRAPH.edges[m]}
    assert {"analyses.report", "analyses.robustness_report", "analyses.ladder"} <= seen


# ---------------------------------------------------------------------------
# the checker, on a planted tree
PLANTED = {
    "lib/__init__.py": "",
    "lib/core/__init__.py": "",
    "lib/core/a.py": "import os\nfrom . import b\n",
    "lib/core/b.py": ("def later():\n"
                      "    from ..games.g1 import rules          # function level, relative\n"
                      "    return rules\n"),
    "lib/core/c.py": ("import importlib\n"
                      "def load():\n"
                      "    return importlib.import_module('lib.games.g1.rules')\n"),
    "lib/core/d.py": "SPEC = 'lib.games.g1.rules:decide'\nTEXT = 'lib.games.g1 is a game'\n",
    "lib/core/e.py": "def f():\n    return __import__('lib.core.a')\n",
    "lib/games/__init__.py": "BUILTIN = {'g1': 'lib.games.g1'}\n",
    "lib/games/g1/__init__.py": "",
    "lib/games/g1/rules.py": "from ...core import a\n",
    "ana/__init__.py": "",
    "ana/x.py": "def main():\n    import ana.y\n",
    "ana/y.py": "from . import x\n",
}


@pytest.fixture
def planted(tmp_path):
    for rel, text in PLANTED.items():
        p = tmp_path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return ImportGraph(tmp_path, packages=("lib", "ana"))


def test_checker_catches_function_level_and_string_imports(planted):
    bad = planted.violations(lambda m: not in_package(m, "lib.games"),
                             lambda m: in_package(m, "lib.games") and m != "lib.games")
    joined = "\n".join(bad)
    assert "lib.core.b:2 imports lib.games.g1.rules (from)" in joined          # inside a function
    assert "lib.core.c:3 imports lib.games.g1.rules (import_module)" in joined  # importlib by string
    assert "lib.core.d:1 imports lib.games.g1.rules (module:attr)" in joined    # "mod:attr" string
    assert "lib.core.a" not in joined and "lib.core.e" not in joined
    assert "lib.core.d:2" not in joined          # a sentence naming a module is no import
    assert not any(b.startswith("lib.games") for b in bad)


def test_checker_finds_cycles_through_function_level_imports(planted):
    # lib.core.a -> b -> (in a function) g1.rules -> a; ana.x -> (in a function) ana.y -> x
    found = cycles(planted.graph())
    assert ["lib.core.a", "lib.core.b", "lib.games.g1.rules"] in found
    assert ["ana.x", "ana.y"] in found
    path = cycle_path(planted.graph(), ["ana.x", "ana.y"])
    assert path[0] == path[-1] and set(path) == {"ana.x", "ana.y"}
    assert cycles(planted.graph("lib.core")) == []


def test_cycle_finder():
    assert cycles({"a": ["b"], "b": ["c"], "c": ["a"], "d": ["a"]}) == [["a", "b", "c"]]
    assert cycles({"a": ["b"], "b": []}) == []
    assert cycles({"a": ["b"], "b": ["a"], "c": ["d"], "d": ["c"]}) == [["a", "b"], ["c", "d"]]
