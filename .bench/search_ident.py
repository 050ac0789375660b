"""Search games of the base tree and the new tree (threads=1): identical tables?
    python .bench/search_ident.py BASE_TREE NEW_TREE"""
import json, os, subprocess, sys

CHILD = r"""
import hashlib, json, sys
import pandas as pd
import cargo_sim
mixes = [(["ismcts?iterations=60", "greedy"], 6), (["expert", "ismcts?iterations=40", "random", "greedy"], 3),
         (["ismcts?iterations=30&opp_widen=0&rollout=random", "sniper", "expert"], 3),
         (["flatmc?rollouts=2", "ismcts?iterations=25&widen_exp=0&widen=2"], 3)]
out = {}
for i, (mix, n) in enumerate(mixes):
    r = cargo_sim.simulate(n, mix, seed=40 + i, workers=1, progress=False, events=True)
    h = hashlib.sha256()
    for df in (r.games, r.players, r.events):
        h.update(pd.util.hash_pandas_object(df, index=True).values.tobytes())
    out[" ".join(mix)] = h.hexdigest()[:16]
print(json.dumps(out))
"""


def run(tree, cache):
    env = dict(os.environ, PYTHONPATH=tree, NUMBA_CACHE_DIR=cache)
    out = subprocess.run([sys.executable, "-c", CHILD], env=env, capture_output=True, text=True,
                         cwd=tree)
    if out.returncode:
        sys.exit(out.stderr)
    return json.loads(out.stdout.strip().splitlines()[-1])


base, new = sys.argv[1], sys.argv[2]
b = run(base, os.path.join(base, ".numba_cache"))
a = run(new, os.environ.get("NUMBA_CACHE_DIR", os.path.join(new, ".numba-cache")))
for k in b:
    print(("same " if a[k] == b[k] else "DIFF ") + k, b[k], a[k])
