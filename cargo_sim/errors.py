"""Moved to ``cargo_sim.core.errors``; this name stays the public path."""
from .core.errors import (BotError, CargoSimError, ClusterError, ConfigError,  # noqa: F401
                          IllegalDecisionError, RulesError)
