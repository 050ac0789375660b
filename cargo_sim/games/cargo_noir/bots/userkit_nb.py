"""The bot-writer's API (``cargo_sim.botkit``): botkit_nb's accessors, checked.

Every function here has the name and meaning of its ``botkit_nb`` twin (which
the built-in bots call unchecked, at full speed) but first checks its
arguments: a seat, token type, port or card out of range, another seat's
parameters, or ``rand_below_nb(s, n)`` with n out of 1..2**32-1 raise an
exception, which stops the game with a BotError naming the bot and saying
what was refused (the reason is left in ``s[M_FAULT]``). So no call through
the kit reads or writes outside the state, in the fast mode as in the
checked one. A bot's random numbers come from its seat's own stream
(``rand_below_nb``), never the game's chance stream; ``param_nb`` reads only
the asked seat's parameters. docs/safety.md, "What a bot can see".
"""
from ....core import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit

from ..enums import (D_SEND, FAULT_INDEX, FAULT_KIND, FAULT_PARAM, FAULT_RAND, M_FAULT, M_FAULT_ARG,
                     M_SEAT, N_PARAMS, R_N_CARDS, R_N_PLAYERS, R_N_PORTS, R_N_TYPES, STATE_SIZE)
from . import botkit_nb as k
from .dispatch_nb import heuristic_delegate_nb
from .random_nb import random_decide_nb as random_builtin_nb

# the accessors without an index argument: the built-ins' own
from .botkit_nb import (bank_nb, is_final_turn_nb, n_cards_nb, n_players_nb, n_ports_nb,  # noqa: F401
                        n_tok_nb, n_types_nb, turn_nb, turns_left_nb, utility_buffer_nb)

__all__ = list(k.__all__)


@njit(cache=True)
def refuse_nb(s, reason, arg):
    """Note why (enums.FAULT_*) and raise: the user-bot kernel reports it."""
    if s.shape[0] >= STATE_SIZE:
        s[M_FAULT] = reason
        s[M_FAULT_ARG] = arg
    raise IndexError("refused by cargo_sim.botkit (see the BotError)")


@njit(cache=True)
def seat_ok_nb(s, seat):
    if s.shape[0] < STATE_SIZE or not 0 <= seat < s[R_N_PLAYERS]:
        refuse_nb(s, FAULT_INDEX, seat)


@njit(cache=True)
def tok_ok_nb(s, t):
    if s.shape[0] < STATE_SIZE or not 0 <= t <= s[R_N_TYPES]:
        refuse_nb(s, FAULT_INDEX, t)


@njit(cache=True)
def port_ok_nb(s, p):
    if s.shape[0] < STATE_SIZE or not 0 <= p < s[R_N_PORTS]:
        refuse_nb(s, FAULT_INDEX, p)


@njit(cache=True)
def card_ok_nb(s, c):
    if s.shape[0] < STATE_SIZE or not 0 <= c < s[R_N_CARDS]:
        refuse_nb(s, FAULT_INDEX, c)


# ---- the seat's own parameters and random numbers ----------------------------
@njit(cache=True)
def param_nb(s, seat, i):
    """Parameter i of the asked seat's bot (a float). Another seat's: refused
    (a bot does not learn who it plays)."""
    if s.shape[0] < STATE_SIZE or seat != s[M_SEAT]:
        refuse_nb(s, FAULT_PARAM, seat)
    if not 0 <= i < N_PARAMS:
        refuse_nb(s, FAULT_INDEX, i)
    return k.param_nb(s, seat, i)


@njit(cache=True)
def rand_below_nb(s, n):
    """Uniform integer in [0, n) for 0 < n < 2**32, from the seat's own stream."""
    if s.shape[0] < STATE_SIZE or not 0 < n < 4294967296:
        refuse_nb(s, FAULT_RAND, n)
    return k.rand_below_nb(s, n)


@njit(cache=True)
def rand_float_nb(s):
    """Uniform float in [0, 1) from the seat's own stream."""
    if s.shape[0] < STATE_SIZE:
        refuse_nb(s, FAULT_INDEX, s.shape[0])
    return k.rand_float_nb(s)


# ---- players -------------------------------------------------------------------
@njit(cache=True)
def hand_nb(s, seat, t):
    seat_ok_nb(s, seat)
    tok_ok_nb(s, t)
    return k.hand_nb(s, seat, t)


@njit(cache=True)
def coins_nb(s, seat):
    seat_ok_nb(s, seat)
    return k.coins_nb(s, seat)


@njit(cache=True)
def casino_ships_nb(s, seat):
    """The seat's ships at the Casino, paid at the start of its next turn."""
    seat_ok_nb(s, seat)
    return k.casino_ships_nb(s, seat)


@njit(cache=True)
def ships_nb(s, seat):
    seat_ok_nb(s, seat)
    return k.ships_nb(s, seat)


@njit(cache=True)
def warehouse_nb(s, seat):
    seat_ok_nb(s, seat)
    return k.warehouse_nb(s, seat)


@njit(cache=True)
def hand_size_nb(s, seat):
    seat_ok_nb(s, seat)
    return k.hand_size_nb(s, seat)


@njit(cache=True)
def cards_held_nb(s, seat, c):
    seat_ok_nb(s, seat)
    card_ok_nb(s, c)
    return k.cards_held_nb(s, seat, c)


@njit(cache=True)
def card_buyable_nb(s, seat, c):
    """How many more copies of card c the seat may take now (supply, edge limit)."""
    seat_ok_nb(s, seat)
    card_ok_nb(s, c)
    return k.card_buyable_nb(s, seat, c)


@njit(cache=True)
def trade_budget_extra_nb(s, seat):
    """Points the safe adds to a trade: coins count only on the final turn."""
    seat_ok_nb(s, seat)
    return k.trade_budget_extra_nb(s, seat)


# ---- board ---------------------------------------------------------------------
@njit(cache=True)
def port_cargo_nb(s, p, t):
    port_ok_nb(s, p)
    tok_ok_nb(s, t)
    return k.port_cargo_nb(s, p, t)


@njit(cache=True)
def port_slots_nb(s, p):
    port_ok_nb(s, p)
    return k.port_slots_nb(s, p)


@njit(cache=True)
def port_bid_nb(s, p, seat):
    """Coins under `seat`'s ship at port p (0 = no ship there)."""
    port_ok_nb(s, p)
    seat_ok_nb(s, seat)
    return k.port_bid_nb(s, p, seat)


@njit(cache=True)
def top_bid_nb(s, p, skip_seat):
    """Highest stack at port p, ignoring skip_seat (-1: nobody ignored)."""
    port_ok_nb(s, p)
    return k.top_bid_nb(s, p, skip_seat)


@njit(cache=True)
def port_min_bid_nb(s, seat, p):
    """Least bid for a ship of `seat` at port p now, or -1 if it may not go there."""
    seat_ok_nb(s, seat)
    port_ok_nb(s, p)
    return k.port_min_bid_nb(s, seat, p)


@njit(cache=True)
def abandoned_nb(s, p):
    """1 if the player whose turn it is abandoned port p this turn."""
    port_ok_nb(s, p)
    return k.abandoned_nb(s, p)


@njit(cache=True)
def black_market_nb(s, t):
    tok_ok_nb(s, t)
    return k.black_market_nb(s, t)


@njit(cache=True)
def bag_nb(s, t):
    """Tokens of type t in the bag (what it holds is public; the order of its
    draws is not)."""
    tok_ok_nb(s, t)
    return k.bag_nb(s, t)


# ---- cards -----------------------------------------------------------------------
@njit(cache=True)
def card_cost_nb(s, c):
    card_ok_nb(s, c)
    return k.card_cost_nb(s, c)


@njit(cache=True)
def card_vp_nb(s, c):
    card_ok_nb(s, c)
    return k.card_vp_nb(s, c)


@njit(cache=True)
def card_is_edge_nb(s, c):
    card_ok_nb(s, c)
    return k.card_is_edge_nb(s, c)


@njit(cache=True)
def card_ships_nb(s, c):
    card_ok_nb(s, c)
    return k.card_ships_nb(s, c)


@njit(cache=True)
def card_warehouse_nb(s, c):
    card_ok_nb(s, c)
    return k.card_warehouse_nb(s, c)


@njit(cache=True)
def card_syndicate_nb(s, c):
    card_ok_nb(s, c)
    return k.card_syndicate_nb(s, c)


# ---- smuggling values ------------------------------------------------------------
@njit(cache=True)
def hand_value_nb(s, seat):
    """Exact trade value of selling the whole hand."""
    seat_ok_nb(s, seat)
    return k.hand_value_nb(s, seat)


@njit(cache=True)
def value_with_port_nb(s, seat, p):
    """Exact trade value of the hand plus all the cargo of port p."""
    seat_ok_nb(s, seat)
    port_ok_nb(s, p)
    return k.value_with_port_nb(s, seat, p)


@njit(cache=True)
def value_with_swap_nb(s, seat, add_t, remove_t):
    """Exact trade value of the hand with one token of type add_t added and one
    of remove_t removed (-1: none; remove_t must be held)."""
    seat_ok_nb(s, seat)
    if add_t != -1:
        tok_ok_nb(s, add_t)
    if remove_t != -1:
        tok_ok_nb(s, remove_t)
        if k.hand_nb(s, seat, remove_t) + (1 if add_t == remove_t else 0) <= 0:
            refuse_nb(s, FAULT_INDEX, remove_t)
    return k.value_with_swap_nb(s, seat, add_t, remove_t)


@njit(cache=True)
def plan_trade_answer_nb(s, seat, card_utility, budget_extra):
    """The exact trade planner on the seat's hand (see botkit_nb); card_utility
    holds at least one float per card, budget_extra is 0..10**9 points."""
    seat_ok_nb(s, seat)
    if card_utility.shape[0] < s[R_N_CARDS]:
        refuse_nb(s, FAULT_INDEX, card_utility.shape[0])
    if not 0 <= budget_extra <= 1_000_000_000:
        refuse_nb(s, FAULT_INDEX, budget_extra)
    return k.plan_trade_answer_nb(s, seat, card_utility, budget_extra)


# ---- the built-ins, for a decision handed to them --------------------------------
@njit(cache=True)
def decision_ok_nb(s, kind, seat):
    if s.shape[0] < STATE_SIZE or seat != s[M_SEAT]:
        refuse_nb(s, FAULT_INDEX, seat)
    if not 0 <= kind <= D_SEND:
        refuse_nb(s, FAULT_KIND, kind)


@njit(cache=True)
def random_decide_nb(kind, s, seat):
    """The `random` bot's answer for the asked seat (its own stream)."""
    decision_ok_nb(s, kind, seat)
    return random_builtin_nb(kind, s, seat)


@njit(cache=True)
def heuristic_decide_nb(kind, s, seat):
    """The heuristic family's answer for the asked seat with the seat's
    parameters (through the table's kernel: a bot using it compiles in seconds)."""
    decision_ok_nb(s, kind, seat)
    return heuristic_delegate_nb(kind, s, seat)


assert set(__all__) <= set(globals()), set(__all__) - set(globals())
