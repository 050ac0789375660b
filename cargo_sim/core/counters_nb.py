"""What every game's aggregate-counter kernel shares: the flat layout of its sections
and the histogram bin. A game's fold kernel adds into ONE int64 array laid out by its
``SECTIONS`` ((name, shape, meaning), ...); ``core.counters`` reads it back by name."""
import hashlib

import numpy as np
from . import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit

# the error-buffer slots of a chunk whose event buffer overflowed (core.aggregate replays
# it with a larger buffer): err[OVERFLOW_KIND] = -1, err[OVERFLOW_ROWS] = the game's events
OVERFLOW_KIND = 1
OVERFLOW_ROWS = 7


def section_offsets(sections):
    """({name: first index}, total size) of a SECTIONS layout."""
    off, at = {}, 0
    for name, shape, _ in sections:
        off[name] = at
        at += int(np.prod(shape))
    return off, at


def layout_id(kind: str, sections) -> str:
    """``kind`` plus a hash of the sections' names and shapes: a saved file of another
    layout is refused on load."""
    return kind + ":" + hashlib.sha256(repr([(n, s) for n, s, _ in sections]).encode()).hexdigest()[:12]


@njit(cache=True)
def bin_nb(x, n_bins):
    """x clipped to 0 .. n_bins - 1 (the last bin takes everything beyond)."""
    if x < 0:
        return 0
    if x >= n_bins:
        return n_bins - 1
    return x
