"""Full result tables of many Cargo Noir tables, hashed: the bit-identity guard for
refactors and speed work that must not change a game.

    python tests/games/cargo_noir/bitident.py          # print the digests
    python tests/games/cargo_noir/bitident.py --write  # write data/bitident.json

tests/games/cargo_noir/test_bitident.py (slow) compares against the committed file.
"""
from __future__ import annotations

import hashlib
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
from bitident_kit import main, table_digests  # noqa: E402

DATA = pathlib.Path(__file__).parent / "data" / "bitident.json"
# The rules the digests were recorded with (the defaults of the time): the guard compares
# engines, so a later change of a default value (e.g. the Cargo Ship's cost, 12 then, 15 now)
# does not invalidate it.
RECORDED_WITH = {"card.Cargo Ship.cost": 12}
STRATS = ["greedy", "banker", "collector", "diversifier", "trader", "fleet", "syndicate",
          "sniper", "expert", "expert_v1"]


def _register_user_bot():
    import cargo_sim
    from cargo_sim.botkit import (D_SEND, LOC_CASINO, OUT, coins_nb, heuristic_decide_nb,
                                  param_nb, rand_below_nb, random_decide_nb)
    if "bitident_user" in cargo_sim.bot_names():
        return

    @cargo_sim.bot("bitident_user", params={"p_random": 0.3, "keep": 2.0})
    def bitident_user(kind, s, seat):
        if rand_below_nb(s, 1000) < param_nb(s, seat, 0) * 1000:
            return random_decide_nb(kind, s, seat)
        if kind == D_SEND and coins_nb(s, seat) < param_nb(s, seat, 1):
            s[OUT] = 0
            return LOC_CASINO
        return heuristic_decide_nb(kind, s, seat)


def tables():
    """(label, players, n_games, kwargs)"""
    out = []
    for n in range(2, 6):
        out.append((f"random{n}", ["random"] * n, 300, {}))
        for k in range(0, len(STRATS), n):
            mix = [STRATS[(k + i) % len(STRATS)] for i in range(n)]
            out.append((f"strat{n}_{k}", mix, 60, {}))
        out.append((f"expert{n}", ["expert"] + ["expert_v1", "random", "greedy", "sniper"][:n - 1],
                    60, {}))
        out.append((f"flatmc{n}", ["flatmc?rollouts=4"] + ["greedy", "expert", "random", "trader"][:n - 1],
                    2, {}))
        out.append((f"ismcts{n}", ["ismcts?iterations=50"] + ["expert", "random", "greedy", "fleet"][:n - 1],
                    2, {}))
        out.append((f"user{n}", ["bitident_user"] + ["random", "expert", "greedy", "banker"][:n - 1],
                    60, {}))
        out.append((f"checked{n}", ["bitident_user?p_random=0.6"] + ["expert", "random", "greedy", "banker"][:n - 1],
                    30, {"check_bots": True}))
    out.append(("events3", ["random", "expert", "bitident_user"], 20, {"events": True}))
    out.append(("mixsearch3", ["ismcts?iterations=30&opponent=expert", "flatmc?rollouts=3&rollout=greedy",
                               "bitident_user"], 2, {}))
    return out


def recorded_rules():
    import cargo_sim
    return cargo_sim.Rules.default().replace(**RECORDED_WITH)


def forward_digest():
    """A few games stepped through GameState (clone, legal, bot_answer, playout)."""
    from cargo_sim import GameState
    rules = recorded_rules()
    h = hashlib.sha256()
    for n, players in ((2, ["expert", "random"]), (4, ["random", "greedy", "bitident_user", "expert"])):
        st = GameState(players, seed=5, game=3, rules=rules)
        k = 0
        while not st.is_over:
            if k % 7 == 0:
                h.update(repr(st.legal()).encode())
                c = st.clone()
                c.playout()
                h.update(repr(c.returns()).encode())
            ans, vec = st.bot_answer()
            h.update(repr((ans, vec.tolist())).encode())
            st.step_vector(ans, vec)
            k += 1
        h.update(repr(st.returns()).encode())
        h.update(st.stats().tobytes())
    return h.hexdigest()[:16]


def digests(only=None) -> dict:
    _register_user_bot()
    out = table_digests(tables(), recorded_rules(), only)
    if not only or "forward" in only:
        out["forward"] = forward_digest()
        print("forward", out["forward"], flush=True)
    return out


if __name__ == "__main__":
    main(sys.modules[__name__])
