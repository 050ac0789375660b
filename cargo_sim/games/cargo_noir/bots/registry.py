"""Bot names, parameters and the decision table handed to the engine.

A bot is a numba function ``decide(kind, s, seat) -> int`` (see
``enums.D_*``) plus named float parameters that it reads with
``param_nb(s, seat, i)``. Players are given as names with optional parameters:
``"greedy"``, ``"greedy?bid_margin=2&casino_weight=0.5"``.
"""
from __future__ import annotations

import numpy as np

from ....core.errors import BotError
from ....core.bots import PARAM_MAX, BotRegistry, BotSpec, Player, check_bot_name, param_value
from ..enums import N_PARAMS

__all__ = ["BotSpec", "Player", "REGISTRY", "PARAM_MAX", "param_value", "register_builtin",
           "bot_names", "default_players", "get_bot", "parse_player", "bot", "unregister",
           "checked", "decision_table"]

# Cargo Noir's bots; the module-level names below are thin wrappers over it (and the
# dicts are the registry's own, so old code reading BUILTIN / USER sees the same bots)
REGISTRY = BotRegistry("cargo_noir", N_PARAMS)
BUILTIN: dict[str, BotSpec] = REGISTRY.builtin
BUILTIN_ORDER: list[str] = REGISTRY.builtin_order
USER: dict[str, BotSpec] = REGISTRY.user


def register_builtin(spec: BotSpec) -> None:
    REGISTRY.register_builtin(spec)


# the built-ins' kernels, named rather than imported: listing the bots (`cargo-sim
# bots`) compiles and imports no kernel (BotSpec.resolve() imports one when asked)
_KERNELS = "cargo_sim.games.cargo_noir.bots."
RANDOM_DOC = """At every decision, a uniformly random legal answer. It is the baseline every
strategy must beat and the engine's fuzzer: it explores odd corners (huge raises,
black-market swaps of Wilds, selling tokens for cheap cards) that sensible bots never
reach. Trades: each held token is offered with probability 1/2, then cards are taken one
at a time uniformly among those still affordable (or stop); a trade that buys nothing is
not made. Bids: uniform between the least legal bid and all the coins in the safe. Its
coin flips come from its seat's own stream, never the game's chance stream."""


def _load_builtins():
    from .strategies import STRATEGIES, strategy_doc, strategy_params
    register_builtin(BotSpec("random", _KERNELS + "random_nb:random_decide_nb", {},
                             " ".join(RANDOM_DOC.split())))
    for name in STRATEGIES:
        register_builtin(BotSpec(name, _KERNELS + "heuristic_nb:heuristic_decide_nb",
                                 strategy_params(name), strategy_doc(name)))
    # the search bots come last: the bots before them are their models (model_rows)
    from ..enums import SEARCH_FLATMC, SEARCH_ISMCTS
    models = tuple(BUILTIN_ORDER)       # the non-search built-ins, in their table order
    for name, kind in (("flatmc", SEARCH_FLATMC), ("ismcts", SEARCH_ISMCTS)):
        params, bot_params = {}, []
        for k, (default, _) in SEARCH_PARAMS[name].items():
            if isinstance(default, str):
                default = float(models.index(default))
                bot_params.append(k)
            params[k] = float(default)
        register_builtin(BotSpec(name, _KERNELS + "dispatch_nb:builtin_decide_nb", params,
                                 " ".join(SEARCH_DOCS[name].split()),
                                 search=kind, bot_params=tuple(bot_params), models=models,
                                 ranges={k: r for k, r in SEARCH_RANGES.items() if k in params}))


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
               "c": (0.7, "UCT exploration constant"),
               "widen": (1.0, "below the root, options tried = 1 + widen x visits^widen_exp, "
                              "the rollout bot's answer first"),
               "widen_exp": (0.5, "the exponent of that progressive widening"),
               "opp_widen": (2.0, "widen for the other seats' decisions in the tree, "
                                  "the opponent bot's answer first (0: not in the tree)"),
               "bias": (3.0, "UCT bonus bias / (visits + 1) for the model bot's own answer")},
}
# the search parameters' ranges (lo, hi, whole numbers only), checked when a player is
# parsed: every accepted value plays (the tests play each end); the work per decision
# grows with rollouts and iterations, and the tree's memory with iterations (~200 bytes each)
SEARCH_RANGES = {
    "rollouts": (1, 100_000, True), "iterations": (1, 100_000, True), "bids": (1, 8, True),
    "vp_weight": (-1000, 1000, False), "c": (0, 100, False), "widen": (0, 100, False),
    "widen_exp": (0, 1, False), "opp_widen": (0, 100, False), "bias": (-1000, 1000, False),
}
SEARCH_DOCS = {
    "flatmc": """Flat Monte Carlo: plays every option of each decision (bids in
    buckets, the heuristic family's trade and discard proposals) out to the end
    `rollouts` times with the assumed bots, the same futures for every option,
    and answers the best mean (win share). Sees only what its seat may know.""",
    "ismcts": """Information-set Monte Carlo tree search (single observer): per
    iteration a new determinization of the hidden bag order from its own
    stream, UCT over every seat's decisions with progressive widening from the
    model bots' answers (the other seats modelled by `opponent`, its own later
    decisions by `rollout`); answers the most visited option.
    The strength yardstick for the heuristics (docs/forward.md).""",
}


_load_builtins()


def bot_names(search: bool = True) -> list[str]:
    """Built-in bots, then registered user bots; search=False leaves out the
    search bots (slow: not for round robins of thousands of games)."""
    return REGISTRY.names(search)


def model_rows() -> np.ndarray:
    """Each non-search built-in bot's default parameters (fixed point), in
    BUILTIN_ORDER: the search bots' models (their `opponent` and `rollout`)."""
    from ..enums import PARAM_SCALE
    names = [b for b in BUILTIN_ORDER if not BUILTIN[b].search]
    assert names == BUILTIN_ORDER[:len(names)], "search bots are registered last"
    rows = [np.round(Player(BUILTIN[b], tuple(BUILTIN[b].params.values())).param_vector(N_PARAMS)
                     * PARAM_SCALE).astype(np.int64) for b in names]
    return np.concatenate(rows)


def search_mask(players: list) -> int:
    """enums.R_SEARCH of a table: 2 bits per seat, the seat's search kind."""
    return sum(p.spec.search << (2 * seat) for seat, p in enumerate(players))


def default_players(n: int, builtin_only: bool = False) -> list[str]:
    """The default bot mix for n seats (reports, benchmarks): the registered
    non-random, non-search bots in turn (seat s plays bot s mod k), or random
    bots when no other bot exists."""
    return REGISTRY.default_players(n, builtin_only)


def get_bot(name: str) -> BotSpec:
    return REGISTRY.get(name)


def parse_player(spec, **params) -> Player:
    """A seat's bot from a name (with optional ?k=v&k=v parameters) or a Player."""
    return REGISTRY.parse(spec, **params)


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
    check_bot_name(name)
    if name in BUILTIN:
        raise BotError(f"{name!r} is a built-in bot; choose another name")
    params = REGISTRY.check_params(name, params)

    def register(fn):
        from numba import njit
        from numba.core.registry import CPUDispatcher
        decide = fn if isinstance(fn, CPUDispatcher) else njit(fn)
        REGISTRY.register_user(name, decide, params, doc or fn.__doc__ or "")
        return fn

    return register


def unregister(name: str) -> None:
    """Forget a user bot."""
    spec = REGISTRY.unregister(name)
    if spec is not None:
        _CHECKED.pop(spec.decide, None)


def checked(decide, label: str = ""):
    """The bot's function compiled again for the checked mode (instrument.py):
    numba's bounds checking (an index outside an array raises IndexError,
    reported as a bot fault, instead of reading or writing stray memory) and a
    budget of loop steps per decision (a runaway loop becomes a bot fault), in
    the bot and in the user functions it calls."""
    if decide not in _CHECKED:
        from .instrument import checked_copy
        _CHECKED[decide] = checked_copy(decide, label)
    return _CHECKED[decide]


_CHECKED: dict = {}
# every user-bot kernel made in this process, kept (with its bots) for good: a
# table holds its address, which must stay valid as long as the table lives
_TABLES: dict = {}


def user_table(user_specs: tuple, check: bool = False):
    """The user bots' kernel of a table: a numba ``cfunc`` int64(int64 *s, kind,
    seat, j) that calls user bot j (bot index ``s[R_USER_BASE] + j``) with the
    state as an array. ``builtin_decide_nb`` calls it through its address, so a
    table with user bots compiles only them (the engine and the built-ins come
    from the cache). An exception a user bot raises stops the game as a bot fault
    (the engine's illegal-answer path: the error names bot, decision, turn and
    game seed). During the call the other seats' bots and parameters read 0
    (guard_nb.hide_nb); with ``check`` the bot is the checked copy (bounds,
    loop budget: ``checked``) and its writes outside its own area are faults
    (guard_nb). Compiled on first use in each process (generated source is not
    cached)."""
    key = (tuple(id(sp) for sp in user_specs), check)
    if key in _TABLES:
        return _TABLES[key][1]
    from numba import cfunc
    from ....core.borrow_nb import INT64_FN_SIG, state_array_nb
    from ..engine_nb import bot_fault_nb
    from ..enums import BOT_FAULT, R_LEN
    from . import guard_nb
    from .budget_nb import BUDGET_ADDR
    lines = ["def user_table(p, kind, seat, j):", "    s = state_array(p, p[R_LEN])",
             "    keep = hide(p, seat)", "    ans = -999999"]
    if check:
        lines.append(f"    snap = begin_check(p, {BUDGET_ADDR})")
    fail = f"checked_fault(kind, p, seat, {BUDGET_ADDR})" if check else "fault(kind, p, seat)"
    glb = {"R_LEN": R_LEN, "state_array": state_array_nb, "fault": bot_fault_nb,
           "hide": guard_nb.hide_nb, "show": guard_nb.show_nb, "begin_check": guard_nb.begin_check_nb,
           "end_check": guard_nb.end_check_nb, "checked_fault": guard_nb.checked_fault_nb,
           "BOT_FAULT": BOT_FAULT}
    for j, sp in enumerate(user_specs):
        lines += [f"    if j == {j}:", "        try:",
                  f"            ans = user_{j}(kind, s, seat)", "        except Exception:",
                  f"            ans = {fail}"]
        glb[f"user_{j}"] = checked(sp.decide, sp.name) if check else sp.decide
    if check:
        lines += ["    if ans != BOT_FAULT:", "        ans = end_check(p, snap, kind, seat, ans)"]
    lines += ["    show(p, seat, keep)", "    return ans"]
    exec("\n".join(lines), glb)
    fn = cfunc(INT64_FN_SIG)(glb["user_table"])
    _TABLES[key] = (user_specs, fn)
    return fn


def decision_table(players: list[Player], check: bool = False):
    """(decide dispatcher, bot index per seat, user-bot kernel or None) for a table
    of players; check: user bots compiled with bounds checking (``checked``)."""
    idx = []
    # user bots get indices after the built-ins, in name order, so every seating
    # of the same bots shares one compiled kernel
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
    from .dispatch_nb import builtin_decide_nb, random_table_decide_nb
    # a table of random bots only never compiles the heuristic family
    decide = random_table_decide_nb if set(idx) == {0} else builtin_decide_nb
    if not users:
        return decide, np.asarray(idx, dtype=np.int64), None
    from numba.core.errors import NumbaError
    from ....core.runner import bot_compile_error
    try:
        kernel = user_table(tuple(users), check)
    except (NumbaError, TypeError) as exc:
        raise bot_compile_error(exc, players) from None
    return builtin_decide_nb, np.asarray(idx, dtype=np.int64), kernel
