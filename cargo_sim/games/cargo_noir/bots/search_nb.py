"""The search bots' kernel, called by the built-in table through its address.

``builtin_decide_nb`` calls ``search_fn()``'s address (stored per table in
``s[R_SEARCH_FN]`` by ``table_template``) for a seat marked in ``s[R_SEARCH]``.
A numba ``cfunc`` compiled with ``cache=True``: loaded from the cache in every
later process, and never linked into the engine or the other bots (which do
not pay its compile time unless a search bot is seated). An address is valid
in its process only: never keep it in a saved or sent array.
"""
from ....core.borrow_nb import LazyAddress
from ..enums import SEARCH_ISMCTS
from .flatmc_nb import flatmc_decide_nb
from .ismcts_nb import ismcts_decide_nb


def search_entry_nb(p, kind, seat, algo):
    if algo == SEARCH_ISMCTS:
        return ismcts_decide_nb(p, kind, seat)
    return flatmc_decide_nb(p, kind, seat)


# search_fn(): address of the search kernel (compiled, or loaded from the cache, on first use)
search_fn = LazyAddress(search_entry_nb)
