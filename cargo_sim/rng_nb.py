"""Moved to ``cargo_sim.core.rng_nb``; the old path re-exports its names."""
from .core.rng_nb import (game_seed, game_seed_nb, mix64_nb, next_u64_at_nb,  # noqa: F401
                          rand_below_at_nb, rand_float_at_nb)
