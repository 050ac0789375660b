"""How often a Black Market decision sees the same inputs (the seat's hand, the bag,
the market) as the seat's previous best_black_market_nb call (its send phase's estimate
or an earlier Black Market decision) in 4-expert games (issue #25, session 19).

    NUMBA_CACHE_DIR=... python .bench/bm_reuse_rate.py [games]
"""
import sys
import numpy as np
from cargo_sim.games.cargo_noir import enums as E
from cargo_sim.games.cargo_noir.forward import GameState
from cargo_sim.games.cargo_noir.engine_nb import hand_i

GAMES = int(sys.argv[1]) if len(sys.argv) > 1 else 40
last = {}
n_bm = same_hand = same_all = same_hand_bag = 0
send_phases = 0
lastkey = None
for g in range(GAMES):
    st = GameState(["expert"] * 4, seed=11, game=g)
    s = st.s
    nt = int(s[E.R_N_TYPES]) + 1
    while not st.is_over:
        d = st.decision
        s = st.s
        seat = d.seat
        if d.code in (E.D_BLACK_MARKET, E.D_SEND):
            hand = tuple(int(s[hand_i(seat, t)]) for t in range(nt))
            bag = tuple(int(s[E.BAG + t]) for t in range(nt))
            mk = tuple(int(s[E.BLACK_MARKET + t]) for t in range(nt))
            key = (g, int(s[E.M_TURN]), seat)
            if d.code == E.D_BLACK_MARKET:
                n_bm += 1
                p = last.get((g, seat))
                if p is not None:
                    same_hand += p[0] == hand
                    same_hand_bag += p[0] == hand and p[1] == bag
                    same_all += p == (hand, bag, mk)
                last[(g, seat)] = (hand, bag, mk)
            elif key != lastkey:
                send_phases += 1
                last[(g, seat)] = (hand, bag, mk)
            lastkey = key if d.code == E.D_SEND else lastkey
        st.apply(st.bot_answer())
print(f"{GAMES} games: {n_bm} BM decisions ({n_bm / GAMES:.1f} a game), {send_phases} send phases; "
      f"same hand as the seat's last call {same_hand / n_bm:.1%}, hand+bag {same_hand_bag / n_bm:.1%}, "
      f"hand+bag+market {same_all / n_bm:.1%}")
