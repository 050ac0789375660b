"""What expert's action decisions try: per decision the legal answers, the tries after
tries_nb (one of each colour group and activation class), and the tries by kind (tribute, wall, sail, sail back, joker, goods,
goods by coins, complete, complete by coins, activation).

    PYTHONPATH=<tree> NUMBA_CACHE_DIR=... python .bench/macao_tries.py [games]
"""
import sys

import numpy as np
from numba import njit

from cargo_sim.core.contract import get_game
from cargo_sim.core.runner import Table
from cargo_sim.core.seeds_nb import game_seeds
from cargo_sim.games.macao import enums as E
from cargo_sim.games.macao.engine_nb import answer_nb, begin_nb, legal_nb
from cargo_sim.games.macao.bots.greedy_nb import (greedy_decide_nb, tries_nb, N_SAVE, w_nb,
                                                  W_KEEP)

KINDS = ["end", "tribute", "wall", "sail", "back", "joker", "goods", "goods$", "complete", "complete$", "act"]


@njit
def kind_nb(a):
    if a == E.A_END:
        return 0
    if a == E.A_TRIBUTE:
        return 1
    if E.A_WALL <= a < E.A_WALL + E.NC * E.NC:
        return 2
    if E.A_SAIL <= a < E.A_SAIL + E.NC:
        return 3
    if E.A_SAIL_BACK <= a < E.A_SAIL_BACK + E.NC:
        return 4
    if E.A_JOKER <= a <= E.A_JOKER + E.NC:
        return 5
    if E.A_GOODS <= a < E.A_GOODS + E.MAX_Q:
        return 6
    if E.A_GOODS_COINS <= a < E.A_GOODS_COINS + E.MAX_Q:
        return 7
    if E.A_COMPLETE <= a < E.A_COMPLETE + 8:
        return 8
    if E.A_COMPLETE_COINS <= a < E.A_COMPLETE_COINS + 8:
        return 9
    return 10


@njit
def play_nb(template, seeds, legal_k, tried_k, stats):
    s = template.copy()
    log = np.zeros(9, np.int64)
    buf = np.empty(E.MAX_LEGAL + N_SAVE + 500, np.int64)
    for g in range(seeds.shape[0]):
        begin_nb(s, seeds[g], g, log, 0, 0)
        while s[E.G_ASK] >= 0:
            seat = s[E.G_SEAT]
            kind = s[E.G_ASK]
            if kind == E.D_ACTION:
                n = legal_nb(s, buf)
                stats[0] += 1
                if n == 1:
                    stats[4] += 1
                stats[1] += n
                for k in range(n):
                    legal_k[kind_nb(buf[k])] += 1
                n = tries_nb(s, seat, buf, w_nb(s, seat, W_KEEP) > 0, E.MAX_LEGAL + N_SAVE)
                for k in range(n):
                    tried_k[kind_nb(buf[k])] += 1
                    stats[2] += 1
            a = greedy_decide_nb(kind, s, seat)
            answer_nb(s, a, log)
        stats[3] += 1


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    game = get_game("macao")
    table = Table.build(game, game.Rules.default(), [game.bots.parse("expert")] * 4)
    legal_k, tried_k, stats = np.zeros(11, np.int64), np.zeros(11, np.int64), np.zeros(5, np.int64)
    play_nb(table.template, game_seeds(3, 0, n), legal_k, tried_k, stats)
    d = stats[0]
    print(f"{stats[3]} games, {d} action decisions ({d / stats[3]:.1f} a game), legal {stats[1] / d:.1f}, "
          f"tried {stats[2] / d:.2f} a decision; only A_END legal {stats[4] / d:.1%}")
    for i, k in enumerate(KINDS):
        print(f"{k:10s} legal {legal_k[i] / d:6.2f}  tried {tried_k[i] / d:6.2f}")


if __name__ == "__main__":
    main()
