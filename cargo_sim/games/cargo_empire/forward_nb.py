"""Cargo Empire's forward-model kernels: a game stepped decision by decision, for the
core's GameState (forward.py) and later the search kit.

The rules are engine_nb's; these kernels drive them with no event log and mark a
refused answer in the state (``G_STOP``, ``G_BAD``) instead of raising.

What a seat cannot see (docs/rules_cargo_empire.md, "Hidden information"): the order
of the city deck, the other seats' city cards not yet revealed (setup), the mission
deck's order and the other seats' missions (and a mission draw they are choosing
from), the tile bag's remaining tiles, the future chance (``M_RNG``) and the other
seats' random streams (``M_BOT_SEED``). ``determinize_nb`` resamples exactly these.
"""
import numpy as np
from ...core import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit, types

from ...core.borrow_nb import keep_nb, state_ptr_nb
from ...core.dispatch_nb import DecideType, ask_nb
from ...core.layout import BOT_FAULT, HEADER_LEN, M_BOT_SEED, M_RNG, R_N_PLAYERS
from ...core.rng_nb import bot_seed_nb, rand_below_at_nb, seat_stream_nb
from .engine_nb import answer_nb, begin_nb as engine_begin_nb, run_nb as run_ptr_nb, legal_nb as engine_legal_nb, ok_nb, pb
from .enums import (D_MISSION, G_ASK, G_BAD, G_BAG, G_DECK, G_DECK_N, G_DECK_TOP, G_MDECK, G_MN,
                    G_MOFFER, G_MOFFER_N, G_MTOP, G_SEAT, G_STOP, K_NC, K_NMISS, K_NTILES, MAXC,
                    MAX_MISSIONS, MAX_SEATS, MAX_KEEP, N_EVENT_FIELDS, P_MISS, P_NMISS, P_SECRET,
                    RULES_END, STATE_SIZE)

I64 = types.int64
STATE = types.int64[::1]


@njit(cache=True)
def no_log_nb():
    return np.zeros(N_EVENT_FIELDS, np.int64)


@njit(types.void(STATE, types.uint64, I64), cache=True)
def begin_nb(s, seed, game):
    log = no_log_nb()
    zero = np.int64(0)
    engine_begin_nb(state_ptr_nb(s), seed, game, state_ptr_nb(log), zero, zero)
    keep_nb(log)


@njit(cache=True)
def step_ptr_nb(p, lp, a):
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
    p = state_ptr_nb(s)
    a = ask_nb(decide, p[G_ASK], p, p[G_SEAT])
    if a == BOT_FAULT or not ok_nb(p, a):
        p[G_STOP] = 1
        p[G_BAD] = a
    return a


@njit(types.void(STATE, DecideType), cache=True)
def playout_nb(s, decide):
    log = no_log_nb()
    p = state_ptr_nb(s)
    lp = state_ptr_nb(log)
    while p[G_ASK] >= 0:
        if not step_ptr_nb(p, lp, ask_nb(decide, p[G_ASK], p, p[G_SEAT])):
            break
    keep_nb(log)


@njit(types.void(STATE), cache=True)
def resume_nb(s):
    """Run the machine from the state's phase to its next decision (a state edited by
    hand, e.g. a scenario test's), through the engine's compiled pointer kernels."""
    log = no_log_nb()
    run_ptr_nb(state_ptr_nb(s), state_ptr_nb(log))
    keep_nb(log)


@njit(types.int64(STATE, types.int64[::1]), cache=True)
def legal_nb(s, out):
    return engine_legal_nb(state_ptr_nb(s), out)


@njit(cache=True)
def clone_into_nb(dst, src):
    """Copy the game (the core header and the game part; the rules' words are the table's)."""
    for i in range(HEADER_LEN):
        dst[i] = src[i]
    for i in range(RULES_END, STATE_SIZE):
        dst[i] = src[i]


@njit(cache=True)
def sort_ring_nb(s, at, top, n, size):
    """Sort the n entries of a ring (at, top, size) in place: which they are stays, their
    order (hidden) is forgotten."""
    for i in range(1, n):
        j = i
        while j > 0:
            x, y = at + (top + j - 1) % size, at + (top + j) % size
            if s[x] <= s[y]:
                break
            s[x], s[y] = s[y], s[x]
            j -= 1


@njit(cache=True)
def hidden_save_nb(p):
    """The decks' orders, kept (for hidden_restore_nb), then sorted (a user bot's view)."""
    saved = np.empty(MAXC + MAX_MISSIONS, np.int64)
    for i in range(MAXC):
        saved[i] = p[G_DECK + i]
    for i in range(MAX_MISSIONS):
        saved[MAXC + i] = p[G_MDECK + i]
    sort_ring_nb(p, G_DECK, p[G_DECK_TOP], p[G_DECK_N], MAXC)
    if p[K_NMISS] > 0:
        sort_ring_nb(p, G_MDECK, p[G_MTOP], p[G_MN], p[K_NMISS])
    return saved


@njit(cache=True)
def hidden_restore_nb(p, saved):
    for i in range(MAXC):
        p[G_DECK + i] = saved[i]
    for i in range(MAX_MISSIONS):
        p[G_MDECK + i] = saved[MAXC + i]


@njit(cache=True)
def determinize_nb(s, seat, rng_state):
    """Resample what ``seat`` cannot know from its stream: the unseen city cards (the deck
    and the other seats' unrevealed cards) and unseen missions (the deck, the other seats'
    missions, another seat's pending draw) dealt again from their pool in card order, the
    tile bag's rest shuffled, a new chance stream and bots' seed. Nothing else changes."""
    n = s[R_N_PLAYERS]
    s[M_RNG] = seat_stream_nb(rng_state, seat, np.int64(0x5EED))
    pool = np.zeros(MAXC + MAX_MISSIONS + MAX_SEATS * MAX_KEEP + 4, np.int64)
    # city cards
    k = 0
    for i in range(s[G_DECK_N]):
        pool[k] = s[G_DECK + (s[G_DECK_TOP] + i) % MAXC]
        k += 1
    for q in range(n):
        if q != seat and s[pb(q) + P_SECRET] >= 0:
            pool[k] = s[pb(q) + P_SECRET]
            k += 1
    deal_nb(s, pool, k)
    k = 0
    for i in range(s[G_DECK_N]):
        s[G_DECK + (s[G_DECK_TOP] + i) % MAXC] = pool[k]
        k += 1
    for q in range(n):
        if q != seat and s[pb(q) + P_SECRET] >= 0:
            s[pb(q) + P_SECRET] = pool[k]
            k += 1
    # missions
    offer = s[G_ASK] == D_MISSION and s[G_SEAT] != seat
    k = 0
    nm = s[K_NMISS]
    for i in range(s[G_MN]):
        pool[k] = s[G_MDECK + (s[G_MTOP] + i) % nm]
        k += 1
    for q in range(n):
        if q != seat:
            for i in range(s[pb(q) + P_NMISS]):
                pool[k] = s[pb(q) + P_MISS + i]
                k += 1
    if offer:
        for i in range(s[G_MOFFER_N]):
            pool[k] = s[G_MOFFER + i]
            k += 1
    deal_nb(s, pool, k)
    k = 0
    for i in range(s[G_MN]):
        s[G_MDECK + (s[G_MTOP] + i) % nm] = pool[k]
        k += 1
    for q in range(n):
        if q != seat:
            for i in range(s[pb(q) + P_NMISS]):
                s[pb(q) + P_MISS + i] = pool[k]
                k += 1
    if offer:
        for i in range(s[G_MOFFER_N]):
            s[G_MOFFER + i] = pool[k]
            k += 1
    # the bag's tiles never drawn
    nc, nt = s[K_NC], s[K_NTILES]
    for i in range(nt - 1, nc, -1):
        j = nc + rand_below_at_nb(s, M_RNG, i - nc + 1)
        s[G_BAG + i], s[G_BAG + j] = s[G_BAG + j], s[G_BAG + i]
    s[M_BOT_SEED] = bot_seed_nb(s[M_RNG])
    s[M_RNG] = seat_stream_nb(s[M_RNG], seat, np.int64(0xD1CE))


@njit(cache=True)
def deal_nb(s, pool, k):
    """Sort the pool (forget the real order), then shuffle it from the chance stream."""
    pool[:k].sort()
    for i in range(k - 1, 0, -1):
        j = rand_below_at_nb(s, M_RNG, i + 1)
        pool[i], pool[j] = pool[j], pool[i]
