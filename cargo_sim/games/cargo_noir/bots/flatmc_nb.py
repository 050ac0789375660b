"""`flatmc` on Cargo Noir: the core's flat Monte Carlo (``core.search.flatmc_nb``)
bound to Cargo Noir's search kit (``searchkit_nb``: options are legal answers, bid
buckets, the heuristic family's trade and discard proposals)."""
from ....core import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit

from ....core.search.flatmc_nb import flatmc_nb
from .searchkit_nb import (kit_apply_nb, kit_determinize_nb, kit_end_nb, kit_log_nb, kit_param_nb,
                           kit_restore_nb, kit_start_nb, playout_models_nb, reward_nb,
                           search_buffers_nb)


@njit(cache=True)
def flatmc_decide_nb(p, kind, seat):
    return flatmc_nb(p, seat, search_buffers_nb, kit_start_nb, kit_param_nb, kit_log_nb,
                     kit_restore_nb, kit_determinize_nb, kit_apply_nb, playout_models_nb, reward_nb,
                     kit_end_nb)
