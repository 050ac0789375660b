"""Moved to ``cargo_sim.core.stats``; this name stays the public path."""
from .core.stats import *  # noqa: F401,F403
from .core.stats import __all__  # noqa: F401
