"""The search bots' kernel, called by the built-in table through its address.

``builtin_decide_nb`` calls ``search_fn()``'s address (stored per table in
``s[R_SEARCH_FN]`` by ``table_template``) for a seat marked in ``s[R_SEARCH]``.
A numba ``cfunc`` compiled with ``cache=True``: loaded from the cache in every
later process, and never linked into the engine or the other bots (which do
not pay its compile time unless a search bot is seated). An address is valid
in its process only: never keep it in a saved or sent array.

The kernel links the root-parallel search (``ismcts_nb.ismcts_parallel_decide_nb``,
``parallel=True``). A parallel kernel loaded from numba's cache needs the threading
layer's symbols, which numba loads only when it compiles one or starts its pool
(else the process aborts: "LLVM ERROR: Symbol not found: allocate_sched"), so this
module starts the pool (``numba.get_num_threads()``) before the kernel is loaded;
its threads run only when a seat searches with ``threads`` > 1.
"""
import numba

from ....core.borrow_nb import LazyAddress
from ....core.dispatch_nb import OBSERVE
from .belief_nb import observe_nb
from ..enums import SEARCH_ISMCTS
from .flatmc_nb import flatmc_decide_nb
from .ismcts_nb import ismcts_decide_nb


def search_entry_nb(p, kind, seat, algo):
    if algo & 255 == OBSERVE:      # an answer being applied (core.dispatch_nb.observe_nb)
        return observe_nb(p, kind, seat, algo >> 8)
    if algo == SEARCH_ISMCTS:
        return ismcts_decide_nb(p, kind, seat)
    return flatmc_decide_nb(p, kind, seat)


numba.get_num_threads()     # the threading layer, before the cached kernel is linked

# search_fn(): address of the search kernel (compiled, or loaded from the cache, on first use)
search_fn = LazyAddress(search_entry_nb)
