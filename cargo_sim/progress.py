"""Moved to ``cargo_sim.core.progress``; the old path re-exports its names."""
from .core.progress import Progress  # noqa: F401
