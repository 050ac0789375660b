"""Moved to ``cargo_sim.core.instrument`` (issue #24); this name stays for old imports."""
from ....core.instrument import TICK, checked_copy  # noqa: F401
