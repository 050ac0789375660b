"""choose_trade_nb's answers before its planner, replayed by the benches that record the
planner's inputs (planner_ab.py, trade_share.py)."""
from numba import njit

from cargo_sim.games.cargo_noir import enums as E
from cargo_sim.games.cargo_noir.bots import botkit_nb as K
from cargo_sim.games.cargo_noir.bots import heuristic_nb as H
from cargo_sim.games.cargo_noir.engine_nb import trade_value_at_nb


@njit
def planner_value_nb(s, seat):
    """(the hand's trade value, the budget's extra) when the expert's trade reaches the
    planner; value -1 when it answers 0 before (holds, or cannot buy the cheapest card).
    Loads the hand into the scratch area, as choose_trade_nb does."""
    extra = K.trade_budget_extra_nb(s, seat)
    H.load_hand_nb(s, seat)
    value = trade_value_at_nb(s, E.SCRATCH, s[E.SCRATCH + K.n_types_nb(s)])
    must = K.is_final_turn_nb(s) or K.hand_size_nb(s, seat) > K.warehouse_nb(s, seat)
    if not must and value < K.param_nb(s, seat, H.HP_SELL_AT):
        return -1, extra
    cheapest = 1 << 30
    for c in range(K.n_cards_nb(s)):
        if K.card_buyable_nb(s, seat, c) > 0 and K.card_cost_nb(s, c) < cheapest:
            cheapest = K.card_cost_nb(s, c)
    if value + extra < cheapest:
        return -1, extra
    return value, extra
