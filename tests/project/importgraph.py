"""The import graph of a source tree, read with ``ast`` (nothing is imported or compiled).

Used by the layer tests (tests/project/test_layers.py, tests/project/test_imports.py). An import
is any of, at any depth of a module (module level, inside functions, classes, ``if``/``try``):

* ``import a.b`` and ``from a import b`` (relative ones resolved against the module's
  package; ``from p import x`` is the module ``p.x`` when that is a module, else ``p``);
* ``importlib.import_module("a.b")`` / ``import_module(".b", __name__)`` /
  ``__import__("a.b")`` with a string constant;
* a string constant of the form ``"a.b:attr"`` naming a module of the tree (what
  ``core.bots.BotSpec.resolve`` and the CLI's delegated commands import at run time).

An import names a module of the tree by its longest dotted prefix that is one; imports of
modules outside the tree (numpy, ...) are kept with their full name. Importing ``a.b.c``
is not counted as importing the packages ``a`` and ``a.b`` (their ``__init__`` runs
first, but counting it would make every package a cycle with its own modules).
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

MODULE_STRING = re.compile(r"^[A-Za-z_][\w]*(\.[A-Za-z_]\w*)*:[A-Za-z_]\w*$")
IMPORT_FUNCS = {"import_module", "__import__"}


@dataclass(frozen=True)
class Import:
    module: str          # the imported module (dotted), resolved to a module of the tree if it is one
    name: str | None     # the imported attribute of ``from m import name`` (None otherwise)
    line: int
    how: str             # "import", "from", "import_module", "module:attr"


def module_files(root: Path, package: str) -> dict[str, Path]:
    """Dotted module name -> path, for every .py file of a top-level package under root."""
    out = {}
    for path in sorted((Path(root) / package).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def in_package(mod: str, package: str) -> bool:
    return mod == package or mod.startswith(package + ".")


def _resolve(dotted: str, modules: dict) -> str:
    """The longest prefix of ``dotted`` that is a module of the tree (else ``dotted``)."""
    parts = dotted.split(".")
    for k in range(len(parts), 0, -1):
        cand = ".".join(parts[:k])
        if cand in modules:
            return cand
    return dotted


def _relative(name: str, level: int, package: str) -> str:
    base = package.split(".")
    base = base[:len(base) - (level - 1)] if level > 1 else base
    return ".".join(base + ([name] if name else []))


def _call_name(func) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def imports_of(name: str, path: Path, modules: dict) -> list[Import]:
    """Every import of one module (see the module docstring)."""
    is_pkg = path.name == "__init__.py"
    package = name if is_pkg else name.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    out = []
    in_call = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                out.append(Import(_resolve(a.name, modules), None, node.lineno, "import"))
        elif isinstance(node, ast.ImportFrom):
            mod = _relative(node.module or "", node.level, package) if node.level else node.module
            for a in node.names:
                sub = f"{mod}.{a.name}"
                if sub in modules:
                    out.append(Import(sub, None, node.lineno, "from"))
                else:
                    out.append(Import(_resolve(mod, modules), a.name, node.lineno, "from"))
        elif isinstance(node, ast.Call) and _call_name(node.func) in IMPORT_FUNCS and node.args:
            arg = node.args[0]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                in_call.add(id(arg))
                target = arg.value
                if target.startswith("."):        # import_module(".x", __name__ / __package__)
                    level = len(target) - len(target.lstrip("."))
                    target = _relative(target.lstrip("."), level, package)
                out.append(Import(_resolve(target, modules), None, node.lineno, "import_module"))
    for node in ast.walk(tree):
        if (isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in in_call
                and MODULE_STRING.match(node.value)):
            mod = node.value.split(":")[0]
            if _resolve(mod, modules) == mod:     # names a module of the tree: "pkg.mod:attr"
                out.append(Import(mod, node.value.split(":")[1], node.lineno, "module:attr"))
    return out


class ImportGraph:
    """Modules of some top-level packages under ``root`` and their imports."""

    def __init__(self, root: Path, packages=("cargo_sim", "analyses")):
        self.root = Path(root)
        self.modules: dict[str, Path] = {}
        for p in packages:
            self.modules.update(module_files(self.root, p))
        self.edges = {name: imports_of(name, path, self.modules) for name, path in self.modules.items()}

    def violations(self, source: str, target, allow=()) -> list[str]:
        """'module:line imports target' for every import of a module in package ``source``
        (a predicate or a package name) of a module in ``target`` (same), unless the
        importing module is in ``allow``."""
        src = source if callable(source) else (lambda m, p=source: in_package(m, p))
        tgt = target if callable(target) else (lambda m, p=target: in_package(m, p))
        return list(dict.fromkeys(
            f"{name}:{imp.line} imports {imp.module} ({imp.how})"
            for name, imps in self.edges.items() if src(name) and name not in allow
            for imp in imps if tgt(imp.module)))

    def graph(self, package=None) -> dict[str, list[str]]:
        """Module -> the modules of the tree it imports (within ``package`` if given)."""
        keep = (lambda m: m in self.modules) if package is None else \
            (lambda m: m in self.modules and in_package(m, package))
        return {name: sorted({i.module for i in imps if keep(i.module) and i.module != name})
                for name, imps in self.edges.items() if keep(name)}


def cycles(graph: dict) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(graph.get(root, ())))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(graph.get(w, ()))))
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
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
    return sorted(out)


def cycle_path(graph: dict, component: list[str]) -> list[str]:
    """One cycle through a strongly connected component, as a -> b -> ... -> a."""
    comp = set(component)
    start = component[0]
    prev, todo = {start: None}, [start]
    while todo:                                    # BFS back to start inside the component
        v = todo.pop(0)
        for w in graph.get(v, ()):
            if w == start:
                path = [v]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])
                return path[::-1] + [start]
            if w in comp and w not in prev:
                prev[w] = v
                todo.append(w)
    return component
