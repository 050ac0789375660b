"""Bot registries: one instance per game, so two games' bot names never collide.

A bot is a compiled ``decide(kind, s, seat) -> int`` plus named float parameters.
Players are given as names with optional parameters: ``"greedy"``,
``"greedy?bid_margin=2&casino_weight=0.5"``. How a table of bots becomes one
decide function handed to the engine is the game's business (its decision table).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import parse_qsl

import numpy as np

from .errors import BotError
from .search.params import SEARCH_KINDS, SEARCH_RANGES

# parameters are stored in fixed point in the games' int64 states
PARAM_MAX = 1e6


@dataclass(frozen=True)
class BotSpec:
    name: str
    decide: object                      # compiled dispatcher decide(kind, s, seat), or its
                                        # "module:name" (a built-in: imported by resolve())
    params: dict = field(default_factory=dict)   # parameter name -> default value
    doc: str = ""
    search: int = 0                     # the game's search-bot kind (slow bots), 0: not a search bot
    bot_params: tuple = ()              # parameters whose value is a bot, given by name ...
    models: tuple = ()                  # ... one of these (the value is its index)
    ranges: dict = field(default_factory=dict)   # parameter name -> (lo, hi, whole numbers only)
    in_mix: bool = True                 # False: left out of default_players (the trained `strong`)

    def resolve(self):
        """The compiled decide function (importing its module when named)."""
        if isinstance(self.decide, str):
            import importlib
            module, _, attr = self.decide.partition(":")
            return getattr(importlib.import_module(module), attr)
        return self.decide

    def show(self, name: str, value: float) -> str:
        """A parameter's value as a user writes it (a bot's name for bot_params)."""
        if name in self.bot_params and float(value).is_integer() and 0 <= value < len(self.models):
            return self.models[int(value)]
        return f"{value:g}"

    def value(self, name: str, v) -> float:
        """A given parameter value as the float the bot reads (checked)."""
        if name not in self.bot_params:
            x = param_value(self.name, name, v)
            if name in self.ranges:
                lo, hi, whole = self.ranges[name]
                if not lo <= x <= hi or (whole and not x.is_integer()):
                    kind = "a whole number" if whole else "a number"
                    raise BotError(f"bot {self.name!r} parameter {name!r} must be {kind} from "
                                   f"{lo:g} to {hi:g}, got {v!r}")
            return x
        if isinstance(v, str) and v in self.models:
            return float(self.models.index(v))
        if isinstance(v, (int, float)) and not isinstance(v, bool) and float(v).is_integer() \
                and 0 <= v < len(self.models):
            return float(v)
        raise BotError(f"bot {self.name!r} parameter {name!r} takes a built-in bot's name "
                       f"({', '.join(self.models)}), got {v!r}")


@dataclass(frozen=True)
class Player:
    """One seat's bot with its parameter values."""
    spec: BotSpec
    values: tuple                       # parameter values in spec.params order

    @property
    def label(self) -> str:
        changed = [f"{k}={self.spec.show(k, v)}" for (k, d), v in zip(self.spec.params.items(), self.values)
                   if v != d]
        return self.spec.name + ("?" + "&".join(changed) if changed else "")

    def param_vector(self, size: int | None = None) -> np.ndarray:
        """The values as floats, zero-padded to ``size`` (the game's parameter slots)."""
        v = np.zeros(len(self.values) if size is None else size, dtype=np.float64)
        v[:len(self.values)] = self.values
        return v


def param_value(bot: str, name: str, v) -> float:
    """A bot parameter as a float, refused unless finite and within +-PARAM_MAX."""
    try:
        x = float(v) if not isinstance(v, (bool, bytes)) else float("nan")
    except (TypeError, ValueError, OverflowError):     # 10**400 overflows a float
        x = float("nan")
    if not -PARAM_MAX <= x <= PARAM_MAX:        # also refuses nan
        raise BotError(f"bot {bot!r} parameter {name!r} must be a number from {-PARAM_MAX:g} "
                       f"to {PARAM_MAX:g}, got {short_repr(v)}")
    return x


def short_repr(v, width: int = 40) -> str:
    """repr(v) cut to ``width`` characters (10**400 is 401 digits: one line stays short)."""
    r = repr(v)
    return r if len(r) <= width else r[:width - 3] + "..."



def check_bot_name(name) -> None:
    if not isinstance(name, str) or not name or "?" in name or "&" in name or "," in name:
        raise BotError(f"a bot name must be a non-empty string without '?', '&' or ',': {name!r}")


class BotRegistry:
    """The bots of one game: built-in ones (in registration order), then user bots.

    ``n_params``: parameter slots per seat in the game's state. ``on_change``
    callbacks run when the user bots change (the game drops compiled tables).
    ``plumbing``: what ``core.userbots`` needs of the game for user bots (``@bot``,
    decision tables), None when the game has no user bots.
    """

    def __init__(self, game: str, n_params: int):
        self.game, self.n_params = game, int(n_params)
        self.builtin: dict[str, BotSpec] = {}
        self.builtin_order: list[str] = []
        self.user: dict[str, BotSpec] = {}
        self.on_change: list = []
        self.plumbing = None            # core.userbots.Plumbing: the game's user-bot plumbing
        self.tune_opponents: tuple = ()  # `tune`'s default field: the game's named strategies
        self.train = None               # core.strong.TrainSpec: how its `strong` bot is trained

    def register_builtin(self, spec: BotSpec) -> None:
        self.builtin[spec.name] = spec
        self.builtin_order.append(spec.name)

    def names(self, search: bool = True) -> list[str]:
        """Built-in bots, then registered user bots; search=False leaves out the
        search bots (slow: not for round robins of thousands of games)."""
        return [b for b in self.builtin_order if search or not self.builtin[b].search] + list(self.user)

    def default_players(self, n: int, builtin_only: bool = False) -> list[str]:
        """The default bot mix for n seats: the non-random, non-search bots in turn
        (seat s plays bot s mod k), or random bots when no other bot exists; a bot
        registered with in_mix=False (the trained `strong`) is never in it."""
        pool = [b for b in self.names(search=False) if self.get(b).in_mix]
        if builtin_only:
            pool = [b for b in pool if b in self.builtin]
        names = [b for b in pool if b != "random"] or ["random"]
        return [names[s % len(names)] for s in range(n)]

    def get(self, name: str) -> BotSpec:
        spec = self.builtin.get(name) or self.user.get(name)
        if spec is None:
            raise BotError(f"unknown bot {name!r}; known bots: {', '.join(self.names())}")
        return spec

    def parse(self, spec, **params) -> Player:
        """A seat's bot from a name (with optional ?k=v&k=v parameters) or a Player."""
        if isinstance(spec, Player):
            return spec
        if isinstance(spec, BotSpec):
            bot, given = spec, {}
        elif isinstance(spec, str):
            name, _, query = spec.strip().partition("?")
            bot = self.get(name)
            try:
                given = dict(parse_qsl(query, strict_parsing=True, keep_blank_values=True)) if query else {}
            except ValueError:
                raise BotError(f"bad bot parameters in {spec!r}: use name?key=number&key=number") from None
        else:
            raise BotError(f"a player must be a bot name, got {spec!r}")
        given.update(params)
        unknown = set(given) - set(bot.params)
        if unknown:
            known = ", ".join(bot.params) or "none"
            raise BotError(f"bot {bot.name!r} has no parameter {sorted(unknown)[0]!r} (parameters: {known})")
        given = {k: bot.value(k, v) for k, v in given.items()}
        values = tuple(given.get(k, d) for k, d in bot.params.items())
        if len(values) > self.n_params:
            raise BotError(f"bot {bot.name!r} has more than {self.n_params} parameters")
        return Player(bot, values)

    def register_user(self, name: str, decide, params: dict | None = None, doc: str = "") -> BotSpec:
        """Register a user bot (``decide`` already compiled); checks name and parameters."""
        check_bot_name(name)
        if name in self.builtin:
            raise BotError(f"{name!r} is a built-in bot; choose another name")
        params = self.check_params(name, params)
        spec = BotSpec(name, decide, params, " ".join((doc or "").split()))
        self.user[name] = spec
        self._changed()
        return spec

    def check_params(self, name: str, params: dict | None) -> dict:
        params = dict(params or {})
        if len(params) > self.n_params:
            raise BotError(f"bot {name!r}: at most {self.n_params} parameters")
        for k, v in params.items():
            if not isinstance(k, str) or not k or any(c in k for c in "&=?"):
                raise BotError(f"bot {name!r}: a parameter name must be a non-empty string "
                               f"without '&', '=' or '?', got {k!r}")
            if not isinstance(v, (int, float)) or isinstance(v, bool):
                raise BotError(f"bot {name!r}: parameter {k!r} needs a number as default, got {v!r}")
        # a default is stored in fixed point like any given value: nan, inf or
        # 1e306 would wrap to nonsense, so defaults obey the same range
        return {k: param_value(name, k, v) for k, v in params.items()}

    def unregister(self, name: str) -> BotSpec | None:
        spec = self.user.pop(name, None)
        self._changed()
        return spec

    def _changed(self) -> None:
        for f in self.on_change:
            f()

    def __repr__(self) -> str:
        return f"BotRegistry({self.game!r}: {', '.join(self.names())})"


def register_search_bots(registry, kernel: str, params: dict, docs: dict, ranges: dict) -> tuple:
    """The core's search bots registered as built-ins of ``registry``, after every other
    built-in: those are their models, in table order (a built-in registered after them
    would shift its index). ``kernel``: their decide function ("module:attr");
    ``params``, ``docs``: ``search_params``' and ``search_docs``' results; ``ranges``:
    the game's own option parameter's. Returns the models' names."""
    models = tuple(registry.builtin_order)
    for name, kind in SEARCH_KINDS.items():
        values, bot_params = {}, []
        for k, (default, _) in params[name].items():
            if isinstance(default, str):          # a model bot, by its index among the models
                default = float(models.index(default))
                bot_params.append(k)
            values[k] = float(default)
        registry.register_builtin(BotSpec(
            name, kernel, values, docs[name], search=kind, bot_params=tuple(bot_params), models=models,
            ranges={**{k: r for k, r in SEARCH_RANGES.items() if k in values}, **ranges}))
    return models
