"""Session 18's choose_send_nb (the Black Market estimate only when its one-probe bound,
bm_gain_bound_nb, could still win) against the code before it (main 7baaeb6), in one
process (issue #25): the base's choose_send_nb is copied below (renamed, the unchanged
helpers imported); both run over each send phase of GAMES 4-expert games in order, each
keeping its own notes (a phase's first state with the notes cleared, the later ones with
the notes the version left), in place on the recorded states, alternated (the layout of
bm_send_ab.py). Answers (destination and bid) are compared on every state; prints how
many phases still make the estimate, ns per call (best and median of REPEATS, each
PASSES passes over the states; CPU time; a loop that calls nothing subtracted) and the
paired ratios new/base.

    NUMBA_CACHE_DIR=... python .bench/send_bound_ab.py [games] [repeats] [passes]
"""
import statistics
import sys
import time

import numpy as np
from numba import njit

from cargo_sim.core.borrow_nb import bits_float_nb, float_bits_nb, state_ptr_nb
from cargo_sim.games.cargo_noir import enums as E
from cargo_sim.games.cargo_noir.bots import heuristic_nb as H
from cargo_sim.games.cargo_noir.bots.heuristic_nb import (
    HP_BAIT, HP_BM_BIAS, HP_CASINO_BIAS, HP_CONTEST, HP_LOW_COINS, HP_MAX_PAY,
    NOTE_BASE, NOTE_BM_GAIN, NOTE_BM_STAMP, NOTE_PORT_GAIN, NOTE_SEND_STAMP, NOTE_SYNDICATE, NOT_YET,
    bait_room_nb, best_black_market_nb, bid_margin_nb, casino_payout_nb, coin_value_nb, hand_score_nb,
    port_gain_nb, syndicate_room_nb)
from cargo_sim.games.cargo_noir.bots.botkit_nb import (coins_nb, n_ports_nb, param_nb, port_min_bid_nb,
                                                       turns_left_nb)
from cargo_sim.games.cargo_noir.enums import (LOC_BLACK_MARKET, LOC_CASINO, LOC_PORT0, M_TURN, MAX_PORTS, OUT,
                                             R_CASINO_PAYOUT, R_FINAL_COIN_VALUE, SCRATCH)
from cargo_sim.games.cargo_noir.forward import GameState

GAMES = int(sys.argv[1]) if len(sys.argv) > 1 else 60
REPEATS = int(sys.argv[2]) if len(sys.argv) > 2 else 9
PASSES = int(sys.argv[3]) if len(sys.argv) > 3 else 20


# ---- the base's code (main 7baaeb6) ----------------------------------------------
@njit
def choose_send_base_nb(s, seat):
    coins = coins_nb(s, seat)
    coin_value = coin_value_nb(s, seat)
    stamp = s[M_TURN] * 8 + seat + 1
    if s[NOTE_SEND_STAMP] != stamp:         # first ship of this phase 3
        s[NOTE_SEND_STAMP] = stamp
        s[NOTE_BASE] = float_bits_nb(hand_score_nb(s, seat))
        for p in range(MAX_PORTS):
            s[NOTE_PORT_GAIN + p] = NOT_YET
        s[NOTE_SYNDICATE] = syndicate_room_nb(s, seat) if param_nb(s, seat, HP_BAIT) > 0.5 else 0
    base = bits_float_nb(s[NOTE_BASE])
    payout = casino_payout_nb(s, seat)
    unit = coin_value
    if turns_left_nb(s) == 1 and s[R_FINAL_COIN_VALUE] > unit:
        unit = float(s[R_FINAL_COIN_VALUE])
    best = payout * unit + param_nb(s, seat, HP_CASINO_BIAS)
    low = param_nb(s, seat, HP_LOW_COINS)
    if coins < low:
        best += (low - coins) * (payout / s[R_CASINO_PAYOUT] if s[R_CASINO_PAYOUT] > 0 else 1.0)
    choice = LOC_CASINO
    bid_choice = 0
    bm_bias = param_nb(s, seat, HP_BM_BIAS)
    if bm_bias > -50.0:
        if s[NOTE_BM_STAMP] != stamp:
            g, _ = best_black_market_nb(s, seat)
            s[NOTE_BM_STAMP] = stamp
            s[NOTE_BM_GAIN] = int(g * 1000.0)
        g = s[NOTE_BM_GAIN] / 1000.0
        if g + bm_bias > best:
            best = g + bm_bias
            choice = LOC_BLACK_MARKET
    contest = param_nb(s, seat, HP_CONTEST)
    max_pay = param_nb(s, seat, HP_MAX_PAY)
    bait = param_nb(s, seat, HP_BAIT) > 0.5 and bait_room_nb(s, seat, s[NOTE_SYNDICATE]) > 0
    margin = bid_margin_nb(s, seat)
    for p in range(n_ports_nb(s)):
        need = port_min_bid_nb(s, seat, p)
        if need < 0:
            continue
        contested = need > 1
        if s[NOTE_PORT_GAIN + p] == NOT_YET:
            s[NOTE_PORT_GAIN + p] = float_bits_nb(port_gain_nb(s, seat, p, base))
        gain = bits_float_nb(s[NOTE_PORT_GAIN + p])
        if contested:
            if bait and need <= coins:
                sc = 2.0 * coin_value + 0.25 * gain
                if sc > best:
                    best = sc
                    choice = LOC_PORT0 + p
                    bid_choice = need
                continue
            gain *= contest
        bid = need + margin
        if bid > coins:
            bid = coins
        if max_pay > 0.0 and bid > max_pay * gain:
            continue
        sc = gain - coin_value * bid
        if sc > best:
            best = sc
            choice = LOC_PORT0 + p
            bid_choice = bid
    s[OUT] = bid_choice
    return choice


# ---- the timing --------------------------------------------------------------------
@njit
def no_send_nb(s, seat):
    return s[SCRATCH]


NOTE_LO = NOTE_BM_STAMP
NOTE_HI = max(NOTE_SYNDICATE, getattr(H, "NOTE_BM_BOUND", NOTE_SYNDICATE)) + 1


def send_runner(fn):
    @njit
    def run(S, SEAT, FIRST, passes, out, made):
        carry = np.zeros(NOTE_HI - NOTE_LO, np.int64)
        for _ in range(passes):
            for i in range(S.shape[0]):
                # in place, the notes as this version left them (none at a phase's start)
                if FIRST[i]:
                    carry[:] = 0            # no stamp is 0
                S[i, NOTE_LO:NOTE_HI] = carry
                c = fn(state_ptr_nb(S[i]), SEAT[i])
                carry[:] = S[i, NOTE_LO:NOTE_HI]
                out[i] = c * 1000 + S[i, OUT]
                made[i] = S[i, NOTE_BM_STAMP] != 0
        return 0.0
    return run


live, send, send_seat, first = [], [], [], []
last = None
for g in range(GAMES):
    st = GameState(["expert"] * 4, seed=11, game=g)
    live.append(st)
    while not st.is_over:
        d = st.decision
        if d.code == E.D_SEND:
            key = (g, int(st.s[M_TURN]), d.seat)
            send.append(st.s.copy())
            send_seat.append(d.seat)
            first.append(key != last)
            last = key
        st.apply(st.bot_answer())
SD, SDS, FIRST = np.array(send), np.array(send_seat, np.int64), np.array(first)
n = len(SD)
phase_end = np.append(FIRST[1:], True)
print(f"{GAMES} games: {n:,} sends in {FIRST.sum():,} phases", flush=True)

fns = {"empty": no_send_nb, "base": choose_send_base_nb, "new": H.choose_send_nb}
runs = {k: send_runner(f) for k, f in fns.items()}
outs, made = {}, {}
for k, r in runs.items():
    outs[k], made[k] = np.zeros(n, np.int64), np.zeros(n, np.bool_)
    r(SD, SDS, FIRST, 1, outs[k], made[k])
assert np.array_equal(outs["base"], outs["new"]), "answers differ"
print(f"answers equal on {n:,} states; phases making the Black Market estimate: base "
      f"{made['base'][phase_end].sum():,}, new {made['new'][phase_end].sum():,} "
      f"(BM chosen in {(outs['base'] // 1000 == LOC_BLACK_MARKET).sum():,} sends)", flush=True)
times = {k: [] for k in runs}
for rep in range(REPEATS):
    for k in (list(runs) if rep % 2 == 0 else list(runs)[::-1]):
        t = time.process_time()
        runs[k](SD, SDS, FIRST, PASSES, outs[k], made[k])
        times[k].append((time.process_time() - t) / PASSES / n * 1e9)
ns = {k: [a - b for a, b in zip(times[k], times["empty"])] for k in ("base", "new")}
ratio = [b / a for a, b in zip(ns["base"], ns["new"])]
print(f"choose_send_nb: ns a call base {min(ns['base']):.0f} best, {statistics.median(ns['base']):.0f} median; "
      f"new {min(ns['new']):.0f} best, {statistics.median(ns['new']):.0f} median; new/base paired median "
      f"{statistics.median(ratio):.3f} ({min(ratio):.3f}-{max(ratio):.3f}), {n / GAMES:.1f} calls a game; "
      f"load {__import__('os').getloadavg()[0]:.1f}", flush=True)
