"""The bot plumbing every game's decision table shares: user bots and search bots
called by address.

A game's table kernel (``decide(kind, s, seat)``) asks ``plumbed_nb`` first: a
seat whose bot index is at or after ``s[R_USER_BASE]`` plays a user bot, called
through the address of its table's own kernel (``core.userbots.user_table``: a
table with a user bot compiles that bot alone, not the engine again); a seat
marked in ``s[R_SEARCH]`` plays a search bot, called through the address of the
game's search kernel (so the table does not compile the search in, nor recurse).
Every other seat gets ``NOT_PLUMBED``: the game's built-ins answer.

A game's table kernel reaches ``ask_nb`` (and any cached kernel that takes it as an
argument) as the first-class function type ``DecideType``, never as a plain jitted
function: numba's cache key for a function specialised on a jitted function holds that
function weakly and compares it by identity, so such an entry never matches in another
process (it compiles again and the cache index grows by one entry per process), and
re-saving the index must re-pickle every old entry's function, which fails once numba
has dropped one ("ReferenceError: underlying object has vanished"). ``ask_nb`` has
explicit signatures: a jitted table passed to it is converted to ``DecideType``, and
the core's cache index holds these two entries only, whatever the game
(docs/contract.md, "Table kernels and numba's cache").
"""
from . import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit, types

from .borrow_nb import call_int64_fn_nb, state_array_nb
from .layout import (BOTS, M_BOT_RNG, M_BOT_SEED, M_DECISIONS, M_FAULT, M_FAULT_ARG, M_RNG,
                     M_SEAT_KEY, R_LEN, R_SEARCH, R_SEARCH_FN, R_USER_BASE, R_USER_FN)
from .rng_nb import bot_oneway_nb, bot_stream_at_nb, seat_key_nb

# Every bot table (built-in or user-written) of every game: decide(kind, s, seat) -> answer,
# ``s`` the state as an array of s[R_LEN] words
DECIDE_SIG = types.int64(types.int64, types.int64[::1], types.int64)
DecideType = types.FunctionType(DECIDE_SIG)

NOT_PLUMBED = -(2**62) + 1     # plumbed_nb: the seat plays one of the game's built-ins
# the search kernel's code for an observation: OBSERVE + (answer << 8) (its kinds are 1, 2)
OBSERVE = 3
UNSET = -999999                # an address the table never set: the engine stops the game


@njit(cache=True)
def plumbed_nb(kind, p, seat):
    """The answer of the seat's user or search bot, NOT_PLUMBED for a built-in
    (``p`` the state as a pointer: core.borrow_nb.state_ptr_nb)."""
    user = p[BOTS + seat] - p[R_USER_BASE]
    if p[R_USER_BASE] > 0 and user >= 0:
        if p[R_USER_FN] == 0:
            return UNSET
        return call_int64_fn_nb(p[R_USER_FN], p, kind, seat, user)
    algo = (p[R_SEARCH] >> (2 * seat)) & 3
    if algo != 0:
        if p[R_SEARCH_FN] == 0:
            return UNSET            # not set up by table_template: the engine stops the game
        return call_int64_fn_nb(p[R_SEARCH_FN], p, kind, seat, algo)
    return NOT_PLUMBED


@njit(cache=True)
def seat_oneway_nb(p, seat):
    """The seat's one-way key for ask_keyed_nb (rng_nb.bot_oneway_nb of its key):
    fixed for a game (the bots' seed is set once, at setup)."""
    return bot_oneway_nb(seat_key_nb(p[M_BOT_SEED], seat))


@njit(cache=True)
def ask_open_nb(p, seat, oneway):
    """The first half of asking a seat fairly (ask_keyed_nb): the seat's stream for
    this decision (M_BOT_RNG) and, a search seat only, its key (M_SEAT_KEY) set, the
    chance stream and the bots' seed hidden. Returns (chance stream, bots' seed) for
    ask_close_nb. A kernel that calls a known built-in directly (no first-class call)
    asks through this pair: the same streams, the same answer."""
    rng = p[M_RNG]
    bot_seed = p[M_BOT_SEED]
    p[M_BOT_RNG] = bot_stream_at_nb(oneway, p[M_DECISIONS])
    p[M_SEAT_KEY] = seat_key_nb(bot_seed, seat) if (p[R_SEARCH] >> (2 * seat)) & 3 else 0
    p[M_RNG] = 0
    p[M_BOT_SEED] = 0
    return rng, bot_seed


@njit(cache=True)
def ask_close_nb(p, rng, bot_seed):
    """The second half (after the bot's call): the chance stream and the bots' seed
    put back, the bot's slots cleared, so what a bot writes there is undone."""
    p[M_RNG] = rng
    p[M_BOT_SEED] = bot_seed
    p[M_BOT_RNG] = 0
    p[M_SEAT_KEY] = 0
    p[M_FAULT] = 0
    p[M_FAULT_ARG] = 0


@njit([types.int64(DecideType, types.int64, types.CPointer(types.int64), types.int64, types.int64),
       types.int64(DecideType, types.int64, types.int64[::1], types.int64, types.int64)], cache=True)
def ask_keyed_nb(decide, kind, p, seat, oneway):
    """ask_nb, told the seat's one-way key (seat_oneway_nb, which a game's loop
    computes once per seat instead of two mix64 chains per decision): the same
    streams, the same answer."""
    rng, bot_seed = ask_open_nb(p, seat, oneway)
    ans = decide(kind, state_array_nb(p, p[R_LEN]), seat)
    ask_close_nb(p, rng, bot_seed)
    return ans


@njit([types.int64(DecideType, types.int64, types.CPointer(types.int64), types.int64),
       types.int64(DecideType, types.int64, types.int64[::1], types.int64)], cache=True)
def ask_nb(decide, kind, p, seat):
    """Ask the seat's bot for a decision, fairly (``p`` the state as a pointer; the
    bot gets it as an array of ``s[R_LEN]`` words). For the call the game's chance
    stream and the bots' seed read 0, and the seat gets its own stream for this
    decision (M_BOT_RNG, from the bots' seed, the seat and the decisions answered
    so far) and, a search seat only, its key (M_SEAT_KEY); afterwards both are
    put back and the bot's slots cleared, so what a bot writes there is undone."""
    return ask_keyed_nb(decide, kind, p, seat, seat_oneway_nb(p, seat))


@njit(cache=True)
def observe_nb(p, kind, seat, ans):
    """Show the table's search kernel an answer about to be applied (a game's engine
    calls this as it applies any answer, when ``s[R_SEARCH]`` marks a search seat):
    the kernel updates the public record its opponent models use
    (core.search.belief_nb). The chance stream and the bots' seed read 0 meanwhile;
    the kernel must leave the game as it was, apart from its record."""
    if p[R_SEARCH_FN] == 0 or kind < 0:
        return
    rng = p[M_RNG]
    bot_seed = p[M_BOT_SEED]
    p[M_RNG] = 0
    p[M_BOT_SEED] = 0
    call_int64_fn_nb(p[R_SEARCH_FN], p, kind, seat, OBSERVE + (ans << 8))
    p[M_RNG] = rng
    p[M_BOT_SEED] = bot_seed
