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
``forward_nb`` (for search agents written in numba). See docs/contract.md.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...core.errors import ConfigError
from ...core.rng_nb import game_seed_nb
from . import enums as e
from ...core.checks import MAX_GAME, check_seed, whole
from .forward_nb import (MAX_LEGAL, VECTOR, begin_nb, bot_answer_nb, clone_into_nb, determinize_nb,
                         is_over_nb, legal_nb, pending_nb, playout_nb, step_nb, stopped_nb)
from .simulate import (check_request, illegal_error, load_solver, solver_address,
                       table_template)


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


@dataclass(frozen=True)
class Decision:
    """The decision a game waits for: its kind (``enums.DECISION_NAMES``), the
    code the bots see (``enums.D_*``) and the seat that decides."""
    kind: str
    code: int
    seat: int


def _same_table(a: np.ndarray, b: np.ndarray) -> bool:
    """The same table: the core header but its machine words, and the rules header."""
    from ...core.layout import MARKS, MARKS_END
    return np.array_equal(a[:MARKS], b[:MARKS]) and np.array_equal(a[MARKS_END:e.MISC], b[MARKS_END:e.MISC])


class GameState:
    """One game of a table (rules, one bot per seat), from its first decision to its end."""

    def __init__(self, players, seed: int = 0, game: int = 0, rules=None, *, _copy_of=None):
        if _copy_of is not None:
            src = _copy_of
            self.players, self.rules, self.decide = src.players, src.rules, src.decide
            self.seed, self.game, self.game_seed = src.seed, src.game, src.game_seed
            self.s = src.s.copy()
            self._log, self._scratch = src._log, None
            return
        self.players, self.rules = check_request(1, players, rules)
        if not whole(game) or not 0 <= game <= MAX_GAME:
            raise ConfigError(f"game must be a whole number >= 0, got {game!r}")
        self.seed, self.game = check_seed(seed), int(game)
        self.game_seed = int(game_seed_nb(np.uint64(seed), self.game))
        template, self.decide = table_template(self.rules, self.players)
        self.s = template
        self._log = np.zeros((0, e.N_EVENT_FIELDS), dtype=np.int64)
        self._scratch = None          # a second state of the table: steps are tried there first
        begin_nb(self.s, self._log, np.uint64(self.game_seed), self.game, solver_address())

    # ---- reading ---------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return bool(is_over_nb(self.s))

    @property
    def decision(self) -> Decision | None:
        """The pending decision, or None when the game is over."""
        kind, seat = pending_nb(self.s)
        if kind < 0:
            return None
        return Decision(e.DECISION_NAMES[kind], int(kind), int(seat))

    @property
    def turn(self) -> int:
        return int(self.s[e.M_TURN])

    def legal(self) -> list[tuple[int, int, int]] | None:
        """Legal answers as (answer, lo, hi): for a port in 'send ship' the bid ranges
        over lo..hi; for 'raise or abandon' the row (-2, lo, hi) stands for every raise
        lo..hi and (0, 0, 0) abandons. None for trade and discard (vector answers)."""
        out = np.zeros((MAX_LEGAL, 3), dtype=np.int64)
        n = legal_nb(self.s, out)
        return None if n == VECTOR else [tuple(int(x) for x in row) for row in out[:n]]

    def returns(self) -> dict:
        """Per seat when the game is over: vp, won (1/0) and win_share."""
        if not self.is_over:
            raise ConfigError("the game is not over yet")
        n = len(self.players)
        vp = [int(self.s[e.STATS + seat * e.STATS_W + e.P.vp]) for seat in range(n)]
        won = [int(self.s[e.STATS + seat * e.STATS_W + e.P.won]) for seat in range(n)]
        return {"vp": vp, "won": won, "win_share": [w / sum(won) for w in won]}

    def stats(self) -> np.ndarray:
        """Each seat's statistics (enums.PLAYER_FIELDS) then cards held, as simulate's rows."""
        n, nc = len(self.players), len(self.rules.card_names)
        rows = np.zeros((n, e.N_PLAYER_FIELDS + nc), dtype=np.int64)
        for seat in range(n):
            rows[seat, :e.N_PLAYER_FIELDS] = self.s[e.STATS + seat * e.STATS_W:][:e.N_PLAYER_FIELDS]
            rows[seat, e.N_PLAYER_FIELDS:] = self.s[e.CARDS + seat * e.MAX_CARDS:][:nc]
        return rows

    # ---- acting ------------------------------------------------------------------
    def clone(self) -> "GameState":
        """An independent copy (with its own copy of the tables: use copy_from to reuse one)."""
        return GameState(None, _copy_of=self)

    def determinize(self, seat: int, seed: int) -> "GameState":
        """A copy in which what `seat` cannot know is resampled from a stream of
        (seed, seat): the order of the bag's future draws (its contents are
        public). Everything the seat sees is unchanged (docs/forward.md)."""
        if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) \
                or not 0 <= seat < len(self.players):
            raise ConfigError(f"seat must be 0..{len(self.players) - 1}, got {seat!r}")
        check_seed(seed)
        out = self.clone()
        stream = np.array([game_seed_nb(np.uint64(seed), 0)], np.uint64).view(np.int64)[0]
        determinize_nb(out.s, int(seat), stream)
        return out

    def copy_from(self, other: "GameState") -> None:
        """Make this state the same game as `other` (same table): copies the game part only."""
        if not isinstance(other, GameState):
            raise ConfigError(f"copy_from takes a GameState, got {type(other).__name__}")
        lo, hi = int(self.s[e.R_WORK]), int(self.s[e.R_WORK] + self.s[e.R_WORK_LEN])
        if other.s.shape != self.s.shape or not _same_table(other.s, self.s) \
                or not np.array_equal(other.s[e.STATE_SIZE:lo], self.s[e.STATE_SIZE:lo]) \
                or not np.array_equal(other.s[hi:], self.s[hi:]):     # (the bots' workspace may differ)
            raise ConfigError("copy_from needs a state of the same table (the same rules, players "
                              "and parameters): use clone() to copy a state of another table")
        clone_into_nb(self.s, other.s)

    def bot_answer(self) -> tuple[int, np.ndarray]:
        """Ask the pending seat's bot: (answer, its vector s[OUT...]), as the engine
        asks it (the bot sees what its seat may see and draws from its seat's own
        stream). As in a simulated game, what the bot leaves in its notes stays:
        step with this answer next."""
        self._need_decision()
        ans = int(bot_answer_nb(self.s, self.decide))
        if self.s[e.M_ERR_KIND] >= 0:       # the bot faulted (a user bot's exception): say so now
            trial = self.s.copy()
            self.s[e.M_ERR_KIND:e.M_ERR_AUX + 1] = (-1, 0, 0, 0)
            self._raise_stopped(trial)
        return ans, self.s[e.OUT:e.OUT + e.OUT_W].copy()

    def step(self, answer: int, bid: int | None = None, tokens=None, cards=None) -> "GameState":
        """Answer the pending decision. ``bid``: coins for a ship sent to a port;
        ``tokens``/``cards``: counts per token type / card for a trade (tokens only
        for a discard). Raises IllegalDecisionError (state unchanged) if the engine
        refuses the answer."""
        d = self._need_decision()
        vec = np.zeros(e.OUT_W, dtype=np.int64)
        if bid is not None:
            vec[0] = _count("bid", bid)
        n_tok, n_cards = len(self.rules.cargo_types) + 1, len(self.rules.card_names)
        if tokens is not None:
            vec[:n_tok] = _counts("tokens", tokens, n_tok, "token type (Wild last)")
        if cards is not None:
            vec[e.MAX_TOK:e.MAX_TOK + n_cards] = _counts("cards", cards, n_cards, "card")
        self._apply(d, answer, vec)
        return self

    def step_vector(self, answer: int, out: np.ndarray) -> "GameState":
        """Answer with a raw s[OUT...] vector (as bot_answer returns it)."""
        d = self._need_decision()
        self._apply(d, answer, _counts("out", out, e.OUT_W, "word of s[OUT...]"))
        return self

    def apply(self, answer) -> "GameState":
        """Answer with what ``bot_answer`` returned (the contract's generic step)."""
        return self.step_vector(*answer)

    def playout(self) -> "GameState":
        """Play to the end with the table's bots."""
        trial = self.s.copy()
        playout_nb(trial, self._log, self.decide, solver_address())
        if stopped_nb(trial) and not self._retry_with_solver(trial):
            self._raise_stopped(trial)
        self.s = trial
        return self

    # ---- internals -----------------------------------------------------------------
    def _need_decision(self) -> Decision:
        d = self.decision
        if d is None:
            raise ConfigError("the game is over: no decision to answer")
        return d

    def _apply(self, d: Decision, answer: int, vec: np.ndarray) -> None:
        if not whole(answer) or not -ANSWER_MAX <= answer <= ANSWER_MAX:
            raise ConfigError(f"an answer is a whole number from {-ANSWER_MAX} to {ANSWER_MAX}, "
                              f"got {answer!r}")
        if self._scratch is None:
            self._scratch = self.s.copy()
        for attempt in range(2):
            trial = self._scratch
            clone_into_nb(trial, self.s)         # the game part only: the tables are the same
            trial[e.OUT:e.OUT + e.OUT_W] = vec
            step_nb(trial, self._log, int(answer), solver_address())
            if not stopped_nb(trial):
                self.s, self._scratch = trial, self.s
                return
            if trial[e.M_ERR_KIND] < 0 and attempt == 0:
                load_solver()       # a holding beyond the tables: step again with the solver
                continue
            self._raise_stopped(trial, by_caller=True)

    def _retry_with_solver(self, trial) -> bool:
        if trial[e.M_ERR_KIND] >= 0:
            return False
        load_solver()
        trial[:] = self.s
        playout_nb(trial, self._log, self.decide, solver_address())
        return not stopped_nb(trial)

    def _raise_stopped(self, trial, by_caller: bool = False) -> None:
        raise illegal_error(self.players, int(trial[e.M_ERR_KIND]), int(trial[e.M_ERR_SEAT]),
                            int(trial[e.M_ERR_VALUE]), int(trial[e.M_ERR_AUX]),
                            int(trial[e.M_TURN]), self.game, self.game_seed, self.rules,
                            by_caller=by_caller)

    def __repr__(self) -> str:
        d = self.decision
        where = "over" if d is None else f"turn {self.turn}, seat {d.seat} to decide {d.kind!r}"
        return f"GameState(game {self.game} of seed {self.seed}: {where})"
