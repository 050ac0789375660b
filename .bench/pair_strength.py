"""Head-to-head, seat-rotated: bot A against bot B, P players (even; default 2: seats
alternate A, B, A, B, ...), D deals (one deal = the same game seed with both seat orders,
A first and B first), played in chunks of C deals (chunk k: seed
SEED + k) so that a stopped run keeps its finished chunks; after each chunk A's win
share with a 95 % t interval over the deal means (clustered by deal) and its mean VP
margin (A's win share: its seats' win shares summed, fair 0.5; the margin: the mean VP
of A's seats minus B's). Raw per-deal rows written to OUT.csv; run again with the same
arguments, it keeps OUT's finished chunks (their seeds) and plays the rest.
    python .bench/pair_strength.py A B D [seed] [workers] [OUT] [C] [P]"""
import os, sys, time
import numpy as np
import pandas as pd
from scipy import stats
import cargo_sim
import pairing

a_bot, b_bot, deals, seed, workers, out, chunk, players = pairing.args(10, 2)
assert players % 2 == 0, "P must be even"
t0 = time.time()
rows, done_seeds = pairing.finished(out)
print(f"A = {a_bot}\nB = {b_bot}\n{players} players", flush=True)
for k in range(-(-deals // chunk)):
    n = min(chunk, deals - k * chunk)
    if seed + k in done_seeds:
        continue
    share = np.zeros((n, 2))
    margin = np.zeros((n, 2))
    for order, mix in enumerate(([a_bot, b_bot] * (players // 2), [b_bot, a_bot] * (players // 2))):
        r = cargo_sim.simulate(n, mix, seed=seed + k, workers=workers, progress=False,
                                chunk_size=1)   # one job a game: the workers share the chunk
        pl = r.players
        is_a = (pl.seat % 2) == order                          # A at even seats, then odd
        pa = pl[is_a].groupby("game")[["win_share", "vp"]].agg({"win_share": "sum", "vp": "mean"})
        pb = pl[~is_a].groupby("game")["vp"].mean()
        share[:, order] = pa["win_share"].to_numpy()
        margin[:, order] = pa["vp"].to_numpy() - pb.to_numpy()
    for g in range(n):
        rows.append({"seed": seed + k, "game": g, "a_share_first": share[g, 0],
                     "a_share_second": share[g, 1], "a_margin_first": margin[g, 0],
                     "a_margin_second": margin[g, 1]})
    d = pd.DataFrame(rows)
    if out:
        d.to_csv(out + ".tmp", index=False)
        os.replace(out + ".tmp", out)
    m = (d.a_share_first + d.a_share_second).to_numpy() / 2
    half = stats.t.ppf(0.975, len(m) - 1) * m.std(ddof=1) / np.sqrt(len(m)) if len(m) > 1 else np.nan
    print(f"{len(m)} deals, {2 * len(m)} games: A's win share {m.mean():.3f} [{m.mean() - half:.3f}, "
          f"{m.mean() + half:.3f}] (A first {d.a_share_first.mean():.3f}, A second "
          f"{d.a_share_second.mean():.3f}); A's mean VP margin "
          f"{(d.a_margin_first.mean() + d.a_margin_second.mean()) / 2:+.1f}; {time.time() - t0:.0f} s",
          flush=True)
