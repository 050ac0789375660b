"""Shipwrights' forward model kernels: a game stepped decision by decision (docs/contract.md,
"The forward model"), for the core's GameState (forward.py) and the search kit; and the
one rule of what a seat may know (``regroup_nb``).

What a seat cannot see (docs/rules_shipwrights.md, "What a seat knows"): the deck's order
(only the goods price on the top card's back, ``G_TOP_BACK``, is public), the cards
in other seats' hands and the day's face-down discards, and the game's chance stream.
From the draft it knows the cards it passed on: in each draft round the cards kept by
the seats after it and the round's face-down card are the packet it passed (a known
set, its order among them unknown); the cards kept by the seats before it, and the
cards drawn in the afternoon, are as unknown as the deck. ``determinize_nb`` shuffles
exactly these groups; the user-bot call sorts them (``dispatch_nb``).
"""
import numpy as np
from ...core import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit, types

from ...core.dispatch_nb import DecideType, ask_nb
from ...core.layout import BOT_FAULT, HEADER_LEN, M_BOT_SEED, M_RNG, R_N_PLAYERS
from ...core.rng_nb import bot_seed_nb, rand_below_at_nb, seat_stream_nb
from .engine_nb import answer_nb, begin_nb as engine_begin_nb, legal_nb as engine_legal_nb, ok_nb, pb
from .enums import (D_DRAFT, G_ASK, G_BAD, G_DECK, G_DECK_N, G_FD, G_FD_N, G_FD_ROUND, G_PACKET,
                    G_PACKET_N, G_POS, G_ROUND, G_SEAT, G_STOP, G_TOP_BACK, K_BOX_BACK, MAX_DECK,
                    MAX_ROUNDS, N_EVENT_FIELDS, P_HAND, P_HAND_N, P_SRC, ROUND_DRAWN, RULES_END,
                    STATE_SIZE)

I64 = types.int64
STATE = types.int64[::1]
UNKNOWN = MAX_ROUNDS          # the group of cards as unknown as the deck


@njit(cache=True)
def no_log_nb():
    """The forward model writes no events (G_LOG_CAP is 0)."""
    return np.zeros((0, N_EVENT_FIELDS), np.int64)


@njit(types.void(STATE, types.uint64, I64), cache=True)
def begin_nb(s, seed, game):
    engine_begin_nb(s, seed, game, no_log_nb(), 0, 0)


@njit(cache=True)
def step_log_nb(s, a, log):
    """Answer the pending decision with ``a`` if the engine accepts it; otherwise mark the
    state stopped (G_STOP, G_BAD) and change nothing else."""
    if not ok_nb(s, a):
        s[G_STOP] = 1
        s[G_BAD] = a
        return False
    answer_nb(s, a, log)
    return True


@njit(types.void(STATE, I64), cache=True)
def step_nb(s, a):
    step_log_nb(s, a, no_log_nb())


@njit(types.int64(STATE, DecideType), cache=True)
def bot_answer_nb(s, decide):
    a = ask_nb(decide, s[G_ASK], s, s[G_SEAT])
    if a == BOT_FAULT or not ok_nb(s, a):
        s[G_STOP] = 1
        s[G_BAD] = a
    return a


@njit(types.void(STATE, DecideType), cache=True)
def playout_nb(s, decide):
    log = no_log_nb()
    while s[G_ASK] >= 0:
        if not step_log_nb(s, ask_nb(decide, s[G_ASK], s, s[G_SEAT]), log):
            break


@njit(types.int64(STATE, types.int64[::1]), cache=True)
def legal_nb(s, out):
    return engine_legal_nb(s, out)


@njit(cache=True)
def clone_into_nb(dst, src):
    """Copy the game (the core header and the game part; the rules' words are the table's)."""
    for i in range(HEADER_LEN):
        dst[i] = src[i]
    for i in range(RULES_END, STATE_SIZE):
        dst[i] = src[i]


# ---- what a seat knows ------------------------------------------------------------------------
@njit(cache=True)
def hidden_slots_nb(s, seat, addr, group):
    """The words holding a card ``seat`` cannot see, each with its group: UNKNOWN (deck,
    the hands' cards it never saw) or the draft round r whose passed packet it is in.
    Returns how many."""
    n = s[R_N_PLAYERS]
    me = s[G_POS + seat]
    m = 0
    for i in range(s[G_DECK_N]):
        addr[m], group[m] = G_DECK + i, UNKNOWN
        m += 1
    for q in range(n):
        if q == seat:
            continue
        b = pb(q)
        for h in range(s[b + P_HAND_N]):
            src = s[b + P_SRC + h]
            addr[m] = b + P_HAND + h
            group[m] = src if (src < ROUND_DRAWN and s[G_POS + q] > me) else UNKNOWN
            m += 1
    if me != n - 1:                          # the last seat laid the face-down cards itself
        for i in range(s[G_FD_N]):
            addr[m], group[m] = G_FD + i, s[G_FD_ROUND + i]
            m += 1
    if s[G_ASK] == D_DRAFT and s[G_SEAT] != seat:
        g = s[G_ROUND] if s[G_POS + s[G_SEAT]] > me else UNKNOWN
        for i in range(s[G_PACKET_N]):
            addr[m], group[m] = G_PACKET + i, g
            m += 1
    return m


@njit(cache=True)
def regroup_nb(s, seat, shuffle):
    """Rearrange what ``seat`` cannot know: within each group the cards are shuffled (from
    the chance stream M_RNG, ``shuffle``) or sorted (a canonical order that reveals
    nothing); the deck's top card keeps its public back."""
    addr = np.empty(3 * MAX_DECK, np.int64)
    group = np.empty(3 * MAX_DECK, np.int64)
    vals = np.empty(3 * MAX_DECK, np.int64)
    where = np.empty(3 * MAX_DECK, np.int64)
    m = hidden_slots_nb(s, seat, addr, group)
    for g in range(UNKNOWN + 1):
        k = 0
        for i in range(m):
            if group[i] == g:
                where[k] = addr[i]
                vals[k] = s[addr[i]]
                k += 1
        if k < 2:
            continue
        if shuffle:
            for i in range(k - 1, 0, -1):
                j = rand_below_at_nb(s, M_RNG, i + 1)
                t = vals[i]
                vals[i] = vals[j]
                vals[j] = t
        else:
            vals[:k].sort()
        for i in range(k):
            s[where[i]] = vals[i]
    top = s[G_DECK_N] - 1
    if top >= 0 and s[K_BOX_BACK + s[G_DECK + top]] != s[G_TOP_BACK]:
        for i in range(m):                   # a card with the top's back (the real one is there)
            a = addr[i]
            if group[i] == UNKNOWN and a != G_DECK + top and s[K_BOX_BACK + s[a]] == s[G_TOP_BACK]:
                t = s[a]
                s[a] = s[G_DECK + top]
                s[G_DECK + top] = t
                break


@njit(cache=True)
def determinize_nb(s, seat, rng_state):
    """Resample what ``seat`` cannot know from its stream: the hidden cards (regroup_nb),
    the future chance (a new M_RNG) and the other seats' random streams (a new bots'
    seed). The hidden cards are sorted first, so the result depends on the seat's
    stream alone, never on the real order. Nothing the seat sees changes."""
    regroup_nb(s, seat, False)
    s[M_RNG] = seat_stream_nb(rng_state, seat, np.int64(0x5EED))
    regroup_nb(s, seat, True)
    s[M_BOT_SEED] = bot_seed_nb(s[M_RNG])
    s[M_RNG] = seat_stream_nb(s[M_RNG], seat, np.int64(0xD1CE))
