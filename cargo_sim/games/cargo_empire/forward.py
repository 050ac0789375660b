"""Cargo Empire's forward model in Python: the core's GameState bound to the game.

    st = GameState(["expert", "random"], seed=1)   # game 0 of run seed 1
    st.decision, st.legal(), st.apply(a), st.determinize(seat, seed=7)
    st.clone().playout().returns()
"""
from __future__ import annotations

from ...core import forward as core_forward
from . import enums as E
from . import forward_nb


def _stats_nb():
    from .chunk_nb import stats_nb
    return stats_nb


FORWARD = core_forward.coded_model("Cargo Empire", E, forward_nb, _stats_nb, E.G_ROUND, "round")


class GameState(core_forward.GameState):
    """One Cargo Empire game of a table, from its first decision to its end; ``legal()``
    lists the answers (enums' codes), ``turn`` is the round."""
    GAME = "cargo_empire"
