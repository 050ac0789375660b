"""The compiled table of built-in bots: bot index -> decision function.

The engine calls ``builtin_decide_nb(kind, s, seat)``; the seat's bot index is
``s[BOTS + seat]`` in the order of BUILTIN_ORDER (``registry.py``): 0 is
`random`, every other built-in is a parameter set of the heuristic family.
"""
from numba import njit

from ....core.borrow_nb import state_ptr_nb
from ..enums import BOTS
from .heuristic_nb import heuristic_decide_nb
from .random_nb import random_decide_nb


@njit(cache=True)
def builtin_decide_nb(kind, s, seat):
    # the bots work on a raw pointer to the state (no refcounting, see state_ptr_nb)
    p = state_ptr_nb(s)
    if p[BOTS + seat] == 0:
        return random_decide_nb(kind, p, seat)
    return heuristic_decide_nb(kind, p, seat)


@njit(cache=True)
def random_table_decide_nb(kind, s, seat):
    """A table where every seat is `random` (its first compile skips the heuristics)."""
    return random_decide_nb(kind, state_ptr_nb(s), seat)
