"""Does the first 2-thread decision of a process pay for starting numba's thread pool?
In one fresh process, bench_search.decision_rate's loop (seat 0's first decisions against
greedy, seed 1) with threads=1, then with threads=2 (make bench's order), each decision
timed (wall and the process's CPU time); then threads=2 again (the pool now running).
    python .bench/threads_first.py [players] [decisions] [iterations]"""
import sys, time, statistics
from cargo_sim.core.contract import get_game

n = int(sys.argv[1]) if len(sys.argv) > 1 else 2
decisions = int(sys.argv[2]) if len(sys.argv) > 2 else 20
it = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
GS = get_game("cargo_noir").GameState


def times(threads):
    bot = f"ismcts?iterations={it}" + (f"&threads={threads}" if threads > 1 else "")
    st = GS([bot] + ["greedy"] * (n - 1), seed=1)
    out = []
    while not st.is_over and len(out) < decisions:
        if st.decision.seat == 0:
            t0, c0 = time.perf_counter(), time.process_time()
            ans = st.bot_answer()
            out.append((time.perf_counter() - t0, time.process_time() - c0))
        else:
            ans = st.bot_answer()
        st.step_vector(*ans)
    return out


for label, threads in (("threads=1", 1), ("threads=2, first use", 2), ("threads=2 again", 2)):
    t = times(threads)
    w = [a for a, _ in t]
    print(f"{n}p {label}: first decision {w[0] * 1e3:.0f} ms wall ({t[0][1] * 1e3:.0f} ms CPU), the others "
          f"median {statistics.median(w[1:]) * 1e3:.0f} ms; rate {len(w) / sum(w):.2f}/s, without the first "
          f"{(len(w) - 1) / sum(w[1:]):.2f}/s", flush=True)
