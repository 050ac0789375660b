"""Checks of the numbers a request is made of (seeds, game indices, counts).

Seeds are 64-bit and game indices int64 in the engine, so larger values would
wrap silently into another run's games; they are refused instead.
"""
import numpy as np

from .errors import ConfigError

__all__ = ["MAX_SEED", "MAX_GAME", "whole", "check_number", "check_seed", "check_games"]

MAX_SEED = 2**64 - 1
MAX_GAME = 2**63 - 1      # game indices are int64 (the ``game`` column)


def whole(x, numpy: bool = True) -> bool:
    """A whole number: an int, not bool (True is 1 to Python), or a numpy integer
    unless ``numpy`` is False (data that stays plain Python: rules, manifests)."""
    kinds = (int, np.integer) if numpy else int
    return isinstance(x, kinds) and not isinstance(x, (bool, np.bool_))


def check_number(name: str, v, lo: int = 0, hi: int | None = None, what: str = "") -> int:
    """v as an int, or a ConfigError naming the valid range."""
    if not whole(v) or v < lo or (hi is not None and v > hi):
        rng = f">= {lo}" if hi is None else f"from {lo} to {hi}"
        raise ConfigError(f"{name}{what} must be a whole number {rng}, got {v!r}")
    return int(v)


def check_seed(v, name: str = "seed") -> int:
    return check_number(name, v, 0, MAX_SEED)


def check_games(start, n_games) -> None:
    """Game indices start .. start + n_games - 1 must fit the int64 game column."""
    check_number("start", start, 0, MAX_GAME, " (index of the first game)")
    if int(start) + int(n_games) - 1 > MAX_GAME:
        raise ConfigError(f"games {start} to {int(start) + int(n_games) - 1} go beyond the last "
                          f"game index {MAX_GAME}")
