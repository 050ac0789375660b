"""What two root-parallel trees could gain on two free cores, measured one tree at a time
(so the machine's load does not enter: CPU time of single-threaded calls). At each of the
searcher's first decisions (seat 0 against greedy, seed 1, as bench_search.decision_rate):
one tree of N iterations (worker 0: the one-thread search's stream) and the two trees of
`threads=2` (workers 0 and 1, N/2 each), each through ismcts_worker_bound_nb in a fresh
copy of the state; their CPU times and the iterations each tree ran (its root visits).
The ceiling of the 2-thread gain = sum of one-tree times / sum of the slower half-tree's.
    python .bench/threads_split.py PLAYERS [decisions] [iterations] [rounds]"""
import sys, time, statistics
import numpy as np
from cargo_sim.games.cargo_noir.forward import GameState
from cargo_sim.games.cargo_noir.bots.ismcts_nb import ismcts_worker_bound_nb

n = int(sys.argv[1])
decisions = int(sys.argv[2]) if len(sys.argv) > 2 else 20
it = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 3


def tree(s, worker, budget):
    rn = np.zeros(512, np.int64)
    rw = np.zeros(512)
    q = s.copy()
    c0 = time.process_time()
    ismcts_worker_bound_nb(q, 0, worker, budget, rn, rw)
    return time.process_time() - c0, int(rn.sum())


states = []
st = GameState([f"ismcts?iterations={it}"] + ["greedy"] * (n - 1), seed=1)
while not st.is_over and len(states) < decisions:
    if st.decision.seat == 0:
        states.append(st.s.copy())
    st.step_vector(*st.bot_answer())
tree(states[0], 0, 2)                      # load the kernel
ceil = []
for r in range(rounds):
    one = half = 0.0
    it1 = [0, 0]
    it2 = [0, 0, 0]
    for s in states:
        t1, d1 = tree(s, 0, it)
        ta, da = tree(s, 0, it // 2)
        tb, db = tree(s, 1, it - it // 2)
        one += t1
        half += max(ta, tb)
        it1[0] += d1
        it2[0] += da
        it2[1] += db
        it2[2] += max(da, db)
    ceil.append(one / half)
    print(f"round {r}: {n}p {it} it, {len(states)} decisions: one tree {one / len(states) * 1e3:.1f} ms CPU "
          f"a decision, {it1[0] / len(states):.0f} iterations (of {it}); two trees: slower one "
          f"{half / len(states) * 1e3:.1f} ms, iterations {it2[0] / len(states):.0f} + "
          f"{it2[1] / len(states):.0f} (slower {it2[2] / len(states):.0f}); ceiling x{one / half:.2f}",
          flush=True)
print(f"{n}p ceiling of the 2-thread gain: median x{statistics.median(ceil):.2f} "
      f"(range {min(ceil):.2f}-{max(ceil):.2f})")
