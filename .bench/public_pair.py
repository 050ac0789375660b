"""The public forward model of two trees in alternated fresh processes (one run):
clone/determinize/playout µs and playout/simulate ratio, 2 and 5 players; prints each
round and the medians.   python .bench/public_pair.py BASE NEW [rounds]
Each tree: its .venv, PYTHONPATH=<tree>, NUMBA_CACHE_DIR from $BASE_CACHE / $NEW_CACHE."""
import json
import os
import statistics
import subprocess
import sys

CHILD = r"""
import json
from cargo_sim.bench import public_rates
print(json.dumps({n: public_rates(n) for n in (2, 5)}))
"""


def run(tree, cache):
    env = dict(os.environ, PYTHONPATH=tree, NUMBA_CACHE_DIR=cache)
    out = subprocess.run([os.path.join(tree, ".venv/bin/python"), "-W", "ignore", "-c", CHILD],
                         env=env, capture_output=True, text=True, cwd="/tmp")
    if out.returncode:
        raise SystemExit(out.stderr[-2000:])
    return json.loads(out.stdout.strip().splitlines()[-1])


base, new = sys.argv[1], sys.argv[2]
rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 3
caches = {base: os.environ["BASE_CACHE"], new: os.environ["NEW_CACHE"]}
res = {base: [], new: []}
for r in range(rounds):
    for tree in ((base, new) if r % 2 == 0 else (new, base)):
        res[tree].append(run(tree, caches[tree]))
        print(r, tree, json.dumps(res[tree][-1]), flush=True)
for n in ("2", "5"):
    for k in ("clone_us", "determinize_us", "playout_us", "kernel_us", "playout_ratio"):
        b = [x[n][k] for x in res[base]]
        w = [x[n][k] for x in res[new]]
        print(f"{n}p {k}: base median {statistics.median(b):.2f} ({min(b):.2f}-{max(b):.2f}), "
              f"new median {statistics.median(w):.2f} ({min(w):.2f}-{max(w):.2f})")
