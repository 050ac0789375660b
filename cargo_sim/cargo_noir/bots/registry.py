"""Bot names, parameters and the decision table handed to the engine.

A bot is a numba function ``decide(kind, s, seat) -> int`` (see
``enums.D_*``) plus named float parameters that it reads with
``param_nb(s, seat, i)``. Players are given as names with optional parameters:
``"greedy"``, ``"greedy?bid_margin=2&casino_weight=0.5"``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import parse_qsl

import numpy as np

from ...errors import BotError
from ..enums import N_PARAMS


@dataclass(frozen=True)
class BotSpec:
    name: str
    decide: object                      # numba dispatcher: decide(kind, s, seat)
    params: dict = field(default_factory=dict)   # parameter name -> default value
    doc: str = ""


@dataclass(frozen=True)
class Player:
    """One seat's bot with its parameter values."""
    spec: BotSpec
    values: tuple                       # parameter values in spec.params order

    @property
    def label(self) -> str:
        changed = [f"{k}={v:g}" for (k, d), v in zip(self.spec.params.items(), self.values) if v != d]
        return self.spec.name + ("?" + "&".join(changed) if changed else "")

    def param_vector(self) -> np.ndarray:
        v = np.zeros(N_PARAMS, dtype=np.float64)
        v[:len(self.values)] = self.values
        return v


BUILTIN: dict[str, BotSpec] = {}
BUILTIN_ORDER: list[str] = []


def register_builtin(spec: BotSpec) -> None:
    BUILTIN[spec.name] = spec
    BUILTIN_ORDER.append(spec.name)


def _load_builtins():
    from . import random_nb
    from .heuristic_nb import heuristic_decide_nb
    from .strategies import STRATEGIES, strategy_doc, strategy_params
    register_builtin(BotSpec("random", random_nb.random_decide_nb, {},
                             " ".join((random_nb.__doc__ or "").split())))
    for name in STRATEGIES:
        register_builtin(BotSpec(name, heuristic_decide_nb, strategy_params(name), strategy_doc(name)))


_load_builtins()


def bot_names() -> list[str]:
    return list(BUILTIN_ORDER)


def parse_player(spec, **params) -> Player:
    """A seat's bot from a name (with optional ?k=v&k=v parameters) or a Player."""
    if isinstance(spec, Player):
        return spec
    if isinstance(spec, BotSpec):
        bot, given = spec, {}
    elif isinstance(spec, str):
        name, _, query = spec.strip().partition("?")
        if name not in BUILTIN:
            raise BotError(f"unknown bot {name!r}; known bots: {', '.join(BUILTIN_ORDER)}")
        bot = BUILTIN[name]
        try:
            given = {k: float(v) for k, v in parse_qsl(query, strict_parsing=True)} if query else {}
        except ValueError:
            raise BotError(f"bad bot parameters in {spec!r}: use name?key=number&key=number") from None
    else:
        raise BotError(f"a player must be a bot name, got {spec!r}")
    given.update({k: float(v) for k, v in params.items()})
    unknown = set(given) - set(bot.params)
    if unknown:
        known = ", ".join(bot.params) or "none"
        raise BotError(f"bot {bot.name!r} has no parameter {sorted(unknown)[0]!r} (parameters: {known})")
    values = tuple(given.get(k, d) for k, d in bot.params.items())
    if len(values) > N_PARAMS:
        raise BotError(f"bot {bot.name!r} has more than {N_PARAMS} parameters")
    return Player(bot, values)


def decision_table(players: list[Player]):
    """(decide dispatcher, bot index per seat) for a table of players."""
    idx = []
    for p in players:
        if BUILTIN.get(p.spec.name) is not p.spec:
            raise BotError(f"bot {p.spec.name!r} is not a registered bot")
        idx.append(BUILTIN_ORDER.index(p.spec.name))
    from .dispatch_nb import builtin_decide_nb
    return builtin_decide_nb, np.asarray(idx, dtype=np.int64)
