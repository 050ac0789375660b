"""`ismcts` on Cargo Noir: the core's information-set MCTS (``core.search.ismcts_nb``)
bound to Cargo Noir's search kit (``searchkit_nb``). The only hidden information in
Cargo Noir is the bag's order (the chance stream), which ``determinize_nb`` resamples;
bids are bucketed (searchkit_nb.BID_OFFSETS, plus the model bot's own bid); trade and
discard options are the heuristic family's proposals. ``threads`` > 1 runs the
root-parallel search in ``ismcts_parallel_decide_nb`` (the only ``parallel=True``
kernel: a game without it never starts numba's thread pool)."""
from ....core import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit

from ....core.borrow_nb import state_ptr_nb
from ....core.search.ismcts_nb import ismcts_nb, ismcts_parallel_nb, ismcts_worker_nb
from ....core.search.params import SP_THREADS
from ..engine_nb import own_workspace_nb
from .searchkit_nb import (kit_apply_nb, kit_determinize_nb, kit_end_nb, kit_key_nb, kit_log_nb,
                           kit_mover_nb, kit_options_nb, kit_param_nb, kit_restore_nb, kit_start_nb,
                           models_until_nb, playout_models_nb, reward_nb, search_buffers_nb,
                           search_param_nb)


@njit(cache=True)
def ismcts_decide_nb(p, kind, seat):
    threads = int(search_param_nb(p, seat, SP_THREADS))
    if threads > 1:
        return ismcts_parallel_decide_nb(p, seat, threads)
    return ismcts_nb(p, seat, search_buffers_nb, kit_start_nb, kit_param_nb, kit_log_nb,
                     kit_restore_nb, kit_determinize_nb, kit_apply_nb, playout_models_nb, reward_nb,
                     kit_end_nb, kit_options_nb, kit_key_nb, models_until_nb, kit_mover_nb)


@njit(cache=True)
def ismcts_worker_bound_nb(row, seat, worker, iterations, root_n, root_w):
    """One root-parallel tree in `row` (a worker's copy of the game part). The bots'
    workspace is an array apart (s[R_WORK], core.shared_nb's split): each worker gets
    its own, since the trees' playouts write it at once."""
    work = own_workspace_nb(row)
    ismcts_worker_nb(state_ptr_nb(row), seat, worker, iterations, root_n, root_w,
                     search_buffers_nb, kit_start_nb, kit_param_nb, kit_log_nb, kit_restore_nb,
                     kit_determinize_nb, kit_apply_nb, playout_models_nb, reward_nb, kit_options_nb,
                     kit_key_nb, models_until_nb, kit_mover_nb)
    # `row` and `work` outlive their pointers' use
    return row[0] + work[0] if row.shape[0] > 0 else work[0]


@njit(cache=True, parallel=True)
def ismcts_parallel_decide_nb(p, seat, threads):
    return ismcts_parallel_nb(p, seat, threads, ismcts_worker_bound_nb, search_buffers_nb,
                              kit_start_nb, kit_param_nb, kit_end_nb, kit_options_nb)
