"""How often do the expert's trade planner calls share their knapsack's inputs (issue #25,
session 17)? Plays GAMES 4-expert games through the forward model; at every D_TRADE
decision that reaches the planner (choose_trade_nb's early answers replayed), records
the knapsack's inputs (costs, utilities, copies available, cost unit, budget) and counts
the calls whose cards/utilities/copies equal those of: the previous planner call (any
seat), a call seen before in this game, and whose budget is also <= that call's.

    NUMBA_CACHE_DIR=... python .bench/trade_share.py [games]
"""
import sys

import numpy as np
from numba import njit

from cargo_sim.core.borrow_nb import state_ptr_nb
from cargo_sim.games.cargo_noir import enums as E
from cargo_sim.games.cargo_noir.bots import heuristic_nb as H
from cargo_sim.games.cargo_noir.bots import botkit_nb as K
from cargo_sim.games.cargo_noir.forward import GameState
from trade_early import planner_value_nb
from cargo_sim.games.cargo_noir.trade.knapsack_nb import cost_unit_nb

GAMES = int(sys.argv[1]) if len(sys.argv) > 1 else 100


@njit
def inputs_nb(S, seat, out):
    s = state_ptr_nb(S)
    value, extra = planner_value_nb(s, seat)   # choose_trade_nb's early answers
    if value < 0:
        return 0
    nc = K.n_cards_nb(s)
    u = H.card_utilities_nb(s, seat)
    cost = np.empty(nc, np.int64)
    av = np.empty(nc, np.int64)
    for c in range(nc):
        cost[c] = K.card_cost_nb(s, c)
        av[c] = K.card_buyable_nb(s, seat, c)
        out[3 + c] = cost[c]
        out[3 + nc + c] = u.view(np.int64)[c]
        out[3 + 2 * nc + c] = av[c]
    g = cost_unit_nb(cost, u, av)
    out[0] = g
    out[1] = (value + (extra if extra > 0 else 0)) // g + 1
    out[2] = 3 + 3 * nc
    return 1


calls = same_prev = same_prev_fit = seen = seen_fit = 0
for g in range(GAMES):
    st = GameState(["expert"] * 4, seed=11, game=g)
    prev = None
    memo = {}
    while not st.is_over:
        d = st.decision
        if d.code == E.D_TRADE:
            out = np.zeros(64, np.int64)
            if inputs_nb(st.s, d.seat, out):
                calls += 1
                key = tuple(out[2:out[2]]) + (out[0],)
                bq = out[1]
                if prev is not None and prev[0] == key:
                    same_prev += 1
                    same_prev_fit += bq <= prev[1]
                if key in memo:
                    seen += 1
                    seen_fit += bq <= memo[key]
                memo[key] = max(memo.get(key, 0), bq)
                prev = (key, bq)
        st.apply(st.bot_answer())
print(f"{GAMES} games, {calls / GAMES:.1f} planner calls a game; same knapsack inputs as the "
      f"previous call {same_prev / calls:.1%} (budget within it {same_prev_fit / calls:.1%}); "
      f"as any earlier call of the game {seen / calls:.1%} (within {seen_fit / calls:.1%})")
