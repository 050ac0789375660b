"""The trade planner on the compact slots (issue #25, session 18): the branch and bound's
hottest instructions wait on its slot probes of the full 3.7 MB slots (perf of
`.bench/perfmap.py expert`); session 14 saw no change at profile level. This times, in one
process and alternated, main 7baaeb6's plan_trade_table_nb on the full slots (its source
read from git and compiled here, nothing copied) against the library's
plan_trade_slots_nb on the compact 1 MB rows (flat: hash, values packed `bits` each;
packed_nb.compact_slots), as packed_plan_trade_nb calls it, on the planner's inputs at
every call of GAMES 4-expert games (recorded as planner_ab.py does). Answers are compared
on every call. (Before the library took it, a variant generated from the library's source
with the compact reads gave x0.918; the same reads behind a run-time layout switch x1.001:
the layout is now the array's type, each compiled on its own.)

    NUMBA_CACHE_DIR=... python .bench/planner_compact_ab.py [games] [repeats] [passes]
"""
import os
import statistics
import subprocess
import sys
import time

import numpy as np
from numba import njit

from cargo_sim.core.borrow_nb import borrow_nb, state_ptr_nb
from cargo_sim.core.shared_nb import shared_array_nb
from cargo_sim.games.cargo_noir import enums as E
from cargo_sim.games.cargo_noir.bots import botkit_nb as K
from cargo_sim.games.cargo_noir.bots import heuristic_nb as H
from cargo_sim.games.cargo_noir.forward import GameState
from cargo_sim.games.cargo_noir.trade.consts import EPS, PLAN_EXACT_LIMIT
from cargo_sim.games.cargo_noir.trade.knapsack_nb import budget_best_into_nb, cost_unit_nb, knapsack_rows_nb
from cargo_sim.games.cargo_noir.trade.packed_nb import (T_FAST, T_FAST_BITS, T_MAX_TOTAL, T_N_SLOTS, T_POW,
                                                        T_POW_LEN, T_SLOT_W, T_SLOTS)
from cargo_sim.games.cargo_noir.trade.planner_nb import PLAN_NEEDS_REFERENCE, plan_trade_slots_nb, slot_at_nb
from cargo_sim.games.cargo_noir.trade.reference_nb import restriction_nb
from trade_early import planner_value_nb

GAMES = int(sys.argv[1]) if len(sys.argv) > 1 else 30
REPEATS = int(sys.argv[2]) if len(sys.argv) > 2 else 15
PASSES = int(sys.argv[3]) if len(sys.argv) > 3 else 10

# ---- the base, compiled from main 7baaeb6's source --------------------------------------
src = subprocess.run(["git", "-C", os.path.dirname(os.path.abspath(__file__)), "show",
                      "7baaeb6:cargo_sim/games/cargo_noir/trade/planner_nb.py"],
                     capture_output=True, text=True, check=True).stdout
src = src[src.index("def plan_trade_table_nb("):]
end = src.find("\n@njit")
src = (src if end < 0 else src[:end]).replace("def plan_trade_table_nb(", "def plan_trade_base_nb(")
space = dict(np=np, borrow_nb=borrow_nb, EPS=EPS, PLAN_EXACT_LIMIT=PLAN_EXACT_LIMIT,
             PLAN_NEEDS_REFERENCE=PLAN_NEEDS_REFERENCE, budget_best_into_nb=budget_best_into_nb,
             cost_unit_nb=cost_unit_nb, knapsack_rows_nb=knapsack_rows_nb, restriction_nb=restriction_nb,
             slot_at_nb=slot_at_nb)
exec(compile(src, "<plan_trade_base_nb>", "exec"), space)
plan_trade_base_nb = njit(nogil=True)(space["plan_trade_base_nb"])


# ---- the planner's inputs (as planner_ab.py) -------------------------------------------
@njit
def inputs_nb(S, seat, hand, util, cost, avail, head):
    s = state_ptr_nb(S)
    value, extra = planner_value_nb(s, seat)   # choose_trade_nb's early answers
    if value < 0:
        return False
    nt = K.n_types_nb(s)
    nc = K.n_cards_nb(s)
    u = H.card_utilities_nb(s, seat)
    for c in range(nc):
        util[c] = u[c]
        cost[c] = K.card_cost_nb(s, c)
        avail[c] = K.card_buyable_nb(s, seat, c)
    tot = 0
    for t in range(nt):
        hand[t] = K.hand_nb(s, seat, t)
        tot += hand[t]
    if tot > shared_array_nb(s)[T_MAX_TOTAL]:
        return False
    head[0] = K.hand_nb(s, seat, nt)
    head[1] = tot
    head[2] = value
    head[3] = extra
    return True


@njit
def tables_nb(S):
    a = shared_array_nb(state_ptr_nb(S))
    p0, s0, f0 = a[T_POW], a[T_SLOTS], a[T_FAST]
    n = a[T_N_SLOTS]
    return (a[p0:p0 + a[T_POW_LEN]].copy(), a[s0:s0 + n * a[T_SLOT_W]].reshape((n, a[T_SLOT_W])).copy(),
            a[f0:f0 + 2 * n].copy(), a[T_FAST_BITS])


live, rows = [], []
for g in range(GAMES):
    st = GameState(["expert"] * 4, seed=11, game=g)
    live.append(st)
    while not st.is_over:
        d = st.decision
        if d.code == E.D_TRADE:
            S = st.s.copy()
            hand, util = np.zeros(E.MAX_TOK, np.int64), np.zeros(E.MAX_CARDS)
            cost, avail, head = (np.zeros(E.MAX_CARDS, np.int64), np.zeros(E.MAX_CARDS, np.int64),
                                 np.zeros(4, np.int64))
            if inputs_nb(S, d.seat, hand, util, cost, avail, head):
                rows.append((hand, util, cost, avail, head))
        st.apply(st.bot_answer())
N_TYPES, N_CARDS = int(st.s[E.R_N_TYPES]), int(st.s[E.R_N_CARDS])
HASH_POW, SLOTS, FAST, BITS = tables_nb(st.s)
assert FAST.shape[0] > 0 and BITS > 0
LOW = (1 << BITS) - 1
HAND = np.array([r[0][:N_TYPES] for r in rows])
UTIL = np.array([r[1][:N_CARDS] for r in rows])
COST = np.array([r[2][:N_CARDS] for r in rows])
AVAIL = np.array([r[3][:N_CARDS] for r in rows])
HEAD = np.array([r[4] for r in rows])
print(f"{GAMES} games: {len(rows):,} planner calls ({len(rows) / GAMES:.1f} a game); full slots "
      f"{SLOTS.nbytes / 1e6:.1f} MB, compact {FAST.nbytes / 1e6:.1f} MB ({BITS} bits a value)", flush=True)


@njit
def run_full(HAND, UTIL, COST, AVAIL, HEAD, hash_pow, slots, passes, out_u, out_sell, out_buy):
    n = HAND.shape[1]
    work = np.zeros(1 << 14, np.int64)
    for _ in range(passes):
        for i in range(HAND.shape[0]):
            out_u[i] = plan_trade_base_nb(HAND[i], HEAD[i, 0], n, HEAD[i, 1], HEAD[i, 2], hash_pow, slots,
                                          COST[i], UTIL[i], AVAIL[i], HEAD[i, 3], out_sell[i], out_buy[i], work)
    return 0


@njit
def run_compact(HAND, UTIL, COST, AVAIL, HEAD, hash_pow, slots, passes, out_u, out_sell, out_buy):
    n = HAND.shape[1]
    work = np.zeros(1 << 14, np.int64)
    for _ in range(passes):
        for i in range(HAND.shape[0]):
            out_u[i] = plan_trade_slots_nb(HAND[i], HEAD[i, 0], n, HEAD[i, 1], HEAD[i, 2], hash_pow, slots,
                                           COST[i], UTIL[i], AVAIL[i], HEAD[i, 3], out_sell[i], out_buy[i], work,
                                           BITS, LOW)
    return 0


runs = {"base": (run_full, SLOTS), "new": (run_compact, FAST)}
n = len(rows)
outs = {}
for k, (r, sl) in runs.items():
    outs[k] = (np.zeros(n), np.zeros((n, N_TYPES + 1), np.int64), np.zeros((n, N_CARDS), np.int64))
    r(HAND, UTIL, COST, AVAIL, HEAD, HASH_POW, sl, 1, *outs[k])
ok = outs["base"][0] != PLAN_NEEDS_REFERENCE
assert np.array_equal(outs["base"][0], outs["new"][0])
assert np.array_equal(outs["base"][1][ok], outs["new"][1][ok]) and \
    np.array_equal(outs["base"][2][ok], outs["new"][2][ok])
times = {k: [] for k in runs}
for rep in range(REPEATS):
    for k in (list(runs) if rep % 2 == 0 else list(runs)[::-1]):
        r, sl = runs[k]
        t = time.process_time()
        r(HAND, UTIL, COST, AVAIL, HEAD, HASH_POW, sl, PASSES, *outs[k])
        times[k].append((time.process_time() - t) / PASSES / n * 1e9)
ratio = [b / a for a, b in zip(times["base"], times["new"])]
print(f"planner: answers equal on {n:,} calls ({(~ok).sum()} left to the reference); ns a call "
      f"base (full slots) {min(times['base']):.0f} best, {statistics.median(times['base']):.0f} median; library "
      f"(compact) {min(times['new']):.0f} best, {statistics.median(times['new']):.0f} median; new/base paired "
      f"median {statistics.median(ratio):.3f} ({min(ratio):.3f}-{max(ratio):.3f}); load {os.getloadavg()[0]:.1f}",
      flush=True)
