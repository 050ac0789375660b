"""Time per decision of two settings of one search bot on the same decisions.

To compare two searches at equal time (e.g. ``ismcts?iterations=1000`` against
``ismcts?iterations=N&rollout=strong&opponent=strong``), pick N so that their time per
decision matches. This times both on the same states: seat 0 of games against
``against``; at each of seat 0's decisions a clone of the state is answered with each
setting's parameters (written into seat 0's row), the order alternating, and the game
goes on with the first setting's answer. Both settings must be the same bot (their
parameters differ). CPU time of the process (``time.process_time``), so other work
on a shared machine enters less than in wall time.

    python -m analyses.search_time 'ismcts?iterations=1000' \\
        'ismcts?iterations=1000&rollout=strong&opponent=strong' --games 3
"""
from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from cargo_sim.core.contract import get_game
from cargo_sim.core.errors import ConfigError
from cargo_sim.core.layout import N_PARAMS, PARAM_SCALE, PARAMS


def paired_times(a: str, b: str, against: str = "expert", n_players: int = 2, games: int = 2,
                 seed: int = 1, game=None) -> dict:
    """Decisions timed, seconds per decision of ``a`` and of ``b`` and their ratio b / a."""
    g = get_game(game)
    pa, pb = g.bots.parse(a), g.bots.parse(b)
    if pa.spec.name != pb.spec.name:
        raise ConfigError(f"both settings must be the same bot, got {pa.spec.name!r} and {pb.spec.name!r}")
    if games < 1:
        raise ConfigError(f"games must be >= 1, got {games}")
    rows = {k: np.round(p.param_vector(N_PARAMS) * PARAM_SCALE) for k, p in (("a", pa), ("b", pb))}
    spent = {"a": 0.0, "b": 0.0}
    done = 0
    for i in range(games):
        st = g.GameState([a] + [against] * (n_players - 1), seed=seed, game=i)
        while not st.is_over:
            if st.decision.seat == 0:
                for k in (("a", "b") if done % 2 == 0 else ("b", "a")):
                    c = st.clone()
                    c.s[PARAMS:PARAMS + N_PARAMS] = rows[k]
                    t0 = time.process_time()
                    c.bot_answer()
                    spent[k] += time.process_time() - t0
                done += 1
            st.step_vector(*st.bot_answer())
    return {"decisions": done, "a_s": spent["a"] / done, "b_s": spent["b"] / done,
            "ratio": spent["b"] / spent["a"]}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m analyses.search_time", description=__doc__.split("\n\n")[0])
    p.add_argument("a")
    p.add_argument("b")
    p.add_argument("--against", default="expert")
    p.add_argument("--seats", type=int, default=2)
    p.add_argument("--games", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--game", default=None)
    x = p.parse_args(argv)
    try:
        r = paired_times(x.a, x.b, x.against, x.seats, x.games, x.seed, x.game)
    except ConfigError as e:
        print(f"search_time: error: {e}", file=sys.stderr)
        return 2
    print(f"{r['decisions']} decisions: {x.a} {r['a_s'] * 1000:.1f} ms, {x.b} {r['b_s'] * 1000:.1f} ms "
          f"a decision (CPU); b / a = {r['ratio']:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
