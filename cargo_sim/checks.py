"""Moved to ``cargo_sim.core.checks``; the old path re-exports its names."""
from .core.checks import *  # noqa: F401,F403
from .core.checks import __all__  # noqa: F401
