"""Constants shared by the Cargo Noir kernels, bots and Python layers.

Integer codes only (numba freezes module globals into compiled code), plus the
names the Python side uses to label them. Field lists define the column order
of the compiled per-game / per-player / per-event records.
"""
from collections import namedtuple

# ---- ship locations (phase 3 answers and phase 1 resolution order) ----------
LOC_CASINO = 0
LOC_BLACK_MARKET = 1
LOC_PORT0 = 2            # port p (index among the ports open in this game) is LOC_PORT0 + p

# ---- decisions asked of a bot ---------------------------------------------
# decide(kind, s, seat) -> int. Context is read from s[CTX + i],
# vector answers are written to s[OUT + i] (tokens at OUT + t, cards at OUT_CARDS + c).
D_ORDER = 0      # phase 1: which location to resolve next -> location code; s[CTX + loc] > 0 = pending
D_RAISE = 1      # phase 1: outbid at port s[CTX]: coins to add (>= s[CTX + 1]) or 0 to abandon
D_BLACK_MARKET = 2  # phase 1: BM_DRAW to draw from the bag, or give * BM_CODE + take to swap
D_TRADE = 3      # phase 2: tokens to sell at OUT + t, cards to buy at OUT_CARDS + c; 1 = trade, 0 = none
D_DISCARD = 4    # phase 2: tokens to discard at OUT + t (exactly s[CTX] in all)
D_SEND = 5       # phase 3: destination location code; s[OUT] = bid when it is a port
DECISION_NAMES = ("resolution order", "raise or abandon", "black market", "trade",
                  "discard", "send ship")
BM_DRAW = -1
# err[1] of an entry kernel when a game needed the exact trade solver and it was not
# loaded (trade.packed_nb.exact_value_fn): load it and replay the chunk
ERR_NEED_SOLVER = -2
BM_CODE = 16     # swap code = give * BM_CODE + take

# ---- the game-state array --------------------------------------------------
# A game is ONE int64 array `s` with this fixed layout: the core header
# (core/layout.py: the table's bots and parameters, the bot plumbing's addresses,
# the chance stream and the bots' seeds), then the rules' numbers for this player
# count (copied from a template built by Rules.compile), then the state. One array
# keeps every kernel call cheap (numba reference-counts each array passed) and
# every offset a compile-time constant.
from ...core.layout import (BOT_FAULT, BOTS, FAULT_BUDGET, FAULT_INDEX, FAULT_NONE,  # noqa: E402,F401
                            FAULT_PARAM, FAULT_RAND, FAULT_TABLES, FAULT_WRITE, FAULT_GAME,
                            HEADER_LEN, M_BOT_RNG, M_BOT_SEED, M_DECISIONS, M_FAULT, M_FAULT_ARG,
                            M_RNG, M_SEAT_KEY, M_TABLE_SUM, N_PARAMS, PARAM_SCALE, PARAMS,
                            R_BUILTIN_FN, R_LEN, R_MODELS, R_N_MODELS, R_N_PLAYERS, R_SEARCH,
                            R_SEARCH_FN, R_SHARED, R_SHARED_LEN, R_USER_BASE, R_USER_FN, SEATS)
MAX_SEATS = 5
assert MAX_SEATS <= SEATS
MAX_TOK = 16          # cargo types + the Wild
MAX_PORTS = 16
MAX_CARDS = 32

# rules header (after the core header)
RULES = HEADER_LEN
R_N_TYPES = RULES + 0         # token index R_N_TYPES is the Wild
R_N_PORTS = RULES + 1         # ports open in this game
R_N_CARDS = RULES + 2
R_TOKENS_PER_TYPE = RULES + 3
R_WILDS_IN_BAG = RULES + 4
R_BM_SLOTS = RULES + 5
R_CASINO_PAYOUT = RULES + 6
R_START_COINS = RULES + 7
R_START_SHIPS = RULES + 8
R_START_WAREHOUSE = RULES + 9
R_TOTAL_COINS = RULES + 10
R_MAX_SHIPS = RULES + 11
R_UNLIMITED_COINS = RULES + 12
R_EDGE_LIMIT = RULES + 13
R_FINAL_COIN_VALUE = RULES + 14
R_N_TURNS = RULES + 15
R_SCRIPT = RULES + 16        # offset of a scripted bot's answers (testing.ScriptedGame), 0 = none
R_LOG_ROWS = RULES + 17      # rows of the event log the kernels write to (0: no log), set by the entry kernel
R_WORK = RULES + 18          # address of the bots' workspace (an int64 array of R_WORK_LEN words; 0: none)
R_WORK_LEN = RULES + 19
R_FINAL_PHASE3 = RULES + 20  # 1: the last turn has a phase 3 too (rules option final_turn_phase3)
R_TRADE_NO_CARD = RULES + 21 # 1: a trade may sell tokens and buy no card (option trade_without_card)
R_TIE_BY_COST = RULES + 22   # 1: the tie-break card is the highest-cost one, 0: highest VP (option tie_break)
# search bots at the table (bots/search_nb.py): R_SEARCH's kinds
SEARCH_FLATMC = 1
SEARCH_ISMCTS = 2
PORT_SLOTS = RULES + 24              # [MAX_PORTS] slots of each open port
CARD = PORT_SLOTS + MAX_PORTS        # [MAX_CARDS, CARD_W] card data
CARD_W = 8
C_COPIES = 0
C_COST = 1
C_VP = 2
C_EDGE = 3
C_SHIPS = 4
C_WAREHOUSE = 5
C_SYNDICATE = 6
RULES_END = CARD + MAX_CARDS * CARD_W

# scalars
MISC = RULES_END
M_TURN = MISC + 0
M_SEAT = MISC + 1
M_PHASE = MISC + 2
M_BANK = MISC + 3
M_FINAL = MISC + 4        # 1 during the last turn
M_N_EVENTS = MISC + 5
M_ERR_KIND = MISC + 6     # decision kind of an illegal answer (-1 none)
M_ERR_VALUE = MISC + 7
M_ERR_SEAT = MISC + 8
M_ERR_AUX = MISC + 9
M_SHORTFALLS = MISC + 10  # payments the bank could not make in full
M_SHORTFALL_COINS = MISC + 11
M_BAG_REFILLS = MISC + 12
M_MINTED = MISC + 13      # coins paid beyond the box's total (unlimited_coins)
M_EMPTY_SLOTS = MISC + 14 # draws that found bag and discard pile empty
M_FREE_15 = MISC + 15     # unused (M_RNG before the core header; forward_nb.view_digest_nb skips it)
M_GAME = MISC + 16        # index of the game in its chunk (event rows)
# the resumable engine's program counter (engine_nb.advance_nb / answer_nb)
M_STEP = MISC + 17        # where the game is: ST_* below, or ST_WAIT + the pending decision
M_ASK = MISC + 18         # the decision the game waits for (D_*), -1 when none (over or stopped)
M_PENDING = MISC + 19     # phase 1: bit p = the ship at port p is still to resolve
M_AUX = MISC + 20         # the port whose raise is asked (D_RAISE)
M_STOP = MISC + 21        # bit st: advance_nb stops before step st (testing.ScriptedGame's phases)
M_FREE_22 = MISC + 22     # unused (M_BOT_SEED before the core header; view_digest_nb skips it)
N_MISC = 24
# forward_nb.view_digest_nb numbers the words it digests as the layout before the
# core header did (MISC was word 429), so the search bots' keys stay the same
DIGEST_SHIFT = 429 - MISC

# ---- steps of a game (M_STEP) ------------------------------------------------
ST_TURN = 0          # a seat's turn begins
ST_P1_START = 1      # phase 1 begins: which ships are out
ST_P1 = 2            # phase 1: resolve the next ship (asks D_ORDER when there is a choice)
ST_P2 = 3            # phase 2: trade (asks D_TRADE)
ST_P2_DISCARD = 4    # phase 2: discard down to capacity (asks D_DISCARD)
ST_P2_END = 5        # phase 2 ends: phase 3, or the turn ends on the final turn
ST_P3 = 6            # phase 3: send the next ship (asks D_SEND)
ST_NEXT = 7          # the seat's turn ends: next seat, next turn or scoring
ST_SCORE = 8
ST_OVER = 9
ST_WAIT = 16         # ST_WAIT + kind: waiting for an answer to decision `kind`
# board
BAG = MISC + N_MISC                  # [MAX_TOK]
DISCARD = BAG + MAX_TOK              # [MAX_TOK]
BLACK_MARKET = DISCARD + MAX_TOK     # [MAX_TOK]
PORT_TOK = BLACK_MARKET + MAX_TOK    # [MAX_PORTS, MAX_TOK] cargo on each port
PORT_BID = PORT_TOK + MAX_PORTS * MAX_TOK   # [MAX_PORTS, MAX_SEATS] coins under each player's ship (0 = none)
ABANDONED = PORT_BID + MAX_PORTS * MAX_SEATS  # [MAX_PORTS] abandoned by the current player this turn
PORT_TOP = ABANDONED + MAX_PORTS     # [MAX_PORTS] highest stack on each port (engine_nb.set_bid_nb keeps it)
SUPPLY = PORT_TOP + MAX_PORTS        # [MAX_CARDS] cards left
# players
PLAYER = SUPPLY + MAX_CARDS          # [MAX_SEATS, PLAYER_W]
PLAYER_W = 8
PL_COINS = 0
PL_SHIPS = 1          # owned
PL_HAND_SHIPS = 2     # beside the family sheet, to send in phase 3
PL_CASINO_SHIPS = 3
PL_BM_SHIPS = 4
PL_WAREHOUSE = 5      # capacity
HAND = PLAYER + MAX_SEATS * PLAYER_W         # [MAX_SEATS, MAX_TOK] tokens held
CARDS = HAND + MAX_SEATS * MAX_TOK           # [MAX_SEATS, MAX_CARDS] victory cards held
STATS = CARDS + MAX_SEATS * MAX_CARDS        # [MAX_SEATS, STATS_W] statistics (enums.P)
STATS_W = 32
# decision scratch
CTX = STATS + MAX_SEATS * STATS_W            # [CTX_W] decision context (see D_*)
CTX_W = MAX_PORTS + 8
OUT = CTX + CTX_W                            # [OUT_W] vector answers: tokens then cards
OUT_CARDS = OUT + MAX_TOK
OUT_W = MAX_TOK + MAX_CARDS
SCRATCH = OUT + OUT_W                        # [SCRATCH_W] free for bots (token vectors etc.)
SCRATCH_W = 4 * MAX_TOK + MAX_PORTS + 8
# what a bot is handed for one decision (engine_nb.ask_nb sets these before the
# call and clears them after; docs/safety.md, "What a bot can see") is in the core
# header: M_DECISIONS, M_BOT_RNG, M_SEAT_KEY, M_FAULT, M_FAULT_ARG, M_TABLE_SUM
# opponent models from public play (core.search.belief_nb; bots/belief_nb.py): per seat
# and candidate (a search model row) the misses counted at the seat's answers, then a
# search's sampling rows (0 outside a search) and whether its copies sample them
MAX_CAND = 16
BELIEF = SCRATCH + SCRATCH_W                 # [MAX_SEATS, MAX_CAND] misses * MISS + near misses
MODEL_CDF = BELIEF + MAX_SEATS * MAX_CAND    # [MAX_SEATS, MAX_CAND] a search's sampling rows
MODEL_ON = MODEL_CDF + MAX_SEATS * MAX_CAND  # 1 in a search's copies that draw a model per seat
STATE_SIZE = MODEL_ON + 1
# after the game part: the exact trade solver's address for this state's kernels
# (trade.packed_nb.exact_value_fn, set by the entry kernel; -1: a lookup needed it
# and it was not loaded). Not copied by clone_into_nb (a search's copies keep the mark).
EXACT_FN = STATE_SIZE
STATE_LEN = STATE_SIZE + 1                   # the words of a state array
# why a user bot was stopped (M_FAULT; simulate.illegal_error words them): the
# core's reasons (core/layout.py FAULT_*), then the game's
FAULT_KIND = FAULT_GAME    # random_decide_nb / heuristic_decide_nb of a decision not asked
# the packed trade-value tables (trade.packed_nb.pack_trade_tables) are the table's
# shared array (core.shared_nb: s[R_SHARED], from offset 0), then the search models' rows
# (R_MODELS). The bots' workspace is an array of its own at address s[R_WORK]
# (Rules.state_template; each chunk kernel gives its own): the planner's buffers live
# there, so a trade decision allocates nothing (R_WORK = 0: they allocate)
WORK_W = 1 << 14

# ---- per-player statistics (accumulated in the kernel) -----------------------
PLAYER_FIELDS = (
    "vp", "won", "coins", "ships", "warehouse", "max_card_vp",
    "ports_won", "coins_paid", "cargo_won", "bids", "bid_coins",
    "raises", "raise_coins", "abandons", "syndicate_coins",
    "casino_visits", "casino_coins", "bm_swaps", "bm_draws",
    "trades", "cargo_traded", "wilds_traded", "trade_value", "value_lost",
    "final_coins_spent", "cards_bought", "cargo_discarded", "cargo_held",
)
P = namedtuple("PlayerField", PLAYER_FIELDS)(*range(len(PLAYER_FIELDS)))
N_PLAYER_FIELDS = len(PLAYER_FIELDS)

GAME_FIELDS = (
    "n_players", "turns", "winners_mask", "tie", "shortfalls", "shortfall_coins",
    "bag_refills", "empty_slots", "minted_coins", "bank_end",
)
G = namedtuple("GameField", GAME_FIELDS)(*range(len(GAME_FIELDS)))
N_GAME_FIELDS = len(GAME_FIELDS)

# ---- event log -----------------------------------------------------------------
EVENT_FIELDS = ("game", "turn", "seat", "phase", "action", "loc", "coins", "amount", "value",
                "card", "count") + tuple(f"tok{i}" for i in range(MAX_TOK))
E = namedtuple("EventField", EVENT_FIELDS[:11])(*range(11))
E_TOK0 = 11
N_EVENT_FIELDS = len(EVENT_FIELDS)

A_SEND_CASINO = 0
A_SEND_BLACK_MARKET = 1
A_SEND_PORT = 2          # amount = bid
A_CASINO = 3             # amount = coins received
A_BM_SWAP = 4            # tokens: -1 given, +1 taken
A_BM_DRAW = 5            # tokens: +1 drawn (none if the bag was empty)
A_PORT_WIN = 6           # amount = coins paid, tokens = cargo taken
A_RAISE = 7              # amount = coins added, value = new stack
A_ABANDON = 8            # amount = coins taken back
A_SYNDICATE = 9          # amount = coins received
A_TRADE = 10             # tokens sold, value = smuggling value, amount = coins spent (final turn)
A_BUY = 11               # card, count
A_DISCARD = 12           # tokens discarded
A_BAG_REFILL = 13        # count = tokens moved from the discard pile to the bag
A_SHORTFALL = 14         # amount = coins the bank could not pay
A_SCORE = 15             # value = VP, count = 1 if winner
ACTION_NAMES = ("send casino", "send black market", "send port", "casino", "black market swap",
                "black market draw", "port win", "raise", "abandon", "syndicate", "trade", "buy",
                "discard", "bag refill", "bank shortfall", "score")
