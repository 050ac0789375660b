"""The forward model's kernels: a Cargo Noir game stepped decision by decision.

A game is a state array made from a table template (``simulate.table_template``).
``begin_nb`` sets it up and stops at the first decision; ``pending_nb`` says which
seat decides what; ``legal_nb`` lists the legal answers; ``step_nb`` applies one
answer (and the vector answer in ``s[OUT...]``) and runs to the next decision;
``playout_nb`` plays to the end with the table's bots (``table_playout_nb`` and
``table_bot_answer_nb``: the same with the table's decide kernel held in the state,
for calls from Python); ``clone_into_nb`` copies the
game part only (the trade tables and the bots' workspace after it are read-only
for the rules, so states of one table share them). The rules themselves are in
``engine_nb``: these kernels only drive its resumable machine.
See docs/contract.md.
"""
import numpy as np
from ...core import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit, types

from .engine_nb import (DecideType, answer_nb, ask_nb, begin_game_nb, failed_nb, hand_i, illegal_nb,
                        n_tok_nb, needed_solver_nb, pl_i, play_on_nb, port_min_bid_nb, start_state_nb,
                        top_bid_nb, port_bid_i)
from ...core.borrow_nb import function_at
from ...core.dispatch_nb import UNSET
from ...core.layout import R_DECIDE_C, R_DECIDE_JIT
from ...core.rng_nb import keyed_stream_nb, mix64_nb, seat_stream_nb
from .enums import (BLACK_MARKET, BM_CODE, BM_DRAW, CTX, D_BLACK_MARKET, D_ORDER, D_RAISE,
                    D_SEND, LOC_BLACK_MARKET, LOC_CASINO, LOC_PORT0, M_ASK, M_AUX, M_BOT_SEED,
                    M_FREE_15, M_FREE_22, DIGEST_SHIFT, M_GAME, M_N_EVENTS, M_RNG, M_SEAT, M_SEAT_KEY, M_STEP, MISC, OUT, P, PL_COINS, R_N_PLAYERS,
                    R_N_PORTS, ST_OVER, STATE_SIZE, STATS, STATS_W)

# legal_nb's rows: (answer, lo, hi). For D_SEND to a port the bid in s[OUT] ranges over
# [lo, hi]; for D_RAISE the row (RANGE, lo, hi) stands for every raise lo..hi.
# Vector decisions (D_TRADE, D_DISCARD) are not enumerated: legal_nb returns VECTOR.
RANGE = -2
VECTOR = -1
MAX_LEGAL = 2 + 16 * 16


@njit(types.void(types.int64[::1], types.int64[:, ::1], types.uint64, types.int64, types.int64),
      cache=True)
def begin_nb(s, log, seed, game, exact_fn):
    """Set up game `game` (its own seed `seed`) in s and run to its first decision."""
    p, plog = start_state_nb(s, log, exact_fn)
    begin_game_nb(p, plog, np.int64(seed), game, np.int64(0))


@njit(types.void(types.int64[::1], types.int64[:, ::1], types.int64, types.int64), cache=True)
def step_nb(s, log, answer, exact_fn):
    """Answer the pending decision (vector answers already in s[OUT...]) and run to the next."""
    p, plog = start_state_nb(s, log, exact_fn)
    answer_nb(p, plog, answer)


# the table's decide kernel made from its addresses in the state (table_template):
# a first-class function handed from Python would cost a look-up per call
decide_at_nb = function_at(DecideType)


@njit(cache=True)
def table_decide_nb(s):
    """The table's decide kernel (s[R_DECIDE_JIT], s[R_DECIDE_C]); check has_decide_nb first."""
    return decide_at_nb(s[R_DECIDE_JIT], s[R_DECIDE_C])


@njit(cache=True)
def has_decide_nb(s):
    """The state carries its table's decide kernel; if not, the game is stopped (an
    illegal answer of the pending seat: table_template was not used)."""
    if s[R_DECIDE_C] != 0:
        return True
    illegal_nb(s, s[M_ASK], s[M_SEAT], UNSET, -1)
    return False


@njit(types.void(types.int64[::1], types.int64[:, ::1], DecideType, types.int64), cache=True)
def playout_nb(s, log, decide, exact_fn):
    """Play on to the end (or an illegal answer) with the table's bots."""
    p, plog = start_state_nb(s, log, exact_fn)
    play_on_nb(p, plog, decide)


@njit(types.int64(types.int64[::1], DecideType), cache=True)
def bot_answer_nb(s, decide):
    """What the pending seat's bot answers (its vector answer is left in s[OUT...]),
    asked as the engine asks (engine_nb.ask_nb: what a bot can see)."""
    return ask_nb(decide, s[M_ASK], s, s[M_SEAT])


# The same two for calls from Python: the table's decide kernel comes from the state
# (R_DECIDE_JIT, R_DECIDE_C: forward._with_decide), not as an argument.
@njit(types.void(types.int64[::1], types.int64[:, ::1], types.int64), cache=True)
def table_playout_nb(s, log, exact_fn):
    """playout_nb with the table's decide kernel held in s."""
    p, plog = start_state_nb(s, log, exact_fn)
    if has_decide_nb(p):
        play_on_nb(p, plog, table_decide_nb(p))


@njit(types.int64(types.int64[::1]), cache=True)
def table_bot_answer_nb(s):
    """bot_answer_nb with the table's decide kernel held in s."""
    if not has_decide_nb(s):
        return UNSET
    return ask_nb(table_decide_nb(s), s[M_ASK], s, s[M_SEAT])


@njit(cache=True)
def clone_into_nb(dst, src):
    """Copy the game (rules header and state, not the shared tables) from src to dst."""
    for i in range(STATE_SIZE):
        dst[i] = src[i]


@njit(cache=True)
def pending_nb(s):
    """(decision kind, seat) the game waits for; kind -1 when it is over or stopped."""
    return s[M_ASK], s[M_SEAT]


@njit(cache=True)
def is_over_nb(s):
    return s[M_STEP] == ST_OVER


@njit(cache=True)
def stopped_nb(s):
    """An answer was illegal, or a holding needed the exact trade solver (not loaded)."""
    return failed_nb(s) or needed_solver_nb(s)


@njit(cache=True)
def legal_nb(s, out):
    """The legal answers of the pending decision as rows (answer, lo, hi) in out;
    returns their number, or VECTOR for a decision answered by a vector."""
    kind = s[M_ASK]
    seat = s[M_SEAT]
    coins = s[pl_i(seat, PL_COINS)]
    n = 0
    if kind == D_SEND:
        for loc in (LOC_CASINO, LOC_BLACK_MARKET):
            out[n, 0], out[n, 1], out[n, 2] = loc, 0, 0
            n += 1
        for p in range(s[R_N_PORTS]):
            need = port_min_bid_nb(s, seat, p)
            if need >= 0:
                out[n, 0], out[n, 1], out[n, 2] = LOC_PORT0 + p, need, coins
                n += 1
    elif kind == D_ORDER:
        for loc in range(LOC_PORT0 + s[R_N_PORTS]):
            if s[CTX + loc] > 0:
                out[n, 0], out[n, 1], out[n, 2] = loc, 0, 0
                n += 1
    elif kind == D_RAISE:
        p = s[M_AUX]
        need = top_bid_nb(s, p, seat) + 1 - s[port_bid_i(p, seat)]
        out[0, 0], out[0, 1], out[0, 2] = 0, 0, 0
        out[1, 0], out[1, 1], out[1, 2] = RANGE, need, coins
        n = 2
    elif kind == D_BLACK_MARKET:
        out[0, 0], out[0, 1], out[0, 2] = BM_DRAW, 0, 0
        n = 1
        nt = n_tok_nb(s)
        for give in range(nt):
            if s[hand_i(seat, give)] > 0:
                for take in range(nt):
                    if s[BLACK_MARKET + take] > 0:
                        out[n, 0], out[n, 1], out[n, 2] = give * BM_CODE + take, 0, 0
                        n += 1
    elif kind >= 0:
        return VECTOR
    return n


@njit(cache=True)
def step_in_nb(p, plog, answer):
    """step_nb inside a kernel: p and plog are pointers (state_ptr_nb) to a state
    set up by an entry kernel (its sizes and solver address are in place)."""
    answer_nb(p, plog, answer)


@njit(cache=True)
def returns_nb(s, seat):
    """(victory points, win share) of a seat in a finished game."""
    at = STATS + seat * STATS_W
    if s[at + P.won] == 0:
        return s[at + P.vp], 0.0
    n_won = 0
    for q in range(s[R_N_PLAYERS]):
        n_won += s[STATS + q * STATS_W + P.won]
    return s[at + P.vp], 1.0 / n_won


@njit(cache=True)
def view_digest_nb(s, seat):
    """A digest of what `seat` may know of the game (everything from the clock to
    the decision context, except the chance stream and the log's bookkeeping),
    keyed by the seat's key: the start of a search seat's own random stream at
    this decision (never the game's M_RNG). The key is s[M_SEAT_KEY], which
    engine_nb.ask_nb hands a search seat only (rng_nb.seat_key_nb: the same
    stream as seat_stream_nb of the bots' seed). `seat` must be the asked seat."""
    h = np.uint64(0x243F6A8885A308D3)
    for i in range(MISC, OUT):
        if i != M_FREE_15 and i != M_N_EVENTS and i != M_GAME and i != M_FREE_22:
            h = mix64_nb(h ^ np.uint64(s[i])) + np.uint64(i + DIGEST_SHIFT)
    return keyed_stream_nb(s[M_SEAT_KEY], np.int64(h))


@njit(cache=True)
def determinize_nb(s, seat, rng_state):
    """Resample what `seat` cannot know, from the seat's own stream: the bag's
    contents are public (every other token is in view), the order of its future
    draws is not; in this engine that order is the game's chance stream, so a
    determinization replaces M_RNG with a draw of the seat's stream rng_state."""
    s[M_RNG] = seat_stream_nb(rng_state, seat, np.int64(0x5EED))
