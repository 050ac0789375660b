"""Moved to ``cargo_sim.core.fileio``; this name stays the public path."""
from .core.fileio import atomic_write, atomic_write_text  # noqa: F401
