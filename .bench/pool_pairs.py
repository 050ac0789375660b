"""Pool pair_strength.py runs of the same A and B (their OUT.csv files, distinct seeds):
A's win share with a 95 % t interval over the deal means (clustered by deal), the two
seat orders apart, and the mean VP margin.
    python .bench/pool_pairs.py OUT1.csv [OUT2.csv ...]"""
import sys
import numpy as np
import pandas as pd
from scipy import stats

d = pd.concat([pd.read_csv(f) for f in sys.argv[1:]], ignore_index=True)
assert not d.duplicated(["seed", "game"]).any(), "a deal (seed, game) is in two files"
m = ((d.a_share_first + d.a_share_second) / 2).to_numpy()
half = stats.t.ppf(0.975, len(m) - 1) * m.std(ddof=1) / np.sqrt(len(m)) if len(m) > 1 else np.nan
print(f"{len(m)} deals, {2 * len(m)} games: A's win share {m.mean():.3f} [{m.mean() - half:.3f}, "
      f"{m.mean() + half:.3f}] (A first {d.a_share_first.mean():.3f}, A second {d.a_share_second.mean():.3f}); "
      f"A's mean VP margin {(d.a_margin_first.mean() + d.a_margin_second.mean()) / 2:+.1f}")
