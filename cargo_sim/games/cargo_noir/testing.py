"""Explicit game states and scripted decisions, for rule tests and tools.

``ScriptedGame`` holds one game's state array. Set any part of the state by
name (hands, coins, ports, bids, cards, ships, bag...), then run a phase of a
seat's turn with the answers that seat gives, in order::

    g = ScriptedGame(4)
    g.set_hand(0, jewels=4, wild=1, cars=3, weapons=1)
    g.run_phase(0, 2, [("trade", {"jewels": 4, "wild": 1, "cars": 3, "weapons": 1},
                        {"Night Club": 1, "Dive Bar": 2})])

Answers (one per decision the engine asks, in the order it asks them):
``("order", "Casino" | "Black Market" | port)``, ``("raise", coins)`` (0 =
abandon), ``("bm", "draw")`` or ``("bm", (give, take))``, ``("trade", sell,
buy)`` or ``("trade", None)``, ``("discard", tokens)``, ``("send", "Casino")``
or ``("send", port, bid)``. A decision that does not match the next answer,
or runs past the script, raises ``ScriptError``; an answer the engine finds
illegal raises ``IllegalDecisionError`` -- the engine's own check.
"""
from __future__ import annotations

import numpy as np
from ...core import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit

from ...core.errors import IllegalDecisionError
from . import enums as e
from numba import types

from .engine_nb import DecideType, play_on_nb, set_bid_nb, setup_nb, start_state_nb
from .rules import Rules
from .trade.packed_nb import exact_value_fn

_KIND = {"order": e.D_ORDER, "raise": e.D_RAISE, "bm": e.D_BLACK_MARKET, "trade": e.D_TRADE,
         "discard": e.D_DISCARD, "send": e.D_SEND}
_MISMATCH = -777777
# script region: [next entry offset, error flag, asked kind, entries...];
# entry: [kind, value, vector length, vector...]
SC_POS, SC_ERR, SC_ASKED, SC_HEAD = 0, 1, 2, 3


@njit(cache=True)
def scripted_decide_nb(kind, s, seat):
    """Answer from the script stored at s[s[R_SCRIPT]:]."""
    base = s[e.R_SCRIPT]
    pos = s[base + SC_POS]
    if pos >= s.shape[0] or s[pos] != kind:
        s[base + SC_ERR] = 1 if pos >= s.shape[0] else 2
        s[base + SC_ASKED] = kind
        return _MISMATCH
    value = s[pos + 1]
    n = s[pos + 2]
    for i in range(n):
        s[e.OUT + i] = s[pos + 3 + i]
    s[base + SC_POS] = pos + 3 + n
    return value


# ---------------------------------------------------------------------------
# entry points for explicit states (compiled when this module is first imported)
@njit(types.void(types.int64[::1], types.int64[:, ::1], types.int64, types.int64), cache=True)
def _setup_state_nb(s, log, seed, exact_fn):
    p, plog = start_state_nb(s, log, exact_fn)
    setup_nb(p, plog, seed, 0, 0)


def setup_state_nb(s, log, seed):
    """Set up a new game in s (rules header filled)."""
    _setup_state_nb(s, log, seed, exact_value_fn())


@njit(cache=True)
def _run_phase_nb(arr, decide, log_arr, phase, seat, exact_fn):
    s, log = start_state_nb(arr, log_arr, exact_fn)
    s[e.M_SEAT] = seat
    s[e.M_ASK] = -1
    if phase == 0:                          # the whole turn
        s[e.M_STEP] = e.ST_TURN
        s[e.M_STOP] = 1 << e.ST_NEXT
    elif phase == 1:                        # the seat's turn starts
        for p in range(e.MAX_PORTS):
            s[e.ABANDONED + p] = 0
        s[e.M_STEP] = e.ST_P1_START
        s[e.M_STOP] = 1 << e.ST_P2
    elif phase == 2:
        s[e.M_STEP] = e.ST_P2
        s[e.M_STOP] = (1 << e.ST_P3) | (1 << e.ST_NEXT)
    elif phase == 3:
        if s[e.M_TURN] == 1:                # the seat's turn starts
            for p in range(e.MAX_PORTS):
                s[e.ABANDONED + p] = 0
        s[e.M_STEP] = e.ST_P3
        s[e.M_STOP] = 1 << e.ST_NEXT
    else:                                   # final scoring
        s[e.M_STEP] = e.ST_SCORE
        s[e.M_STOP] = 0
    play_on_nb(s, log, decide)
    s[e.M_STOP] = 0


@njit(types.void(types.int64[::1], DecideType, types.int64[:, ::1], types.int64, types.int64,
                 types.int64), cache=True)
def _run_phase_entry_nb(s, decide, log, phase, seat, exact_fn):
    _run_phase_nb(s, decide, log, phase, seat, exact_fn)


def run_phase_nb(s, decide, log, phase, seat):
    """Play phase 1, 2 or 3 of `seat`'s turn on the state as it is (phase 0:
    the whole turn as the turn counter says; phase 4: final scoring).
    (The exact trade solver's address is passed at each call: an address is
    valid in this process only, so it must never be frozen into cached code.)"""
    _run_phase_entry_nb(s, decide, log, phase, seat, exact_value_fn())


class ScriptError(AssertionError):
    """The engine asked for a decision the script did not foresee."""


class ScriptedGame:
    """One game's state with helpers to read and set it by name."""

    def __init__(self, n_players: int, rules: Rules | None = None, seed: int = 1,
                 max_events: int = 5000):
        self.rules = rules or Rules.default()
        self.n = n_players
        self.types = self.rules.cargo_types + ["wild"]
        self.ports = self.rules.open_ports(n_players)
        self.cards_names = self.rules.card_names
        self.template = self.rules.state_template(n_players)
        self.s = np.concatenate([self.template, np.zeros(4096, np.int64)])
        self.s[e.R_SCRIPT] = len(self.template)
        self.log = np.full((max_events, e.N_EVENT_FIELDS), -1, dtype=np.int64)
        setup_state_nb(self.s, self.log, seed)
        self.s[e.M_TURN] = 2

    @classmethod
    def of_state(cls, s: np.ndarray, rules: Rules) -> "ScriptedGame":
        """A view of an existing game state (no setup; for reading it by name)."""
        g = cls.__new__(cls)
        g.rules, g.n, g.s = rules, int(s[e.R_N_PLAYERS]), s
        g.types = rules.cargo_types + ["wild"]
        g.ports = rules.open_ports(g.n)
        g.cards_names = rules.card_names
        g.template, g.log = None, None
        return g

    # ---- indices ---------------------------------------------------------
    def tok(self, name: str) -> int:
        return self.types.index(name)

    def port(self, name: str) -> int:
        if name not in self.ports:
            raise KeyError(f"port {name!r} is not open for {self.n} players: {self.ports}")
        return self.ports.index(name)

    def card(self, name: str) -> int:
        return self.cards_names.index(name)

    def _loc(self, where: str) -> int:
        if where == "Casino":
            return e.LOC_CASINO
        if where == "Black Market":
            return e.LOC_BLACK_MARKET
        return e.LOC_PORT0 + self.port(where)

    def _vec(self, tokens: dict | None) -> np.ndarray:
        v = np.zeros(e.MAX_TOK, np.int64)
        for k, n in (tokens or {}).items():
            v[self.tok(k)] = n
        return v

    # ---- reading -----------------------------------------------------------
    def _counts(self, at: int) -> dict:
        return {t: int(self.s[at + i]) for i, t in enumerate(self.types) if self.s[at + i]}

    def hand(self, seat: int) -> dict:
        return self._counts(e.HAND + seat * e.MAX_TOK)

    def port_cargo(self, name: str) -> dict:
        return self._counts(e.PORT_TOK + self.port(name) * e.MAX_TOK)

    def bid(self, name: str, seat: int) -> int:
        return int(self.s[e.PORT_BID + self.port(name) * e.MAX_SEATS + seat])

    def player(self, seat: int, field: int) -> int:
        return int(self.s[e.PLAYER + seat * e.PLAYER_W + field])

    def coins(self, seat: int) -> int:
        return self.player(seat, e.PL_COINS)

    def cards(self, seat: int) -> dict:
        at = e.CARDS + seat * e.MAX_CARDS
        return {c: int(self.s[at + i]) for i, c in enumerate(self.cards_names) if self.s[at + i]}

    def stat(self, seat: int, name: str) -> int:
        return int(self.s[e.STATS + seat * e.STATS_W + e.PLAYER_FIELDS.index(name)])

    def supply(self, card: str) -> int:
        return int(self.s[e.SUPPLY + self.card(card)])

    @property
    def bag(self) -> dict:
        return self._counts(e.BAG)

    @property
    def discard(self) -> dict:
        return self._counts(e.DISCARD)

    @property
    def black_market(self) -> dict:
        return self._counts(e.BLACK_MARKET)

    @property
    def bank(self) -> int:
        return int(self.s[e.M_BANK])

    def misc(self, index: int) -> int:
        return int(self.s[index])

    def total_tokens(self) -> int:
        """Every token in the game: bag, discard, black market, ports, hands."""
        nt = len(self.types)
        tot = sum(int(self.s[at:at + nt].sum()) for at in (e.BAG, e.DISCARD, e.BLACK_MARKET))
        tot += sum(int(self.s[e.PORT_TOK + p * e.MAX_TOK:][:nt].sum()) for p in range(len(self.ports)))
        tot += sum(int(self.s[e.HAND + q * e.MAX_TOK:][:nt].sum()) for q in range(self.n))
        return tot

    def total_coins(self) -> int:
        """Bank + safes + stacks on ports."""
        tot = self.bank + sum(self.coins(q) for q in range(self.n))
        tot += int(self.s[e.PORT_BID:e.PORT_BID + e.MAX_PORTS * e.MAX_SEATS].sum())
        return tot

    # ---- setting -------------------------------------------------------------
    def _set_counts(self, at: int, tokens: dict) -> None:
        self.s[at:at + e.MAX_TOK] = self._vec(tokens)

    def set_hand(self, seat: int, **tokens) -> None:
        self._set_counts(e.HAND + seat * e.MAX_TOK, tokens)

    def set_port(self, name: str, **tokens) -> None:
        self._set_counts(e.PORT_TOK + self.port(name) * e.MAX_TOK, tokens)

    def set_bag(self, **tokens) -> None:
        self._set_counts(e.BAG, tokens)

    def set_discard(self, **tokens) -> None:
        self._set_counts(e.DISCARD, tokens)

    def set_black_market(self, **tokens) -> None:
        self._set_counts(e.BLACK_MARKET, tokens)

    def set_bid(self, name: str, seat: int, coins: int) -> None:
        set_bid_nb(self.s, self.port(name), seat, coins)     # the engine's own (keeps PORT_TOP)

    def top_bid(self, name: str) -> int:
        """The engine's record of the port's highest stack."""
        return int(self.s[e.PORT_TOP + self.port(name)])

    def set_player(self, seat: int, coins=None, ships=None, hand_ships=None, casino=None,
                   black_market=None, warehouse=None) -> None:
        for field, v in ((e.PL_COINS, coins), (e.PL_SHIPS, ships), (e.PL_HAND_SHIPS, hand_ships),
                         (e.PL_CASINO_SHIPS, casino), (e.PL_BM_SHIPS, black_market),
                         (e.PL_WAREHOUSE, warehouse)):
            if v is not None:
                self.s[e.PLAYER + seat * e.PLAYER_W + field] = v

    def set_cards(self, seat: int, cards: dict) -> None:
        for name, k in cards.items():
            self.s[e.CARDS + seat * e.MAX_CARDS + self.card(name)] = k

    def set_supply(self, card: str, k: int) -> None:
        self.s[e.SUPPLY + self.card(card)] = k

    def set_bank(self, coins: int) -> None:
        self.s[e.M_BANK] = coins

    def set_turn(self, turn: int) -> None:
        self.s[e.M_TURN] = turn
        self.s[e.M_FINAL] = 1 if turn == self.s[e.R_N_TURNS] else 0

    def set_abandoned(self, name: str, flag: int = 1) -> None:
        self.s[e.ABANDONED + self.port(name)] = flag

    # ---- running ---------------------------------------------------------------
    def _write_script(self, answers) -> None:
        base = int(self.s[e.R_SCRIPT])
        rows = []
        for a in answers:
            kind = a[0]
            vec: list = []
            if kind == "order":
                value = self._loc(a[1])
            elif kind == "raise":
                value = int(a[1])
            elif kind == "bm":
                value = (e.BM_DRAW if a[1] == "draw"
                         else self.tok(a[1][0]) * e.BM_CODE + self.tok(a[1][1]))
            elif kind == "trade":
                if a[1] is None:
                    value = 0
                else:
                    value = 1
                    vec = list(self._vec(a[1]))
                    cards = np.zeros(e.MAX_CARDS, np.int64)
                    for name, k in a[2].items():
                        cards[self.card(name)] = k
                    vec += list(cards)
            elif kind == "discard":
                value = 0
                vec = list(self._vec(a[1]))
            elif kind == "send":
                value = self._loc(a[1])
                vec = [int(a[2]) if len(a) > 2 else 0]
            else:
                raise ValueError(f"unknown answer kind {kind!r}")
            rows += [_KIND[kind], value, len(vec)] + [int(x) for x in vec]
        data = np.asarray([base + SC_HEAD, 0, -1] + rows, dtype=np.int64)
        if base + len(data) > len(self.s):
            self.s = np.concatenate([self.s, np.zeros(len(data) + 1024, np.int64)])
        self.s[base:base + len(data)] = data
        self.s[base + len(data):] = -1
        self._script_end = base + len(data)

    def run_phase(self, seat: int, phase: int, answers=()) -> None:
        """Run phase 1, 2 or 3 (0: the whole turn; 4: scoring) for `seat`,
        answering the engine's decisions from `answers` in order. Every answer
        must be used."""
        self._write_script(answers)
        run_phase_nb(self.s, scripted_decide_nb, self.log, phase, seat)
        base = int(self.s[e.R_SCRIPT])
        if self.s[base + SC_ERR]:
            asked = e.DECISION_NAMES[int(self.s[base + SC_ASKED])]
            raise ScriptError(f"the engine asked seat {seat} for a {asked!r} decision that the "
                              f"script does not give next")
        if self.s[e.M_ERR_KIND] >= 0:
            kind = int(self.s[e.M_ERR_KIND])
            err = IllegalDecisionError(
                f"illegal {e.DECISION_NAMES[kind]} decision by seat {int(self.s[e.M_ERR_SEAT])}: "
                f"value {int(self.s[e.M_ERR_VALUE])}, aux {int(self.s[e.M_ERR_AUX])}")
            err.kind = kind
            self.s[e.M_ERR_KIND] = -1
            raise err
        if int(self.s[base + SC_POS]) != self._script_end:
            raise ScriptError(f"phase {phase} of seat {seat} ended with answers left unused")

    def events(self):
        """The event log so far as a DataFrame (see simulate.events_frame)."""
        from .simulate import events_frame
        n = int(np.count_nonzero(self.log[:, e.E.action] >= 0))
        return events_frame(self.log[:n], self.rules, self.n)


def invariants(s: np.ndarray, rules: Rules) -> list[str]:
    """What is wrong with a game state at a decision point (empty: nothing): the
    game contract's invariants hook. Tokens and coins are conserved, no count is
    negative, every ship is somewhere, each port's top stack is its highest."""
    g = ScriptedGame.of_state(s, rules)
    n, R, bad = g.n, rules, []
    n_tok = R["tokens_per_type"] * len(R["cargo_types"]) + min(R["wilds_total"], R["wilds_per_player"] * n)
    if g.total_tokens() != n_tok:
        bad.append(f"{g.total_tokens()} tokens in play, {n_tok} in the box")
    if g.total_coins() != R["total_coins"] + g.misc(e.M_MINTED):
        bad.append(f"{g.total_coins()} coins in play, {R['total_coins']} in the box "
                   f"(+{g.misc(e.M_MINTED)} minted)")
    if g.bank < 0:
        bad.append(f"bank {g.bank} < 0")
    for q in range(n):
        where = (g.player(q, e.PL_HAND_SHIPS), g.player(q, e.PL_CASINO_SHIPS), g.player(q, e.PL_BM_SHIPS))
        if g.coins(q) < 0 or min(where) < 0:
            bad.append(f"seat {q}: negative coins or ships")
        placed = sum(where) + sum(1 for p in g.ports if g.bid(p, q) > 0)
        if placed != g.player(q, e.PL_SHIPS):
            bad.append(f"seat {q}: {placed} ships placed, {g.player(q, e.PL_SHIPS)} owned")
    for p in g.ports:
        if sum(g.port_cargo(p).values()) > R[f"port.{p}.slots"]:
            bad.append(f"port {p}: more cargo than slots")
        if g.top_bid(p) != max(g.bid(p, q) for q in range(n)):
            bad.append(f"port {p}: top stack {g.top_bid(p)} is not the highest")
    return bad
