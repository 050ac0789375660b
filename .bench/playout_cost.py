"""Playout cost vs simulate's per-game time for the same bots (expert at seat 0, greedy others)."""
import sys, time
import numpy as np
from numba import njit
import cargo_sim
from cargo_sim.core.borrow_nb import state_ptr_nb
from cargo_sim.games.cargo_noir.forward import GameState
from cargo_sim.games.cargo_noir.forward_nb import determinize_nb
from cargo_sim.core.rng_nb import seat_stream_nb
from cargo_sim.games.cargo_noir.bots import searchkit_nb as K


@njit
def playouts_nb(s, seat, n):
    p = state_ptr_nb(s)
    bufs = K.search_buffers_nb()
    plog = K.kit_log_nb(bufs)
    n_root, is_vec, stream = K.kit_start_nb(p, seat, bufs)
    tot = 0.0
    for it in range(n):
        K.kit_restore_nb(p, bufs)
        determinize_nb(p, seat, seat_stream_nb(stream, seat, it))
        K.playout_models_nb(p, plog)
        tot += K.reward_nb(p, seat, 0.0)
    K.kit_end_nb(p, bufs, 0, is_vec)
    return tot


n_players = int(sys.argv[1]) if len(sys.argv) > 1 else 2
st = GameState(["ismcts?iterations=10"] + ["greedy"] * (n_players - 1), seed=1)
s = st.s.copy()
playouts_nb(s, 0, 10)
for rep in range(3):
    t0 = time.perf_counter(); playouts_nb(s, 0, 2000); t1 = time.perf_counter()
    res = cargo_sim.simulate(2000, ["expert"] + ["greedy"] * (n_players - 1), seed=rep, workers=1, progress=False)
    t2 = time.perf_counter()
    print(f"{n_players}p playout from start {(t1 - t0) / 2000 * 1e6:.1f} us/game; simulate {(t2 - t1) / 2000 * 1e6:.1f} us/game")
