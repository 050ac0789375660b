"""Everything a user-written bot needs, in one import.

    from cargo_sim.botkit import *

gives the decision kinds (D_ORDER, D_RAISE, D_BLACK_MARKET, D_TRADE, D_DISCARD,
D_SEND), locations (LOC_CASINO, LOC_BLACK_MARKET, LOC_PORT0), where context
and answers live (CTX, OUT, OUT_CARDS, SCRATCH, BM_DRAW, BM_CODE) and the
read-only game accessors and tools of ``cargo_sim.games.cargo_noir.bots.userkit_nb``
(coins, hands, ports, cards, exact trade values, the trade planner, the seat's
own random numbers), which check their arguments: a bad index or another
seat's parameters stop the game with a BotError instead of reading stray
memory (docs/safety.md, "What a bot can see"). See docs/example_bot.py and
``cargo_sim.games.cargo_noir.enums`` for what each decision asks and how to answer it.
"""
from .games.cargo_noir.bots.userkit_nb import *  # noqa: F401,F403
from .games.cargo_noir.bots.userkit_nb import __all__ as _kit
from .games.cargo_noir.enums import (BM_CODE, BM_DRAW, CTX, D_BLACK_MARKET, D_DISCARD, D_ORDER,  # noqa: F401
                               D_RAISE, D_SEND, D_TRADE, LOC_BLACK_MARKET, LOC_CASINO, LOC_PORT0,
                               OUT, OUT_CARDS, SCRATCH)
# the built-ins for a decision handed to them (checked: the asked seat, a decision kind);
# heuristic_decide_nb calls the family through the table's kernel address (dispatch_nb),
# so a bot delegating to it compiles in seconds instead of compiling the family in
from .games.cargo_noir.bots.userkit_nb import heuristic_decide_nb, random_decide_nb  # noqa: F401

__all__ = list(_kit) + ["BM_CODE", "BM_DRAW", "CTX", "D_BLACK_MARKET", "D_DISCARD", "D_ORDER",
                        "D_RAISE", "D_SEND", "D_TRADE", "LOC_BLACK_MARKET", "LOC_CASINO",
                        "LOC_PORT0", "OUT", "OUT_CARDS", "SCRATCH", "heuristic_decide_nb",
                        "random_decide_nb"]
