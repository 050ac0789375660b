"""Fit the cut playout's score (bots/evaluate_nb.py) on self-play of the playout models:
at each turn's first decision, every seat's features (features_nb); at the end, its win
share. Maximum likelihood of win ~ logistic(margin / (scale0 + scale1 x turns left)),
margin = estimate - best other estimate, estimate = vp + a coins + b hand + casino + c
ships x turns left. Prints the fit, its log loss beside the file's constants', and the
share of turn-start positions whose estimated leader wins.
    python .bench/fit_eval.py GAMES PLAYERS [bot] [seed]"""
import sys
import numpy as np
from scipy.optimize import minimize
from cargo_sim.core.contract import get_game
from cargo_sim.games.cargo_noir.bots import evaluate_nb as ev
from cargo_sim.games.cargo_noir.enums import M_TURN, R_N_TURNS

games, n = int(sys.argv[1]), int(sys.argv[2])
bot = sys.argv[3] if len(sys.argv) > 3 else "expert"
seed = int(sys.argv[4]) if len(sys.argv) > 4 else 5
GS = get_game("cargo_noir").GameState
rows = []          # (game, turns left, seat, features..., win share)
f = np.empty(ev.N_FEATURES)
for g in range(games):
    st = GS([bot] * n, seed=seed, game=g)
    seen = 1
    snap = []
    while not st.is_over:
        t = st.s[M_TURN]
        if t > seen:
            seen = t
            for q in range(n):
                ev.features_nb(st.s, q, f)
                snap.append((t, q, *f))
        st.step_vector(*st.bot_answer())
    share = st.returns()["win_share"]
    left0 = st.s[R_N_TURNS]
    for t, q, *ff in snap:
        rows.append((g, left0 - t + 1, q, *ff, share[q]))
a = np.array(rows)
print(f"{games} games, {n} players, {bot}: {len(a)} seat-positions")
G, L, Q, F, W = a[:, 0], a[:, 1], a[:, 2].astype(int), a[:, 3:3 + ev.N_FEATURES], a[:, -1]
idx = G * 100 + L        # one position = (game, turn)


def margins(x):
    est = F[:, 0] + x[0] * F[:, 1] + x[1] * F[:, 2] + F[:, 3] + x[2] * F[:, 4]
    m = np.empty_like(est)
    for key in np.unique(idx):
        sel = np.flatnonzero(idx == key)
        e = est[sel]
        for i, j in enumerate(sel):
            m[j] = e[i] - np.max(np.delete(e, i))
    return m


def loss(x):
    m = margins(x[:3])
    z = m / np.maximum(x[3] + x[4] * L, 0.1)
    pr = np.clip(1 / (1 + np.exp(-z)), 1e-9, 1 - 1e-9)
    return -np.mean(W * np.log(pr) + (1 - W) * np.log(1 - pr))


x0 = np.array([ev.COIN_W, ev.HAND_W, ev.SHIP_TURN, ev.SCALE0, ev.SCALE1])
print(f"the file's constants {x0}: log loss {loss(x0):.4f}")
res = minimize(loss, x0, method="Nelder-Mead", options={"maxiter": 2000, "xatol": 1e-3, "fatol": 1e-6})
print(f"fitted coin, hand, ship_turn, scale0, scale1 = {np.round(res.x, 3)}: log loss {res.fun:.4f}")
base = np.mean(W * np.log(1 / n) + (1 - W) * np.log(1 - 1 / n))
print(f"no information (1/n): log loss {-base:.4f}")
for lo, hi in ((1, 3), (4, 6), (7, 12)):
    sel = (L >= lo) & (L <= hi)
    m = margins(res.x[:3])[sel]
    lead = m > 0
    print(f"turns left {lo}-{hi}: estimated leader wins {np.mean(W[sel][lead]):.3f} "
          f"({lead.sum()} positions)")
