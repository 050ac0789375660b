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
    search: int = 0                     # enums.SEARCH_*: a search bot (search_nb), 0: not
    bot_params: tuple = ()              # parameters whose value is a built-in bot (by name)

    def show(self, name: str, value: float) -> str:
        """A parameter's value as a user writes it (a bot's name for bot_params)."""
        if name in self.bot_params and float(value).is_integer() and 0 <= value < len(BUILTIN_ORDER):
            return BUILTIN_ORDER[int(value)]
        return f"{value:g}"


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
    # the search bots come last: the bots before them are their models (model_rows)
    from .dispatch_nb import builtin_decide_nb
    from ..enums import SEARCH_FLATMC, SEARCH_ISMCTS
    for name, kind in (("flatmc", SEARCH_FLATMC), ("ismcts", SEARCH_ISMCTS)):
        params, bot_params = {}, []
        for k, (default, _) in SEARCH_PARAMS[name].items():
            if isinstance(default, str):
                default = float(BUILTIN_ORDER.index(default))
                bot_params.append(k)
            params[k] = float(default)
        register_builtin(BotSpec(name, builtin_decide_nb, params, " ".join(SEARCH_DOCS[name].split()),
                                 search=kind, bot_params=tuple(bot_params)))


# the search bots' parameters in their slot order (searchkit_nb.SP_*): default, meaning
_SHARED = {
    "opponent": ("greedy", "the bot assumed at every other seat (a built-in non-search bot)"),
    "rollout": ("expert", "the bot playing the searcher's own later decisions in playouts"),
    "bids": (4.0, "bid amounts tried per port or raise: least legal + 0, 1, 2, 3, 5, 8, 13, 21"),
    "vp_weight": (0.01, "reward = win share + vp_weight x (own VP - best other VP)"),
}
SEARCH_PARAMS = {
    "flatmc": {"rollouts": (16.0, "playouts per option (the same futures for every option)"),
               **_SHARED},
    "ismcts": {"iterations": (1000.0, "iterations per decision"), **_SHARED,
               "c": (0.7, "UCT exploration constant")},
}
SEARCH_DOCS = {
    "flatmc": """Flat Monte Carlo: plays every option of each decision (bids in
    buckets, the heuristic family's trade and discard proposals) out to the end
    `rollouts` times with the assumed bots, the same futures for every option,
    and answers the best mean (win share). Sees only what its seat may know.""",
    "ismcts": """Information-set Monte Carlo tree search (single observer): per
    iteration a new determinization of the hidden bag order from its own
    stream, UCT over its own decisions, the other seats played by the assumed
    `opponent` bot, playouts by `rollout`; answers the most visited option.
    The strength yardstick for the heuristics (docs/forward.md).""",
}


_load_builtins()


def bot_names(search: bool = True) -> list[str]:
    """Built-in bots, then registered user bots; search=False leaves out the
    search bots (slow: not for round robins of thousands of games)."""
    return [b for b in BUILTIN_ORDER if search or not BUILTIN[b].search] + list(USER)


def model_rows() -> np.ndarray:
    """Each non-search built-in bot's default parameters (fixed point), in
    BUILTIN_ORDER: the search bots' models (their `opponent` and `rollout`)."""
    from ..enums import PARAM_SCALE
    names = [b for b in BUILTIN_ORDER if not BUILTIN[b].search]
    assert names == BUILTIN_ORDER[:len(names)], "search bots are registered last"
    rows = [np.round(Player(BUILTIN[b], tuple(BUILTIN[b].params.values())).param_vector()
                     * PARAM_SCALE).astype(np.int64) for b in names]
    return np.concatenate(rows)


def search_mask(players: list) -> int:
    """enums.R_SEARCH of a table: 2 bits per seat, the seat's search kind."""
    return sum(p.spec.search << (2 * seat) for seat, p in enumerate(players))


def default_players(n: int, builtin_only: bool = False) -> list[str]:
    """The default bot mix for n seats (reports, benchmarks): the registered
    non-random, non-search bots in turn (seat s plays bot s mod k), or random
    bots when no other bot exists."""
    pool = bot_names(search=False)
    if builtin_only:
        pool = [b for b in pool if b in BUILTIN]
    names = [b for b in pool if b != "random"] or ["random"]
    return [names[s % len(names)] for s in range(n)]


def get_bot(name: str) -> BotSpec:
    spec = BUILTIN.get(name) or USER.get(name)
    if spec is None:
        raise BotError(f"unknown bot {name!r}; known bots: {', '.join(bot_names())}")
    return spec


def parse_player(spec, **params) -> Player:
    """A seat's bot from a name (with optional ?k=v&k=v parameters) or a Player."""
    if isinstance(spec, Player):
        return spec
    if isinstance(spec, BotSpec):
        bot, given = spec, {}
    elif isinstance(spec, str):
        name, _, query = spec.strip().partition("?")
        bot = get_bot(name)
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
    given = {k: (model_index(bot.name, k, v) if k in bot.bot_params else param_value(bot.name, k, v))
             for k, v in given.items()}
    values = tuple(given.get(k, d) for k, d in bot.params.items())
    if len(values) > N_PARAMS:
        raise BotError(f"bot {bot.name!r} has more than {N_PARAMS} parameters")
    return Player(bot, values)


# parameters are stored in fixed point (enums.PARAM_SCALE) in the int64 state
PARAM_MAX = 1e6


def param_value(bot: str, name: str, v) -> float:
    """A bot parameter as a float, refused unless finite and within +-PARAM_MAX."""
    try:
        x = float(v) if not isinstance(v, (bool, bytes)) else float("nan")
    except (TypeError, ValueError):
        x = float("nan")
    if not -PARAM_MAX <= x <= PARAM_MAX:        # also refuses nan
        raise BotError(f"bot {bot!r} parameter {name!r} must be a number from {-PARAM_MAX:g} "
                       f"to {PARAM_MAX:g}, got {v!r}")
    return x


def model_index(bot: str, name: str, v) -> float:
    """A bot-valued parameter: the index of a built-in non-search bot, given by name."""
    models = [b for b in BUILTIN_ORDER if not BUILTIN[b].search]
    if isinstance(v, str) and v in models:
        return float(models.index(v))
    if isinstance(v, (int, float)) and not isinstance(v, bool) and float(v).is_integer() \
            and 0 <= v < len(models):
        return float(v)
    raise BotError(f"bot {bot!r} parameter {name!r} takes a built-in bot's name "
                   f"({', '.join(models)}), got {v!r}")


USER: dict[str, BotSpec] = {}


def bot(name: str, params: dict | None = None, doc: str | None = None):
    """Register a user-written bot: decorate ``decide(kind, s, seat) -> int``.

    The function must compile with numba (it is wrapped in ``numba.njit`` if it
    is not already); it reads the game through ``cargo_sim.botkit`` and answers
    the decision ``kind`` as ``enums.D_*`` describes. ``params`` maps parameter
    names to defaults; the bot reads parameter i with ``param_nb(s, seat, i)``
    (in the dict's order). The bot is then usable by name anywhere a bot name
    is, next to the built-in bots::

        @cargo_sim.bot("casino_lover", params={"threshold": 5.0})
        def casino_lover(kind, s, seat):
            ...
    """
    if not isinstance(name, str) or not name or "?" in name or "&" in name or "," in name:
        raise BotError(f"a bot name must be a non-empty string without '?', '&' or ',': {name!r}")
    if name in BUILTIN:
        raise BotError(f"{name!r} is a built-in bot; choose another name")
    params = dict(params or {})
    if len(params) > N_PARAMS:
        raise BotError(f"bot {name!r}: at most {N_PARAMS} parameters")
    for k, v in params.items():
        if not isinstance(v, (int, float)):
            raise BotError(f"bot {name!r}: parameter {k!r} needs a number as default, got {v!r}")

    def register(fn):
        from numba import njit
        from numba.core.registry import CPUDispatcher
        decide = fn if isinstance(fn, CPUDispatcher) else njit(fn)
        USER[name] = BotSpec(name, decide, {k: float(v) for k, v in params.items()},
                             " ".join((doc or fn.__doc__ or "").split()))
        _TABLES.clear()
        return fn

    return register


def unregister(name: str) -> None:
    """Forget a user bot."""
    spec = USER.pop(name, None)
    if spec is not None:
        _CHECKED.pop(spec.decide, None)
    _TABLES.clear()


_TABLES: dict = {}


def checked(decide):
    """The bot's function compiled again with numba's bounds checking: an index
    outside an array raises IndexError (reported as a bot fault) instead of
    reading or writing stray memory."""
    from numba import njit
    if decide not in _CHECKED:
        _CHECKED[decide] = njit(boundscheck=True)(decide.py_func)
    return _CHECKED[decide]


_CHECKED: dict = {}


def _table_decide(user_specs: tuple, check: bool = False):
    """A compiled dispatcher: built-in bot indices go to the built-in table,
    user bot j (index len(BUILTIN_ORDER) + j) to its own function. An
    exception a user bot raises stops the game as a bot fault (the engine's
    illegal-answer path: the error names bot, decision, turn and game seed)."""
    key = (tuple(id(sp) for sp in user_specs), check)
    if key in _TABLES:
        return _TABLES[key]
    from numba import njit
    from ..engine_nb import bot_fault_nb
    from ..enums import BOTS
    from .dispatch_nb import builtin_decide_nb
    n_builtin = len(BUILTIN_ORDER)
    lines = ["def table_decide(kind, s, seat):", "    b = s[BOTS + seat]",
             "    if b < N_BUILTIN:", "        return builtin(kind, s, seat)"]
    glb = {"BOTS": BOTS, "N_BUILTIN": n_builtin, "builtin": builtin_decide_nb,
           "fault": bot_fault_nb}
    for j, sp in enumerate(user_specs):
        lines += [f"    if b == {n_builtin + j}:", "        try:",
                  f"            return user_{j}(kind, s, seat)", "        except Exception:",
                  "            return fault(kind, s, seat)"]
        glb[f"user_{j}"] = checked(sp.decide) if check else sp.decide
    lines.append("    return -999999")
    exec("\n".join(lines), glb)
    fn = njit(glb["table_decide"])
    _TABLES[key] = fn
    return fn


def decision_table(players: list[Player], check: bool = False):
    """(decide dispatcher, bot index per seat) for a table of players; check:
    user bots compiled with bounds checking (``checked``)."""
    idx = []
    # user bots get indices after the built-ins, in name order, so every seating
    # of the same bots shares one compiled dispatcher
    users = sorted({p.spec.name: p.spec for p in players if p.spec.name in USER}.values(),
                   key=lambda sp: sp.name)
    for p in players:
        name = p.spec.name
        if BUILTIN.get(name) is p.spec:
            idx.append(BUILTIN_ORDER.index(name))
        elif USER.get(name) is p.spec:
            idx.append(len(BUILTIN_ORDER) + users.index(p.spec))
        else:
            raise BotError(f"bot {name!r} is not a registered bot")
    if not users:
        from .dispatch_nb import builtin_decide_nb, random_table_decide_nb
        # a table of random bots only never compiles the heuristic family
        decide = random_table_decide_nb if set(idx) == {0} else builtin_decide_nb
        return decide, np.asarray(idx, dtype=np.int64)
    return _table_decide(tuple(users), check), np.asarray(idx, dtype=np.int64)
