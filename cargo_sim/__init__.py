"""cargo_sim: Monte Carlo strategy analysis of the board game Cargo Noir.

Quick start::

    import cargo_sim
    res = cargo_sim.simulate(10_000, ["random", "random", "random"], seed=1)
    res.summary()              # win rate and mean VP by seat
    res.players.head()         # one row per game and seat
    events, text = cargo_sim.play_one(res.games.seed[0], ["random"] * 3)
    print(text)                # the game move by move
    agg = cargo_sim.aggregate(10_000_000, ["random"] * 4, seed=1)   # counters only, flat memory
    agg.win_rates()            # win rate by seat with 95% CIs

The game-specific code lives in ``cargo_sim.games.cargo_noir``.
"""
from .core import cache  # noqa: F401  (first: numba's cache folder for this source version)
from . import compat
from .games.cargo_noir import (Rules, SimResults, best_split, bot_names, plan_trade, play_one,
                               trade_value)
from .games.cargo_noir.aggregates import Aggregates
from .api import aggregate, load_aggregates, load_results, simulate
from .games.cargo_noir.forward import Decision, GameState
from .games.cargo_noir.bots.registry import bot, parse_player as player, unregister as unregister_bot
from .core.errors import (BotError, CargoSimError, ClusterError, ConfigError,
                          IllegalDecisionError, RulesError)
from .core.version import __version__
from . import tournament  # the module; calling it plays a tournament
from .tournament import TournamentResults


compat.install()   # old module paths (cargo_sim.games.cargo_noir...) still import

__all__ = ["Rules", "simulate", "play_one", "SimResults", "trade_value", "best_split",
           "plan_trade", "bot_names", "bot", "player", "unregister_bot", "tournament",
           "TournamentResults", "GameState", "Decision", "CargoSimError", "RulesError", "BotError",
           "IllegalDecisionError", "ConfigError", "ClusterError", "aggregate", "Aggregates",
           "load_aggregates", "load_results",
           "__version__"]
