"""The forward model in Python, for any game: one game you can inspect, clone and step.

A game hands its kernels as a ``ForwardModel`` (its contract member ``forward``);
``GameState`` is written once against it and bound to a game by subclassing
(``GAME`` the Game object)::

    class GameState(core.forward.GameState):
        GAME = "my_game"          # its registered name (or the Game object)

Game ``game`` of ``simulate(..., seed=seed)`` and ``GameState(..., seed=seed,
game=game)`` are the same game: stepped with the bots' own answers it ends in the
same table rows. Each answer is applied to a scratch copy first: an illegal one
raises ``IllegalDecisionError`` and leaves the state as it was. See
docs/contract.md ("The forward model") and docs/forward.md.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from .checks import MAX_GAME, check_seed, whole
from .errors import BotError, ConfigError, IllegalDecisionError
from .layout import BOT_FAULT, MARKS, MARKS_END
from .rng_nb import game_seed_nb


@dataclass(frozen=True)
class ForwardModel:
    """What a game's kernels offer the core's GameState (each a Python callable,
    usually a thin call of a compiled kernel). ``s`` is the state array, ``log``
    an event log of ``log_width`` columns (the GameState's has no rows)."""
    decision_names: tuple      # decision kind (code) -> its name
    log_width: int             # columns of the game's event log
    begin: Callable            # (s, log, game_seed, game): set up, run to the first decision
    pending: Callable          # (s) -> (kind, seat); kind < 0: no decision (over or stopped)
    is_over: Callable          # (s) -> bool
    turn: Callable             # (s) -> the game's turn (for people)
    legal: Callable            # (s) -> the pending decision's legal answers (the game's form)
    answer: Callable           # (answer) -> the answer checked (ConfigError) in step's form
    step: Callable             # (s, log, answer): apply it and run on to the next decision
    bot_answer: Callable       # (s, decide) -> the pending seat's bot's answer (step's form)
    playout: Callable          # (s, log, decide): on to the end with the table's bots
    stopped: Callable          # (s) -> bool: the last kernel stopped (illegal answer, fault...)
    retry: Callable            # (s) -> bool: a stop that loading something undoes (loaded: True)
    error: Callable            # (state, s, by_caller) -> the one-line error of a stopped s
    determinize: Callable      # (s, seat, stream: int64): resample what `seat` cannot know
    clone_into: Callable       # (dst, src): copy the game part (states of one table)
    same_table: Callable       # (a, b) -> bool: states of the same table (copy_from)
    scores: Callable           # (s, n) -> (vp per seat, won 1/0 per seat) of a finished game
    stats: Callable            # (s, n, rules) -> rows as the game's player_fields


@dataclass(frozen=True)
class Decision:
    """The decision a game waits for: its kind (the game's decision names), the
    code the bots see and the seat that decides."""
    kind: str
    code: int
    seat: int


class GameState:
    """One game of a table (rules, one bot per seat), from its first decision to its end."""
    GAME: Any = None            # the game's registered name or Game object (a subclass binds it)

    def __init__(self, players, seed: int = 0, game: int = 0, rules=None, *,
                 check_bots: bool = True, _copy_of=None):
        if _copy_of is not None:
            src = _copy_of
            self.players, self.rules, self.decide = src.players, src.rules, src.decide
            self.seed, self.game, self.game_seed = src.seed, src.game, src.game_seed
            self.s = src.s.copy()
            self._log, self._scratch, self._fw, self._table = src._log, None, src._fw, src._table
            return
        from .contract import get_game
        from .runner import seat_players
        game_obj = get_game(self.GAME)
        self._fw: ForwardModel = game_obj.forward
        self.players, self.rules = seat_players(game_obj, 1, players, rules)
        if not whole(game) or not 0 <= game <= MAX_GAME:
            raise ConfigError(f"game must be a whole number >= 0, got {game!r}")
        self.seed, self.game = check_seed(seed), int(game)
        self.game_seed = int(game_seed_nb(np.uint64(seed), self.game))
        # check_bots: user bots run checked (docs/safety.md); built-in bots never are
        self.s, self.decide = game_obj.table_template(self.rules, self.players, bool(check_bots))
        # the table's template: its memory keeps the table's shared array alive
        # (core.shared_nb), which every copy of this state points at
        self._table = self.s
        self._log = np.zeros((0, self._fw.log_width), dtype=np.int64)
        self._scratch = None          # a second state of the table: steps are tried there first
        self._fw.begin(self.s, self._log, self.game_seed, self.game)

    # ---- reading ---------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return bool(self._fw.is_over(self.s))

    @property
    def decision(self) -> Decision | None:
        """The pending decision, or None when the game is over."""
        kind, seat = self._fw.pending(self.s)
        if kind < 0:
            return None
        return Decision(self._fw.decision_names[kind], int(kind), int(seat))

    @property
    def turn(self) -> int:
        return int(self._fw.turn(self.s))

    def legal(self):
        """The pending decision's legal answers, in the game's form (its docs)."""
        return self._fw.legal(self.s)

    def returns(self) -> dict:
        """Per seat when the game is over: vp, won (1/0) and win_share."""
        if not self.is_over:
            raise ConfigError("the game is not over yet")
        vp, won = self._fw.scores(self.s, len(self.players))
        vp, won = [int(v) for v in vp], [int(w) for w in won]
        return {"vp": vp, "won": won, "win_share": [w / sum(won) for w in won]}

    def stats(self) -> np.ndarray:
        """Each seat's statistics, as simulate's player rows (the game's player_fields)."""
        return self._fw.stats(self.s, len(self.players), self.rules)

    # ---- acting ------------------------------------------------------------------
    def clone(self) -> "GameState":
        """An independent copy of the game (the table's read-only shared data is shared,
        not copied: core.shared_nb)."""
        # no __init__: a copy of the attributes and of the state array (a few µs in all;
        # a search written in Python clones thousands of times a decision)
        out = object.__new__(type(self))
        out.__dict__.update(self.__dict__)
        out.s = self.s.copy()
        out._scratch = None
        return out

    def determinize(self, seat: int, seed: int) -> "GameState":
        """A copy in which what `seat` cannot know is resampled from a stream of
        (seed, seat). Everything the seat sees is unchanged (docs/forward.md)."""
        if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) \
                or not 0 <= seat < len(self.players):
            raise ConfigError(f"seat must be 0..{len(self.players) - 1}, got {seat!r}")
        check_seed(seed)
        out = self.clone()
        stream = int(game_seed_nb(np.uint64(seed), 0))
        self._fw.determinize(out.s, int(seat), stream - (1 << 64) if stream >= 1 << 63 else stream)
        return out

    def copy_from(self, other: "GameState") -> None:
        """Make this state the same game as `other` (same table): copies the game part only."""
        if not isinstance(other, type(self)):
            raise ConfigError(f"copy_from takes a {type(self).__name__}, got {type(other).__name__}")
        if other.s.shape != self.s.shape or not self._fw.same_table(other.s, self.s):
            raise ConfigError("copy_from needs a state of the same table (the same rules, players "
                              "and parameters): use clone() to copy a state of another table")
        self._fw.clone_into(self.s, other.s)

    def bot_answer(self):
        """Ask the pending seat's bot, as the engine asks it (the bot sees what its
        seat may see and draws from its seat's own stream); the answer is in the
        form ``apply`` takes. As in a simulated game, what the bot leaves in its
        notes stays: apply this answer next."""
        self._need_decision()
        for attempt in range(2):
            trial = self._trial()
            ans = self._fw.bot_answer(trial, self.decide)
            if not self._fw.stopped(trial):
                self.s, self._scratch = trial, self.s
                return ans
            if attempt == 0 and self._fw.retry(trial):
                continue
            self._raise_stopped(trial)      # the bot faulted (a user bot's exception): say so now

    def apply(self, answer) -> "GameState":
        """Answer the pending decision with an answer in the form ``bot_answer``
        returns (the contract's generic step). Raises IllegalDecisionError (state
        unchanged) if the game refuses it."""
        self._need_decision()
        self._apply(self._fw.answer(answer))
        return self

    def playout(self) -> "GameState":
        """Play to the end with the table's bots."""
        trial = self.s.copy()
        self._fw.playout(trial, self._log, self.decide)
        if self._fw.stopped(trial):
            if not self._fw.retry(trial):
                self._raise_stopped(trial)
            trial[:] = self.s
            self._fw.playout(trial, self._log, self.decide)
            if self._fw.stopped(trial):
                self._raise_stopped(trial)
        self.s = trial
        return self

    # ---- internals -----------------------------------------------------------------
    def _need_decision(self) -> Decision:
        d = self.decision
        if d is None:
            raise ConfigError("the game is over: no decision to answer")
        return d

    def _trial(self) -> np.ndarray:
        """The scratch state, holding this game (the game part only: same table)."""
        if self._scratch is None:
            self._scratch = self.s.copy()
        else:
            self._fw.clone_into(self._scratch, self.s)
        return self._scratch

    def _apply(self, answer) -> None:
        for attempt in range(2):
            trial = self._trial()
            self._fw.step(trial, self._log, answer)
            if not self._fw.stopped(trial):
                self.s, self._scratch = trial, self.s
                return
            if attempt == 0 and self._fw.retry(trial):
                continue          # what the stop needed is loaded now: answer again
            self._raise_stopped(trial, by_caller=True)

    def _raise_stopped(self, trial, by_caller: bool = False) -> None:
        raise self._fw.error(self, trial, by_caller)

    def __repr__(self) -> str:
        d = self.decision
        where = "over" if d is None else f"turn {self.turn}, seat {d.seat} to decide {d.kind!r}"
        return f"{type(self).__name__}(game {self.game} of seed {self.seed}: {where})"


ANSWER_MAX = 2**31 - 1


def coded_model(title: str, enums, kernels, stats_nb, turn_at: int, turn_word: str) -> ForwardModel:
    """The ForwardModel of a game whose answers are int codes and whose state has the
    words ``enums`` names: ``G_SEAT``, ``G_ASK``, ``G_BAD``, ``G_PHASE`` (``PH_OVER``),
    ``G_STOP``, ``RULES_END``, the seats' rows (``PL`` + seat * ``PW``: ``P_VP``,
    ``P_WON``), with ``DECISIONS``, ``MAX_LEGAL``, ``N_EVENT_FIELDS``, ``GAME_FIELDS``,
    ``PLAYER_FIELDS``. ``kernels`` has its ``begin_nb``, ``step_nb``, ``legal_nb``,
    ``bot_answer_nb``, ``playout_nb``, ``determinize_nb``, ``clone_into_nb``;
    ``stats_nb()`` returns the chunk's stats kernel (loaded on first use); the turn is
    word ``turn_at``, called ``turn_word`` in errors."""
    E = enums

    def legal(s):
        out = np.zeros(E.MAX_LEGAL, np.int64)
        return [int(a) for a in out[:kernels.legal_nb(s, out)]]

    def answer(a):
        if isinstance(a, bool) or not whole(a) or not -ANSWER_MAX <= a <= ANSWER_MAX:
            raise ConfigError(f"a {title} answer is a whole number (enums' answer codes), got {a!r}")
        return int(a)

    def error(st, s, by_caller):
        seat, kind, bad = int(s[E.G_SEAT]), int(s[E.G_ASK]), int(s[E.G_BAD])
        what = E.DECISIONS[kind] if 0 <= kind < len(E.DECISIONS) else f"kind {kind}"
        where = f"{turn_word} {int(s[turn_at])} of game {st.game} (game seed {st.game_seed})"
        if bad == BOT_FAULT and not by_caller:
            return BotError(f"bot {st.players[seat].label!r} (seat {seat}) failed (raised) at a {what} "
                            f"decision; {where}")
        who = "the caller's answer" if by_caller else f"bot {st.players[seat].label!r}"
        return IllegalDecisionError(f"illegal {what} decision: answer {bad} ({who}, seat {seat}); {where}")

    def same_table(a, b):
        """The same table: the core header but its machine words, and the rules' words."""
        return np.array_equal(a[:MARKS], b[:MARKS]) and np.array_equal(a[MARKS_END:E.RULES_END],
                                                                       b[MARKS_END:E.RULES_END])

    def scores(s, n):
        return ([int(s[E.PL + q * E.PW + E.P_VP]) for q in range(n)],
                [int(s[E.PL + q * E.PW + E.P_WON]) for q in range(n)])

    def stats(s, n, rules):
        """Each seat's row as simulate's players table (PLAYER_FIELDS)."""
        games = np.zeros((1, len(E.GAME_FIELDS)), np.int64)
        rows = np.zeros((1, n, len(E.PLAYER_FIELDS)), np.int32)
        stats_nb()(s, games, rows, 0)
        return rows[0].astype(np.int64)

    return ForwardModel(
        decision_names=E.DECISIONS, log_width=E.N_EVENT_FIELDS,
        begin=lambda s, log, seed, game: kernels.begin_nb(s, np.uint64(seed), game),
        pending=lambda s: (int(s[E.G_ASK]), int(s[E.G_SEAT])),
        is_over=lambda s: s[E.G_PHASE] == E.PH_OVER, turn=lambda s: s[turn_at], legal=legal,
        answer=answer, step=lambda s, log, a: kernels.step_nb(s, a),
        bot_answer=lambda s, decide: int(kernels.bot_answer_nb(s, decide)),
        playout=lambda s, log, decide: kernels.playout_nb(s, decide),
        stopped=lambda s: bool(s[E.G_STOP]), retry=lambda s: False, error=error,
        determinize=kernels.determinize_nb, clone_into=kernels.clone_into_nb,
        same_table=same_table, scores=scores, stats=stats)
