"""A cut playout's score: what `ismcts` with `horizon` > 0 reads at the turn where it
stops a playout (docs/forward.md, "Search speed").

Every seat's holdings are turned into estimated final victory points, and the
margin over the best other seat into a win probability. The estimate counts what
the rules make worth about one VP each (a common card's VP equal its cost): card
VP, coins, the hand's exact trade value and the Casino's pending payout; plus the
ships' future cargo, per ship and turn left. The weights and the logistic scale
were fitted on `expert` self-play (maximum likelihood of a seat's win given its
estimated margin at each turn's start; docs/forward.md, "Cut playouts"); the coins and the hand
come out worth more than a VP each (a trade's set bonus, and the coins' buying power).
"""
import numpy as np
from ....core import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit

from ..engine_nb import card_i, cards_i, hand_i, pl_i, port_bid_i, trade_value_at_nb
from ..enums import (C_VP, M_TURN, PL_CASINO_SHIPS, PL_COINS, PL_SHIPS, R_CASINO_PAYOUT,
                     R_N_CARDS, R_N_PLAYERS, R_N_PORTS, R_N_TURNS, R_N_TYPES)

N_FEATURES = 5
# estimated final VP = card VP + coins + hand value + Casino payout + SHIP_TURN x ships x turns left
# (fitted on 300 2-player and 150 4-player games: coins 1.26 / 1.70, hand 1.40 / 1.39,
# ship-turn 2.10 / 1.96, scale 11.9 + 1.12 x left / 10.8 - 0.28 x left; rounded between)
COIN_W = 1.4
HAND_W = 1.4
SHIP_TURN = 2.0
# win probability = 1 / (1 + exp(-margin / (SCALE0 + SCALE1 * turns left)))
SCALE0 = 11.0
SCALE1 = 0.5


@njit(cache=True)
def feature_nb(p, q, i):
    """Seat q's feature i: 0 card VP, 1 coins (with those bid at the ports: a winning
    bid buys cargo, a losing one comes back), 2 the hand's trade value, 3 the Casino's
    pending payout, 4 ships x turns left (the current turn counted: it has not started
    for every seat)."""
    if i == 0:
        vp = 0
        for c in range(p[R_N_CARDS]):
            vp += p[cards_i(q, c)] * p[card_i(c, C_VP)]
        return vp
    if i == 1:
        coins = p[pl_i(q, PL_COINS)]
        for port in range(p[R_N_PORTS]):
            coins += p[port_bid_i(port, q)]
        return coins
    if i == 2:
        at = hand_i(q, 0)
        return max(trade_value_at_nb(p, at, p[at + p[R_N_TYPES]]), 0)
    if i == 3:
        return p[pl_i(q, PL_CASINO_SHIPS)] * p[R_CASINO_PAYOUT]
    return p[pl_i(q, PL_SHIPS)] * (p[R_N_TURNS] - p[M_TURN] + 1)


@njit(cache=True)
def features_nb(p, q, out):
    """Seat q's N_FEATURES features into out (for fitting the weights)."""
    for i in range(N_FEATURES):
        out[i] = feature_nb(p, q, i)


@njit(cache=True)
def estimate_nb(p, q):
    """Seat q's estimated final VP."""
    return (feature_nb(p, q, 0) + COIN_W * feature_nb(p, q, 1) + HAND_W * feature_nb(p, q, 2)
            + feature_nb(p, q, 3) + SHIP_TURN * feature_nb(p, q, 4))


@njit(cache=True)
def cut_reward_nb(p, seat, vp_weight):
    """The searcher-style reward of an unfinished game for `seat`: win probability
    from the estimated margin over the best other seat, plus vp_weight x that margin."""
    mine = estimate_nb(p, seat)
    best = -1e300
    for q in range(p[R_N_PLAYERS]):
        if q != seat:
            e = estimate_nb(p, q)
            if e > best:
                best = e
    margin = mine - best
    left = p[R_N_TURNS] - p[M_TURN] + 1
    return 1.0 / (1.0 + np.exp(-margin / (SCALE0 + SCALE1 * left))) + vp_weight * margin
