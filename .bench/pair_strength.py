"""Head-to-head, seat-rotated: bot A against bot B, 2 players, D deals (one deal = the
same game seed with both seat orders); A's win share with a 95 % t interval over the
deal means (clustered by deal), and its mean VP margin. Raw per-deal rows to OUT.csv.
    python .bench/pair_strength.py A B D [seed] [workers] [OUT]"""
import sys, time
import numpy as np
import pandas as pd
from scipy import stats
import cargo_sim

a_bot, b_bot, deals = sys.argv[1], sys.argv[2], int(sys.argv[3])
seed = int(sys.argv[4]) if len(sys.argv) > 4 else 2525
workers = int(sys.argv[5]) if len(sys.argv) > 5 else 1
out = sys.argv[6] if len(sys.argv) > 6 else None
t0 = time.time()
share = np.zeros((deals, 2))
margin = np.zeros((deals, 2))
for order, mix in enumerate(([a_bot, b_bot], [b_bot, a_bot])):
    r = cargo_sim.simulate(deals, mix, seed=seed, workers=workers, progress=False)
    pl = r.players.sort_values(["game", "seat"])
    a_seat = order                      # A sits at seat 0, then at seat 1
    pa = pl[pl.seat == a_seat].set_index("game")
    pb = pl[pl.seat == 1 - a_seat].set_index("game")
    share[:, order] = pa["win_share"].to_numpy()
    margin[:, order] = (pa["vp"] - pb["vp"]).to_numpy()
    print(f"order {order} done, {time.time() - t0:.0f} s; A's share {share[:, order].mean():.3f}",
          flush=True)
m = share.mean(axis=1)
half = stats.t.ppf(0.975, deals - 1) * m.std(ddof=1) / np.sqrt(deals)
print(f"A = {a_bot}\nB = {b_bot}\n{deals} deals, {2 * deals} games, seed {seed}: A's win share "
      f"{m.mean():.3f} [{m.mean() - half:.3f}, {m.mean() + half:.3f}] (A first {share[:, 0].mean():.3f}, "
      f"A second {share[:, 1].mean():.3f}); A's mean VP margin {margin.mean():+.1f}; {time.time() - t0:.0f} s")
if out:
    pd.DataFrame({"deal": range(deals), "a_share_first": share[:, 0], "a_share_second": share[:, 1],
                  "a_margin_first": margin[:, 0], "a_margin_second": margin[:, 1]}).to_csv(out, index=False)
