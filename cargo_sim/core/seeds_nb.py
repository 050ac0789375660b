"""The seeds of a run's games, compiled (a run of 10^7 games needs 10^7 of them)."""
import numpy as np
from . import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit

from .rng_nb import game_seed_nb


@njit(cache=True)
def game_seeds_nb(run_seed, start, n):
    """Seeds of games start .. start+n-1 of run ``run_seed`` (uint64)."""
    out = np.empty(n, np.uint64)
    for i in range(n):
        out[i] = game_seed_nb(run_seed, start + i)
    return out


def game_seeds(run_seed: int, start: int, n: int) -> np.ndarray:
    return game_seeds_nb(np.uint64(int(run_seed) % 2**64), start, n)
