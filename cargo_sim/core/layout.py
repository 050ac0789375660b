"""The core header: the first words of every game's state array.

A game's state is one int64 array (numba freezes module globals, so every offset is
a compile-time constant). Every game's array starts with this fixed block, the words
the core's bot plumbing (dispatch by address, user bots, the checked mode's guard),
its fairness rules and its search bots need; the game's own layout follows from
``HEADER_LEN`` on.

Table words (filled by the game's ``table_template`` in this process):
``R_N_PLAYERS``, ``R_LEN`` (length of the whole array), ``R_SEARCH`` (2 bits per
seat: the seat's search kind, 0 none), ``R_SEARCH_FN`` (address of the search
kernel), ``R_MODELS``/``R_N_MODELS`` (the search bots' model rows in the shared array),
``R_USER_FN``/``R_USER_BASE`` (the table's user-bot kernel, the first user bot's
index), ``R_BUILTIN_FN`` (the game's built-ins called by address), ``BOTS`` (each
seat's bot index) and ``PARAMS`` (each seat's parameters, fixed point).
``R_DECIDE_JIT``/``R_DECIDE_C`` (after the machine words: the table's decision kernel
by address, for the forward model). ``R_SHARED``/``R_SHARED_LEN``: the address and length of the table's read-only
shared array (``core.shared_nb``: big data every state of the table shares, kept
apart so that a clone copies only the state; 0: none).

Machine words (``MARKS`` .. ``MARKS_END``; zero at each game's start, the game's
setup clears them): the chance stream ``M_RNG`` and the bots' seed ``M_BOT_SEED``
(both read 0 during a bot's call), the decision counter ``M_DECISIONS``, the asked
seat's own stream ``M_BOT_RNG`` and search key ``M_SEAT_KEY``, a user bot's fault
(``M_FAULT``, ``M_FAULT_ARG``) and the checked mode's checksum ``M_TABLE_SUM``.
"""
R_N_PLAYERS = 0
R_LEN = 1            # length of the state array, set by the entry kernel
R_SHARED = 2         # address of the table's read-only shared array (core.shared_nb), 0: none
R_SHARED_LEN = 3     # its length in words
R_SEARCH = 4         # 2 bits per seat: 0 not a search bot, else the game's search kind
R_SEARCH_FN = 5      # address of the search kernel (a cfunc; valid in this process only)
R_MODELS = 6         # offset in the shared array of the built-in bots' parameter rows (search models)
R_N_MODELS = 7       # rows there (one per built-in bot, N_PARAMS words each, fixed point)
R_USER_FN = 8        # address of the table's user-bot kernel (a cfunc; this process only)
R_USER_BASE = 9      # the first user bot's index in BOTS (0: no user bot at the table)
R_BUILTIN_FN = 10    # address of the game's built-ins kernel (this process only), 0: none

MARKS = 11
M_RNG = MARKS + 0         # the game's chance stream (uint64 bits); 0 during a bot's call
M_BOT_SEED = MARKS + 1    # the bots' own seed, from the game seed; 0 during a bot's call
M_DECISIONS = MARKS + 2   # decisions answered so far in this game (public)
M_BOT_RNG = MARKS + 3     # the asked seat's own random stream for this decision
M_SEAT_KEY = MARKS + 4    # a search seat's key (rng_nb.seat_key_nb; 0 for every other bot)
M_FAULT = MARKS + 5       # why a user bot was stopped (the game's FAULT_*), set before the exception
M_FAULT_ARG = MARKS + 6   # ... and the value at fault (a seat, an index, an offset)
M_TABLE_SUM = MARKS + 7   # checked mode: checksum of the shared array (0: not checked)
MARKS_END = MARKS + 8
# the table's own decision kernel (the `decide` its chunks get), by address, for the
# forward model's Python entry points: a first-class function handed from Python costs
# numba two symbol look-ups per call (hundreds of us); these words cost nothing
# (core.borrow_nb.decide_addresses, function_at_nb; this process only, 0: not set)
R_DECIDE_JIT = MARKS_END + 0     # its address in numba's calling convention
R_DECIDE_C = MARKS_END + 1       # its C wrapper's address

SEATS = 8                 # seats the header has room for (a game's own maximum is at most this)
N_PARAMS = 32             # parameters per seat (room for a user bot that extends a heuristic family)
PARAM_SCALE = 1_000_000   # fixed point: value * PARAM_SCALE
BOTS = 24                 # [SEATS] each seat's bot index
PARAMS = BOTS + SEATS     # [SEATS, N_PARAMS]
HEADER_LEN = PARAMS + SEATS * N_PARAMS

# the words a bot may write during its call, besides the game's own area (checked mode)
BOT_WORDS = (M_BOT_RNG, M_FAULT, M_FAULT_ARG)

# the answer recorded when a user bot raised an exception (the user-bot kernel)
BOT_FAULT = -(2**62)
# why a user bot was stopped (M_FAULT), the reasons the core's plumbing knows;
# a game may add its own after FAULT_GAME
FAULT_NONE = 0             # its own exception (or, checked, numba's bounds check)
FAULT_PARAM = 1            # param_nb of another seat
FAULT_INDEX = 2            # a kit function called with an index out of range
FAULT_BUDGET = 3           # checked mode: the decision's loop budget ran out
FAULT_WRITE = 4            # checked mode: a write to the state outside the bot's own area
FAULT_TABLES = 5           # checked mode: the shared array changed during the game
FAULT_RAND = 6             # rand_below_nb(s, n) with n out of 1..2**32-1
FAULT_GAME = 7             # the first reason a game may define

HEADER_NAMES = {
    "R_N_PLAYERS": "number of players", "R_LEN": "state length",
    "R_SHARED": "shared array's address", "R_SHARED_LEN": "shared array's length",
    "R_SEARCH": "search seats", "R_SEARCH_FN": "search kernel's address",
    "R_MODELS": "search models' offset", "R_N_MODELS": "search models' count",
    "R_USER_FN": "user-bot kernel's address", "R_USER_BASE": "first user bot's index",
    "R_BUILTIN_FN": "built-ins kernel's address",
    "R_DECIDE_JIT": "decision kernel's address", "R_DECIDE_C": "decision kernel's C address",
    "M_RNG": "game's chance stream", "M_BOT_SEED": "bots' seed", "M_DECISIONS": "decision counter",
    "M_BOT_RNG": "asked seat's stream", "M_SEAT_KEY": "search seat's key",
    "M_FAULT": "bot fault's reason", "M_FAULT_ARG": "bot fault's value",
    "M_TABLE_SUM": "tables' checksum",
}


def header_slot(i: int) -> str | None:
    """What word i of the core header holds, in words (None: not in the header)."""
    for name, text in HEADER_NAMES.items():
        if globals()[name] == i:
            return f"the core header's {text} ({name})" if name.startswith("R_") else f"the {text} ({name})"
    if BOTS <= i < BOTS + SEATS:
        return f"the bot of seat {i - BOTS}"
    if PARAMS <= i < HEADER_LEN:
        seat, k = divmod(i - PARAMS, N_PARAMS)
        return f"parameter {k} of seat {seat}"
    if 0 <= i < HEADER_LEN:
        return f"the core header (word {i})"
    return None


class Slots:
    """Consecutive offsets from ``at`` on, for a game's layout after the header:
    ``k = Slots(HEADER_LEN)``; ``K_A, K_B = k(), k()``; ``K_ROW = k(8)`` (8 words)."""

    def __init__(self, at: int):
        self.at = at

    def __call__(self, n: int = 1) -> int:
        a = self.at
        self.at += n
        return a
