"""Paired expert speed of two trees (issue #25): each round one fresh process of each tree
(order alternating) times 4-player expert games on one thread (bench.kernel_rate, best of
4, per CPU second); prints each process's rate and the paired ratios new/base.

    python .bench/expert_pair.py BASE_TREE NEW_TREE [rounds]
Each tree runs first on PYTHONPATH with NUMBA_CACHE_DIR=TREE/.nc.
"""
import json, os, statistics, subprocess, sys
CHILD = r"""
import json, sys, time
from cargo_sim.bench import kernel_rate
def rate(n, seed):
    t0 = time.process_time(); kernel_rate(4, n, 1, seed=seed, bot="expert"); return n / (time.process_time() - t0)
rate(64, 1)
n = max(256, int(rate(512, 2) * 0.6))
print(json.dumps(max(rate(n, 10 + r) for r in range(4))))
"""
trees = {"base": sys.argv[1], "new": sys.argv[2]}
got = {"base": [], "new": []}
for r in range(int(sys.argv[3]) if len(sys.argv) > 3 else 6):
    for k in (("base", "new") if r % 2 == 0 else ("new", "base")):
        t = trees[k]
        env = dict(os.environ, NUMBA_CACHE_DIR=t + "/.nc", PYTHONPATH=t)
        out = subprocess.run([sys.executable, "-W", "ignore", "-c", CHILD], env=env, capture_output=True, text=True, cwd="/tmp")
        v = json.loads(out.stdout.strip().splitlines()[-1])
        got[k].append(v)
        print(f"round {r} {k}: expert {v:,.0f} games/CPU s; load {os.getloadavg()[0]:.1f}", flush=True)
pr = [b / a for a, b in zip(got["base"], got["new"])]
print("expert new/base paired: median %.3f (%s)" % (statistics.median(pr), ", ".join("%.3f" % x for x in pr)))
