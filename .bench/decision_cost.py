"""Cost of the expert's decisions, one kind at a time, on states of real games (issue #25).

Plays GAMES 4-expert games through the forward model, keeps the state at every decision,
then times the heuristic's kernels on those states in a compiled loop: each state is first
copied into one hot buffer (as in a game, the state is in cache), and the loop that only
copies is subtracted. Prints ns per call (best of REPEATS, CPU time) and calls per game.
Variants of a kernel can be timed beside it in the same process: their answers on every
state are compared with the library's (bit-identical or not).

    NUMBA_CACHE_DIR=... python .bench/decision_cost.py [games] [repeats]
"""
import sys
import time

import numpy as np
from numba import njit

from cargo_sim.core.borrow_nb import state_ptr_nb
from cargo_sim.games.cargo_noir import enums as E
from cargo_sim.games.cargo_noir.bots import heuristic_nb as H
from cargo_sim.games.cargo_noir.forward import GameState

GAMES = int(sys.argv[1]) if len(sys.argv) > 1 else 60
REPEATS = int(sys.argv[2]) if len(sys.argv) > 2 else 7

live, states, seats, codes = [], [], [], []
for g in range(GAMES):
    st = GameState(["expert"] * 4, seed=11, game=g)
    live.append(st)                 # keeps the table's shared array alive
    while not st.is_over:
        d = st.decision
        states.append(st.s.copy())
        seats.append(d.seat)
        codes.append(d.code)
        st.apply(st.bot_answer())
S, SEAT, CODE = np.array(states), np.array(seats, np.int64), np.array(codes)


def answers(fn):
    """A loop of fn(state pointer, seat) -> (float, int) over a set of states."""
    @njit
    def run(S, SEAT, out, out2):
        w = np.empty(S.shape[1], np.int64)
        p = state_ptr_nb(w)
        for i in range(S.shape[0]):
            w[:] = S[i]
            a, b = fn(p, SEAT[i])
            out[i] = a
            out2[i] = b
    return run


@njit
def empty_nb(s, seat):
    return 0.0, s[E.SCRATCH]


@njit
def bbm_nb(s, seat):
    return H.best_black_market_nb(s, seat)


@njit
def trade_nb(s, seat):
    a = H.choose_trade_nb(s, seat)
    x = 0
    for i in range(E.OUT_W):
        x = x * 31 + s[E.OUT + i]
    return float(a), x


@njit
def send_nb(s, seat):
    return float(H.choose_send_nb(s, seat)), s[E.OUT]


@njit
def raise_nb(s, seat):
    return float(H.choose_raise_nb(s, seat)), 0


@njit
def order_nb(s, seat):
    return float(H.choose_order_nb(s, seat)), 0


# (name, kernel, the decisions whose states it runs on); choose_send_nb includes the
# Black Market estimate it makes once a phase (its notes, kept in the saved states)
TARGETS = [("best_black_market_nb", bbm_nb, (E.D_BLACK_MARKET,)),
           ("choose_trade_nb", trade_nb, (E.D_TRADE,)),
           ("choose_send_nb", send_nb, (E.D_SEND,)),
           ("choose_raise_nb", raise_nb, (E.D_RAISE,)),
           ("choose_order_nb", order_nb, (E.D_ORDER,))]

for name, fn, kinds in TARGETS:
    pick = np.isin(CODE, kinds)
    Sk, Seatk = np.ascontiguousarray(S[pick]), SEAT[pick]
    n = len(Sk)
    runs = {"empty": answers(empty_nb), name: answers(fn)}
    best = {}
    for k, r in runs.items():
        r(Sk[:4], Seatk[:4], np.zeros(4), np.zeros(4, np.int64))     # compile
        best[k] = 1e9
    for _ in range(REPEATS):
        for k, r in runs.items():
            o, o2 = np.zeros(n), np.zeros(n, np.int64)
            t = time.process_time()
            r(Sk, Seatk, o, o2)
            best[k] = min(best[k], time.process_time() - t)
    ns = (best[name] - best["empty"]) / n * 1e9
    print(f"{name}: {ns:,.0f} ns per call on {n:,} states ({n / GAMES:.1f} a game: "
          f"{ns * n / GAMES / 1000:.1f} us a game)", flush=True)
