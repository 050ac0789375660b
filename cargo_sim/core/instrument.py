"""The checked mode's copy of a user bot: bounds checked, every loop budgeted.

``checked_copy(decide)`` compiles the bot's Python function again with numba's
bounds checking and a compiler pass (``AddTicks``) that puts a call to
``budget_nb.tick_nb`` at the head of every loop of numba's IR. The pass works on
the function's bytecode, not its source, so a bot defined with ``exec`` or typed
at an interactive prompt is budgeted like any other. The user functions it calls
(numba functions defined outside cargo_sim, numba and numpy, reached by a plain
name or a closure variable) are copied the same way and the copy calls the copies.
"""
from __future__ import annotations

import types

from . import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit
from numba.core import ir
from numba.core.analysis import compute_cfg_from_blocks
from numba.core.compiler import CompilerBase, DefaultPassBuilder
from numba.core.compiler_machinery import FunctionPass, register_pass
from numba.core.registry import CPUDispatcher
from numba.core.untyped_passes import IRProcessing

from .budget_nb import BUDGET_ADDR, tick_nb

_TRUSTED = ("cargo_sim", "numba", "numpy")


@register_pass(mutates_CFG=False, analysis_only=False)
class AddTicks(FunctionPass):
    """``tick_nb(BUDGET_ADDR)`` at the head of every loop (before numba types the IR)."""
    _name = "cargo_sim_add_ticks"

    def __init__(self):
        FunctionPass.__init__(self)

    def run_pass(self, state):
        blocks = state.func_ir.blocks
        for loop in compute_cfg_from_blocks(blocks).loops().values():
            block = blocks[loop.header]
            scope, loc = block.scope, block.loc
            fn, addr, out = (scope.redefine(n, loc) for n in ("$cs_tick", "$cs_addr", "$cs_ticked"))
            block.body[0:0] = [ir.Assign(ir.Global("tick_nb", tick_nb, loc), fn, loc),
                               ir.Assign(ir.Const(BUDGET_ADDR, loc), addr, loc),
                               ir.Assign(ir.Expr.call(fn, (addr,), (), loc), out, loc)]
        return True


class Budgeted(CompilerBase):
    """numba's nopython pipeline with ``AddTicks`` after the IR is built."""

    def define_pipelines(self):
        pm = DefaultPassBuilder.define_nopython_pipeline(self.state)
        pm.add_pass_after(AddTicks, IRProcessing)
        pm.finalize()
        return [pm]


def _user_function(obj) -> bool:
    if not isinstance(obj, CPUDispatcher):
        return False
    mod = getattr(obj.py_func, "__module__", "") or ""
    return mod.split(".")[0] not in _TRUSTED


def _copy(fn, memo: dict):
    """The budgeted, bounds-checked copy of the numba function fn (memoised)."""
    if id(fn) in memo:
        return memo[id(fn)]
    py = fn.py_func
    memo[id(fn)] = fn                  # a recursive call keeps the original (no budget there)
    code = py.__code__
    glb = dict(py.__globals__)
    for name in code.co_names:
        if _user_function(glb.get(name)) and glb[name] is not fn:
            glb[name] = _copy(glb[name], memo)
    cells = py.__closure__
    if cells:
        cells = tuple(_cell(c, memo) for c in cells)
    twin = types.FunctionType(code, glb, py.__name__, py.__defaults__, cells)
    twin.__qualname__, twin.__module__ = py.__qualname__, py.__module__
    out = njit(boundscheck=True, pipeline_class=Budgeted)(twin)
    memo[id(fn)] = out
    return out


def _cell(cell, memo: dict):
    try:
        value = cell.cell_contents
    except ValueError:                 # an empty cell
        return cell
    return types.CellType(_copy(value, memo)) if _user_function(value) else cell


def checked_copy(decide):
    """The checked mode's version of a user bot's decide function."""
    return _copy(decide, {})
