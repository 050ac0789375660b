"""Session 18's best_black_market_nb (a real token added or removed scored once per
count held: the types are symmetric) against the code before it (main 7baaeb6, copied
below, renamed; the unchanged helpers imported), in one process (issue #25): both run
in place on the states of every Black Market decision and every send phase's first
ship (where choose_send_nb makes its estimate) of GAMES 4-expert games, alternated
(the layout of bm_send_ab.py). Answers (gain and action) are compared on every state;
prints ns per call (best and median of REPEATS, each PASSES passes; CPU time; a loop
that calls nothing subtracted) and the paired ratios new/base.

    NUMBA_CACHE_DIR=... python .bench/bm_memo_ab.py [games] [repeats] [passes]
"""
import os
import statistics
import sys
import time

import numpy as np
from numba import njit

from cargo_sim.core.borrow_nb import state_ptr_nb
from cargo_sim.core.shared_nb import shared_ptr_nb
from cargo_sim.games.cargo_noir import enums as E
from cargo_sim.games.cargo_noir.bots import heuristic_nb as H
from cargo_sim.games.cargo_noir.bots.heuristic_nb import (
    HP_DIFF_BIAS, HP_SAME_BIAS, biased_score_nb, changed_value_nb, insert3_nb, load_hand_nb,
    probe_limits_nb, scratch_stats_nb)
from cargo_sim.games.cargo_noir.bots.botkit_nb import bag_nb, black_market_nb, n_tok_nb, param_nb
from cargo_sim.games.cargo_noir.enums import BM_CODE, BM_DRAW, M_TURN, SCRATCH
from cargo_sim.games.cargo_noir.forward import GameState
from cargo_sim.games.cargo_noir.trade.packed_nb import T_POW, T_POW_LEN

GAMES = int(sys.argv[1]) if len(sys.argv) > 1 else 60
REPEATS = int(sys.argv[2]) if len(sys.argv) > 2 else 9
PASSES = int(sys.argv[3]) if len(sys.argv) > 3 else 20


# ---- the base's code (main 7baaeb6) ----------------------------------------------
@njit
def best_black_market_base_nb(s, seat):
    # main 7baaeb6's best_black_market_nb
    nt = n_tok_nb(s)
    n = nt - 1
    same = param_nb(s, seat, HP_SAME_BIAS)
    diff = param_nb(s, seat, HP_DIFF_BIAS)
    tab = shared_ptr_nb(s)
    pow0 = tab[T_POW]
    cmax = tab[T_POW_LEN] - 1
    lim = probe_limits_nb(s)
    load_hand_nb(s, seat)
    h, fast, tot, m1, m2, m3, distinct, wilds = scratch_stats_nb(s)
    top = m1
    base = biased_score_nb(changed_value_nb(s, fast, h, tot, wilds, -1, -1, lim),
                           top + wilds, distinct, same, diff)
    bag_total = 0
    draw = 0.0
    # the 3 best tokens to take (present in the market) and to give (held)
    take0, take1, take2 = -1, -1, -1
    add0, add1, add2 = 0.0, 0.0, 0.0
    give0, give1, give2 = -1, -1, -1
    loss0, loss1, loss2 = 0.0, 0.0, 0.0
    for t in range(nt):
        k = s[SCRATCH + t]
        b = bag_nb(s, t)
        offered = black_market_nb(s, t) > 0
        if b > 0 or offered:         # else neither drawn nor taken: no need to score it
            if t < n:
                ok = fast and k + 1 <= cmax
                hv = h - tab[pow0 + k] + tab[pow0 + k + 1] if ok else h
                sc = biased_score_nb(changed_value_nb(s, ok, hv, tot + 1, wilds, t, -1, lim),
                                     max(top, k + 1) + wilds, distinct + (1 if k == 0 else 0),
                                     same, diff)
            else:
                sc = biased_score_nb(changed_value_nb(s, fast, h, tot, wilds + 1, t, -1, lim),
                                     top + wilds + 1, distinct, same, diff)
            add = sc - base
            if b > 0:
                bag_total += b
                draw += b * add
            if offered:
                take0, take1, take2, add0, add1, add2 = insert3_nb(
                    t, add, take0, take1, take2, add0, add1, add2, True)
    best = draw / bag_total if bag_total > 0 else 0.0
    answer = BM_DRAW
    # a swap's holding is the hand plus its take minus a token: with trade values
    # monotone (value tables never decrease, rules.py) and biases >= 0, its gain
    # is at most the take's `add` (the same float operations on smaller terms)
    bounded = same >= 0.0 and diff >= 0.0
    if take0 < 0 or (bounded and add0 <= best + 1e-9):
        return best, answer         # no swap can beat the draw: no token to give is scored
    for t in range(nt):
        k = s[SCRATCH + t]
        if k > 0:
            if t < n:
                hv = h - tab[pow0 + k] + tab[pow0 + k - 1] if fast else h
                top_after = max(m2 if k == m1 else m1, k - 1)
                sc = biased_score_nb(changed_value_nb(s, fast, hv, tot - 1, wilds, -1, t, lim),
                                     top_after + wilds, distinct - (1 if k == 1 else 0),
                                     same, diff)
            else:
                sc = biased_score_nb(changed_value_nb(s, fast, h, tot, wilds - 1, -1, t, lim),
                                     top + wilds - 1, distinct, same, diff)
            give0, give1, give2, loss0, loss1, loss2 = insert3_nb(
                t, base - sc, give0, give1, give2, loss0, loss1, loss2, False)
    takes = (take0, take1, take2)
    adds = (add0, add1, add2)
    gives = (give0, give1, give2)
    for i in range(3):
        give = gives[i]
        if give < 0:
            break
        for j in range(3):
            take = takes[j]
            if take < 0:
                break
            if bounded and adds[j] <= best + 1e-9:
                break       # takes come by falling `add`: none after it can beat the best
            if take == give:
                continue
            hs = h
            ts = tot
            ws = wilds
            ok = fast
            # largest set: the largest count of the other types (the 3 largest
            # counts without the changed ones), or a changed count
            rest1 = m1
            rest2 = m2
            top_s = 0
            distinct_s = distinct
            if take < n:
                k = s[SCRATCH + take]
                ok = ok and k + 1 <= cmax
                if ok:
                    hs += tab[pow0 + k + 1] - tab[pow0 + k]
                ts += 1
                if k == m1:
                    rest1 = m2
                    rest2 = m3
                elif k == m2:
                    rest2 = m3
                top_s = k + 1
                if k == 0:
                    distinct_s += 1
            else:
                ws += 1
            if give < n:
                k = s[SCRATCH + give]
                if ok:
                    hs += tab[pow0 + k - 1] - tab[pow0 + k]
                ts -= 1
                if k == rest1:
                    rest1 = rest2
                top_s = max(top_s, k - 1)
                if k == 1:
                    distinct_s -= 1
            else:
                ws -= 1
            top_s = max(top_s, rest1)
            g = biased_score_nb(changed_value_nb(s, ok, hs, ts, ws, take, give, lim),
                                top_s + ws, distinct_s, same, diff) - base
            if g > best + 1e-9:
                best = g
                answer = give * BM_CODE + take
    return best, answer



# ---- the timing --------------------------------------------------------------------
@njit
def no_bm_nb(s, seat):
    return 0.0, s[SCRATCH]


def bm_runner(fn):
    @njit
    def run(S, SEAT, passes, out, gain):
        for _ in range(passes):
            for i in range(S.shape[0]):
                g, a = fn(state_ptr_nb(S[i]), SEAT[i])      # in place: it rewrites its scratch
                gain[i] = g
                out[i] = a
        return 0.0
    return run


def hot_runner(fn):
    """As in a game, the state in cache: each state copied into one buffer first (as in
    decision_cost.py; the loop that only copies is subtracted)."""
    @njit
    def run(S, SEAT, passes, out, gain):
        w = np.empty(S.shape[1], np.int64)
        p = state_ptr_nb(w)
        for _ in range(passes):
            for i in range(S.shape[0]):
                w[:] = S[i]
                g, a = fn(p, SEAT[i])
                gain[i] = g
                out[i] = a
        return 0.0
    return run


live, states, seats, kind = [], [], [], []
last = None
for g in range(GAMES):
    st = GameState(["expert"] * 4, seed=11, game=g)
    live.append(st)
    while not st.is_over:
        d = st.decision
        if d.code == E.D_BLACK_MARKET:
            states.append(st.s.copy())
            seats.append(d.seat)
            kind.append(0)
        elif d.code == E.D_SEND:
            key = (g, int(st.s[M_TURN]), d.seat)
            if key != last:
                states.append(st.s.copy())
                seats.append(d.seat)
                kind.append(1)
            last = key
        st.apply(st.bot_answer())
S, SEAT, KIND = np.array(states), np.array(seats, np.int64), np.array(kind)
n = len(S)
print(f"{GAMES} games: {(KIND == 0).sum():,} Black Market decisions, {(KIND == 1).sum():,} send phases",
      flush=True)
fns = {"empty": no_bm_nb, "base": best_black_market_base_nb, "new": H.best_black_market_nb}
for mode, mk in (("in place", bm_runner), ("hot", hot_runner)):
    runs = {k: mk(f) for k, f in fns.items()}
    outs, gains = {}, {}
    for k, r in runs.items():
        outs[k], gains[k] = np.zeros(n, np.int64), np.zeros(n)
        r(S, SEAT, 1, outs[k], gains[k])
    assert np.array_equal(outs["base"], outs["new"]) and np.array_equal(gains["base"], gains["new"]), \
        "answers differ"
    times = {k: [] for k in runs}
    for rep in range(REPEATS):
        for k in (list(runs) if rep % 2 == 0 else list(runs)[::-1]):
            t = time.process_time()
            runs[k](S, SEAT, PASSES, outs[k], gains[k])
            times[k].append((time.process_time() - t) / PASSES / n * 1e9)
    ns = {k: [a - b for a, b in zip(times[k], times["empty"])] for k in ("base", "new")}
    ratio = [b / a for a, b in zip(ns["base"], ns["new"])]
    print(f"best_black_market_nb ({mode}): answers equal on {n:,} states; ns a call base "
          f"{min(ns['base']):.0f} best, {statistics.median(ns['base']):.0f} median; new {min(ns['new']):.0f} "
          f"best, {statistics.median(ns['new']):.0f} median; new/base paired median "
          f"{statistics.median(ratio):.3f} ({min(ratio):.3f}-{max(ratio):.3f}), {n / GAMES:.1f} calls a game; "
          f"load {os.getloadavg()[0]:.1f}", flush=True)
