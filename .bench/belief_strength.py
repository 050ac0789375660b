"""Seat-rotated strength of a bot against a field, clustered by deal (issue 27).
One deal = one game seed played with the bot in every seat (the field's seats keep
their order after it); the bot's win share per deal is the mean over its seats, and
the interval a 95 % t interval over the deal means. Results are appended per chunk
to OUT.csv (deal, seat, win_share, vp_margin) so a stopped run keeps what it did.
    python .bench/belief_strength.py OUT BOT FIELD DEALS [SEED] [CHUNK] [WORKERS]
FIELD: comma-separated bots of the other seats, e.g. expert,expert,expert.
WORKERS: simulate's threads per chunk (default 1); a game's result depends on its
seed and index only, never on WORKERS or CHUNK, so runs may be resumed with others."""
import os
import sys
import time

import numpy as np
from scipy import stats

import cargo_sim

out, bot, field = sys.argv[1], sys.argv[2], sys.argv[3].split(",")
deals = int(sys.argv[4])
seed = int(sys.argv[5]) if len(sys.argv) > 5 else 20261202
chunk = int(sys.argv[6]) if len(sys.argv) > 6 else 2
workers = int(sys.argv[7]) if len(sys.argv) > 7 else 1
n = len(field) + 1
t0 = time.time()
rows = []
done = set()
if os.path.exists(out + ".csv"):
    for line in open(out + ".csv").read().split("\n")[1:]:
        if line:
            d, s, w, m = line.split(",")
            rows.append((int(d), int(s), float(w), float(m)))
            done.add((int(d), int(s)))
else:
    open(out + ".csv", "w").write("deal,seat,win_share,vp_margin\n")


def report():
    if not rows:
        return
    a = np.array(rows)
    by = {}
    for d, s, w, m in rows:
        by.setdefault(int(d), []).append(w)
    full = [np.mean(v) for v in by.values() if len(v) == n]
    m = np.array(full)
    half = stats.t.ppf(0.975, len(m) - 1) * m.std(ddof=1) / np.sqrt(len(m)) if len(m) > 1 else float("nan")
    seats = " / ".join(f"{a[a[:, 1] == s, 2].mean():.2f}" for s in range(n) if (a[:, 1] == s).any())
    print(f"{bot} vs {','.join(field)} seed {seed}: {len(m)} full deals ({len(rows)} games): "
          f"win share {m.mean():.3f} [{m.mean() - half:.3f}, {m.mean() + half:.3f}]; "
          f"by seat {seats}; mean VP margin {a[:, 3].mean():+.1f}; {time.time() - t0:.0f} s", flush=True)


for start in range(0, deals, chunk):
    k = min(chunk, deals - start)
    for seat in range(n):
        if all((start + g, seat) in done for g in range(k)):
            continue
        mix = field[:seat] + [bot] + field[seat:]
        # games start..start+k-1 of the run `seed`: the same deals in every seat order
        pl = cargo_sim.simulate(k, mix, seed=seed, workers=workers, progress=False, start=start).players
        with open(out + ".csv", "a") as f:
            for g in range(start, start + k):
                if (g, seat) in done:           # replayed only to reach the chunk's others
                    continue
                p = pl[pl.game == g].sort_values("seat")
                vp = p["vp"].to_numpy()
                w = float(p["win_share"].to_numpy()[seat])
                margin = float(vp[seat] - np.delete(vp, seat).max())
                rows.append((g, seat, w, margin))
                f.write(f"{g},{seat},{w},{margin}\n")
    report()
report()
