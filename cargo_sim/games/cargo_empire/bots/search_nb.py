"""The core's search bots (`flatmc`, `ismcts`) bound to Cargo Empire's search kit
(``searchkit_nb``), compiled into one numba ``cfunc`` (cached) whose address the table
stores in ``s[R_SEARCH_FN]`` (the core's plumbing calls it for the search seats)."""
from ....core import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit

from ....core.borrow_nb import LazyAddress
from ....core.search.flatmc_nb import flatmc_nb
from ....core.search.ismcts_nb import ismcts_nb
from ....core.search.params import SEARCH_KINDS
from ..forward_nb import determinize_nb
from .searchkit_nb import (kit_apply_nb, kit_buffers_nb, kit_end_nb, kit_key_nb, kit_log_nb,
                           kit_models_until_nb, kit_mover_nb, kit_options_nb, kit_param_nb,
                           kit_playout_nb, kit_restore_nb, kit_reward_nb, kit_start_nb)

ISMCTS = SEARCH_KINDS["ismcts"]


@njit(cache=True)
def ismcts_decide_nb(p, seat):
    return ismcts_nb(p, seat, kit_buffers_nb, kit_start_nb, kit_param_nb, kit_log_nb,
                     kit_restore_nb, determinize_nb, kit_apply_nb, kit_playout_nb, kit_reward_nb,
                     kit_end_nb, kit_options_nb, kit_key_nb, kit_models_until_nb, kit_mover_nb)


@njit(cache=True)
def flatmc_decide_nb(p, seat):
    return flatmc_nb(p, seat, kit_buffers_nb, kit_start_nb, kit_param_nb, kit_log_nb,
                     kit_restore_nb, determinize_nb, kit_apply_nb, kit_playout_nb, kit_reward_nb,
                     kit_end_nb)


def search_entry_nb(p, kind, seat, algo):
    if algo == ISMCTS:
        return ismcts_decide_nb(p, seat)
    return flatmc_decide_nb(p, seat)


search_fn = LazyAddress(search_entry_nb)
