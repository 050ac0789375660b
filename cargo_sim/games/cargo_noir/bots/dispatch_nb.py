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
import numpy as np
from ....core import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit

from ....core.borrow_nb import LazyAddress, call_int64_fn_nb, state_ptr_nb
from ....core.dispatch_nb import NOT_PLUMBED, ask_close_nb, ask_open_nb, plumbed_nb
from ..engine_nb import (advance_nb, answer_nb, begin_game_nb, game_rows_nb, own_workspace_nb,
                         seat_oneways_nb, start_state_nb)
from ..enums import BOTS, M_ASK, M_BOT_RNG, M_N_EVENTS, M_RNG, M_SEAT, R_BUILTIN_FN
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
# The chunk kernel of tables whose every seat is `random` (simulate.chunk_kernel
# picks it; tables of other built-ins stay on run_games_nb: a direct kernel of the
# heuristic family measured no faster and compiles the family into the whole engine
# again, docs/performance.md): engine_nb.run_games_nb asks
# every bot through a first-class function (ask_keyed_nb), an indirect call that
# also keeps the bots from being compiled into the game loop; these call the table's
# bots directly, asked through the same ask_open_nb / ask_close_nb pair (the same
# streams, the same answers: the same games). No checksum check: such a table has
# no user bot. `bot` is a jitted function, resolved when the kernel compiles (the
# two loops below are inlined into the kernel, never compiled on their own).
#
# The direct kernel's own copies of the per-decision calls (numba's inlining): an answer
# and a random decision each cost a call with numba's prologue (status and result slots,
# six saved registers) ~230 times a game; the cached functions stay for every other
# caller (the forward model, run_games_nb, the search), so only this kernel grows.
answer_inline_nb = njit(inline="always")(answer_nb.py_func)
random_decide_at_inline_nb = njit(inline="always")(random_decide_at_nb.py_func)


@njit(inline="always")
def random_direct_nb(kind, s, seat):
    """random_decide_nb, inlined into the direct kernel."""
    return random_decide_at_inline_nb(kind, s, seat, M_BOT_RNG)


@njit(inline="always")
def direct_play_on_nb(s, log, bot):
    """engine_nb.play_on_nb with bot(kind, s, seat) called directly."""
    advance_nb(s, log)
    oneway = seat_oneways_nb(s)
    while s[M_ASK] >= 0:
        kind = s[M_ASK]
        seat = s[M_SEAT]
        rng, bot_seed = ask_open_nb(s, seat, oneway[seat])
        ans = bot(kind, s, seat)
        ask_close_nb(s, rng, bot_seed)
        answer_inline_nb(s, log, ans)


@njit(inline="always")
def direct_games_nb(template, exact_fn, seeds, out_games, out_players, log, err, bot):
    """engine_nb.run_games_nb (the same arguments but `decide`) with direct_play_on_nb."""
    own = template.copy()       # `own` keeps the memory alive while `s` points into it
    work = own_workspace_nb(own)
    s, plog = start_state_nb(own, log, exact_fn)
    n_events = np.int64(0)
    for g in range(seeds.shape[0]):
        begin_game_nb(s, plog, np.int64(seeds[g]), g, n_events)
        direct_play_on_nb(s, plog, bot)
        n_events = s[M_N_EVENTS]
        if not game_rows_nb(s, g, out_games, out_players, err):
            return own[0] != own[0]
    err[6] = n_events
    return own[0] == own[0] and work[0] == work[0]   # uses after the loop keep both alive until here


@njit(cache=True, nogil=True)
def run_random_games_nb(template, exact_fn, seeds, out_games, out_players, log, err):
    """The chunk kernel of random_table_decide_nb's tables (every seat `random`)."""
    return direct_games_nb(template, exact_fn, seeds, out_games, out_players, log, err,
                           random_direct_nb)


@njit(cache=True)
def random_playout_nb(s, log, exact_fn):
    """forward_nb.table_playout_nb of a random_table_decide_nb table: the rest of the
    game through direct_play_on_nb (the same answers; a public playout's game then
    costs what it costs in simulate's kernel)."""
    p, plog = start_state_nb(s, log, exact_fn)
    direct_play_on_nb(p, plog, random_direct_nb)



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
