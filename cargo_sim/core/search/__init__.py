"""The search bots, written once for every game: `flatmc` (flat_nb) and `ismcts`
(ismcts_nb), against a search kit the game supplies (kit functions passed as
arguments: numba compiles one specialisation per game and caches it), and their
parameters (params.py). See docs/forward.md, "Search agents"."""
