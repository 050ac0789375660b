"""`ismcts` on Cargo Noir: the core's information-set MCTS (``core.search.ismcts_nb``)
bound to Cargo Noir's search kit (``searchkit_nb``). The only hidden information in
Cargo Noir is the bag's order (the chance stream), which ``determinize_nb`` resamples;
bids are bucketed (searchkit_nb.BID_OFFSETS, plus the model bot's own bid); trade and
discard options are the heuristic family's proposals."""
from ....core import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit

from ....core.search.ismcts_nb import ismcts_nb
from ..forward_nb import determinize_nb
from .searchkit_nb import (kit_apply_nb, kit_end_nb, kit_key_nb, kit_log_nb, kit_mover_nb,
                           kit_options_nb, kit_param_nb, kit_restore_nb, kit_start_nb,
                           models_until_nb, playout_models_nb, reward_nb, search_buffers_nb)


@njit(cache=True)
def ismcts_decide_nb(p, kind, seat):
    return ismcts_nb(p, seat, search_buffers_nb, kit_start_nb, kit_param_nb, kit_log_nb,
                     kit_restore_nb, determinize_nb, kit_apply_nb, playout_models_nb, reward_nb,
                     kit_end_nb, kit_options_nb, kit_key_nb, models_until_nb, kit_mover_nb)
