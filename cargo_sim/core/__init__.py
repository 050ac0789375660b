"""The part of cargo_sim that knows no game: errors, statistics, file output, random
numbers, raw-pointer helpers, the numba cache, progress bars, request checks, ratings.

Nothing here imports a game package (``cargo_sim.games``) or ``analyses``.
"""
