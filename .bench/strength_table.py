"""Markdown table of the belief_strength.py runs in a folder (their CSVs and logs).
    python .bench/strength_table.py .bench/results/strength13
Per run: players, full deals and games, win share with the 95 % t interval over the deal
means (clustered by deal; degenerate when every deal has the same share, so the Wilson
interval over the games is given too), and the mean VP margin (search minus best other)."""
import sys
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from cargo_sim.core.stats import wilson_interval  # noqa: E402

folder = Path(sys.argv[1])
print("| run | match (seed) | players | deals (games) | win share [95 % t, by deal] | Wilson 95 % (games) | mean VP margin |")
print("|---|---|---|---|---|---|---|")
for csv in sorted(folder.glob("*.csv"), key=lambda p: p.stat().st_mtime):
    log = csv.with_suffix(".log")
    head = [ln for ln in log.read_text().splitlines() if " seed " in ln] if log.exists() else []
    # a resumed run before session 13's fix wrote a chunk's done games again (identical rows)
    d = pd.read_csv(csv).drop_duplicates(["deal", "seat"])
    if not len(d) or not head:
        continue
    match = head[-1].split(":")[0]
    n = d["seat"].max() + 1
    per = d.groupby("deal").agg(k=("seat", "size"), w=("win_share", "mean"))
    full = per[per["k"] == n]["w"].to_numpy()
    g = d[d["deal"].isin(per.index[per["k"] == n])]
    m = full.mean()
    h = stats.t.ppf(0.975, len(full) - 1) * full.std(ddof=1) / np.sqrt(len(full)) if len(full) > 1 else np.nan
    lo, hi = wilson_interval(g["win_share"].sum(), len(g))
    print(f"| {csv.stem} | `{match}` | {n} | {len(full)} ({len(g)}) | {m:.3f} [{max(m - h, 0):.3f}, "
          f"{min(m + h, 1):.3f}] | [{lo:.3f}, {hi:.3f}] | {g['vp_margin'].mean():+.1f} |")
