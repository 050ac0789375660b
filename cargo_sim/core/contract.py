"""The game contract: what the core asks of a game, and the registry of games.

A game is one object with the required members of ``Game`` (checked on registration
and by the contract test suite), usually a ``GameBase`` subclass, plus the optional
capabilities it declares (``CAPABILITIES``: ``require`` gives one or a one-line
ConfigError). The core runners (``core.runner``) see only its template,
decide function, seeds, typed output buffers and the members below; everything
that names a piece of a particular game lives behind them. See docs/contract.md.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import MappingProxyType
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

# The columns every game's results carry, whatever else it adds: the runners read
# them (the CLI summary, run folders, sweeps, tune), and so does core.ratings
# (vp, rank, win_share). ``vp`` is the game's score (higher is better); ``rank``
# 1 = best, ties share a rank; ``win_share`` 1/k for each of k winners, else 0.
CORE_GAME_COLUMNS = ("game", "seed")
CORE_PLAYER_COLUMNS = ("game", "seat", "bot", "vp", "rank", "win_share")


@dataclass(frozen=True)
class Fields:
    """Column names of a raw result buffer and its one fixed dtype."""
    names: tuple
    dtype: Any

    def buffer(self, *shape) -> np.ndarray:
        return np.zeros((*shape, len(self.names)), dtype=self.dtype)


@runtime_checkable
class Game(Protocol):
    """The members every runner needs of a game (docs/contract.md, section 2).
    ``GameBase`` gives the defaults of ``rules_type_name``, ``table_bytes`` and the
    summary members, and the optional capabilities (``CAPABILITIES``) absent.

    ``chunk_kernel(template, decide, seeds, out_games, out_players, log, err) -> bool``
    plays ``len(seeds)`` games from a copy of ``template``: game i from its own seed
    ``seeds[i]`` into ``out_games[i]`` and ``out_players[i, seat]``, events into
    ``log`` (0 rows: none); False on an illegal answer or bot fault, with ``err`` as
    described above. It is a Python callable (usually a thin wrapper over a nogil
    compiled kernel), so a game may replay a chunk internally (e.g. to load a rarely
    needed solver first).
    """
    name: str
    title: str                     # the game's name for people
    Rules: type                    # .default(), .check_players(n), .digest
    rules_type_name: str           # how errors name the Rules class
    bots: Any                      # a core.bots.BotRegistry
    chunk_kernel: Callable
    event_fields: tuple            # columns of the int64 event log
    event_rows_per_seat: int       # first guess of event rows per game and seat

    def game_fields(self, rules) -> Fields: ...

    def player_fields(self, rules) -> Fields: ...

    def table_template(self, rules, players, check_bots: bool = True) -> tuple: ...

    def describe_error(self, players, err, game: int, game_seed: int, rules) -> Exception: ...

    def table_columns(self, games, players_arr, seeds, start, players, rules,
                      narrow: bool = True) -> tuple: ...

    def table_bytes(self, n_games: int, n_players: int) -> int: ...

    def results(self, games, players, rules, config, interrupted, events) -> Any: ...

    def events_frame(self, log, rules, n_players, labels=None) -> Any: ...

    def render_events(self, events, rules) -> str: ...

    def summary_counts(self, games) -> dict: ...

    def summary_lines(self, counts: dict, n_games: int, rules) -> list: ...

    def invariants(self, state, rules) -> list: ...


# every required member of the contract: its attributes and its methods
GAME_MEMBERS = tuple(Game.__annotations__) + tuple(
    n for n, v in vars(Game).items() if not n.startswith("_") and callable(v))

# The optional capabilities a game declares: name -> (its members, what a game without
# it lacks, what needs it). A game offers one when its first member is set (not None,
# not empty); ``require`` gives it or one ConfigError naming the game and what it lacks.
CAPABILITIES = {
    "forward": (("GameState", "forward"), "forward model (Game.forward, Game.GameState)",
                "GameState, the ladder's timing and the search bots step games with it"),
    "counters": (("counters",), "aggregate counters (Game.counters)",
                 "aggregate(), --aggregate and aggregate_to_dir fold games into them"),
    "replay": (("replay",), "replay page (Game.replay)", "play --html writes it"),
    "report": (("report_sections", "analyses"), "report (Game.report_sections)",
               "cargo-sim report builds its sections"),
    "sweep": (("sweep_measures", "sweep_units"), "sweep measures of its own (Game.sweep_measures)",
              "sweep --measures names them"),
    "robustness": (("robustness",), "robustness study (Game.robustness)",
                   "cargo-sim robustness measures its headlines"),
    "bench": (("bench",), "benchmarks of its own (Game.bench)",
              "python -m cargo_sim.bench runs them"),
}
OPTIONAL_MEMBERS = tuple(m for members, _, _ in CAPABILITIES.values() for m in members)


class GameBase:
    """The defaults of a game object: subclass it and write only what is the game's own.

    Every optional capability is absent (None, or empty); ``table_bytes`` is estimated
    from the result fields of the default rules; a game adds nothing to the run summary.
    A member that needs the engine (numba, pandas) is best a ``core.lazy.lazy_function`` or
    ``lazy_member``, so registering the game stays light."""
    forward = None                 # a core.forward.ForwardModel of the game's kernels
    GameState = None               # core.forward.GameState bound to the game (GAME)
    counters = None                # aggregate counters (docs/contract.md)
    replay = None                  # .check(path), .write(path, seed, players, rules, check_bots)
    analyses: tuple = ()           # dotted names of its pipelines (strings: imported by analyses/)
    report_sections: tuple = ()    # dotted names of its report's section lists
    robustness = None              # dotted name of the module the robustness study measures with
    bench = None                   # the game's benchmark module
    sweep_measures: dict = MappingProxyType({})     # name -> (description, "t"/"wilson")

    @property
    def rules_type_name(self) -> str:
        return self.Rules.__name__

    def sweep_units(self, grid) -> dict:
        return {}

    def summary_counts(self, games) -> dict:
        return {}

    def summary_lines(self, counts: dict, n_games: int, rules) -> list:
        return []

    def table_bytes(self, n_games: int, n_players: int) -> int:
        """The result tables' size: the raw fields at their dtypes, plus the core columns
        the runner adds (game and seed a game; game, seat, bot, vp, rank, win_share: at
        most 24 bytes a seat beyond its fields)."""
        rules = self.Rules.default()
        g, p = self.game_fields(rules), self.player_fields(rules)
        row = 16 + np.dtype(g.dtype).itemsize * len(g.names)
        seat = 24 + np.dtype(p.dtype).itemsize * len(p.names)
        return int(n_games) * (row + int(n_players) * seat)

    def __repr__(self) -> str:
        return f"<game {self.name}>"


def offers(game, capability: str) -> bool:
    """Whether ``game`` offers the optional ``capability`` (a key of CAPABILITIES)."""
    first = CAPABILITIES[capability][0][0]
    value = getattr(game, first, None)
    return value is not None and not (isinstance(value, (tuple, list, dict, MappingProxyType, str))
                                      and len(value) == 0)


def require(game, capability: str):
    """The first member of the game's optional ``capability``, or one ConfigError naming
    the game and what it lacks (every command a game cannot serve says so this way)."""
    members, what, needs = CAPABILITIES[capability]
    if not offers(game, capability):
        raise ConfigError(f"game {game.name} offers no {what}: {needs}")
    return getattr(game, members[0])


def optional(game, member: str):
    """An optional member's value, or its absent default (GameBase's) for a game object
    that is not a GameBase."""
    return getattr(game, member, getattr(_ABSENT, member))


_ABSENT = GameBase()       # the defaults, bound (an absent method takes no game state)


_GAMES: dict[str, Game] = {}


def missing_members(game) -> list:
    """The contract's required members ``game`` lacks. Looked up on its class, not read: a
    game may load its heavy members (the engine, numba) on first use, so that
    registering or naming it (and the commands that only print) stay light."""
    if not hasattr(game, "__dict__"):
        return list(GAME_MEMBERS)
    return [m for m in GAME_MEMBERS if not hasattr(type(game), m) and m not in vars(game)]


def register_game(game: Game) -> Game:
    """Add a game to the registry (under ``game.name``); returns it."""
    missing = missing_members(game)
    if missing:
        raise ConfigError(f"{game!r} does not implement the game contract "
                          f"(missing: {', '.join(sorted(missing))})")
    if not isinstance(getattr(game, "name", None), str) or not game.name.isidentifier():
        # a name, never a number: `play --game I` once named a game index of a run
        raise ConfigError(f"a game's name is an identifier such as {DEFAULT_GAME}, got "
                          f"{getattr(game, 'name', None)!r}")
    _GAMES[game.name] = game
    return game


def check_columns(game: Game, games, players) -> None:
    """A ConfigError unless a game's result tables (DataFrames or dicts of columns)
    carry the core columns (CORE_GAME_COLUMNS, CORE_PLAYER_COLUMNS)."""
    for what, cols, need in (("games", games, CORE_GAME_COLUMNS),
                             ("players", players, CORE_PLAYER_COLUMNS)):
        missing = [c for c in need if c not in cols]
        if missing:
            raise ConfigError(f"game {game.name}: its {what} table lacks the core column(s) "
                              f"{', '.join(missing)} (docs/contract.md, section 2)")


def counters_of(game: Game):
    """The game's aggregate counters, or one clear ConfigError when it has none."""
    return require(game, "counters")


def game_of_manifest(manifest: dict, where) -> Game:
    """The game a run's manifest names (a manifest written before games were
    recorded is the default game's: the only game then); one clear line for an
    unknown one."""
    name = manifest.get("game", DEFAULT_GAME)
    if not isinstance(name, str) or name not in game_names():
        raise ConfigError(f"{where} holds a run of game {name!r}, which is not registered here "
                          f"(known games: {', '.join(game_names())})")
    return get_game(name)


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
        if not missing_members(name):
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
