"""The speed shortcuts of the heuristic bots and the trade planner give the
answers of the plain computations they replaced.

* The Black Market search scores each one- or two-token change of the hand
  by its table hash, largest set and distinct types derived from the hand's;
  the plain search (kept here) rebuilds and scores every holding from
  scratch. Hands beyond the lookup table, Wild counts at the table's limit
  and empty markets or bags take the fallback paths.
* Its scores of a token added or removed are kept by count held (types are
  symmetric), and a swap of counts scored before is not scored again.
* Port gains score the hand plus the port's cargo in one pass.
* The knapsack counts budgets in units of the gcd of the buyable cards' costs.
"""
import math
import random

import numpy as np
import pytest
from numba import njit

import cargo_sim.games.cargo_noir.enums as e
from cargo_sim.games.cargo_noir.bots.botkit_nb import bag_nb, black_market_nb, hand_nb, n_tok_nb
from cargo_sim.games.cargo_noir.bots.heuristic_nb import (best_black_market_nb, hand_score_nb,
                                                   holding_score_nb, load_hand_nb,
                                                   scratch_score_nb)
from cargo_sim.games.cargo_noir.bots.strategies import strategy_params
from cargo_sim.games.cargo_noir.testing import ScriptedGame
from cargo_sim.games.cargo_noir.trade.knapsack_nb import cost_unit_nb
from cargo_sim.games.cargo_noir.trade.packed_nb import T_MAX_TOTAL, T_MAX_WILDS


@njit
def plain_black_market_nb(s, seat):
    """The search as it was: every holding written to the scratch area and scored."""
    base = hand_score_nb(s, seat)
    nt = n_tok_nb(s)
    load_hand_nb(s, seat)
    add = np.full(nt, -1e300)
    loss = np.full(nt, 1e300)
    bag_total = 0
    draw = 0.0
    for t in range(nt):
        s[e.SCRATCH + t] += 1
        add[t] = scratch_score_nb(s, seat) - base
        s[e.SCRATCH + t] -= 1
        k = bag_nb(s, t)
        if k > 0:
            bag_total += k
            draw += k * add[t]
        if hand_nb(s, seat, t) > 0:
            s[e.SCRATCH + t] -= 1
            loss[t] = base - scratch_score_nb(s, seat)
            s[e.SCRATCH + t] += 1
    best = draw / bag_total if bag_total > 0 else 0.0
    answer = e.BM_DRAW
    takes = np.full(3, -1, np.int64)
    gives = np.full(3, -1, np.int64)
    for t in range(nt):
        if black_market_nb(s, t) > 0:
            for j in range(3):
                if takes[j] < 0 or add[t] > add[takes[j]]:
                    for m in range(2, j, -1):
                        takes[m] = takes[m - 1]
                    takes[j] = t
                    break
        if loss[t] < 1e299:
            for j in range(3):
                if gives[j] < 0 or loss[t] < loss[gives[j]]:
                    for m in range(2, j, -1):
                        gives[m] = gives[m - 1]
                    gives[j] = t
                    break
    for i in range(3):
        give = gives[i]
        if give < 0:
            break
        for j in range(3):
            take = takes[j]
            if take < 0:
                break
            if take == give:
                continue
            s[e.SCRATCH + give] -= 1
            s[e.SCRATCH + take] += 1
            g = scratch_score_nb(s, seat) - base
            s[e.SCRATCH + give] += 1
            s[e.SCRATCH + take] -= 1
            if g > best + 1e-9:
                best = g
                answer = give * e.BM_CODE + take
    return best, answer


def _set_params(game, seat, name):
    for i, v in enumerate(strategy_params(name).values()):
        game.s[e.PARAMS + seat * e.N_PARAMS + i] = int(round(v * e.PARAM_SCALE))


def _game_for(strategy, seat):
    """A 4-player game with `strategy` at `seat`: (game, state, the table's
    most real tokens and Wilds, cargo types)."""
    game = ScriptedGame(4)
    s = game.s
    _set_params(game, seat, strategy)
    packed = game.rules.packed_trade_tables()
    return (game, s, int(packed[T_MAX_TOTAL]), int(packed[T_MAX_WILDS]),
            len(game.types) - 1)


def _random_counts(rng, game, total, weights=None):
    n = len(game.types)
    counts = [0] * n
    for _ in range(total):
        counts[rng.choices(range(n), weights)[0]] += 1
    return dict(zip(game.types, counts))


@pytest.mark.parametrize("strategy", ["expert", "greedy", "collector", "diversifier"])
def test_black_market_search_matches_the_plain_search(strategy):
    rng = random.Random(strategy)
    game, s, max_total, max_wilds, n_types = _game_for(strategy, 1)
    kinds = set()
    for case in range(400):
        style = case % 4
        size = rng.choice([0, 1, 3, 6, 9, 14]) if style < 2 else \
            rng.choice([max_total - 1, max_total, max_total + 1, max_total + 4])
        hand = _random_counts(rng, game, size, [1] * n_types + [0])
        hand["wild"] = rng.choice([0, 1, max_wilds]) if style != 3 else max_wilds
        game.set_hand(1, **hand)
        game.set_black_market(**_random_counts(rng, game, rng.choice([0, 2, 6])))
        game.set_bag(**_random_counts(rng, game, rng.choice([0, 1, 20])))
        before = s.copy()
        got = best_black_market_nb(s, 1)
        s[:] = before
        want = plain_black_market_nb(s, 1)
        assert got == want, (strategy, case, hand)
        kinds.add((sum(hand.values()) - hand["wild"] > max_total, want[1] == e.BM_DRAW))
    assert len(kinds) == 4      # both paths, draws and swaps


@pytest.mark.parametrize("strategy", ["expert", "greedy", "collector"])
def test_holding_score_matches_the_plain_score(strategy):
    """The one-pass score of the hand plus a port's cargo (table hash, largest
    set and distinct types counted together) is scratch_score_nb of that
    holding written out, also beyond the table and at the Wild limit."""
    rng = random.Random("holding" + strategy)
    game, s, max_total, max_wilds, n_types = _game_for(strategy, 2)
    beyond = 0
    for case in range(300):
        size = rng.choice([0, 2, 5, 9, max_total - 2, max_total + 3])
        hand = _random_counts(rng, game, size, [1] * n_types + [0])
        hand["wild"] = rng.choice([0, 1, max_wilds])
        game.set_hand(2, **hand)
        port = rng.choice(game.ports)
        cargo = _random_counts(rng, game, rng.choice([0, 1, 3]), [1] * n_types + [0])
        cargo["wild"] = rng.choice([0, 0, 1]) if hand["wild"] < max_wilds else 0
        game.set_port(port, **cargo)
        p = game.port(port)
        for where in (-1, p):
            got = holding_score_nb(s, 2, where)
            for t, name in enumerate(game.types):
                s[e.SCRATCH + t] = hand[name] + (cargo[name] if where >= 0 else 0)
            assert got == scratch_score_nb(s, 2), (strategy, case, where)
        beyond += size + sum(cargo.values()) - cargo["wild"] > max_total
    assert beyond > 20


def test_cost_unit_is_the_gcd_of_the_buyable_costs():
    rng = random.Random(5)
    for _ in range(2000):
        C = rng.randint(1, 13)
        cost = np.array([rng.choice([0, -5, 4, 6, 10, 12, 15, 20, 25, 30, 45, 60, 96])
                         for _ in range(C)], np.int64)
        util = np.array([rng.choice([-1.0, 0.0, 0.5, 3.0]) for _ in range(C)])
        avail = np.array([rng.randint(0, 3) for _ in range(C)], np.int64)
        want = 0
        for c, u, a in zip(cost, util, avail):
            if u > 0 and c > 0 and a > 0:
                want = math.gcd(want, int(c))
        assert cost_unit_nb(cost, util, avail) == (want or 1)
