"""Head-to-head, seat-rotated: `ismcts?iterations=N&threads=2` against `ismcts?iterations=N`
(threads=1, whose games are bit-identical to the base tree's), 2 players, D deals (one
deal = the same game seed with both seat orders); win share of the 2-thread search
with a 95 % t interval over the deal means (clustered by deal).
    python .bench/search_strength.py N D [seed] [workers]"""
import sys, time
import numpy as np
from scipy import stats
import cargo_sim

n_it, deals = int(sys.argv[1]), int(sys.argv[2])
seed = int(sys.argv[3]) if len(sys.argv) > 3 else 2512
workers = int(sys.argv[4]) if len(sys.argv) > 4 else 1
t2, t1 = f"ismcts?iterations={n_it}&threads=2", f"ismcts?iterations={n_it}"
t0 = time.time()
share = np.zeros((deals, 2))
for order, mix in enumerate(([t2, t1], [t1, t2])):
    r = cargo_sim.simulate(deals, mix, seed=seed, workers=workers, progress=False)
    pl = r.players[r.players.bot == t2].sort_values("game")
    share[:, order] = pl["win_share"].to_numpy()
    print(f"order {order} done, {time.time() - t0:.0f} s; 2-thread share so far {share[:, order].mean():.3f}", flush=True)
m = share.mean(axis=1)
half = stats.t.ppf(0.975, deals - 1) * m.std(ddof=1) / np.sqrt(deals)
print(f"{deals} deals, {2 * deals} games, {n_it} iterations: 2-thread win share {m.mean():.3f} "
      f"[{m.mean() - half:.3f}, {m.mean() + half:.3f}] (first seat {share[:, 0].mean():.3f}, "
      f"second seat {share[:, 1].mean():.3f}); {time.time() - t0:.0f} s")
