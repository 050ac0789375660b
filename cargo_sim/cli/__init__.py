"""The ``cargo-sim`` command line: ``main`` dispatches to one module per family of
commands (``main``: simulate, play, rules, bots, tournament; ``runs``: runs to disk
and ``--aggregate``; ``sweep``, ``tune``; ``analyses``: report, robustness, ladder).
The library never imports this package (tests/project/test_layers.py)."""
from .main import main  # noqa: F401  (the console script: cargo_sim.cli:main)
