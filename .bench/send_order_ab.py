"""choose_send_nb, choose_order_nb and choose_black_market_nb of a base tree (its heuristic_nb.py loaded beside the
library's as another module of the same package: the rest of the library is shared)
against the library's, in one process, alternated (issue #25, session 19). The states of
every send, order and Black Market decision of GAMES 4-expert games are recorded (played by the
library's code); each is timed in place, a phase's first ship with its stamps reset (its
notes made again, as in a game). Answers (choice and s[OUT]) compared on every state.

    NUMBA_CACHE_DIR=... python .bench/send_order_ab.py BASE_TREE [games] [repeats] [passes]
"""
import importlib.util
import os
import statistics
import sys
import time

import numpy as np
from numba import njit

from cargo_sim.core.borrow_nb import state_ptr_nb
from cargo_sim.games.cargo_noir import enums as E
from cargo_sim.games.cargo_noir.bots import heuristic_nb as H
from cargo_sim.games.cargo_noir.forward import GameState

BASE = sys.argv[1]
GAMES = int(sys.argv[2]) if len(sys.argv) > 2 else 30
REPEATS = int(sys.argv[3]) if len(sys.argv) > 3 else 15
PASSES = int(sys.argv[4]) if len(sys.argv) > 4 else 10

spec = importlib.util.spec_from_file_location(
    "cargo_sim.games.cargo_noir.bots.heuristic_base19",
    os.path.join(BASE, "cargo_sim/games/cargo_noir/bots/heuristic_nb.py"))
B = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = B
spec.loader.exec_module(B)
STAMP, BM_STAMP = H.NOTE_SEND_STAMP, H.NOTE_BM_STAMP
assert STAMP == B.NOTE_SEND_STAMP and BM_STAMP == B.NOTE_BM_STAMP

states, seats, first, kinds = [], [], [], []
for g in range(GAMES):
    st = GameState(["expert"] * 4, seed=11, game=g)
    while not st.is_over:
        d = st.decision
        if d.code in (E.D_SEND, E.D_ORDER, E.D_BLACK_MARKET):
            s = st.s
            stamp = int(s[E.M_TURN]) * 8 + d.seat + 1
            states.append(s.copy())
            seats.append(d.seat)
            kinds.append(d.code)
            first.append(d.code == E.D_SEND and int(s[STAMP]) != stamp)
        st.apply(st.bot_answer())
S = np.array(states)
SEAT = np.array(seats, np.int64)
FIRST = np.array(first)
KIND = np.array(kinds)


HOT = os.environ.get("AB_MODE", "hot") == "hot"


def runner(fn):
    """hot (AB_MODE=hot, the default): each state copied into one buffer first, as the
    game's state is in cache (the copy is timed in `empty` too and subtracted); else in
    place (every state's rows cold: a figure dominated by cache misses)."""
    @njit
    def run(S, SEAT, FIRST, passes, out):
        w = np.empty(S.shape[1], np.int64)
        for _ in range(passes):
            for i in range(S.shape[0]):
                if FIRST[i]:
                    S[i, STAMP] = 0
                    S[i, BM_STAMP] = 0
                if HOT:
                    w[:] = S[i]
                    p = state_ptr_nb(w)
                else:
                    p = state_ptr_nb(S[i])
                out[i, 0] = fn(p, SEAT[i])
                out[i, 1] = p[E.OUT]
        return 0
    return run


@njit
def empty_nb(s, seat):
    return s[E.OUT]


for name, kind, fb, fn in (("choose_send_nb", E.D_SEND, B.choose_send_nb, H.choose_send_nb),
                           ("choose_order_nb", E.D_ORDER, B.choose_order_nb, H.choose_order_nb),
                           ("choose_black_market_nb", E.D_BLACK_MARKET, B.choose_black_market_nb,
                            H.choose_black_market_nb)):
    m = KIND == kind
    Sk, SEATk, FIRSTk = S[m].copy(), SEAT[m], FIRST[m]
    n = len(Sk)
    runs = {"empty": runner(empty_nb), "base": runner(fb), "new": runner(fn)}
    outs = {k: np.zeros((n, 2), np.int64) for k in runs}
    for k, r in runs.items():
        r(Sk, SEATk, FIRSTk, 1, outs[k])
    assert np.array_equal(outs["base"], outs["new"]), f"{name}: answers differ"
    times = {k: [] for k in runs}
    for rep in range(REPEATS):
        for k in (list(runs) if rep % 2 == 0 else list(runs)[::-1]):
            t = time.process_time()
            runs[k](Sk, SEATk, FIRSTk, PASSES, outs[k])
            times[k].append((time.process_time() - t) / PASSES / n * 1e9)
    ns = {k: [a - b for a, b in zip(times[k], times["empty"])] for k in ("base", "new")}
    ratio = [b / a for a, b in zip(ns["base"], ns["new"])]
    print(f"{name}: answers equal on {n:,} states ({n / GAMES:.1f} a game); ns a call base "
          f"{min(ns['base']):.1f} best, {statistics.median(ns['base']):.1f} median; new {min(ns['new']):.1f} best, "
          f"{statistics.median(ns['new']):.1f} median; new/base paired median {statistics.median(ratio):.3f} "
          f"({min(ratio):.3f}-{max(ratio):.3f}); load {os.getloadavg()[0]:.1f}", flush=True)
