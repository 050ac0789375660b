"""ismcts decisions/s at 1,000 iterations, base tree vs new tree, fresh processes
interleaved (round r: base then new), each process: the first 20 decisions of seat 0
against greedy (bench_search.decision_rate), 2 and 4 players; new also with threads=2.

    python .bench/search_speed.py BASE_TREE NEW_TREE [rounds]
Each tree runs with PYTHONPATH=<tree>; NUMBA_CACHE_DIR=<tree>/.numba_cache for the base,
$NUMBA_CACHE_DIR (or <tree>/.numba-cache) for the new."""
import json, os, statistics, subprocess, sys

CHILD = r"""
import json, sys
from cargo_sim.bench_search import decision_rate
n, threads = json.loads(sys.argv[1])
decision_rate(10, n, decisions=2)          # warm: load the kernels
kw = {} if threads == 1 else {"threads": threads}
print(json.dumps(decision_rate(1000, n, **kw)))
"""


def run(tree, cache, n, threads):
    env = dict(os.environ, PYTHONPATH=tree, NUMBA_CACHE_DIR=cache)
    out = subprocess.run([sys.executable, "-c", CHILD, json.dumps([n, threads])], env=env,
                         capture_output=True, text=True, check=True, cwd=tree)
    return json.loads(out.stdout.strip().splitlines()[-1])


base, new = sys.argv[1], sys.argv[2]
rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 3
new_cache = os.environ.get("NUMBA_CACHE_DIR", os.path.join(new, ".numba-cache"))
res = {}
for r in range(rounds):
    for n in (2, 4):
        b = run(base, os.path.join(base, ".numba_cache"), n, 1)
        a1 = run(new, new_cache, n, 1)
        a2 = run(new, new_cache, n, 2)
        res.setdefault(n, []).append((b, a1, a2))
        print(f"round {r} {n}p: base {b:.2f}/s, new 1 thread {a1:.2f}/s (x{a1 / b:.2f}), "
              f"2 threads {a2:.2f}/s (x{a2 / a1:.2f} over 1 thread)", flush=True)
for n, rows in res.items():
    print(f"{n}p medians: new/base x{statistics.median(a / b for b, a, _ in rows):.2f}, "
          f"2 threads/1 thread x{statistics.median(c / a for _, a, c in rows):.2f}; "
          f"base {statistics.median(b for b, _, _ in rows):.2f}/s, new {statistics.median(a for _, a, _ in rows):.2f}/s, "
          f"new 2 threads {statistics.median(c for _, _, c in rows):.2f}/s")
