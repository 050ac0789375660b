"""The core: what every game shares and no game owns (docs/contract.md).

``contract`` (the Game protocol and the game registry), ``bots`` (bot registries),
``runner`` (the one chunk runner), ``seeds_nb``, ``columns``. Nothing here names a
piece of any game (a test checks it).
"""
