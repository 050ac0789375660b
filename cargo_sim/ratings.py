"""Moved to ``cargo_sim.core.ratings``; the old path re-exports its names."""
from .core.ratings import *  # noqa: F401,F403
from .core.ratings import __all__  # noqa: F401
