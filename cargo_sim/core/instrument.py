"""The checked mode's copy of a user bot: bounds checked, every loop budgeted.

``checked_copy(decide)`` recompiles the bot from its source with numba's
bounds checking and a call to ``budget_nb.tick_nb`` at the top of every
``for`` and ``while`` body; the user functions it calls (numba functions
defined outside cargo_sim, numba and numpy, reached by a plain name) are
copied the same way and the copy calls the copies. A bot whose source cannot
be read (defined with ``exec`` or at an interactive prompt without source)
is only bounds checked, with a warning: its loops are not budgeted.
"""
from __future__ import annotations

import ast
import inspect
import textwrap
import warnings

from . import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit
from numba.core.registry import CPUDispatcher

from .budget_nb import BUDGET_ADDR, tick_nb

TICK = "_cargo_sim_tick_"
_TRUSTED = ("cargo_sim", "numba", "numpy")


class _AddTicks(ast.NodeTransformer):
    def visit_loop(self, node):
        self.generic_visit(node)
        tick = ast.Expr(ast.Call(ast.Name(TICK, ast.Load()), [ast.Constant(BUDGET_ADDR)], []))
        node.body.insert(0, tick)
        return node

    visit_For = visit_While = visit_loop


def _user_function(obj) -> bool:
    if not isinstance(obj, CPUDispatcher):
        return False
    mod = getattr(obj.py_func, "__module__", "") or ""
    return mod.split(".")[0] not in _TRUSTED


def _copy(fn, memo: dict, missing: list):
    """The budgeted, bounds-checked copy of the numba function fn (memoised)."""
    if id(fn) in memo:
        return memo[id(fn)]
    py = fn.py_func
    memo[id(fn)] = fn                  # a recursive call keeps the original (no budget there)
    try:
        src = textwrap.dedent(inspect.getsource(py))
        tree = ast.parse(src)
        node = tree.body[0]
        if not isinstance(node, ast.FunctionDef) or node.name != py.__name__:
            raise OSError("not a plain function definition")
    except (OSError, TypeError, SyntaxError, IndexError):
        missing.append(py.__qualname__)
        out = njit(boundscheck=True)(py)
        memo[id(fn)] = out
        return out
    node.decorator_list = []
    tree = ast.fix_missing_locations(_AddTicks().visit(tree))
    glb = dict(py.__globals__)
    if py.__closure__:                 # free variables become globals of the copy
        glb.update({n: c.cell_contents for n, c in zip(py.__code__.co_freevars, py.__closure__)})
    for name in {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}:
        if _user_function(glb.get(name)) and glb[name] is not fn:
            glb[name] = _copy(glb[name], memo, missing)
    glb[TICK] = tick_nb
    exec(compile(tree, py.__code__.co_filename, "exec"), glb)
    out = njit(boundscheck=True)(glb[node.name])
    memo[id(fn)] = out
    return out


def checked_copy(decide, label: str = ""):
    """The checked mode's version of a user bot's decide function."""
    missing: list = []
    out = _copy(decide, {}, missing)
    if missing:
        warnings.warn(f"cargo_sim: the source of {', '.join(missing)} (bot {label!r}) cannot be "
                      "read: checked mode checks its indices but cannot stop a runaway loop in it",
                      stacklevel=3)
    return out
