"""A user bot written to cheat, as a user would (test_fairness.py; imported by its
subprocess too). Every way of cheating is one mode of ONE registered bot, so
every table shares one compiled user-bot kernel (one more in checked mode).

It answers as `greedy` (the heuristic family with greedy's parameters) unless
its mode makes it fail, and leaves what it saw in its own notes (SCRATCH + NOTE...),
which stay in the state after GameState.bot_answer."""
from numba import njit

from cargo_sim.core.shared_nb import shared_array_nb

import cargo_sim
from cargo_sim.botkit import (SCRATCH, bag_nb, coins_nb, hand_nb, heuristic_decide_nb, n_tok_nb, param_nb,
                              rand_below_nb, random_decide_nb, turn_nb)
from cargo_sim.games.cargo_noir import enums as e
from cargo_sim.games.cargo_noir.bots.strategies import PARAMS, strategy_params

MODE = len(PARAMS)        # the slot after greedy's parameters (which the heuristic reads)
NOTE = SCRATCH + 60       # the bot's notes: after the scratch words the heuristic uses
(HONEST, PREDICT, STEER, READ_RAW, PARAM_OTHER, WRITE_COINS, WRITE_TURN, WRITE_HAND, WRITE_RNG,
 FAR_READ, NEG_READ, FAR_ACCESSOR, NEG_ACCESSOR, LOOP, LOOP_IN_HELPER, WRITE_TABLES, RAND_ZERO,
 RANDOM_BURN) = range(18)


@njit
def spin_helper(s):
    """A user helper that never returns (its loop is budgeted in checked mode too)."""
    x = 0
    while s[NOTE] >= 0:
        x += 1
        s[NOTE] = x % 1000
    return x


def t_cheat(kind, s, seat):
    mode = int(param_nb(s, seat, MODE))
    if mode == RANDOM_BURN:                    # random's answers, then 100 more draws
        ans = random_decide_nb(kind, s, seat)
        for _ in range(100):
            rand_below_nb(s, 1000)
        return ans
    if mode == PREDICT:
        # the next bag draw is rand_below(total of the bag) of the chance stream:
        # try to predict it on a copy of the state
        total = 0
        for t in range(n_tok_nb(s)):
            total += bag_nb(s, t)
        c = s[:e.STATE_SIZE].copy()
        guess = rand_below_nb(c, total) if total > 0 else -1
        ans = heuristic_decide_nb(kind, s, seat)
        s[NOTE] = guess
        s[NOTE + 1] = total
        s[NOTE + 2] = s[e.M_RNG]
        s[NOTE + 3] = s[e.M_BOT_SEED]
        s[NOTE + 7] = s[e.M_SEAT_KEY]           # a search seat's key (invertible): not for this bot
        return ans
    if mode == STEER:                          # burn draws of the real state to move the bag
        for _ in range(1 + turn_nb(s) % 5):
            rand_below_nb(s, 1000)
        return heuristic_decide_nb(kind, s, seat)
    if mode == PARAM_OTHER:
        return int(param_nb(s, (seat + 1) % 2, 0))
    if mode == FAR_READ:
        return s[s.shape[0] + 10**9]
    if mode == NEG_READ:
        return s[-(10**12)]
    if mode == FAR_ACCESSOR:
        return coins_nb(s, 10**9)
    if mode == NEG_ACCESSOR:
        return hand_nb(s, -7, 0)
    if mode == LOOP:
        while s[NOTE] >= 0:                    # never ends: NOTE stays in 0..999
            s[NOTE] = (s[NOTE] + 1) % 1000
    if mode == LOOP_IN_HELPER:
        return spin_helper(s)
    if mode == RAND_ZERO:
        return rand_below_nb(s, 0)
    ans = heuristic_decide_nb(kind, s, seat)
    if mode == READ_RAW:                       # who am I playing? raw reads of the table
        other = 0
        for q in range(e.MAX_SEATS):
            if q != seat:
                other += s[e.BOTS + q]
                for i in range(e.N_PARAMS):
                    other += abs(s[e.PARAMS + q * e.N_PARAMS + i])
        own = 0
        for i in range(e.N_PARAMS):
            own += abs(s[e.PARAMS + seat * e.N_PARAMS + i])
        s[NOTE + 4] = other
        s[NOTE + 5] = own
        s[NOTE + 6] = s[e.R_SEARCH]
    elif mode == WRITE_COINS:
        s[e.PLAYER + seat * e.PLAYER_W + e.PL_COINS] += 100
    elif mode == WRITE_TURN:
        s[e.M_TURN] = 0                        # the game would never end
    elif mode == WRITE_HAND:
        s[e.HAND + ((seat + 1) % 2) * e.MAX_TOK] += 1
    elif mode == WRITE_RNG:
        s[e.M_RNG] = 12345
    elif mode == WRITE_TABLES:
        shared_array_nb(s)[7] += 1            # the trade tables: the table's shared array
    return ans


def label(mode: int) -> str:
    return "t_cheat" if mode == HONEST else f"t_cheat?mode={mode}"


def register():
    cargo_sim.bot("t_cheat", params={**strategy_params("greedy"), "mode": 0})(t_cheat)


def unregister():
    cargo_sim.unregister_bot("t_cheat")

