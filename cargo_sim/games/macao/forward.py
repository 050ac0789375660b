"""Macao's forward model in Python: the core's GameState bound to Macao.

    st = GameState(["greedy", "random"], seed=1)   # game 0 of run seed 1
    st.decision          # Decision(kind='start colour', code=0, seat=...)
    st.legal()           # every legal answer (ints: enums' codes)
    st.apply(3)          # answer it; runs to the next decision
    st.determinize(seat, seed=7)   # the deck's order, the dice and the bots' streams resampled
    st.clone().playout().returns()

Game ``game`` of ``simulate(..., seed=seed, game="macao")`` and ``GameState(..., seed=seed,
game=game)`` are the same game. The kernels are ``forward_nb``'s; see docs/contract.md.
"""
from __future__ import annotations

from ...core import forward as core_forward
from . import enums as E
from . import forward_nb


def _stats_nb():
    from .chunk_nb import stats_nb
    return stats_nb


FORWARD = core_forward.coded_model("Macao", E, forward_nb, _stats_nb, E.G_ROUND, "round")


class GameState(core_forward.GameState):
    """One Macao game of a table (rules, one bot per seat), from its first decision to its end.
    ``legal()`` lists every legal answer (enums' codes: a card's slot, a dice pair a * 6 + b,
    an action code ...); ``turn`` is the round."""
    GAME = "macao"

    def determinize(self, seat: int, seed: int) -> "GameState":
        """A copy in which what `seat` cannot know is resampled from a stream of (seed,
        seat): the order of the deck's unrevealed cards, the future dice and the other
        seats' random streams. Everything the seat sees is unchanged."""
        return super().determinize(seat, seed)


