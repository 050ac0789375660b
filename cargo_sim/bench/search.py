"""Benchmarks of the search bots (part of ``make bench``; docs/forward.md).

First use of `ismcts` in a fresh process with a warm cache (target < 5 s), and
the decisions per second of `ismcts` at 1,000 iterations, 2 and 4 players, on 1
and 2 threads (root-parallel, ``threads=2``), over the searcher's first decisions
of a game against `greedy` (the same decisions for every thread count). The bench
times the thread counts on copies of each decision's state, in alternation
(``paired_rates``), so that the machine's drift during the run does not enter their ratio.
"""
from __future__ import annotations

import time

from ..games import DEFAULT          # the search bots timed are the default game's

_FIRST_USE_CODE = """
import json, time
t0 = time.perf_counter()
import cargo_sim
st = cargo_sim.GameState(["ismcts?iterations=10", "greedy"], seed=1)
st.bot_answer()
print(json.dumps({"first_use_s": time.perf_counter() - t0}))
"""


def first_use(child) -> float:
    """Seconds from `import cargo_sim` to a first ismcts answer in a fresh process."""
    child(_FIRST_USE_CODE)                 # fills the cache if it is cold
    return child(_FIRST_USE_CODE)["first_use_s"]


def decision_rate(iterations: int, n_players: int, decisions: int = 20, seed: int = 1,
                  threads: int = 1) -> float:
    """ismcts decisions per second (seat 0 of a game against greedy bots)."""
    from ..core.contract import get_game
    bot = f"ismcts?iterations={iterations}" + (f"&threads={threads}" if threads > 1 else "")
    st = get_game(DEFAULT).GameState([bot] + ["greedy"] * (n_players - 1), seed=seed)
    spent, done = 0.0, 0
    while not st.is_over and done < decisions:
        if st.decision.seat == 0:
            t0 = time.perf_counter()
            ans = st.bot_answer()
            spent += time.perf_counter() - t0
            done += 1
        else:
            ans = st.bot_answer()
        st.step_vector(*ans)
    return done / spent


def paired_rates(iterations: int, n_players: int, decisions: int = 20, seed: int = 1,
                 threads=(1, 2)) -> dict[int, float]:
    """ismcts decisions per second for each thread count: at each of the searcher's
    decisions (seat 0 of a game against greedy bots), a clone of the state is answered
    with each count, the order alternating; the game goes on with the one-thread answer."""
    from ..core.contract import get_game
    from ..core.layout import PARAMS, PARAM_SCALE
    from ..core.search.params import SP_THREADS
    st = get_game(DEFAULT).GameState([f"ismcts?iterations={iterations}"]
                                          + ["greedy"] * (n_players - 1), seed=seed)
    spent = {t: 0.0 for t in threads}

    def answer(t):
        c = st.clone()
        c.s[PARAMS + SP_THREADS] = t * PARAM_SCALE
        t0 = time.perf_counter()
        c.bot_answer()
        return time.perf_counter() - t0

    answer(max(threads))                  # starts numba's thread pool once, untimed
    done = 0
    while not st.is_over and done < decisions:
        if st.decision.seat == 0:
            for t in (threads if done % 2 == 0 else threads[::-1]):
                spent[t] += answer(t)
            done += 1
        st.step_vector(*st.bot_answer())
    return {t: done / spent[t] for t in threads}


def run(child, say, budgets=(1000,), players=(2, 4), threads=(1, 2)) -> dict:
    out = {"first_use_s": first_use(child), "decisions_s": {}}
    say(f"  first use of ismcts in a fresh process (warm cache; target < 5 s): "
        f"{out['first_use_s']:.1f} s")
    for n in players:
        for it in budgets:
            rates = paired_rates(it, n, threads=threads)
            for t in threads:
                r = out["decisions_s"][f"{n}p_{it}_t{t}"] = rates[t]
                say(f"  ismcts?iterations={it}&threads={t}, {n} players (vs greedy): "
                    f"{r:,.1f} decisions/s")
            if len(threads) > 1:
                say(f"  {n} players: x{rates[threads[-1]] / rates[threads[0]]:.2f} with "
                    f"{threads[-1]} threads (the same decisions, alternated; target >= x1.7)")
    return out
