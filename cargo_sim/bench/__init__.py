"""The benchmark (``make bench``, ``python -m cargo_sim.bench``): ``main`` measures and
prints; ``reference`` times the reference kernel, ``search`` the search bots, ``targets``
the long runs through the CLI. A game's own benchmarks live in its package (``bench.py``),
found through the registry (docs/performance.md)."""
