"""Compile the library's kernels into numba's disk cache before the tests run.

``conftest.py`` starts the parts below at once, one process each, when a test
session starts (in the xdist controller only): with an empty cache the kernels
then compile side by side on both cores, instead of one after another in
whichever test (or test subprocess) first needs them. With a warm cache each
part only loads the kernels (~3 s). docs/testing.md has the measurements.

    python tests/warmup.py engine|heuristic|macao
"""
import sys


def engine() -> None:
    """The engine with the random-only table, the aggregate kernel, the forward
    model and the search bots' kernel (it calls the built-ins by address: it does
    not need the heuristic family). Only this part plays Cargo Noir games, so the
    engine (~80 s of CPU cold) compiles once, not once per part."""
    import cargo_sim
    from cargo_sim.games.cargo_noir.bots.search_nb import search_fn
    cargo_sim.simulate(2, ["random", "random"], progress=False, events=True)
    cargo_sim.aggregate(2, ["random", "random"], progress=False)
    cargo_sim.GameState(["random", "random"], seed=1, game=0).playout()
    search_fn()


def heuristic() -> None:
    """The heuristic family (~85 s of CPU cold), compiled without playing a game:
    the table every built-in strategy plays through (``builtin_decide_nb``) and the
    same family called by address (``dispatch_nb.builtin_fn``: user bots delegating
    to it, the search bots' models)."""
    from numba import types
    from cargo_sim.games.cargo_noir.bots.dispatch_nb import builtin_decide_nb, builtin_fn
    # with its return type: the engine asks for the table as a first-class function,
    # whose cache entry is keyed by the whole signature (args only would be another entry)
    builtin_decide_nb.compile(types.int64(types.int64, types.int64[::1], types.int64))
    builtin_fn()


def macao() -> None:
    """Macao's chunk kernel and built-in table (event log on), its forward model and
    its search bots' table: compiled once here, not by each test process that
    first plays Macao (a README example, the contract suite, Macao's own tests)."""
    import cargo_sim
    from cargo_sim.games.macao.forward import GameState
    cargo_sim.simulate(2, ["expert", "random"], progress=False, events=True, game="macao")
    GameState(["greedy", "random"], seed=1, game=0).playout()
    cargo_sim.simulate(1, ["ismcts?iterations=2", "random"], progress=False, game="macao")


PARTS = {"engine": engine, "heuristic": heuristic, "macao": macao}

if __name__ == "__main__":
    import warnings
    from numba.core.errors import NumbaPedanticWarning
    # numba's "please report" checks fail the part (and then, in the tests that
    # compile in process, pyproject's filterwarnings): users would see them printed
    warnings.simplefilter("error", NumbaPedanticWarning)
    PARTS[sys.argv[1]]()
