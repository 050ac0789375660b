"""One package per game (TAG's layout). Each game package implements the game contract
(docs/contract.md); the core in ``cargo_sim`` imports a game only through its package.

``BUILTIN``: the games that ship with the library, by registry name -> the module that
registers it (loaded on first use of the registry); ``DEFAULT``: the game when none is named.
"""
BUILTIN = {"cargo_noir": "cargo_sim.games.cargo_noir.game", "macao": "cargo_sim.games.macao.game",
           "shipwrights": "cargo_sim.games.shipwrights.game",
           "cargo_empire": "cargo_sim.games.cargo_empire.game"}
DEFAULT = "cargo_noir"
