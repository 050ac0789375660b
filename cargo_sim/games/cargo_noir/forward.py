"""The forward model in Python: one game you can inspect, clone and step.

    st = GameState(["expert", "random"], seed=1)      # game 0 of run seed 1
    st.decision            # Decision(kind='send ship', seat=0, ...)
    st.legal()             # [(0, 0, 0), (1, 0, 0), (2, 1, 7), ...]: (answer, lo, hi)
    st.step(2, bid=3)      # send a ship to port 0 on 3 coins
    st.clone().playout()   # the rest of the game with the table's bots
    st.returns()           # per seat: vp, won, win_share (when over)

Game ``game`` of ``simulate(..., seed=seed)`` and ``GameState(..., seed=seed,
game=game)`` are the same game: stepped with the bots' own answers it ends in the
same table rows. Each step is checked by the engine itself; an illegal answer
raises ``IllegalDecisionError`` and leaves the state as it was. The kernels are in
``forward_nb`` (for search agents written in numba); the class is the core's
(``core.forward.GameState``) bound to Cargo Noir, with the game's own answers
(bids, token and card vectors) added here. See docs/contract.md.
"""
from __future__ import annotations

import numpy as np

from ...core import forward as core_forward
from ...core.errors import ConfigError
from ...core.forward import Decision, ForwardModel  # noqa: F401  (cargo_sim.Decision)
from . import enums as e
from ...core.checks import whole
from .forward_nb import (MAX_LEGAL, VECTOR, begin_nb, clone_into_nb, determinize_nb, is_over_nb,
                         legal_nb, pending_nb, step_nb, stopped_nb, table_bot_answer_nb,
                         table_playout_nb)
from ...core.borrow_nb import decide_addresses
from ...core.layout import R_DECIDE_C, R_DECIDE_JIT
from .engine_nb import DECIDE_SIG
from .simulate import illegal_error, load_solver, solver_address
from .bots.dispatch_nb import random_table_decide_nb
from .chunk_nb import random_playout_nb


# answers and counts given to step: far beyond any legal one, far inside int64
ANSWER_MAX = 2**31 - 1


def _count(name: str, v) -> int:
    if not whole(v) or not -ANSWER_MAX <= v <= ANSWER_MAX:
        raise ConfigError(f"{name} must be a whole number from {-ANSWER_MAX} to {ANSWER_MAX}, got {v!r}")
    return int(v)


def _counts(name: str, v, n: int, per: str) -> np.ndarray:
    """v as n whole numbers (a list or an integer numpy array of exactly n), checked."""
    if isinstance(v, (str, bytes)) or not hasattr(v, "__len__"):
        raise ConfigError(f"{name} must be a list of {n} whole numbers (one per {per}), got {v!r}")
    if len(v) != n:
        raise ConfigError(f"{name} must hold exactly {n} whole numbers (one per {per}), got {len(v)}")
    out = np.zeros(n, dtype=np.int64)
    for i, x in enumerate(v):
        out[i] = _count(f"{name}[{i}]", x)
    return out


def _same_table(a: np.ndarray, b: np.ndarray) -> bool:
    """The same table: the core header but its machine words and the decide kernel's
    addresses (set on first use: _with_decide), and the rules header (equal tables
    share one shared array: Rules.shared_data)."""
    from ...core.layout import MARKS
    after = R_DECIDE_C + 1          # the machine words, then R_DECIDE_JIT and R_DECIDE_C
    return np.array_equal(a[:MARKS], b[:MARKS]) and np.array_equal(a[after:e.MISC], b[after:e.MISC])


def _legal(s):
    out = np.zeros((MAX_LEGAL, 3), dtype=np.int64)
    n = legal_nb(s, out)
    return None if n == VECTOR else [tuple(int(x) for x in row) for row in out[:n]]


def _answer(answer):
    """(answer, vector s[OUT...]) checked: as bot_answer returns it."""
    if isinstance(answer, (str, bytes)) or not hasattr(answer, "__len__") or len(answer) != 2:
        raise ConfigError(f"an answer is (answer, vector of {e.OUT_W} words) as bot_answer returns it, "
                          f"got {answer!r}")
    a, vec = answer
    vec = _counts("out", vec, e.OUT_W, "word of s[OUT...]")
    if not whole(a) or not -ANSWER_MAX <= a <= ANSWER_MAX:
        raise ConfigError(f"an answer is a whole number from {-ANSWER_MAX} to {ANSWER_MAX}, "
                          f"got {a!r}")
    return int(a), vec


def _step(s, log, answer):
    a, vec = answer
    s[e.OUT:e.OUT + e.OUT_W] = vec
    step_nb(s, log, a, solver_address())


def _with_decide(s, decide):
    """s with its table's decide kernel by address (forward_nb.table_decide_nb): the
    kernels below take no function argument, whose look-up at every call from Python
    cost more than a whole game. Set on first use (compiling the bots then, as the
    argument did), kept by every copy of the state."""
    if s[R_DECIDE_C] == 0:
        s[R_DECIDE_JIT], s[R_DECIDE_C] = decide_addresses(decide, DECIDE_SIG)
    return s


def _bot_answer(s, decide):
    ans = int(table_bot_answer_nb(_with_decide(s, decide)))
    return ans, s[e.OUT:e.OUT + e.OUT_W].copy()


def _playout(s, log, decide):
    if decide is random_table_decide_nb:        # every seat `random`: simulate's own loop
        random_playout_nb(s, log, solver_address())
    else:
        table_playout_nb(_with_decide(s, decide), log, solver_address())


def _retry(s) -> bool:
    """A holding beyond the trade tables (not an illegal answer): load the exact solver."""
    if s[e.M_ERR_KIND] >= 0:
        return False
    load_solver()
    return True


def _error(st, s, by_caller):
    return illegal_error(st.players, int(s[e.M_ERR_KIND]), int(s[e.M_ERR_SEAT]), int(s[e.M_ERR_VALUE]),
                         int(s[e.M_ERR_AUX]), int(s[e.M_TURN]), st.game, st.game_seed, st.rules,
                         by_caller=by_caller)


def _scores(s, n):
    return ([s[e.STATS + seat * e.STATS_W + e.P.vp] for seat in range(n)],
            [s[e.STATS + seat * e.STATS_W + e.P.won] for seat in range(n)])


def _stats(s, n, rules):
    nc = len(rules.card_names)
    rows = np.zeros((n, e.N_PLAYER_FIELDS + nc), dtype=np.int64)
    for seat in range(n):
        rows[seat, :e.N_PLAYER_FIELDS] = s[e.STATS + seat * e.STATS_W:][:e.N_PLAYER_FIELDS]
        rows[seat, e.N_PLAYER_FIELDS:] = s[e.CARDS + seat * e.MAX_CARDS:][:nc]
    return rows


# Cargo Noir's kernels as the core's GameState uses them (the contract's ``forward``)
FORWARD = ForwardModel(
    decision_names=e.DECISION_NAMES, log_width=e.N_EVENT_FIELDS,
    begin=lambda s, log, seed, game: begin_nb(s, log, np.uint64(seed), game, solver_address()),
    pending=pending_nb, is_over=is_over_nb, turn=lambda s: s[e.M_TURN], legal=_legal,
    answer=_answer, step=_step, bot_answer=_bot_answer,
    playout=_playout,
    stopped=stopped_nb, retry=_retry, error=_error, determinize=determinize_nb,
    clone_into=clone_into_nb, same_table=_same_table, scores=_scores, stats=_stats)


class GameState(core_forward.GameState):
    """One game of a table (rules, one bot per seat), from its first decision to its end."""
    GAME = "cargo_noir"

    def legal(self) -> list[tuple[int, int, int]] | None:
        """Legal answers as (answer, lo, hi): for a port in 'send ship' the bid ranges
        over lo..hi; for 'raise or abandon' the row (-2, lo, hi) stands for every raise
        lo..hi and (0, 0, 0) abandons. None for trade and discard (vector answers)."""
        return _legal(self.s)

    def determinize(self, seat: int, seed: int) -> "GameState":
        """A copy in which what `seat` cannot know is resampled from a stream of
        (seed, seat): the order of the bag's future draws (its contents are
        public). Everything the seat sees is unchanged (docs/forward.md)."""
        return super().determinize(seat, seed)

    def stats(self) -> np.ndarray:
        """Each seat's statistics (enums.PLAYER_FIELDS) then cards held, as simulate's rows."""
        return _stats(self.s, len(self.players), self.rules)

    def bot_answer(self) -> tuple[int, np.ndarray]:
        """Ask the pending seat's bot: (answer, its vector s[OUT...]), as the engine
        asks it (the bot sees what its seat may see and draws from its seat's own
        stream). As in a simulated game, what the bot leaves in its notes stays:
        step with this answer next."""
        return super().bot_answer()

    def step(self, answer: int, bid: int | None = None, tokens=None, cards=None) -> "GameState":
        """Answer the pending decision. ``bid``: coins for a ship sent to a port;
        ``tokens``/``cards``: counts per token type / card for a trade (tokens only
        for a discard). Raises IllegalDecisionError (state unchanged) if the engine
        refuses the answer."""
        self._need_decision()
        vec = np.zeros(e.OUT_W, dtype=np.int64)
        if bid is not None:
            vec[0] = _count("bid", bid)
        n_tok, n_cards = len(self.rules.cargo_types) + 1, len(self.rules.card_names)
        if tokens is not None:
            vec[:n_tok] = _counts("tokens", tokens, n_tok, "token type (Wild last)")
        if cards is not None:
            vec[e.MAX_TOK:e.MAX_TOK + n_cards] = _counts("cards", cards, n_cards, "card")
        return self.apply((answer, vec))

    def step_vector(self, answer: int, out: np.ndarray) -> "GameState":
        """Answer with a raw s[OUT...] vector (as bot_answer returns it)."""
        return self.apply((answer, out))
