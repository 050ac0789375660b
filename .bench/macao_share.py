"""Expert's share of random's games/s (4 players, the kernel on one thread, as `make bench`
times it) for one or more trees in ONE run: each round runs a fresh process of each tree
(order alternating), which times random and expert in turn in CPU time
(time.process_time: steadier than wall time on a loaded machine); prints each round's
rates and shares, then the medians and ranges.

    python .bench/macao_share.py ROUNDS TREE[=CACHE] [TREE[=CACHE] ...]
Each tree runs <tree>/.venv/bin/python (a link to the main tree's .venv will do) with PYTHONPATH=<tree> and
NUMBA_CACHE_DIR=CACHE (default <tree>/.nc).
"""
import json
import os
import statistics
import subprocess
import sys

CHILD = r"""
import json, time
from cargo_sim.core.contract import get_game
from cargo_sim.core.runner import Table
from cargo_sim.core.seeds_nb import game_seeds
game = get_game("macao")
tables = {b: Table.build(game, game.Rules.default(), [game.bots.parse(b)] * 4) for b in ("random", "expert")}
size = {"random": 8192, "expert": 2048}
def rate(bot, n, seed):
    seeds = game_seeds(seed, 0, n)
    t = time.process_time()
    for lo in range(0, n, 2048):
        _g, _p, err = tables[bot].run(seeds[lo:lo + 2048])
        assert err is None, err
    return n / (time.process_time() - t)
for b in tables:
    rate(b, 16, 1)
got = {b: [] for b in tables}
for k in range(3):                                  # in turn, best of 3 (as make bench)
    for b in tables:
        got[b].append(rate(b, size[b], 2 + k))
print(json.dumps({b: max(v) for b, v in got.items()}))
"""


def run(tree, cache):
    py = os.path.join(tree, ".venv/bin/python")
    env = dict(os.environ, PYTHONPATH=tree, NUMBA_CACHE_DIR=cache)
    out = subprocess.run([py, "-W", "ignore", "-c", CHILD], env=env, capture_output=True, text=True,
                         cwd="/tmp")
    if out.returncode:
        raise SystemExit(out.stderr[-2000:])
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    rounds = int(sys.argv[1])
    trees = [(a.split("=", 1) + [os.path.join(a, ".nc")])[:2] for a in sys.argv[2:]]
    res = {t: [] for t, _ in trees}
    for r in range(rounds):
        order = trees if r % 2 == 0 else trees[::-1]
        for tree, cache in order:
            g = run(tree, cache)
            res[tree].append(g)
            print(f"round {r} {tree}: random {g['random']:,.0f}, expert {g['expert']:,.0f} games/s (CPU), "
                  f"share {g['expert'] / g['random']:.1%}", flush=True)
    for tree, v in res.items():
        sh = [g["expert"] / g["random"] for g in v]
        print(f"{tree}: median random {statistics.median(g['random'] for g in v):,.0f}, expert "
              f"{statistics.median(g['expert'] for g in v):,.0f} games/s; share median {statistics.median(sh):.1%} "
              f"(range {min(sh):.1%}-{max(sh):.1%})")


if __name__ == "__main__":
    main()
