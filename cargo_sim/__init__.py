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

The names below are loaded on first use (PEP 562): ``import cargo_sim`` and the
commands that only print (``cargo-sim --version``, ``bots``, ``rules``) import
neither numba, pandas nor scipy (docs/performance.md, "Start-up").
"""
from .core.lazy import MovedModules, lazy_names
from .core.version import __version__

# The runners live in ``cargo_sim.runners``; their earlier import paths still work
# (CHANGELOG.md): ``from cargo_sim.sweep import sweep`` is ``cargo_sim.runners.sweep``'s.
MovedModules.install({f"{__name__}.{m}": f"{__name__}.runners.{m}" for m in (
    "api", "tournament", "ladder", "sweep", "tune", "runs", "dask_backend")})

# public name -> (module, attribute); None: the module itself
_LAZY = {
    "Rules": (".games.cargo_noir.rules", "Rules"),
    "SimResults": (".games.cargo_noir.simulate", "SimResults"),
    "play_one": (".games.cargo_noir.simulate", "play_one"),
    "trade_value": (".games.cargo_noir.trade.api", "trade_value"),
    "best_split": (".games.cargo_noir.trade.api", "best_split"),
    "plan_trade": (".games.cargo_noir.trade.api", "plan_trade"),
    "bot_names": (".games.cargo_noir.bots.registry", "bot_names"),
    "bot": (".games.cargo_noir.bots.registry", "bot"),
    "player": (".games.cargo_noir.bots.registry", "parse_player"),
    "unregister_bot": (".games.cargo_noir.bots.registry", "unregister"),
    "Aggregates": (".games.cargo_noir.aggregates", "Aggregates"),
    "GameState": (".games.cargo_noir.forward", "GameState"),
    "Decision": (".games.cargo_noir.forward", "Decision"),
    "simulate": (".runners.api", "simulate"),
    "aggregate": (".runners.api", "aggregate"),
    "load_results": (".runners.api", "load_results"),
    "load_aggregates": (".runners.api", "load_aggregates"),
    "tournament": (".runners.tournament", None),        # the module; calling it plays a tournament
    "TournamentResults": (".runners.tournament", "TournamentResults"),
    "CargoSimError": (".core.errors", "CargoSimError"),
    "RulesError": (".core.errors", "RulesError"),
    "BotError": (".core.errors", "BotError"),
    "IllegalDecisionError": (".core.errors", "IllegalDecisionError"),
    "ConfigError": (".core.errors", "ConfigError"),
    "ClusterError": (".core.errors", "ClusterError"),
}

__all__ = ["Rules", "simulate", "play_one", "SimResults", "trade_value", "best_split",
           "plan_trade", "bot_names", "bot", "player", "unregister_bot", "tournament",
           "TournamentResults", "GameState", "Decision", "CargoSimError", "RulesError", "BotError",
           "IllegalDecisionError", "ConfigError", "ClusterError", "aggregate", "Aggregates",
           "load_aggregates", "load_results",
           "__version__"]


__getattr__, __dir__ = lazy_names(__name__, _LAZY)
