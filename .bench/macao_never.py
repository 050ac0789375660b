"""Which of expert's tries can win: per kind of action (activations per effect), how many
tries, how many valued no higher than the decision's base (never chosen: best_action_nb
needs more than base + 1e-9), and how many chosen. Tells which tries a bound could skip.

    PYTHONPATH=<tree> NUMBA_CACHE_DIR=... python .bench/macao_never.py [games]
"""
import sys

import numpy as np
from numba import njit

from cargo_sim.core.borrow_nb import state_ptr_nb
from cargo_sim.core.contract import get_game
from cargo_sim.core.runner import Table
from cargo_sim.core.seeds_nb import game_seeds
from cargo_sim.games.macao import enums as E
from cargo_sim.games.macao.effects import EFFECTS
from cargo_sim.games.macao.engine_nb import act_nb, answer_nb, begin_nb, legal_nb, pb
from cargo_sim.games.macao.bots import greedy_nb as G

KINDS = ["end", "tribute", "wall", "sail", "back", "joker", "goods", "goods$", "complete", "complete$"]
NK = len(KINDS)


@njit
def kind_nb(s, q, a):
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
    i = (a - E.A_ACT) // 64
    return NK + s[E.K_C_EFFECT + s[pb(q) + E.P_DONE + i]]


@njit
def play_nb(template, seeds, st):
    s = template.copy()
    log = np.zeros(9, np.int64)
    buf = np.empty(G.N_BUF, np.int64)
    for g in range(seeds.shape[0]):
        begin_nb(s, seeds[g], g, log, 0, 0)
        while s[E.G_ASK] >= 0:
            seat = s[E.G_SEAT]
            kind = s[E.G_ASK]
            if kind == E.D_ACTION:
                q = seat
                n = legal_nb(s, buf)
                w = G.weights_nb(s, q)
                G.pick_colours_nb(s, q, buf, n, w[G.W_KEEP] > 0, E.MAX_LEGAL + G.N_SAVE)
                comp = E.MAX_LEGAL + G.N_SAVE
                memo = comp + 3 * E.MAX_Q + E.NC
                group = G.components_nb(s, q, buf, comp)
                G.memo_nb(s, q, buf, memo)
                base = G.value_nb(s, q, group, w, buf, memo) + 1e-9
                best, bv = -1, base
                for k in range(n):
                    a = buf[k]
                    if a == E.A_END or a < 0:
                        continue
                    t = s.copy()
                    t[E.G_LOG_CAP] = 0
                    act_nb(t, q, a, log)
                    gr = group
                    if t[pb(q) + E.P_CITY] != s[pb(q) + E.P_CITY]:
                        gr = G.group_with_nb(t, a - (E.A_GOODS_COINS if a >= E.A_GOODS_COINS else E.A_GOODS),
                                             buf, comp, group)
                    v = G.value_nb(t, q, gr, w, buf, memo)
                    kk = kind_nb(s, q, a)
                    st[kk, 0] += 1
                    if v <= base:
                        st[kk, 1] += 1
                    if v > bv:
                        best, bv = kk, v
                if best >= 0:
                    st[best, 2] += 1
            a = G.greedy_decide_nb(kind, s, seat)
            answer_nb(s, a, log)


n = int(sys.argv[1]) if len(sys.argv) > 1 else 100
game = get_game("macao")
table = Table.build(game, game.Rules.default(), [game.bots.parse("expert")] * 4)
st = np.zeros((NK + len(EFFECTS), 3), np.int64)
play_nb(table.template, game_seeds(3, 0, n), st)
names = KINDS + ["act:" + e for e in EFFECTS]
tot = st[:, 0].sum()
print(f"{n} games, {tot} tries")
for i, nm in enumerate(names):
    if st[i, 0]:
        print(f"{nm:34s} tries {st[i, 0]:8d} ({st[i, 0] / tot:5.1%})  <= base {st[i, 1] / st[i, 0]:6.1%}  chosen {st[i, 2]:7d}")
