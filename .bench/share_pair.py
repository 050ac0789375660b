"""Expert's share of random's games per CPU second at 4 players in two trees (issue #25):
each round one fresh process per tree (order alternating) times `kernel_rate` on one thread,
random (30,000 games) and expert (6,000 games), best of 4 each, per CPU second.

    python .bench/share_pair.py BASE_TREE NEW_TREE [rounds]
Each tree runs first on PYTHONPATH with NUMBA_CACHE_DIR=TREE/.nc.
"""
import json, os, subprocess, sys, statistics
CHILD = r"""
import json, time
from cargo_sim.bench import kernel_rate
def rate(bot, n, seed):
    t0 = time.process_time(); kernel_rate(4, n, 1, seed=seed, bot=bot); return n / (time.process_time() - t0)
rate("random", 2000, 1); rate("expert", 256, 1)
r = max(rate("random", 30000, 10 + k) for k in range(4))
e = max(rate("expert", 6000, 20 + k) for k in range(4))
print(json.dumps([r, e]))
"""
trees = sys.argv[1:3]
out = {}
for rnd in range(int(sys.argv[3]) if len(sys.argv) > 3 else 3):
    for t in (trees if rnd % 2 == 0 else trees[::-1]):
        env = dict(os.environ, PYTHONPATH=t, NUMBA_CACHE_DIR=t + "/.nc")
        r, e = json.loads(subprocess.run([sys.executable, "-W", "ignore", "-c", CHILD], env=env, cwd="/tmp",
                                         capture_output=True, text=True).stdout.strip().splitlines()[-1])
        out.setdefault(t, []).append((r, e))
        print(f"round {rnd} {t}: random {r:,.0f} expert {e:,.0f} share {100 * e / r:.1f} %; load {os.getloadavg()[0]:.1f}", flush=True)
for t, v in out.items():
    print(t, "median share %.1f %%" % statistics.median(100 * e / r for r, e in v))
