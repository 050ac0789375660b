"""Time one Macao robustness measure (7 tables: 2-4 player mirrors + 4 field rotations)."""
import sys, time
from analyses import robustness as R
from cargo_sim.core.contract import get_game
games = int(sys.argv[1])
r = get_game("macao").Rules.default()
d = R.Design(games=games, game="macao", player_counts=(2, 3, 4), morris_trajectories=0)
R.measure(r, 20, d)                     # warm (load the cache)
for i in range(2):
    t, c = time.time(), time.process_time()
    R.measure(r, games, d)
    print(f"{games} games/table: wall {time.time() - t:.1f} s, cpu {time.process_time() - c:.1f} s", flush=True)
