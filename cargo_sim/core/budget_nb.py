"""The checked mode's decision budget: loop steps a user bot may take per decision.

``instrument.py`` recompiles a user bot (and the user functions it calls) with
a call to ``tick_nb(addr)`` at the top of every loop body; ``addr`` is the
address of one int64 cell (``BUDGET``, this process) that the user-bot kernel
(``core.userbots.user_table``) sets to ``BUDGET_STEPS`` before each decision. When it
runs out, ``tick_nb`` raises: the game stops with a BotError naming the bot
(enums.FAULT_BUDGET). The cell is shared by the threads of a run: a decision
may be charged another thread's steps too (so the budget is generous), and a
runaway loop is stopped at the latest once the other threads stop resetting it.
"""
import numpy as np
from . import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit, types
from numba.extending import intrinsic

BUDGET_STEPS = 10**9          # about a second of a tight loop: no real decision comes near
BUDGET = np.zeros(8, dtype=np.int64)      # the cell is BUDGET[0]; kept for the process's life
BUDGET_ADDR = int(BUDGET.ctypes.data)


@intrinsic
def cell_ptr_nb(typingctx, addr):
    """The int64 address `addr` as a pointer (the budget cell)."""
    if not isinstance(addr, types.Integer):
        return None

    def codegen(context, builder, sig, args):
        from llvmlite import ir
        return builder.inttoptr(context.cast(builder, args[0], sig.args[0], types.int64),
                                ir.IntType(64).as_pointer())

    return types.CPointer(types.int64)(addr), codegen


@njit(cache=True)
def tick_nb(addr):
    """One loop step of a checked user bot; raises when the decision's budget is spent."""
    p = cell_ptr_nb(addr)
    v = p[0] - 1
    p[0] = v
    if v < 0:
        raise RuntimeError("cargo_sim: the decision's loop budget is spent")


@njit(cache=True)
def reset_budget_nb(addr, steps):
    cell_ptr_nb(addr)[0] = steps


@njit(cache=True)
def budget_spent_nb(addr):
    return cell_ptr_nb(addr)[0] < 0
