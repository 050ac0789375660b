"""Paired speed of Macao's kernel, new tree vs base tree, in ONE run: each round times
every target in a fresh process of each tree (order alternating), after a warm-up
(best of 5 timings per process, as timeit); prints the median of the paired ratios
new/base of the time per game (> 1: new is slower) and each tree's games/s.

    python .bench/macao_compare.py BASE_TREE NEW_TREE [rounds]
Each tree runs its own .venv with PYTHONPATH=<tree> and NUMBA_CACHE_DIR=<tree>/.numba_cache
(or $<BASE|NEW>_CACHE). The kernel is timed as cargo_sim.bench.kernel_rate does (the core
runner's Table on one thread), written out so that trees without its game= work too.
"""
import json
import os
import statistics
import subprocess
import sys

TARGETS = {
    "random4": (["random"] * 4, 8192),
    "expert4": (["expert"] * 4, 1024),
    "expert2": (["expert"] * 2, 2048),
}
CHILD = r"""
import json, sys, time
from cargo_sim.core.contract import get_game
from cargo_sim.core.runner import Table
from cargo_sim.core.seeds_nb import game_seeds
players, n = json.loads(sys.argv[1])
game = get_game("macao")
table = Table.build(game, game.Rules.default(), [game.bots.parse(b) for b in players])
def rate(n, seed):
    seeds = game_seeds(seed, 0, n)
    t = time.perf_counter()
    for lo in range(0, n, 2048):
        _g, _p, err = table.run(seeds[lo:lo + 2048])
        assert err is None, err
    return (time.perf_counter() - t) / n
rate(16, 1)                                                     # warm: load the kernels
print(json.dumps(min(rate(n, 5 + r) for r in range(5))))
"""


def run(tree, players, n, cache):
    env = dict(os.environ, PYTHONPATH=tree, NUMBA_CACHE_DIR=cache)
    out = subprocess.run([os.path.join(tree, ".venv/bin/python"), "-W", "ignore", "-c", CHILD,
                          json.dumps([players, n])], env=env, capture_output=True, text=True, cwd="/tmp")
    if out.returncode:
        raise SystemExit(out.stderr[-2000:])
    return float(out.stdout.strip().splitlines()[-1])


def main():
    base, new = sys.argv[1], sys.argv[2]
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    cache = {base: os.environ.get("BASE_CACHE", os.path.join(base, ".numba_cache")),
             new: os.environ.get("NEW_CACHE", os.path.join(new, ".numba_cache"))}
    ratios = {k: [] for k in TARGETS}
    rates = {k: {base: [], new: []} for k in TARGETS}
    for r in range(rounds):
        for k, (players, n) in TARGETS.items():
            order = (base, new) if r % 2 == 0 else (new, base)
            t = {tree: run(tree, players, n, cache[tree]) for tree in order}
            ratios[k].append(t[new] / t[base])
            for tree in t:
                rates[k][tree].append(1 / t[tree])
            print(f"round {r} {k}: base {1 / t[base]:,.0f} games/s, new {1 / t[new]:,.0f} games/s, "
                  f"time ratio new/base {t[new] / t[base]:.3f}", flush=True)
    for k, v in ratios.items():
        print(f"{k}: median time ratio new/base {statistics.median(v):.3f} ({', '.join(f'{x:.3f}' for x in v)}); "
              f"median games/s base {statistics.median(rates[k][base]):,.0f}, new {statistics.median(rates[k][new]):,.0f}")


if __name__ == "__main__":
    main()
