"""The search bots' assumed players: every seat of a search copy plays a model row."""
from .. import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit

from ..layout import BOTS, N_PARAMS, PARAMS, R_N_PLAYERS, R_SEARCH


@njit(cache=True)
def seat_models_nb(s, seat, own, opp, rows_at):
    """Seat ``seat`` as model ``own`` and every other seat as ``opp`` (indices of the
    model rows the game keeps at ``rows_at``: N_PARAMS words each), and turn the search
    bots off in this copy. ``s``: the state, as an array or a raw pointer."""
    for q in range(s[R_N_PLAYERS]):
        m = own if q == seat else opp
        s[BOTS + q] = m
        for i in range(N_PARAMS):
            s[PARAMS + q * N_PARAMS + i] = s[rows_at + m * N_PARAMS + i]
    s[R_SEARCH] = 0
