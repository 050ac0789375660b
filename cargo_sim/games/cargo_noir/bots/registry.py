"""Bot names, parameters and the decision table handed to the engine.

A bot is a numba function ``decide(kind, s, seat) -> int`` (see
``enums.D_*``) plus named float parameters that it reads with
``param_nb(s, seat, i)``. Players are given as names with optional parameters:
``"greedy"``, ``"greedy?bid_margin=2&casino_weight=0.5"``.
"""
from __future__ import annotations

import numpy as np

from ....core.errors import BotError
from ....core.bots import (PARAM_MAX, BotRegistry, BotSpec, Player, check_bot_name, param_value,
                           register_search_bots)
from ....core import userbots
from ....core.search.params import SEARCH_RANGES as CORE_SEARCH_RANGES, search_docs, search_params
from ....core.strong import TrainSpec, register_strong
from ..enums import BELIEF, N_PARAMS, OUT, STATE_SIZE

__all__ = ["BotSpec", "Player", "REGISTRY", "PARAM_MAX", "param_value", "register_builtin",
           "bot_names", "default_players", "get_bot", "parse_player", "bot", "unregister",
           "checked", "decision_table"]

# Cargo Noir's bots; the module-level names below are thin wrappers over it (and the
# dicts are the registry's own, so old code reading BUILTIN / USER sees the same bots)
REGISTRY = BotRegistry("cargo_noir", N_PARAMS)
REGISTRY.tune_opponents = ("greedy", "syndicate", "fleet")     # `tune`'s default field
# how `strong` is trained (`cargo-sim train strong`, docs/bots.md "The strong bot"): the
# expert's parameters that shape its play, against experts and a mixed field; the
# perturbed experts keep it from exploiting one deterministic opponent
REGISTRY.train = TrainSpec(
    family="expert",
    space={"coin_value": (0.6, 2.5), "bid_margin": (0.0, 3.0), "casino_bias": (0.0, 3.0),
           "low_coins": (0.0, 6.0), "contest": (0.0, 1.0), "same_bias": (0.0, 2.5),
           "diff_bias": (0.0, 2.5), "bm_bias": (-2.0, 3.0), "ship_value": (0.0, 6.0),
           "warehouse_value": (0.0, 8.0), "syndicate_value": (0.0, 25.0), "hold": (0.3, 1.2),
           "raise_ratio": (0.5, 2.5), "sell_at": (0.0, 45.0), "late_bid": (0.0, 2.0),
           "rich_coins": (0.0, 30.0), "rich_value": (0.3, 1.5),
           # guard's range starts above 0: the search starts at the family's values, and
           # guard pays only from about 0.1 (a coin more on ports worth 5 to an opponent)
           "deny": (0.0, 1.5), "guard": (0.05, 0.35)},
    fields={2: (("expert",),),
            4: (("expert", "expert", "expert"),
                ("expert_v1", "greedy", "syndicate"),
                ("expert?coin_value=1.4&raise_ratio=1.1", "expert?sell_at=24&same_bias=1.1",
                 "expert?hold=0.8&syndicate_value=8"))},
    weights={2: 1.0, 4: 1.0}, games_per_eval=1000, popsize=12, generations=30, finalists=5,
    validation_games=4000, fresh_games=10000)
_KERNELS_DISPATCH = "cargo_sim.games.cargo_noir.bots.dispatch_nb:"
BUILTIN: dict[str, BotSpec] = REGISTRY.builtin
BUILTIN_ORDER: list[str] = REGISTRY.builtin_order
USER: dict[str, BotSpec] = REGISTRY.user


# what the core's user-bot plumbing needs of Cargo Noir (core.userbots): a bot's own
# area is its answer and notes words, s[OUT...] up to the search's record of public play
REGISTRY.plumbing = userbots.Plumbing(
    table_decide=_KERNELS_DISPATCH + "builtin_decide_nb",
    first_only_decide=_KERNELS_DISPATCH + "random_table_decide_nb",
    bot_fault="cargo_sim.games.cargo_noir.engine_nb:bot_fault_nb",
    tables_sum="cargo_sim.games.cargo_noir.engine_nb:tables_sum_nb",
    state_size=STATE_SIZE, own=(OUT, BELIEF))


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
    # `strong`: expert's kernel with the trained parameters of bots/strong.toml (a model
    # of the search bots like the others; never in a default mix)
    register_strong(REGISTRY, __name__.rsplit(".", 2)[0])
    # the search bots come last: the bots before them are their models (model_rows)
    register_search_bots(REGISTRY, _KERNELS + "dispatch_nb:builtin_decide_nb", SEARCH_PARAMS, SEARCH_DOCS,
                         {"bids": SEARCH_RANGES["bids"]})


# the search bots' parameters in their slot order (core.search.params: the core's, with
# Cargo Noir's option parameter `bids` in the game's slot): default, meaning
SEARCH_PARAMS = search_params(
    {"bids": (4.0, "bid amounts tried per port or raise: least legal + 0, 1, 2, 3, 5, 8, 13, 21")},
    opponent="greedy", rollout="expert", beliefs=True, ismcts_opponent="expert",
    horizon=3)   # cut playouts by default: stronger and faster (docs/forward.md, "Cut playouts")
# their ranges (lo, hi, whole numbers only), checked when a player is parsed: every
# accepted value plays (the tests play each end)
SEARCH_RANGES = {**CORE_SEARCH_RANGES, "bids": (1, 8, True)}
SEARCH_DOCS = search_docs(
    options="bids in buckets, the heuristic family's trade and discard proposals",
    hidden="the hidden bag order")


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

    (``core.userbots.bot(..., game="cargo_noir")``: the same for any game.)
    """
    return userbots.bot(name, params, doc, game=REGISTRY)


def unregister(name: str) -> None:
    """Forget a user bot."""
    userbots.unregister(name, game=REGISTRY)


checked = userbots.checked


def user_table(user_specs: tuple, check: bool = False):
    """The user bots' kernel of a table (``core.userbots.user_table``)."""
    return userbots.user_table(REGISTRY.plumbing, user_specs, check)


def decision_table(players: list[Player], check: bool = False):
    """(decide dispatcher, bot index per seat, user-bot kernel or None) for a table
    of players; check: user bots compiled with bounds checking (``checked``)."""
    return userbots.decision_table(REGISTRY, players, check)
