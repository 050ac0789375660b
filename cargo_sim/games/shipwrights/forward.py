"""Shipwrights' forward model in Python: the core's GameState bound to the game.

    st = GameState(["expert", "random"], seed=1)   # game 0 of run seed 1
    st.decision          # Decision(kind='start goods', code=0, seat=...)
    st.legal()           # every legal answer (enums' codes)
    st.apply(st.legal()[0])
    st.determinize(seat, seed=7).playout().returns()

Game ``game`` of ``simulate(..., seed=seed, game="shipwrights")`` and ``GameState(...,
seed=seed, game=game)`` are the same game. The kernels are ``forward_nb``'s.
"""
from __future__ import annotations

from ...core import forward as core_forward
from . import enums as E
from . import forward_nb


def _stats_nb():
    from .chunk_nb import stats_nb
    return stats_nb


FORWARD = core_forward.coded_model("Shipwrights", E, forward_nb, _stats_nb, E.G_DAY, "day")


class GameState(core_forward.GameState):
    """One Shipwrights game of a table; ``turn`` is the day."""
    GAME = "shipwrights"
