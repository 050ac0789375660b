"""Cargo Empire's forward model in Python: the core's GameState bound to the game.

    st = GameState(["expert", "random"], seed=1)   # game 0 of run seed 1
    st.decision, st.legal(), st.apply(a), st.determinize(seat, seed=7)
    st.clone().playout().returns()
"""
from __future__ import annotations

import numpy as np

from ...core import forward as core_forward
from ...core.checks import whole
from ...core.errors import BotError, ConfigError, IllegalDecisionError
from ...core.forward import ForwardModel
from ...core.layout import BOT_FAULT, MARKS, MARKS_END
from . import enums as E
from .forward_nb import (begin_nb, bot_answer_nb, clone_into_nb, determinize_nb, legal_nb,
                         playout_nb, step_nb)

ANSWER_MAX = 2**31 - 1


def _legal(s):
    out = np.zeros(E.MAX_LEGAL, np.int64)
    return [int(a) for a in out[:legal_nb(s, out)]]


def _answer(answer):
    if isinstance(answer, bool) or not whole(answer) or not -ANSWER_MAX <= answer <= ANSWER_MAX:
        raise ConfigError(f"a Cargo Empire answer is a whole number (enums' answer codes), got {answer!r}")
    return int(answer)


def _error(st, s, by_caller):
    seat, kind, bad = int(s[E.G_SEAT]), int(s[E.G_ASK]), int(s[E.G_BAD])
    what = E.DECISIONS[kind] if 0 <= kind < len(E.DECISIONS) else f"kind {kind}"
    where = f"round {int(s[E.G_ROUND])} of game {st.game} (game seed {st.game_seed})"
    if bad == BOT_FAULT and not by_caller:
        return BotError(f"bot {st.players[seat].label!r} (seat {seat}) failed (raised) at a {what} "
                        f"decision; {where}")
    who = "the caller's answer" if by_caller else f"bot {st.players[seat].label!r}"
    return IllegalDecisionError(f"illegal {what} decision: answer {bad} ({who}, seat {seat}); {where}")


def _same_table(a, b):
    return np.array_equal(a[:MARKS], b[:MARKS]) and np.array_equal(a[MARKS_END:E.RULES_END],
                                                                   b[MARKS_END:E.RULES_END])


def _scores(s, n):
    return ([int(s[E.PL + q * E.PW + E.P_VP]) for q in range(n)],
            [int(s[E.PL + q * E.PW + E.P_WON]) for q in range(n)])


def _stats(s, n, rules):
    from .chunk_nb import stats_nb
    games = np.zeros((1, len(E.GAME_FIELDS)), np.int64)
    rows = np.zeros((1, n, len(E.PLAYER_FIELDS)), np.int32)
    stats_nb(s, games, rows, 0)
    return rows[0].astype(np.int64)


FORWARD = ForwardModel(
    decision_names=E.DECISIONS, log_width=E.N_EVENT_FIELDS,
    begin=lambda s, log, seed, game: begin_nb(s, np.uint64(seed), game),
    pending=lambda s: (int(s[E.G_ASK]), int(s[E.G_SEAT])),
    is_over=lambda s: s[E.G_PHASE] == E.PH_OVER, turn=lambda s: s[E.G_ROUND], legal=_legal,
    answer=_answer, step=lambda s, log, a: step_nb(s, a),
    bot_answer=lambda s, decide: int(bot_answer_nb(s, decide)),
    playout=lambda s, log, decide: playout_nb(s, decide),
    stopped=lambda s: bool(s[E.G_STOP]), retry=lambda s: False, error=_error,
    determinize=determinize_nb, clone_into=clone_into_nb, same_table=_same_table,
    scores=_scores, stats=_stats)


class GameState(core_forward.GameState):
    """One Cargo Empire game of a table, from its first decision to its end; ``legal()``
    lists the answers (enums' codes), ``turn`` is the round."""
    GAME = "cargo_empire"
