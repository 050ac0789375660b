"""The game contract: what the core asks of a game, and the registry of games.

A game is one object satisfying ``Game`` (checked by the contract test suite,
not by inheritance). The core runners (``core.runner``) see only its template,
decide function, seeds, typed output buffers and the members below; everything
that names a piece of a particular game lives behind them. See docs/contract.md.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Callable, Protocol, runtime_checkable

import numpy as np

from .errors import ConfigError
from ..games import BUILTIN as BUILTIN_GAMES, DEFAULT as DEFAULT_GAME

# Slots of the int64[8] error buffer every chunk kernel fills: the game (index in
# the chunk) that stopped, -1 if none; ERR_EVENTS: event rows the chunk wanted to
# write (more than the log holds = the log overflowed: the runner replays the
# chunk with a larger one). Slots 1-5 and 7 are the game's own (describe_error).
ERR_GAME = 0
ERR_EVENTS = 6
ERR_SIZE = 8


@dataclass(frozen=True)
class Fields:
    """Column names of a raw result buffer and its one fixed dtype."""
    names: tuple
    dtype: Any

    def buffer(self, *shape) -> np.ndarray:
        return np.zeros((*shape, len(self.names)), dtype=self.dtype)


@runtime_checkable
class Game(Protocol):
    """A game as the core sees it (docs/contract.md, section 2).

    ``chunk_kernel(template, decide, seeds, out_games, out_players, log, err) -> bool``
    plays ``len(seeds)`` games from a copy of ``template``: game i from its own seed
    ``seeds[i]`` into ``out_games[i]`` and ``out_players[i, seat]``, events into
    ``log`` (0 rows: none); False on an illegal answer or bot fault, with ``err`` as
    described above. It is a Python callable (usually a thin wrapper over a nogil
    numba kernel), so a game may replay a chunk internally (e.g. to load a rarely
    needed solver first).
    """
    name: str
    title: str                     # the game's name for people
    Rules: type                    # .default(), .check_players(n), .digest
    bots: Any                      # a core.bots.BotRegistry
    chunk_kernel: Callable
    event_fields: tuple            # columns of the int64 event log
    event_rows_per_seat: int           # first guess of event rows per game and seat
    forward: Any                   # the forward-model kernels module, or None
    GameState: Any                 # one game stepped in Python (docs/contract.md), or None
    rules_type_name: str           # how errors name the Rules class
    analyses: tuple                # dotted names in analyses/ (strings: never imported here)
    report_sections: tuple

    def game_fields(self, rules) -> Fields: ...

    def player_fields(self, rules) -> Fields: ...

    def table_template(self, rules, players, check_bots: bool = False) -> tuple: ...

    def describe_error(self, players, err, game: int, game_seed: int, rules) -> Exception: ...

    def table_columns(self, games, players_arr, seeds, start, players, rules,
                      narrow: bool = True) -> tuple: ...

    def build_tables(self, games, players_arr, seeds, start, players, rules) -> tuple: ...

    def table_bytes(self, n_games: int, n_players: int) -> int: ...

    def results(self, games, players, rules, config, interrupted, events) -> Any: ...

    def events_frame(self, log, rules, n_players, labels=None) -> Any: ...

    def render_events(self, events, rules) -> str: ...

    def summary(self, results) -> Any: ...

    def invariants(self, state, rules) -> list: ...


_GAMES: dict[str, Game] = {}


def register_game(game: Game) -> Game:
    """Add a game to the registry (under ``game.name``); returns it."""
    if not isinstance(game, Game):
        missing = [m for m in Game.__protocol_attrs__ if not hasattr(game, m)] \
            if hasattr(Game, "__protocol_attrs__") else []
        raise ConfigError(f"{game!r} does not implement the game contract"
                          + (f" (missing: {', '.join(sorted(missing))})" if missing else ""))
    _GAMES[game.name] = game
    return game


def unregister_game(name: str) -> None:
    _GAMES.pop(name, None)


def game_names() -> list[str]:
    """The library's own games first, then the ones registered since."""
    _load_builtin_games()
    return [n for n in BUILTIN_GAMES if n in _GAMES] + [n for n in _GAMES if n not in BUILTIN_GAMES]


def get_game(name=None) -> Game:
    """The registered game called ``name`` (default ``games.DEFAULT``), or a Game given
    as such; a ConfigError listing the known games otherwise."""
    if name is None:
        name = DEFAULT_GAME
    if not isinstance(name, str):
        if isinstance(name, Game):
            return name
        raise ConfigError(f"a game is a name ({', '.join(game_names())}), got {name!r}")
    _load_builtin_games()
    game = _GAMES.get(name)
    if game is None:
        raise ConfigError(f"unknown game {name!r}; known games: {', '.join(game_names())}")
    return game


def _load_builtin_games() -> None:
    # The games register themselves on import; importing them on first use (not at
    # module top) keeps the layers one-way: the contract never needs a game to load.
    for mod in BUILTIN_GAMES.values():
        importlib.import_module(mod)
