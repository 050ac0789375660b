"""The same decisions timed with threads=1 and threads=2 in one process, interleaved
(the order alternates per decision); wall time and the process's CPU time (every thread):
    python .bench/threads_pair.py PLAYERS [decisions] [iterations] [extra bot parameters]"""
import sys, time, statistics
from cargo_sim.core.layout import PARAMS, PARAM_SCALE
from cargo_sim.core.search.params import SP_THREADS
from cargo_sim.games.cargo_noir.forward import GameState

n = int(sys.argv[1]); decisions = int(sys.argv[2]) if len(sys.argv) > 2 else 10
it = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
extra = sys.argv[4] if len(sys.argv) > 4 else ""
ref = GameState([f"ismcts?iterations={it}{extra}"] + ["greedy"] * (n - 1), seed=1)
tt = {1: 0.0, 2: 0.0}
cc = {1: 0.0, 2: 0.0}
ratios = []
done = 0
while not ref.is_over and done < decisions:
    if ref.decision.seat == 0:
        dt = {}
        for t in ((1, 2) if done % 2 == 0 else (2, 1)):
            st = ref.clone()
            st.s[PARAMS + SP_THREADS] = t * PARAM_SCALE
            st.bot_answer()
            t0, c0 = time.perf_counter(), time.process_time()
            st.bot_answer()
            dt[t] = time.perf_counter() - t0
            tt[t] += dt[t]
            cc[t] += time.process_time() - c0
        ratios.append(dt[1] / dt[2])
        done += 1
    ref.step_vector(*ref.bot_answer())
print(f"{n}p {it} it{extra}, {done} decisions: 1 thread {done / tt[1]:.2f}/s, 2 threads {done / tt[2]:.2f}/s "
      f"wall, x{tt[1] / tt[2]:.2f} (median per decision x{statistics.median(ratios):.2f}); CPU s per "
      f"decision: 1 thread {cc[1] / done:.3f}, 2 threads {cc[2] / done:.3f} (both threads)")
