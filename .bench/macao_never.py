"""Which of expert's tries can win: per kind of action (activations per effect), how many
tries, how many valued no higher than the decision's base (never chosen: best_action_nb
needs more than base + 1e-9), and how many chosen. Tells which tries a bound could skip.

    PYTHONPATH=<tree> NUMBA_CACHE_DIR=... python .bench/macao_never.py [games]
"""
import os
import sys

import numpy as np
from numba import njit

from cargo_sim.core.contract import get_game
from cargo_sim.core.runner import Table
from cargo_sim.core.seeds_nb import game_seeds
from cargo_sim.games.macao import enums as E
from cargo_sim.games.macao.effects import EFFECTS
from cargo_sim.games.macao.engine_nb import act_nb, answer_nb, begin_nb, pb
from cargo_sim.games.macao.bots import greedy_nb as G

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import macao_tries as tries  # noqa: E402


KINDS = tries.KINDS[:-1]                   # then the activations, by effect
NK = len(KINDS)


@njit
def kind_nb(s, q, a):
    k = tries.kind_nb(a)                   # macao_tries' kinds, activations by effect
    if k < NK:
        return k
    return NK + s[E.K_C_EFFECT + s[pb(q) + E.P_DONE + (a - E.A_ACT) // 64]]


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
                w = G.weights_nb(s, q)
                comp = E.MAX_LEGAL + G.N_SAVE
                memo = comp + 3 * E.MAX_Q + E.NC
                n = G.tries_nb(s, q, buf, G.w_nb(s, q, G.W_KEEP) > 0, memo - E.NC)
                group = G.components_nb(s, q, buf, comp)
                G.memo_nb(s, q, buf, memo)
                base = G.value_nb(s, q, group, w, buf, memo) + 1e-9
                best, bv = -1, base
                for k in range(n):
                    a = buf[k]
                    if a == E.A_END:
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
