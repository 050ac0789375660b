"""The read-only data a table's states share, apart from each game's state.

A state array holds the core header, the game's rules and its mutable state: what a
clone, a determinization or a search's copy must copy. A game's big read-only data
(say, value tables and the search bots' model rows) lives in ONE
separate int64 array per table, the **shared array**, which every state of the table
points at: the header words ``R_SHARED`` (its address) and ``R_SHARED_LEN`` (its
length). A game without such data leaves both 0.

Kernels read it through ``shared_ptr_nb(p)`` (a raw pointer: plain address
arithmetic, no reference counting) or ``shared_array_nb(p)`` (a borrowed array
view, for slices). The address is valid in this process only, and only while the
shared array lives: ``attach`` returns a state array whose memory keeps the shared
array (and anything else given) alive, so whoever holds the state (a runner's
table, a GameState) keeps the shared data too. A copy of the state made in Python
(``s.copy()``) does not: keep the attached state with it (``core.forward.GameState``
does). The checked mode's checksum ``M_TABLE_SUM`` covers the shared array
(``shared_sum_nb``): a user bot that wrote into it stops the game (FAULT_TABLES).
"""
import numpy as np

from . import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit

from .borrow_nb import addr_ptr_nb, state_array_nb
from .layout import R_SHARED, R_SHARED_LEN

ALIGN = 64            # the state's first word on a cache line, as numpy's own arrays


@njit(cache=True, inline="always")
def shared_ptr_nb(p):
    """The shared array as a raw pointer (``p`` a state array or pointer)."""
    return addr_ptr_nb(p[R_SHARED])


@njit(cache=True)
def shared_array_nb(p):
    """The shared array as a borrowed array view (valid while the state's owner lives)."""
    return state_array_nb(addr_ptr_nb(p[R_SHARED]), p[R_SHARED_LEN])


@njit(cache=True)
def shared_sum_nb(p):
    """Checked mode: a checksum (never 0) of the shared array: a change of any one
    word changes it."""
    t = addr_ptr_nb(p[R_SHARED])
    h = np.uint64(0)
    for i in range(p[R_SHARED_LEN]):
        h += np.uint64(t[i]) * np.uint64(2 * i + 1)
    return np.int64(h | np.uint64(1))


class _Owner(bytearray):
    """The memory of a state array, holding what its addresses point at."""


def attach(state: np.ndarray, shared: np.ndarray | None, *keep) -> np.ndarray:
    """A copy of ``state`` whose header points at ``shared`` (R_SHARED, R_SHARED_LEN;
    None: no shared data, both 0) and whose memory keeps ``shared`` and ``keep``
    (e.g. a workspace whose address the game stored) alive as long as the array or
    any view of it lives."""
    n = state.shape[0] * 8
    buf = _Owner(n + ALIGN)
    buf.keep = (shared,) + keep
    raw = np.frombuffer(buf, np.uint8)
    at = (-raw.ctypes.data) % ALIGN
    out = raw[at:at + n].view(np.int64)
    out[:] = state
    if shared is None:
        out[R_SHARED] = out[R_SHARED_LEN] = 0
    else:
        if shared.dtype != np.int64 or shared.ndim != 1 or not shared.flags.c_contiguous:
            raise TypeError("the shared data is one C-contiguous int64 array")
        out[R_SHARED], out[R_SHARED_LEN] = shared.ctypes.data, shared.shape[0]
    return out


def owner_of(state: np.ndarray):
    """What keeps an attached state's shared data alive (None: not attached)."""
    b = state
    while b is not None and not isinstance(b, _Owner):
        b = getattr(b, "base", None) if isinstance(b, np.ndarray) else getattr(b, "obj", None)
    return b
