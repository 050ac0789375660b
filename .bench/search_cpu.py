"""ismcts?iterations=1000 on one thread: the searcher's first 20 decisions (seat 0 against
greedy, seed 1, as bench_search.decision_rate) per CPU second, two trees in fresh
processes, the order alternating by round, at 2 and 4 players. CPU time, so a loaded
machine still compares (search_speed.py times wall seconds and threads=2).

    python .bench/search_cpu.py NAME=TREE:CACHE NAME=TREE:CACHE ROUNDS
The children run in /tmp (a child started in a tree would import that tree first)."""
import json, os, statistics, subprocess, sys
CHILD = r"""
import json, sys, time
from cargo_sim.core.contract import get_game
n = int(sys.argv[1])
def rate(it, decisions):
    st = get_game("cargo_noir").GameState([f"ismcts?iterations={it}"] + ["greedy"] * (n - 1), seed=1)
    spent, done = 0.0, 0
    while not st.is_over and done < decisions:
        if st.decision.seat == 0:
            t0 = time.process_time(); ans = st.bot_answer(); spent += time.process_time() - t0; done += 1
        else:
            ans = st.bot_answer()
        st.step_vector(*ans)
    return done / spent
rate(10, 2)
print(json.dumps(rate(1000, 20)))
"""
trees = dict(a.split("=", 1) for a in sys.argv[1:3])   # name=tree:cache
rounds = int(sys.argv[3])
res = {}
for r in range(rounds):
    for n in (2, 4):
        names = list(trees) if r % 2 == 0 else list(trees)[::-1]
        for k in names:
            tree, cache = trees[k].split(":")
            env = dict(os.environ, PYTHONPATH=tree, NUMBA_CACHE_DIR=cache)
            out = subprocess.run([sys.executable, "-W", "ignore", "-c", CHILD, str(n)], env=env,
                                 capture_output=True, text=True, cwd="/tmp")
            v = json.loads(out.stdout.strip().splitlines()[-1])
            res.setdefault((n, k), []).append(v)
            print(f"round {r} {n}p {k}: {v:.2f} decisions/CPU s, load {os.getloadavg()[0]:.1f}", flush=True)
ks = list(trees)
for n in (2, 4):
    a, b = res[(n, ks[0])], res[(n, ks[1])]
    pr = [y / x for x, y in zip(a, b)]
    print(f"{n}p: {ks[0]} {statistics.median(a):.2f}, {ks[1]} {statistics.median(b):.2f}, "
          f"{ks[1]}/{ks[0]} median x{statistics.median(pr):.3f} ({', '.join('%.3f' % x for x in pr)})")
