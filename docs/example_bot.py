"""A user-written bot in 30 lines: `casino_sniper`.

Idea: take a port only when it is empty and its cargo adds at least
`min_gain` smuggling points per coin of the least bid; otherwise go to the
Casino. Every other decision is delegated to the built-in heuristic (which
reads this bot's parameters only through the slots it knows, so we give it
none: it then uses zeros -- a plain exact-value trader).

Run it:  python docs/example_bot.py
"""
import cargo_sim
from cargo_sim.botkit import (D_SEND, LOC_CASINO, LOC_PORT0, OUT, coins_nb, hand_value_nb,
                              heuristic_decide_nb, n_ports_nb, param_nb, port_min_bid_nb,
                              top_bid_nb, value_with_port_nb)


@cargo_sim.bot("casino_sniper", params={"min_gain": 2.0})
def casino_sniper(kind, s, seat):
    if kind != D_SEND:
        return heuristic_decide_nb(kind, s, seat)
    base = hand_value_nb(s, seat)
    best, choice, bid = param_nb(s, seat, 0), LOC_CASINO, 0
    for p in range(n_ports_nb(s)):
        need = port_min_bid_nb(s, seat, p)
        if need < 0 or top_bid_nb(s, p, -1) > 0:      # not allowed, or contested
            continue
        per_coin = (value_with_port_nb(s, seat, p) - base) / need
        if per_coin > best:
            best, choice, bid = per_coin, LOC_PORT0 + p, need
    s[OUT] = bid
    return choice


if __name__ == "__main__":
    res = cargo_sim.simulate(2000, ["casino_sniper", "greedy", "random"], seed=7)
    print(res.summary())
