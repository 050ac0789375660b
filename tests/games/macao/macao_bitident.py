"""Full result tables of Macao tables, hashed: the bit-identity guard for refactors of
Macao's kernels that must not change a game (the effects' own module, the speed work).

    python tests/games/macao/macao_bitident.py          # print the digests, compare with the file
    python tests/games/macao/macao_bitident.py --write  # write data/bitident.json

tests/games/macao/test_macao_bitident.py (slow) compares against the committed file. The
digests were recorded with the default rules of their time (RECORDED_WITH overrides a
later change of a default, as Cargo Noir's guard does).
"""
from __future__ import annotations

import hashlib
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
from bitident_kit import main, table_digests  # noqa: E402

DATA = pathlib.Path(__file__).parent / "data" / "bitident.json"
RECORDED_WITH: dict = {}
STRATS = ["greedy", "builder", "shipper", "expert"]


def tables():
    """(label, players, n_games, kwargs): every player count, every built-in heuristic,
    the search bots with small budgets, checked mode and the event log."""
    out = []
    for n in (2, 3, 4):
        out.append((f"random{n}", ["random"] * n, 300, {"events": n == 3}))
        out.append((f"strat{n}", [STRATS[i % len(STRATS)] for i in range(n)], 200, {}))
        out.append((f"expert{n}", ["expert"] * n, 200, {"events": n == 2}))
    out.append(("mix4", ["random", "shipper", "builder", "expert"], 200, {"check_bots": True}))
    out.append(("flatmc2", ["flatmc?rollouts=2", "expert"], 2, {}))
    out.append(("ismcts3", ["ismcts?iterations=30", "greedy", "random"], 2, {}))
    return out


def recorded_rules():
    from cargo_sim.games.macao.rules import Rules
    r = Rules.default()
    return r.replace(**RECORDED_WITH) if RECORDED_WITH else r


def forward_digest():
    """Two games stepped through Macao's GameState (legal, clone, playout, bot answers)."""
    from cargo_sim.games.macao.forward import GameState
    rules = recorded_rules()
    h = hashlib.sha256()
    for players in (["expert", "random"], ["random", "greedy", "shipper", "builder"]):
        st = GameState(players, seed=5, game=3, rules=rules)
        k = 0
        while not st.is_over:
            if k % 7 == 0:
                h.update(repr(st.legal()).encode())
                c = st.clone()
                c.playout()
                h.update(repr(c.returns()).encode())
            ans = st.bot_answer()
            h.update(repr(ans).encode())
            st.apply(ans)
            k += 1
        h.update(repr(st.returns()).encode())
        h.update(st.stats().tobytes())
    return h.hexdigest()[:16]


def digests(only=None) -> dict:
    out = table_digests(tables(), recorded_rules(), only, game="macao")
    if not only or "forward" in only:
        out["forward"] = forward_digest()
        print("forward", out["forward"], flush=True)
    return out


if __name__ == "__main__":
    main(sys.modules[__name__])
