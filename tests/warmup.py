"""Compile the library's kernels into numba's disk cache before the tests run.

``conftest.py`` starts the parts below at once, one process each, when a test
session starts (in the xdist controller only): with an empty cache the kernels
then compile side by side on both cores, instead of one after another in
whichever test (or test subprocess) first needs them. With a warm cache each
part only loads the kernels (~3 s). docs/testing.md has the measurements.

    python tests/warmup.py engine|search
"""
import sys


def engine() -> None:
    """The engine with the built-in table (the heuristic family), the built-ins'
    kernel called by address (dispatch_nb.builtin_fn), the aggregate kernels."""
    import cargo_sim
    from cargo_sim.games.cargo_noir.bots.dispatch_nb import builtin_fn
    cargo_sim.simulate(2, ["expert", "random"], progress=False, events=True)
    cargo_sim.aggregate(2, ["expert", "random"], progress=False)
    builtin_fn()


def search() -> None:
    """The engine with the random-only table, and the search bots' kernel (it
    calls the built-ins by address: it does not need the heuristic family)."""
    import cargo_sim
    from cargo_sim.games.cargo_noir.bots.search_nb import search_fn
    cargo_sim.simulate(2, ["random", "random"], progress=False)
    cargo_sim.aggregate(2, ["random", "random"], progress=False)
    search_fn()


if __name__ == "__main__":
    {"engine": engine, "search": search}[sys.argv[1]]()
