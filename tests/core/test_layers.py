"""The layering rules, read from the source (ast; nothing is imported or compiled).

* no ``cargo_sim`` module imports ``analyses`` (the library never imports its consumer);
* ``cargo_sim.core`` imports nothing of cargo_sim outside ``core`` (it knows no game);
* no private ``_name`` is imported from another module (make a public name instead);
* no import cycle between ``cargo_sim`` modules, imports inside functions included.
"""
import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# Private names imported across modules on purpose (none since the one chunk runner).
KNOWN_PRIVATE: set = set()


def module_files(package: str) -> dict:
    """Dotted module name -> path, for every .py file of a top-level package."""
    out = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


MODULES = {**module_files("cargo_sim"), **module_files("analyses")}


def imports_of(name: str, path: Path):
    """(imported module, imported name or None, line) for every import statement of a
    module, at any depth. ``from p import x`` counts as importing the module p.x when
    that is a module, else the name x of module p."""
    is_pkg = path.name == "__init__.py"
    package = name if is_pkg else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for a in node.names:
                yield a.name, None, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module
            for a in node.names:
                sub = f"{mod}.{a.name}"
                if sub in MODULES:
                    yield sub, None, node.lineno
                else:
                    yield mod, a.name, node.lineno


EDGES = {name: list(imports_of(name, path)) for name, path in MODULES.items()}


def in_package(mod: str, package: str) -> bool:
    return mod == package or mod.startswith(package + ".")


def test_the_walk_sees_imports():
    """The walk itself: known imports are found (relative, nested, from-package)."""
    seen = {(m, n) for m, n, _ in EDGES["cargo_sim.games.cargo_noir.simulate"]}
    assert ("cargo_sim.core.errors", "IllegalDecisionError") in seen
    assert any(m == "cargo_sim.games.cargo_noir.engine_nb" for m, _ in seen)
    assert ("cargo_sim.games.cargo_noir.enums", None) in {
        (m, n) for m, n, _ in EDGES["cargo_sim.games.cargo_noir.forward"]}      # from . import enums


def test_library_never_imports_analyses():
    bad = [f"{name}:{line} imports {mod}" for name, edges in EDGES.items()
           if in_package(name, "cargo_sim") for mod, _, line in edges if in_package(mod, "analyses")]
    assert not bad, "\n".join(bad)


# The one thing outside core that core reads: the catalogue of the library's own games
# (``cargo_sim/games/__init__.py``: names and module paths, importing nothing), so that
# the registry can load them on first use. No game package is ever imported by core.
CATALOGUE = "cargo_sim.games"


def test_core_imports_only_core():
    bad = [f"{name}:{line} imports {mod}" for name, edges in EDGES.items()
           if in_package(name, "cargo_sim.core") for mod, _, line in edges
           if in_package(mod, "cargo_sim") and not in_package(mod, "cargo_sim.core")
           and mod != CATALOGUE]
    assert not bad, "\n".join(bad)


def test_the_game_catalogue_imports_nothing():
    assert not [mod for mod, _, _ in EDGES[CATALOGUE] if in_package(mod, "cargo_sim")]


def test_no_private_names_across_modules():
    bad = [f"{name}:{line} imports {imp} from {mod}" for name, edges in EDGES.items()
           for mod, imp, line in edges
           if imp and imp.startswith("_") and not imp.startswith("__") and mod in MODULES
           and (mod, imp) not in KNOWN_PRIVATE]
    assert not bad, "\n".join(bad)


def cycles(graph: dict) -> list:
    """Strongly connected components with more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def library_graph() -> dict:
    return {name: sorted({mod for mod, _, _ in edges if mod in MODULES and mod != name
                          and in_package(mod, "cargo_sim")})
            for name, edges in EDGES.items() if in_package(name, "cargo_sim")}


def test_cycle_finder_finds_a_cycle():
    assert cycles({"a": ["b"], "b": ["c"], "c": ["a"], "d": ["a"]}) == [["a", "b", "c"]]
    assert cycles({"a": ["b"], "b": []}) == []


@pytest.mark.parametrize("package", ["cargo_sim"])
def test_no_import_cycles(package):
    found = cycles(library_graph())
    assert not found, "import cycles:\n" + "\n".join(" <-> ".join(c) for c in found)


def test_analyses_use_the_api_not_the_kernels():
    bad = [f"{name}:{line} imports {mod}" for name, edges in EDGES.items()
           if in_package(name, "analyses") for mod, _, line in edges
           if in_package(mod, "cargo_sim") and mod.rsplit(".", 1)[-1].endswith("_nb")]
    assert not bad, "\n".join(bad)
