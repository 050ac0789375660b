"""Two bots against a common field: on each deal (game seed) and each seat, A plays that
seat against P-1 copies of OPP, then B does on the same deal and seat (so the pair
differs only in the bot). Chunks of C deals (chunk k: seed SEED + k; every deal played
at every seat) so that a stopped run keeps its finished chunks; after each chunk A's
and B's win rates and the paired difference A - B with a 95 % t interval over the deals
(clustered by deal: a deal's seats share its cards). Raw rows written to OUT.csv; run
again with the same arguments, it keeps OUT's finished chunks (their seeds) and plays the rest.
Each game is its own job (chunk_size 1), so `workers` threads share a chunk's few games
(simulate's default chunk of 2,048 games would put them all on one thread).
    python .bench/pair_field.py A B D [seed] [workers] [OUT] [C] [P] [OPP]"""
import os, sys, time
import numpy as np
import pandas as pd
from scipy import stats
import cargo_sim
import pairing

a_bot, b_bot, deals, seed, workers, out, chunk, players = pairing.args(5, 4)
opp = sys.argv[9] if len(sys.argv) > 9 else "expert"
t0 = time.time()
rows, done_seeds = pairing.finished(out)
print(f"A = {a_bot}\nB = {b_bot}\n{players} players, field {opp}", flush=True)
for k in range(-(-deals // chunk)):
    n = min(chunk, deals - k * chunk)
    if seed + k in done_seeds:
        continue
    for s in range(players):
        got = {}
        for name, bot in (("a", a_bot), ("b", b_bot)):
            mix = [opp] * players
            mix[s] = bot
            pl = cargo_sim.simulate(n, mix, seed=seed + k, workers=workers, progress=False,
                                     chunk_size=1).players
            me = pl[pl.seat == s].sort_values("game")
            best_other = pl[pl.seat != s].groupby("game")["vp"].max().sort_index()
            got[name] = (me["win_share"].to_numpy(), me["vp"].to_numpy() - best_other.to_numpy())
        for g in range(n):
            rows.append({"seed": seed + k, "game": g, "seat": s, "a_share": got["a"][0][g],
                         "b_share": got["b"][0][g], "a_margin": got["a"][1][g], "b_margin": got["b"][1][g]})
    d = pd.DataFrame(rows)
    if out:
        d.to_csv(out + ".tmp", index=False)
        os.replace(out + ".tmp", out)
    per_deal = d.assign(diff=d.a_share - d.b_share).groupby(["seed", "game"])["diff"].mean().to_numpy()
    m = len(per_deal)
    half = stats.t.ppf(0.975, m - 1) * per_deal.std(ddof=1) / np.sqrt(m) if m > 1 else np.nan
    print(f"{m} deals, {len(d)} games each: A wins {d.a_share.mean():.3f}, B wins {d.b_share.mean():.3f} "
          f"(fair {1 / players:.3f}); A - B {per_deal.mean():+.3f} [{per_deal.mean() - half:+.3f}, "
          f"{per_deal.mean() + half:+.3f}]; margin to the best other A {d.a_margin.mean():+.1f}, "
          f"B {d.b_margin.mean():+.1f}; {time.time() - t0:.0f} s", flush=True)
