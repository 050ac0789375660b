"""Session 17's Black Market and send changes against the code before them, in one
process (issue #25): on a machine shared at load 3-5, whole-game rates of two trees swing
+-30 % between processes, so this times the base's functions (copied below from main
ad18cdc, renamed *_base_nb, the unchanged helpers imported; bait_room_nb told
syndicate_room_nb as it was computed then) and the library's, alternated,
on the same states of GAMES 4-expert games (recorded with the library's bot):
* best_black_market_nb on the Black Market decisions' states;
* choose_send_nb over each send phase in order, each version keeping its own notes (a
  phase's first state with the notes cleared, the later ones with the notes the
  version left), as in a game.
Each call runs in place on its recorded state (a state is 14 KB: copying it into a hot
buffer costs more than the call and drowned the difference), the send notes set before it.
Answers are compared on every state. Prints ns per call, best and median of REPEATS
(each a pass over all the states PASSES times; CPU time; a loop that calls nothing
subtracted).

    NUMBA_CACHE_DIR=... python .bench/bm_send_ab.py [games] [repeats] [passes]
"""
import statistics
import sys
import time

import numpy as np
from numba import njit

from cargo_sim.core.borrow_nb import bits_float_nb, float_bits_nb, state_ptr_nb
from cargo_sim.core.shared_nb import shared_ptr_nb
from cargo_sim.games.cargo_noir import enums as E
from cargo_sim.games.cargo_noir.bots import heuristic_nb as H
from cargo_sim.games.cargo_noir.bots.heuristic_nb import (
    HP_BAIT, HP_BM_BIAS, HP_CASINO_BIAS, HP_CONTEST, HP_DIFF_BIAS, HP_LOW_COINS, HP_MAX_PAY,
    HP_SAME_BIAS, NOTE_BASE, NOTE_BM_GAIN, NOTE_BM_STAMP, NOTE_PORT_GAIN, NOTE_SEND_STAMP, NOT_YET,
    bait_room_nb, biased_score_nb, bid_margin_nb, casino_payout_nb, changed_value_nb, coin_value_nb,
    hand_score_nb, insert3_nb, load_hand_nb, port_gain_nb, probe_limits_nb, scratch_stats_nb,
    syndicate_room_nb)
from cargo_sim.games.cargo_noir.bots.botkit_nb import (bag_nb, black_market_nb, coins_nb, n_ports_nb,
                                                       n_tok_nb, param_nb, port_min_bid_nb, turns_left_nb)
from cargo_sim.games.cargo_noir.enums import (BM_CODE, BM_DRAW, LOC_BLACK_MARKET, LOC_CASINO, LOC_PORT0,
                                             M_TURN, MAX_PORTS, OUT, R_CASINO_PAYOUT, R_FINAL_COIN_VALUE,
                                             SCRATCH)
from cargo_sim.games.cargo_noir.forward import GameState
from cargo_sim.games.cargo_noir.trade.packed_nb import T_POW, T_POW_LEN

GAMES = int(sys.argv[1]) if len(sys.argv) > 1 else 60
REPEATS = int(sys.argv[2]) if len(sys.argv) > 2 else 9
PASSES = int(sys.argv[3]) if len(sys.argv) > 3 else 20


# ---- the base's code (main ad18cdc) ----------------------------------------------
@njit
def best_black_market_base_nb(s, seat):
    """(gain, answer) of the best Black Market action: a blind draw valued at its
    expected gain over the bag's contents, or a swap. Swaps are scored exactly
    for the 3 best tokens to take (by the gain of adding them) times the 3
    cheapest tokens to give (by the loss of removing them).
    Every holding scored is the hand with one or two tokens changed: its table
    hash, size, largest set and distinct types follow from the hand's."""
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
    best = draw / bag_total if bag_total > 0 else 0.0
    answer = BM_DRAW
    takes = (take0, take1, take2)
    gives = (give0, give1, give2)
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
    base = bits_float_nb(s[NOTE_BASE])
    # Casino: coins now; next turn's final trade counts coins 1:1
    payout = casino_payout_nb(s, seat)
    unit = coin_value
    if turns_left_nb(s) == 1 and s[R_FINAL_COIN_VALUE] > unit:
        unit = float(s[R_FINAL_COIN_VALUE])
    best = payout * unit + param_nb(s, seat, HP_CASINO_BIAS)
    low = param_nb(s, seat, HP_LOW_COINS)
    if coins < low:
        # the Casino's appeal to the short of coins, scaled by what it pays
        best += (low - coins) * (payout / s[R_CASINO_PAYOUT] if s[R_CASINO_PAYOUT] > 0 else 1.0)
    choice = LOC_CASINO
    bid_choice = 0
    bm_bias = param_nb(s, seat, HP_BM_BIAS)
    if bm_bias > -50.0:
        if s[NOTE_BM_STAMP] != stamp:
            g, _ = best_black_market_base_nb(s, seat)
            s[NOTE_BM_STAMP] = stamp
            s[NOTE_BM_GAIN] = int(g * 1000.0)
        g = s[NOTE_BM_GAIN] / 1000.0
        if g + bm_bias > best:
            best = g + bm_bias
            choice = LOC_BLACK_MARKET
    contest = param_nb(s, seat, HP_CONTEST)
    max_pay = param_nb(s, seat, HP_MAX_PAY)
    bait = param_nb(s, seat, HP_BAIT) > 0.5 and bait_room_nb(s, seat, syndicate_room_nb(s, seat)) > 0
    margin = bid_margin_nb(s, seat)
    for p in range(n_ports_nb(s)):
        need = port_min_bid_nb(s, seat, p)
        if need < 0:
            continue
        contested = need > 1              # need = the top stack + 1
        if s[NOTE_PORT_GAIN + p] == NOT_YET:
            s[NOTE_PORT_GAIN + p] = float_bits_nb(port_gain_nb(s, seat, p, base))
        gain = bits_float_nb(s[NOTE_PORT_GAIN + p])
        if contested:
            if bait and need <= coins:
                # enter cheaply, expecting to be outbid and paid for leaving
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
def no_bm_nb(s, seat):
    return 0.0, s[SCRATCH]


@njit
def no_send_nb(s, seat):
    return s[SCRATCH]


NOTE_LO, NOTE_HI = NOTE_BM_STAMP, H.NOTE_SYNDICATE + 1


def bm_runner(fn):
    @njit
    def run(S, SEAT, passes, out):
        acc = 0.0
        for _ in range(passes):
            for i in range(S.shape[0]):
                g, a = fn(state_ptr_nb(S[i]), SEAT[i])      # in place: it rewrites its scratch
                acc += g
                out[i] = a
        return acc
    return run


def send_runner(fn):
    @njit
    def run(S, SEAT, FIRST, passes, out):
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
        return 0.0
    return run


live, bm, bm_seat, send, send_seat, first = [], [], [], [], [], []
last = None
for g in range(GAMES):
    st = GameState(["expert"] * 4, seed=11, game=g)
    live.append(st)
    while not st.is_over:
        d = st.decision
        if d.code == E.D_BLACK_MARKET:
            bm.append(st.s.copy())
            bm_seat.append(d.seat)
        elif d.code == E.D_SEND:
            key = (g, int(st.s[M_TURN]), d.seat)
            send.append(st.s.copy())
            send_seat.append(d.seat)
            first.append(key != last)
            last = key
        st.apply(st.bot_answer())
BM, BMS = np.array(bm), np.array(bm_seat, np.int64)
SD, SDS, FIRST = np.array(send), np.array(send_seat, np.int64), np.array(first)
print(f"{GAMES} games: {len(BM):,} Black Market decisions, {len(SD):,} sends in {FIRST.sum():,} phases",
      flush=True)

for name, mk, fns, args in (
        ("best_black_market_nb", bm_runner,
         {"empty": no_bm_nb, "base": best_black_market_base_nb, "new": H.best_black_market_nb}, (BM, BMS)),
        ("choose_send_nb", send_runner,
         {"empty": no_send_nb, "base": choose_send_base_nb, "new": H.choose_send_nb}, (SD, SDS, FIRST))):
    runs = {k: mk(f) for k, f in fns.items()}
    n = len(args[0])
    outs = {}
    for k, r in runs.items():
        outs[k] = np.zeros(n, np.int64)
        r(*args, 1, outs[k])
    assert np.array_equal(outs["base"], outs["new"]), name + ": answers differ"
    times = {k: [] for k in runs}
    for rep in range(REPEATS):
        for k in (list(runs) if rep % 2 == 0 else list(runs)[::-1]):
            t = time.process_time()
            runs[k](*args, PASSES, outs[k])
            times[k].append((time.process_time() - t) / PASSES / n * 1e9)
    ns = {k: [a - b for a, b in zip(times[k], times["empty"])] for k in ("base", "new")}
    ratio = [b / a for a, b in zip(ns["base"], ns["new"])]
    print(f"{name}: answers equal on {n:,} states; ns a call base {min(ns['base']):.0f} best, "
          f"{statistics.median(ns['base']):.0f} median; new {min(ns['new']):.0f} best, "
          f"{statistics.median(ns['new']):.0f} median; new/base paired median {statistics.median(ratio):.3f} "
          f"({min(ratio):.3f}-{max(ratio):.3f}), {n / GAMES:.1f} calls a game", flush=True)
