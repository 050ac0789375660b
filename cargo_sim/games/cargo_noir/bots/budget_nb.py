"""Moved to ``cargo_sim.core.budget_nb`` (issue #24); this name stays for old imports."""
from ....core.budget_nb import *  # noqa: F401,F403
from ....core.budget_nb import BUDGET, BUDGET_ADDR, BUDGET_STEPS  # noqa: F401
