"""Issue #25's baseline: ismcts decisions/s of several (tree, bot) configurations in
fresh processes, alternated round by round (each process: seat 0's first DECISIONS
decisions of a game against greedy, seed 1, as bench_search.decision_rate), wall and
CPU (time.process_time: all of the process's threads) per decision.

    python .bench/search_base25.py ROUNDS PLAYERS DECISIONS NAME=TREE|CACHE|BOT ...
Prints one line per process and, at the end, per configuration the median rates and
the median per-round ratio to the first configuration."""
import json, os, statistics, subprocess, sys

CHILD = r"""
import json, sys, time
from cargo_sim.core.contract import get_game
bot, n, decisions = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
GS = get_game("cargo_noir").GameState
def rate(bot, decisions):
    st = GS([bot] + ["greedy"] * (n - 1), seed=1)
    wall = cpu = 0.0
    done = 0
    while not st.is_over and done < decisions:
        if st.decision.seat == 0:
            t0, c0 = time.perf_counter(), time.process_time()
            ans = st.bot_answer()
            wall += time.perf_counter() - t0
            cpu += time.process_time() - c0
            done += 1
        else:
            ans = st.bot_answer()
        st.step_vector(*ans)
    return done / wall, done / cpu
rate(bot.replace("iterations=1000", "iterations=10"), 2)     # warm: load the kernels
print(json.dumps(rate(bot, decisions)))
"""


def run(tree, cache, bot, n, decisions):
    env = dict(os.environ, PYTHONPATH=tree, NUMBA_CACHE_DIR=cache)
    out = subprocess.run([sys.executable, "-c", CHILD, bot, str(n), str(decisions)], env=env,
                         capture_output=True, text=True, cwd=tree)
    if out.returncode:
        sys.exit(f"{tree} {bot}: {out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


rounds, n, decisions = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
configs = []
for arg in sys.argv[4:]:
    name, spec = arg.split("=", 1)
    configs.append((name, *spec.split("|")))
res = {c[0]: [] for c in configs}
for r in range(rounds):
    for name, tree, cache, bot in (configs if r % 2 == 0 else configs[::-1]):
        w, c = run(tree, cache, bot, n, decisions)
        res[name].append((w, c))
        print(f"round {r} {n}p {name}: wall {w:.2f}/s, cpu {c:.2f}/s", flush=True)
first = configs[0][0]
for name, rows in res.items():
    rw = statistics.median(w / b[0] for (w, _), b in zip(rows, res[first]))
    rc = statistics.median(c / b[1] for (_, c), b in zip(rows, res[first]))
    print(f"{n}p {name}: median wall {statistics.median(w for w, _ in rows):.2f}/s, cpu "
          f"{statistics.median(c for _, c in rows):.2f}/s; per-round ratio to {first}: "
          f"wall x{rw:.2f}, cpu x{rc:.2f}")
