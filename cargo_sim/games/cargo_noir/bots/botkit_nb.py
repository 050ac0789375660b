"""What a bot may read, and the tools it may use: the built-in bots' kit.

These are the fast, unchecked versions the built-in bots use; user bots get
the same names from ``userkit_nb`` (``cargo_sim.botkit``), which check their
arguments first. A bot is a numba function ``decide(kind, s, seat) -> int`` (see ``enums.D_*``
for the decisions, their context ``s[CTX + i]`` and their answers). It reads
the game through the functions below -- never by writing into ``s``, except
its answer in ``s[OUT + i]``, its own notes in ``s[SCRATCH + i]`` and the card
utilities it hands to ``plan_trade_answer_nb`` (``utility_buffer_nb(s)`` gives
them room in the state, so a trade decision need not allocate).
"""
import numpy as np
from ....core import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit

from ..engine_nb import (card_buyable_nb, card_i, cards_i, hand_i, hand_size_nb, n_tok_nb, param_nb,
                         pl_i, port_bid_i, port_min_bid_nb, port_tok_i,
                         top_bid_nb, trade_budget_extra_nb, trade_value_at_nb)
from ..enums import (ABANDONED, BAG, BLACK_MARKET, C_COST, C_EDGE, C_SHIPS, C_SYNDICATE, C_VP, C_WAREHOUSE,
                     M_BANK, M_FINAL, M_TURN, OUT, OUT_CARDS, PL_CASINO_SHIPS, PL_COINS, PL_SHIPS,
                     PL_WAREHOUSE, PORT_SLOTS, R_UNLIMITED_COINS,
                     R_WORK, R_WORK_LEN, MAX_CARDS,
                     R_N_CARDS, R_N_PLAYERS, R_N_PORTS, R_N_TURNS, R_N_TYPES, SCRATCH,
                     MAX_TOK, M_BOT_RNG)
from ....core.borrow_nb import addr_ptr_nb, state_array_nb
from ....core.shared_nb import shared_array_nb
from ....core.rng_nb import rand_below_at_nb, rand_float_at_nb
from ..trade.packed_nb import packed_plan_trade_nb

__all__ = [
    "n_players_nb", "n_types_nb", "n_ports_nb", "n_cards_nb", "turn_nb", "turns_left_nb",
    "is_final_turn_nb", "hand_nb", "coins_nb", "ships_nb", "warehouse_nb", "hand_size_nb",
    "port_cargo_nb", "port_slots_nb", "port_bid_nb", "top_bid_nb", "port_min_bid_nb",
    "black_market_nb", "bag_nb", "card_cost_nb", "card_vp_nb", "card_is_edge_nb", "card_ships_nb",
    "card_warehouse_nb", "card_syndicate_nb", "cards_held_nb", "card_buyable_nb", "param_nb",
    "rand_below_nb", "rand_float_nb", "hand_value_nb", "value_with_port_nb", "value_with_swap_nb",
    "plan_trade_answer_nb", "utility_buffer_nb", "trade_budget_extra_nb", "n_tok_nb",
    "bank_nb", "casino_ships_nb", "abandoned_nb",
]


# ---- the seat's own random numbers -----------------------------------------------
@njit(cache=True)
def rand_below_nb(s, n):
    """Uniform integer in [0, n) from the asked seat's own stream (enums.M_BOT_RNG,
    set by engine_nb.ask_nb for each decision): never the game's chance stream."""
    return rand_below_at_nb(s, M_BOT_RNG, n)


@njit(cache=True)
def rand_float_nb(s):
    """Uniform float in [0, 1) from the asked seat's own stream."""
    return rand_float_at_nb(s, M_BOT_RNG)


# ---- the table and the clock -------------------------------------------------
@njit(cache=True)
def n_players_nb(s):
    return s[R_N_PLAYERS]


@njit(cache=True)
def n_types_nb(s):
    """Cargo types; token index n_types is the Wild."""
    return s[R_N_TYPES]


@njit(cache=True)
def n_ports_nb(s):
    return s[R_N_PORTS]


@njit(cache=True)
def n_cards_nb(s):
    return s[R_N_CARDS]


@njit(cache=True)
def turn_nb(s):
    return s[M_TURN]


@njit(cache=True)
def turns_left_nb(s):
    """Turns after this one."""
    return s[R_N_TURNS] - s[M_TURN]


@njit(cache=True)
def is_final_turn_nb(s):
    return s[M_FINAL] != 0


# ---- players -------------------------------------------------------------------
@njit(cache=True)
def hand_nb(s, seat, t):
    return s[hand_i(seat, t)]


@njit(cache=True)
def coins_nb(s, seat):
    return s[pl_i(seat, PL_COINS)]


@njit(cache=True)
def casino_ships_nb(s, seat):
    """The seat's ships at the Casino, paid at the start of its next turn."""
    return s[pl_i(seat, PL_CASINO_SHIPS)]


@njit(cache=True)
def bank_nb(s):
    """Coins in the bank; -1 when the rules make it unlimited (``unlimited_coins``)."""
    return -1 if s[R_UNLIMITED_COINS] else s[M_BANK]


@njit(cache=True)
def ships_nb(s, seat):
    return s[pl_i(seat, PL_SHIPS)]


@njit(cache=True)
def warehouse_nb(s, seat):
    return s[pl_i(seat, PL_WAREHOUSE)]


@njit(cache=True)
def cards_held_nb(s, seat, c):
    return s[cards_i(seat, c)]


# ---- board ---------------------------------------------------------------------
@njit(cache=True)
def port_cargo_nb(s, p, t):
    return s[port_tok_i(p, t)]


@njit(cache=True)
def port_slots_nb(s, p):
    return s[PORT_SLOTS + p]


@njit(cache=True)
def port_bid_nb(s, p, seat):
    """Coins under `seat`'s ship at port p (0 = no ship there)."""
    return s[port_bid_i(p, seat)]


@njit(cache=True)
def abandoned_nb(s, p):
    """1 if the player whose turn it is abandoned port p this turn."""
    return s[ABANDONED + p]


@njit(cache=True)
def black_market_nb(s, t):
    return s[BLACK_MARKET + t]


@njit(cache=True)
def bag_nb(s, t):
    return s[BAG + t]


# ---- cards -----------------------------------------------------------------------
@njit(cache=True)
def card_cost_nb(s, c):
    return s[card_i(c, C_COST)]


@njit(cache=True)
def card_vp_nb(s, c):
    return s[card_i(c, C_VP)]


@njit(cache=True)
def card_is_edge_nb(s, c):
    return s[card_i(c, C_EDGE)] != 0


@njit(cache=True)
def card_ships_nb(s, c):
    return s[card_i(c, C_SHIPS)]


@njit(cache=True)
def card_warehouse_nb(s, c):
    return s[card_i(c, C_WAREHOUSE)]


@njit(cache=True)
def card_syndicate_nb(s, c):
    return s[card_i(c, C_SYNDICATE)]


# ---- smuggling values ------------------------------------------------------------
@njit(cache=True)
def hand_value_nb(s, seat):
    """Exact trade value of selling the whole hand."""
    at = hand_i(seat, 0)
    return trade_value_at_nb(s, at, s[at + s[R_N_TYPES]])


@njit(cache=True)
def value_with_port_nb(s, seat, p):
    """Exact trade value of the hand plus all the cargo of port p."""
    nt = n_tok_nb(s)
    for t in range(nt):
        s[SCRATCH + t] = s[hand_i(seat, t)] + s[port_tok_i(p, t)]
    return trade_value_at_nb(s, SCRATCH, s[SCRATCH + s[R_N_TYPES]])


@njit(cache=True)
def value_with_swap_nb(s, seat, add_t, remove_t):
    """Exact trade value of the hand with one token of type add_t added and one
    of remove_t removed (-1: none)."""
    nt = n_tok_nb(s)
    for t in range(nt):
        s[SCRATCH + t] = s[hand_i(seat, t)]
    if add_t >= 0:
        s[SCRATCH + add_t] += 1
    if remove_t >= 0:
        s[SCRATCH + remove_t] -= 1
    return trade_value_at_nb(s, SCRATCH, s[SCRATCH + s[R_N_TYPES]])


@njit(cache=True)
def utility_buffer_nb(s):
    """A float64[n_cards] array for the card utilities a bot hands to
    plan_trade_answer_nb: in the state's workspace (which the planner leaves
    alone), else a new array. Valid until the bot's decision returns."""
    n_cards = s[R_N_CARDS]
    if s[R_WORK] != 0 and s[R_WORK_LEN] >= MAX_CARDS:
        return state_array_nb(addr_ptr_nb(s[R_WORK]), n_cards).view(np.float64)
    return np.empty(n_cards, np.float64)


@njit(cache=True)
def plan_trade_answer_nb(s, seat, card_utility, budget_extra):
    """Run the exact trade planner on the seat's hand (cards limited by supply and
    the edge limit) and write its answer as a D_TRADE answer in s[OUT...].
    Returns the planned utility (0: buy nothing)."""
    n_types = s[R_N_TYPES]
    n_cards = s[R_N_CARDS]
    # the planner's int arrays: hand, costs, copies available, then its answer
    # (tokens sold, cards bought), and its own buffers after them -- all in
    # the state's workspace (after utility_buffer_nb's room) when there is one
    sell_at = n_types + 2 * n_cards
    need = sell_at + n_types + 1 + n_cards
    if s[R_WORK] != 0 and s[R_WORK_LEN] >= MAX_CARDS + need:
        w = state_array_nb(addr_ptr_nb(s[R_WORK]), s[R_WORK_LEN])[MAX_CARDS:]
    else:
        w = np.empty(need, np.int64)
    hand = w[:n_types]
    for t in range(n_types):
        hand[t] = s[hand_i(seat, t)]
    cost = w[n_types:n_types + n_cards]
    avail = w[n_types + n_cards:sell_at]
    for c in range(n_cards):
        cost[c] = s[card_i(c, C_COST)]
        avail[c] = card_buyable_nb(s, seat, c)
    out_sell = w[sell_at:sell_at + n_types + 1]
    out_buy = w[sell_at + n_types + 1:need]
    u = packed_plan_trade_nb(shared_array_nb(s), 0, hand, s[hand_i(seat, n_types)], cost, card_utility,
                             avail, budget_extra, out_sell, out_buy, w[need:])
    for t in range(MAX_TOK):
        s[OUT + t] = 0
    for t in range(n_types + 1):
        s[OUT + t] = out_sell[t]
    for c in range(n_cards):
        s[OUT_CARDS + c] = out_buy[c]
    return u
