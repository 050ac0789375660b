"""The `random` bot: at every decision, a uniformly random legal answer.

It is the baseline every strategy must beat and the engine's fuzzer: it
explores odd corners (huge raises, black-market swaps of Wilds, selling
tokens for cheap cards) that sensible bots never reach.
Trades: each held token is offered with probability 1/2, then cards are
taken one at a time uniformly among those still affordable (or stop); a
trade that buys nothing is not made. Bids: uniform between the least legal
bid and all the coins in the safe.
Its coin flips come from its seat's own stream (enums.M_BOT_RNG, a new one at
each decision), never the game's chance stream; as a search bot's model it
draws from the search's copy's stream instead (``at``: the slot drawn from).
"""
import numpy as np
from ....core import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit

from ....core.borrow_nb import popcount_nb
from ....core.rng_nb import fair_flips_each_at_nb, rand_below_at_nb
from ..engine_nb import (card_buyable_nb, card_i, hand_i, least_card_cost_nb, n_tok_nb, pl_i,
                         port_min_bid_nb, trade_budget_extra_nb,
                         trade_value_at_nb, trade_value_bound_nb)
from ..enums import (BLACK_MARKET, BM_CODE, BM_DRAW, C_COST, CTX, D_BLACK_MARKET, D_DISCARD,
                     D_ORDER, D_RAISE, D_SEND, D_TRADE, LOC_BLACK_MARKET, LOC_CASINO, LOC_PORT0,
                     MAX_CARDS, MAX_PORTS, M_BOT_RNG, OUT, OUT_CARDS, PL_COINS, R_N_CARDS, R_N_PORTS,
                     R_N_TYPES, SCRATCH, SCRATCH_W)

# working space in the scratch area (within one decision): copies of each card the
# seat may still take (after MAX_PORTS words, where a least bid per port once was)
ROOM = SCRATCH + MAX_PORTS
assert ROOM + MAX_CARDS <= SCRATCH + SCRATCH_W


@njit(cache=True, inline="always")     # random_decide_at_nb's one call: no call
def random_order_nb(s, seat, at):
    # the pending locations as bits (as random_send_nb's ports): the r-th one found
    # by clearing r bits, without a branch per location
    pending = np.int64(0)
    for loc in range(LOC_PORT0 + s[R_N_PORTS]):
        pending |= np.int64(s[CTX + loc] > 0) << loc
    r = rand_below_at_nb(s, at, popcount_nb(pending))
    if pending == 0:
        return -1
    for _ in range(r):
        pending &= pending - 1
    return popcount_nb((pending & -pending) - 1)      # the lowest bit left


@njit(cache=True)
def random_raise_nb(s, seat, at):
    need = s[CTX + 1]
    r = rand_below_at_nb(s, at, s[pl_i(seat, PL_COINS)] - need + 2)
    return 0 if r == 0 else need + r - 1


@njit(cache=True, inline="always")     # random_decide_at_nb's one call: no call
def random_black_market_nb(s, seat, at):
    nt = n_tok_nb(s)
    n_give = 0
    n_take = 0
    for t in range(nt):
        if s[hand_i(seat, t)] > 0:
            n_give += 1
        if s[BLACK_MARKET + t] > 0:
            n_take += 1
    r = rand_below_at_nb(s, at, 1 + n_give * n_take)
    if r == 0:
        return BM_DRAW
    r -= 1
    gi = r // n_take
    ti = r % n_take
    give = -1
    take = -1
    for t in range(nt):
        if s[hand_i(seat, t)] > 0:
            if gi == 0:
                give = t
            gi -= 1
        if s[BLACK_MARKET + t] > 0:
            if ti == 0:
                take = t
            ti -= 1
    return give * BM_CODE + take


@njit(cache=True, inline="always")     # random_decide_at_nb's one call: no call
def random_trade_nb(s, seat, at):
    n_types = s[R_N_TYPES]
    n_sold = fair_flips_each_at_nb(s, at, hand_i(seat, 0), OUT, n_tok_nb(s))
    extra = trade_budget_extra_nb(s, seat)
    if extra == 0 and 0 <= trade_value_bound_nb(s, n_sold) < least_card_cost_nb(s):
        return 0        # nothing affordable: the search below would buy nothing and draw nothing
    budget = extra + trade_value_at_nb(s, OUT, s[OUT + n_types])
    n_cards = s[R_N_CARDS]
    for c in range(n_cards):          # copies the seat may take (fixed during the decision)
        s[ROOM + c] = card_buyable_nb(s, seat, c)
    bought = 0
    while True:
        n = 0
        for c in range(n_cards):
            n += (s[card_i(c, C_COST)] <= budget) & (s[OUT_CARDS + c] < s[ROOM + c])
        if n == 0:
            break
        r = rand_below_at_nb(s, at, n + 1)
        if r == n:
            break
        for c in range(n_cards):
            if s[card_i(c, C_COST)] <= budget and s[OUT_CARDS + c] < s[ROOM + c]:
                if r == 0:
                    s[OUT_CARDS + c] += 1
                    budget -= s[card_i(c, C_COST)]
                    bought += 1
                    break
                r -= 1
    return 1 if bought > 0 else 0


@njit(cache=True)
def random_discard_nb(s, seat, at):
    nt = n_tok_nb(s)
    left = 0
    for t in range(nt):
        left += s[hand_i(seat, t)]
    for _ in range(s[CTX]):
        r = rand_below_at_nb(s, at, left)
        for t in range(nt):
            avail = s[hand_i(seat, t)] - s[OUT + t]
            if r < avail:
                s[OUT + t] += 1
                break
            r -= avail
        left -= 1
    return 0


@njit(cache=True, inline="always")     # random_decide_at_nb's one call, the most frequent: no call
def random_send_nb(s, seat, at):
    # the open ports as bits (no scratch words): the n-th is found by clearing n bits
    legal = np.int64(0)
    for p in range(s[R_N_PORTS]):
        legal |= np.int64(port_min_bid_nb(s, seat, p) > 0) << p
    r = rand_below_at_nb(s, at, 2 + popcount_nb(legal))
    if r == 0:
        return LOC_CASINO
    if r == 1:
        return LOC_BLACK_MARKET
    for _ in range(r - 2):
        legal &= legal - 1
    p = popcount_nb((legal & -legal) - 1)      # the lowest bit left
    need = port_min_bid_nb(s, seat, p)
    s[OUT] = need + rand_below_at_nb(s, at, s[pl_i(seat, PL_COINS)] - need + 1)
    return LOC_PORT0 + p


@njit(cache=True)
def random_decide_at_nb(kind, s, seat, at):
    """The random bot drawing from the stream kept in s[at]."""
    # the kinds by how often they are asked (4 players: ~108 sends a game, 36 trades,
    # 32 Black Market visits, then orders, discards, raises): fewer tests per decision
    if kind == D_SEND:
        return random_send_nb(s, seat, at)
    if kind == D_TRADE:
        return random_trade_nb(s, seat, at)
    if kind == D_BLACK_MARKET:
        return random_black_market_nb(s, seat, at)
    if kind == D_ORDER:
        return random_order_nb(s, seat, at)
    if kind == D_DISCARD:
        return random_discard_nb(s, seat, at)
    if kind == D_RAISE:
        return random_raise_nb(s, seat, at)
    return -1


@njit(cache=True)
def random_decide_nb(kind, s, seat):
    """The random bot at a table: its seat's own stream (enums.M_BOT_RNG)."""
    return random_decide_at_nb(kind, s, seat, M_BOT_RNG)
