"""Paired speed ratios, new tree vs base tree, in ONE run: each round times every
target in a fresh process of each tree (interleaved), after a warm-up game (best of 5 timings per process); prints the
median of the paired ratios new/base (time per game; > 1: new is slower).

    python .bench/compare.py BASE_TREE NEW_TREE [rounds]
Each tree runs with PYTHONPATH=<tree> and NUMBA_CACHE_DIR=<tree>/.numba_cache.
"""
import json
import os
import statistics
import subprocess
import sys

TARGETS = {
    "random4": (["random"] * 4, 10000),
    "expert4": (["expert"] * 4, 600),
    "user4": (["bench_user", "random", "expert", "greedy"], 600),
    "ismcts2": (["ismcts?iterations=50", "expert"], 1),
}
PYTHON = os.environ.get("BENCH_PYTHON", sys.executable)
CHILD = r"""
import json, sys, time
import cargo_sim
from cargo_sim.botkit import heuristic_decide_nb, rand_below_nb, random_decide_nb
@cargo_sim.bot("bench_user")
def bench_user(kind, s, seat):
    if rand_below_nb(s, 4) == 0:
        return random_decide_nb(kind, s, seat)
    return heuristic_decide_nb(kind, s, seat)
players, n = json.loads(sys.argv[1])
cargo_sim.simulate(2, players, seed=3, workers=1, progress=False)       # warm: load kernels
best = 1e9
for r in range(5):        # best of 5, as timeit: slower repeats are other work on the machine
    t = time.perf_counter()
    cargo_sim.simulate(n, players, seed=5 + r, workers=1, progress=False)
    best = min(best, (time.perf_counter() - t) / n)
print(json.dumps(best))
"""


def run(tree, players, n):
    env = dict(os.environ, PYTHONPATH=tree, NUMBA_CACHE_DIR=os.path.join(tree, ".numba_cache"))
    out = subprocess.run([PYTHON, "-W", "ignore", "-c", CHILD,
                          json.dumps([players, n])], env=env, capture_output=True, text=True, cwd="/tmp")
    if out.returncode:
        raise SystemExit(out.stderr[-2000:])
    return float(out.stdout.strip().splitlines()[-1])


def main():
    base, new = sys.argv[1], sys.argv[2]
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    ratios = {k: [] for k in TARGETS}
    for r in range(rounds):
        for k, (players, n) in TARGETS.items():
            order = (base, new) if r % 2 == 0 else (new, base)
            t = {tree: run(tree, players, n) for tree in order}
            ratios[k].append(t[new] / t[base])
            print(f"round {r} {k}: base {t[base] * 1e6:.1f} us/game, new {t[new] * 1e6:.1f} us/game, "
                  f"ratio {t[new] / t[base]:.3f}", flush=True)
    for k, v in ratios.items():
        print(f"{k}: median ratio new/base {statistics.median(v):.3f} ({', '.join(f'{x:.3f}' for x in v)})")


if __name__ == "__main__":
    main()
