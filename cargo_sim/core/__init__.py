"""The core: what every game shares and no game owns (docs/contract.md).

``contract`` (the Game protocol and the game registry), ``bots`` (bot registries),
``runner`` (the one chunk runner), ``rules`` (RulesBase), ``seeds_nb``, ``columns``;
errors, statistics, file output, random numbers, raw-pointer helpers, the numba cache,
progress bars, request checks, ratings. Nothing here imports a game package
(``cargo_sim.games``) or ``analyses``, or names a piece of any game (tests check it).
"""
