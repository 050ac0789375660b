"""The compiled table of built-in bots: bot index -> decision function.

The engine calls ``builtin_decide_nb(kind, s, seat)``; the seat's bot index is
``s[BOTS + seat]`` and the order of the branches is BUILTIN_ORDER in
``registry.py`` (a test checks they agree).
"""
from numba import njit

from ..enums import BOTS
from .random_nb import random_decide_nb


@njit(cache=True)
def builtin_decide_nb(kind, s, seat):
    bot = s[BOTS + seat]
    if bot == 0:
        return random_decide_nb(kind, s, seat)
    return -999999  # unknown bot index: the engine reports an illegal answer
