"""Macao's forward model kernels: a game stepped decision by decision (docs/contract.md,
"The forward model"), for the core's GameState (forward.py) and the search kit.

A game is a state array made from a table template (``simulate.table_template``). The
rules are engine_nb's (begin, ok, answer, legal); these kernels only drive them with
no event log (``G_LOG_CAP`` 0) and mark a refused answer in the state (``G_STOP``,
``G_BAD``) instead of raising, so a caller can try an answer on a scratch copy.
Every kernel works on a pointer to the state (the specialisations the chunk kernel
compiles), the arrays kept alive by the caller.

What a seat cannot see (docs/rules_macao.md, "What a seat can see"): the order of the
deck's cards not yet revealed, the future dice (the game's chance stream ``M_RNG``) and
the other seats' random streams (the bots' seed ``M_BOT_SEED``). ``determinize_nb``
resamples exactly these; the offices (laid face up by round at setup), the goods tiles
on the quarters, the wall stack and every card drafted or discarded are public.
"""
import numpy as np
from ...core import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit, types

from ...core.borrow_nb import keep_nb, state_ptr_nb
from ...core.dispatch_nb import DecideType, ask_nb
from ...core.layout import BOT_FAULT, HEADER_LEN, M_BOT_SEED, M_RNG
from ...core.rng_nb import bot_seed_nb, rand_below_at_nb, seat_stream_nb
from .engine_nb import answer_nb, begin_nb as engine_begin_nb, legal_nb as engine_legal_nb, ok_nb
from .enums import (G_ASK, G_BAD, G_DECK, G_DECK_TOP, G_SEAT, G_STOP, K_N_DECK, MAX_CT,
                    N_EVENT_FIELDS, RULES_END, STATE_SIZE)

I64 = types.int64
STATE = types.int64[::1]


@njit(cache=True)
def no_log_nb():
    """The log the forward model's kernels hand the engine: G_LOG_CAP is 0, so no row
    is written (events are counted only)."""
    return np.zeros(N_EVENT_FIELDS, np.int64)


@njit(types.void(STATE, types.uint64, I64), cache=True)
def begin_nb(s, seed, game):
    """Set up game ``game`` (its own seed ``seed``) in s and run to its first decision."""
    log = no_log_nb()
    zero = np.int64(0)
    engine_begin_nb(state_ptr_nb(s), seed, game, state_ptr_nb(log), zero, zero)
    keep_nb(log)


@njit(cache=True)
def step_ptr_nb(p, lp, a):
    """Answer the pending decision with ``a`` if the engine accepts it (ok_nb) and run
    to the next decision; otherwise mark the state stopped (G_STOP, G_BAD)."""
    if not ok_nb(p, a):
        p[G_STOP] = 1
        p[G_BAD] = a
        return False
    answer_nb(p, a, lp)
    return True


@njit(types.void(STATE, I64), cache=True)
def step_nb(s, a):
    log = no_log_nb()
    step_ptr_nb(state_ptr_nb(s), state_ptr_nb(log), a)
    keep_nb(log)


@njit(types.int64(STATE, DecideType), cache=True)
def bot_answer_nb(s, decide):
    """The pending seat's bot's answer, asked as the engine asks (core ask_nb: what a
    bot may see); a refused answer (or a user bot's fault) marks the state stopped."""
    p = state_ptr_nb(s)
    a = ask_nb(decide, p[G_ASK], p, p[G_SEAT])
    if a == BOT_FAULT or not ok_nb(p, a):
        p[G_STOP] = 1
        p[G_BAD] = a
    return a


@njit(types.void(STATE, DecideType), cache=True)
def playout_nb(s, decide):
    """On to the end with the table's bots (stops at a refused answer)."""
    log = no_log_nb()
    p = state_ptr_nb(s)
    lp = state_ptr_nb(log)
    while p[G_ASK] >= 0:
        if not step_ptr_nb(p, lp, ask_nb(decide, p[G_ASK], p, p[G_SEAT])):
            break
    keep_nb(log)


@njit(types.int64(STATE, types.int64[::1]), cache=True)
def legal_nb(s, out):
    """The pending decision's legal answers into out (enums.MAX_LEGAL long); their number."""
    return engine_legal_nb(state_ptr_nb(s), out)


@njit(cache=True)
def clone_into_nb(dst, src):
    """Copy the game (the core header and the game part; the rules' words are the
    table's and never written) from src to dst."""
    for i in range(HEADER_LEN):
        dst[i] = src[i]
    for i in range(RULES_END, STATE_SIZE):
        dst[i] = src[i]


@njit(cache=True)
def unseen_in_card_order_nb(s):
    """Put the deck's unrevealed cards (public: which; hidden: their order) in card order."""
    top, n = s[G_DECK_TOP], s[K_N_DECK]
    count = np.zeros(MAX_CT, np.int64)
    for i in range(top, n):
        count[s[G_DECK + i]] += 1
    i = top
    for card in range(MAX_CT):
        for _ in range(count[card]):
            s[G_DECK + i] = card
            i += 1


@njit(cache=True)
def determinize_nb(s, seat, rng_state):
    """Resample what ``seat`` cannot know from its stream ``rng_state``: the order of the
    deck's unrevealed cards (which cards they are is public: the box less every card
    shown), the future dice (a new chance stream) and the other seats' random streams
    (a new bots' seed). The unrevealed cards are put in card order first, so the new
    order is a function of the seat's stream alone, never of the real order. Nothing
    else changes."""
    unseen_in_card_order_nb(s)
    top, n = s[G_DECK_TOP], s[K_N_DECK]
    s[M_RNG] = seat_stream_nb(rng_state, seat, np.int64(0x5EED))
    for i in range(n - 1, top, -1):
        j = top + rand_below_at_nb(s, M_RNG, i - top + 1)
        t = s[G_DECK + i]
        s[G_DECK + i] = s[G_DECK + j]
        s[G_DECK + j] = t
    s[M_BOT_SEED] = bot_seed_nb(s[M_RNG])
    s[M_RNG] = seat_stream_nb(s[M_RNG], seat, np.int64(0xD1CE))
