"""The compiled table of built-in bots: bot index -> decision function.

The engine calls ``builtin_decide_nb(kind, s, seat)``; the seat's bot index is
``s[BOTS + seat]`` in the order of BUILTIN_ORDER (``registry.py``): 0 is
`random`, the strategies are parameter sets of the heuristic family, and the
search bots (`flatmc`, `ismcts`) are marked per seat in ``s[R_SEARCH]`` and
user bots have indices from ``s[R_USER_BASE]``: both are the core's plumbing
(``core.dispatch_nb.plumbed_nb``: called by address, the search kernel
``search_nb.search_fn`` and the table's user-bot kernel ``core.userbots.user_table``),
so this table compiles neither in (nor recurses: the search's rollouts use
``rollout_decide_nb``, the table without them).
"""
from ....core import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit

from ....core.borrow_nb import LazyAddress, call_int64_fn_nb, state_ptr_nb
from ....core.dispatch_nb import NOT_PLUMBED, plumbed_nb
from ..enums import BOTS, M_RNG, R_BUILTIN_FN
from .heuristic_nb import heuristic_decide_nb
from .random_nb import random_decide_at_nb, random_decide_nb


@njit(cache=True)
def rollout_decide_nb(kind, s, seat):
    """The built-ins without the search bots (the search bots' rollouts and models)."""
    # the bots work on a raw pointer to the state (no refcounting, see state_ptr_nb)
    p = state_ptr_nb(s)
    if p[BOTS + seat] == 0:
        return random_decide_nb(kind, p, seat)
    return heuristic_decide_nb(kind, p, seat)


@njit(cache=True)
def search_model_nb(kind, s, seat):
    """rollout_decide_nb as a search bot's model in its determinized copies: a
    `random` model draws from the copy's chance stream (which the search set
    from its own stream, forward_nb.determinize_nb), as it always has."""
    p = state_ptr_nb(s)
    if p[BOTS + seat] == 0:
        return random_decide_at_nb(kind, p, seat, M_RNG)
    return heuristic_decide_nb(kind, p, seat)


@njit(cache=True)
def builtin_decide_nb(kind, s, seat):
    p = state_ptr_nb(s)
    ans = plumbed_nb(kind, p, seat)        # user and search bots (the core's plumbing)
    if ans != NOT_PLUMBED:
        return ans
    return rollout_decide_nb(kind, p, seat)


@njit(cache=True)
def random_table_decide_nb(kind, s, seat):
    """A table where every seat is `random` (its first compile skips the heuristics)."""
    return random_decide_nb(kind, state_ptr_nb(s), seat)


# ---------------------------------------------------------------------------
# The built-ins called by address. Code that calls the heuristic family
# directly links all of it into its own compiled module, and numba optimises
# that module whole: a user bot delegating to the heuristic took ~15 s to
# compile (its array-typed state a new specialisation as well), and the search
# kernel re-optimised the family inside itself. Through this cfunc (compiled
# once, cached) they call it as data.
ENTRY_MODEL, ENTRY_HEURISTIC = 0, 1


def builtin_entry_nb(p, kind, seat, which):
    if which == ENTRY_HEURISTIC:
        return heuristic_decide_nb(kind, p, seat)
    return search_model_nb(kind, p, seat)


# builtin_fn(): address of the built-ins' kernel (compiled, or loaded from the cache, on first use)
builtin_fn = LazyAddress(builtin_entry_nb)


@njit(cache=True)
def model_decide_nb(kind, s, seat):
    """``search_model_nb`` through s[R_BUILTIN_FN] (the search bots' models)."""
    p = state_ptr_nb(s)
    if p[R_BUILTIN_FN] == 0:
        return -999999          # not set up by table_template: the engine stops the game
    return call_int64_fn_nb(p[R_BUILTIN_FN], p, kind, seat, ENTRY_MODEL)


@njit(cache=True)
def heuristic_delegate_nb(kind, s, seat):
    """The heuristic family's answer for the seat (with the seat's parameters),
    through s[R_BUILTIN_FN]: what ``cargo_sim.botkit.heuristic_decide_nb`` gives
    user bots, so they do not compile the family into themselves."""
    p = state_ptr_nb(s)
    if p[R_BUILTIN_FN] == 0:
        return -999999
    return call_int64_fn_nb(p[R_BUILTIN_FN], p, kind, seat, ENTRY_HEURISTIC)
