"""Errors the library raises on purpose: each carries one readable message."""


class CargoSimError(Exception):
    """Base class for every error cargo_sim raises on purpose (the CLI prints it in one line)."""


class RulesError(CargoSimError, ValueError):
    """A rules file or override is malformed or impossible."""


class BotError(CargoSimError, ValueError):
    """A bot name or parameter is unknown, or a bot is badly defined."""


class IllegalDecisionError(CargoSimError):
    """A bot answered a decision with an illegal value (names bot, decision, value, seed)."""


class ConfigError(CargoSimError, ValueError):
    """A simulation request is impossible (player count, game count, output folder...)."""


class ClusterError(CargoSimError):
    """A Dask cluster cannot be reached, or lost the same chunk's workers too often."""
