"""One package per game (TAG's layout). Each game package implements the game contract
(docs/contract.md); the core in ``cargo_sim`` imports a game only through its package."""
