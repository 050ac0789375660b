"""Macao's state layout, decision kinds, answer codes and event fields.

One int64 array holds a game: the core header (core/layout.py), then the rules'
numbers and tables (``K_*``, filled by ``simulate.table_template`` from
``Rules.arrays()``), then the game part (``G_*``) and one block of ``PW`` words
per seat (``P_*`` offsets inside a seat's block, at ``PL + seat * PW``). Every
offset is a module constant, so numba compiles them in. docs/rules_macao.md has
the rules these words carry.
"""
from ...core.layout import HEADER_LEN, N_PARAMS, Slots
from .effects import EFFECTS

MAX_SEATS = 4
NC = 6                      # colours = dice = cube colours
MAX_Q = 64                  # quarters
MAX_ADJ = 8
MAX_PORTS = 16
MAX_GOODS = 16
MAX_CT = 128                # card types (names)
MAX_OFFICE = 64             # office card copies in the box
MAX_DECK = 192              # building and person copies in the box
MAX_OFFER = 8
MAX_TAB = 8                 # tableau slots (rules: 5, plus the 6th that must go)
MAX_DONE = 63               # completed cards (activation codes reserve ACT_BLOCK a card)
ACT_BLOCK = 128             # answers of one card's activation: Laden's 21 pairs paid x 6 colours gained fit
MAX_DP = 12
MAX_ROSE = 6                # numbered rose sides
MAX_LEGAL = 1024            # answers of one decision, at most
COST_CAP = 20               # cubes of one colour in a quarter's or card's cost, at most (rules.COST's hi)
MAX_MODELS = 8              # non-search built-in bots the search bots can model


# ---- the rules' words (read-only during a game) -------------------------------------
_k = Slots(HEADER_LEN)
K_ROUNDS, K_START_COINS, K_N_START = _k(), _k(), _k()
K_START = _k(MAX_ROSE)                       # cubes put on rose side i+1 at setup
K_DICE_SIDES, K_LATE_DIE, K_ROSE_SIDES, K_TAB_SPACES = _k(), _k(), _k(), _k()
K_OFFICE_ROUND, K_DECK_ROUND, K_REMOVED, K_START_EXTRA = _k(), _k(), _k(), _k()
K_WALL_SPACES, K_WALL_COST1, K_WALL_COST2 = _k(), _k(), _k()
K_N_DP = _k()
K_DP = _k(MAX_DP)
K_GROUP_PTS, K_TAB_PEN, K_MARK_PEN, K_MARKERS = _k(), _k(), _k(), _k()
K_PER_GOOD, K_ZERO_PEN, K_TIE, K_PER_SET, K_REFUND_ALL = _k(), _k(), _k(), _k(), _k()
K_PASSING, K_RETURN, K_PEN_NO_MARKER = _k(), _k(), _k()
K_ONES_ROLLED, K_PALACE_ALL, K_WALL_BY_SPACE, K_CHOSEN, K_OFF_CHOSEN = _k(), _k(), _k(), _k(), _k()
K_MIXED = _k()                               # any_cubes "mixed": "any cubes" may mix colours
K_JOKER_CUBES, K_JOKER_COINS, K_TRIB_MAX = _k(), _k(), _k()
K_LIMIT_COINS, K_TOTAL_COINS, K_LIMIT_CUBES, K_CUBES_PER = _k(), _k(), _k(), _k()
K_NQ, K_N_PORTS, K_N_GOODS, K_TILES_PER_GOOD, K_N_JOKERS = _k(), _k(), _k(), _k(), _k()
K_N_CT, K_N_OFFICE, K_N_DECK, K_ROUTE_END = _k(), _k(), _k(), _k()
K_Q_COST = _k(MAX_Q * NC)
# bit x of K_Q_AFFORD[c * (COST_CAP + 2) + r + 1]: quarter x costs at most r cubes of colour c
# (r = -1..COST_CAP): the quarters a seat can pay are the AND of its colours' masks
K_Q_AFFORD = _k(NC * (COST_CAP + 2))
K_Q_ADJ = _k(MAX_Q * MAX_ADJ)                # -1 padded
K_Q_DARK = _k(MAX_Q)
K_PORT_SPACE = _k(MAX_PORTS)
K_PORT_GOODS = _k(MAX_PORTS * MAX_GOODS)     # 1: the port takes the good
K_C_KIND = _k(MAX_CT)
K_C_COST = _k(MAX_CT * NC)
# a card's cost packed, one byte a colour: cost + 1 in byte c (<= COST_CAP + 1 < 128); a
# hand packed so (its cubes + 1, at most 127) | 128 in byte c pays it if and only if
# (hand - cost) & PACK_HIGH == PACK_HIGH (no byte borrows: one test a card)
K_C_PACK = _k(MAX_CT)
K_C_TRIB_COINS = _k(MAX_CT)
K_C_TRIB_POINTS = _k(MAX_CT)
K_C_EFFECT = _k(MAX_CT)
K_C_TIMING = _k(MAX_CT)
K_C_ARGS = _k(MAX_CT * 4)
K_C_COLOUR = _k(MAX_CT)                      # an office card's colour, else -1
K_OFFICE_BOX = _k(MAX_OFFICE)                # card type of each office copy
K_DECK_BOX = _k(MAX_DECK)                    # card type of each building / person copy
K_MODELS = _k(MAX_MODELS * N_PARAMS)         # the search bots' models: each built-in's parameters
RULES_END = _k.at

PACK_HIGH = sum(128 << (8 * c) for c in range(NC))

# ---- the game part ----------------------------------------------------------------------
_g = Slots(RULES_END)
G_ROUND, G_PHASE, G_IDX, G_ASK, G_SEAT, G_SUB = _g(), _g(), _g(), _g(), _g(), _g()
G_TRIB_PRICE, G_TRIB_REWARD, G_N_OFFER = _g(), _g(), _g()
G_OFFER = _g(MAX_OFFER)
G_DICE = _g(NC)
G_ORDER = _g(MAX_SEATS)
G_STAMP, G_BANK, G_DECK_TOP, G_OFF_TOP, G_DISCARDED = _g(), _g(), _g(), _g(), _g()
G_SUPPLY = _g(NC)
G_DECK = _g(MAX_DECK)
G_OFFICES = _g(MAX_OFFICE)
G_Q_TILE = _g(MAX_Q)                         # good of the quarter's tile, -1 joker
G_Q_OWNER = _g(MAX_Q)                        # seat whose marker is there, -1 none
G_DELIV = _g(MAX_PORTS * MAX_GOODS)          # deliveries made to (port, good)
G_PORT_DELIV = _g(MAX_PORTS)                 # deliveries made to a port
G_LOT = _g(6)                                # the pending dice choice: die a, die b, extra lot
G_WINNERS, G_ROLLS, G_NEV, G_GAME, G_LOG_CAP = _g(), _g(), _g(), _g(), _g()   # G_LOG_CAP: event rows
G_STOP, G_BAD = _g(), _g()                   # the forward model: an answer refused (1), and it
PL = _g.at

# ---- one seat's block -----------------------------------------------------------------
_p = Slots(0)
P_PEN_MARKERS = _p()
P_COINS, P_VP, P_MARK_PEN, P_CITY, P_WALL, P_STAMP, P_SHIP = _p(), _p(), _p(), _p(), _p(), _p(), _p()
P_ROSE = _p((MAX_ROSE + 1) * NC)             # side 0 = this round's cubes, then sides 1..6
P_GOODS = _p(MAX_GOODS)
P_JOKERS, P_JOKER_USED = _p(), _p()
P_N_TAB = _p()
P_TAB = _p(MAX_TAB)
P_N_DONE = _p()
P_DONE = _p(MAX_DONE + 1)
P_USED = _p(MAX_DONE + 1)                    # activations this round, per completed card
# this round's flags
P_TRIB_N, P_TRIB_MAX, P_GOODS_N, P_GOODS_MAX, P_WALL_N, P_SAILED = _p(), _p(), _p(), _p(), _p(), _p()
P_GOT_COINS, P_SCORED, P_OFF_MASK, P_N_REF = _p(), _p(), _p(), _p()
P_OFF_EXTRA = _p(NC)
P_REF = _p(8 * NC)                           # cubes paid for each completion this round
# statistics (and the conservation ledger)
P_COINS_IN, P_COINS_OUT, P_CUBES_IN, P_CUBES_OUT, P_WASTED = _p(), _p(), _p(), _p(), _p()
P_DELIV, P_DELIV_PTS, P_TRIB_PTS, P_TRIB_PAID, P_CARD_PTS, P_END_PTS = _p(), _p(), _p(), _p(), _p(), _p()
P_GROUP, P_TAB_LEFT, P_ZERO_PEN, P_OVERFLOW, P_COMPLETED, P_DRAFTED = _p(), _p(), _p(), _p(), _p(), _p()
P_DELIVERED_TILES, P_JOKERS_USED, P_RANK, P_WON, P_PEN_PTS = _p(), _p(), _p(), _p(), _p()
PW = _p.at
STATE_SIZE = PL + MAX_SEATS * PW

# ---- phases of the resumable machine -------------------------------------------------
PH_START_CUBES, PH_START_DRAFT, PH_CARDS, PH_DICE, PH_ACTIONS, PH_OVER = 0, 1, 2, 3, 4, 5

# ---- decision kinds and their answers ---------------------------------------------------
D_COLOUR = 0        # setup: the colour of the cubes on rose side G_SUB+1: 0..5
D_CARD = 1          # take offered card: its slot 0..n-1; SKIP_CARD (Müßiggänger) takes none
D_DISCARD = 2       # a 6th tableau card: the slot to discard 0..5 (5 = the new card)
D_DICE = 3          # two different dice: a * 6 + b, a < b
D_DICE_EXTRA = 4    # DICE_EXTRA_CUBE: the lot that gets the extra cubes, 0 or 1
D_DICE_SHIFT = 5    # DICE_SHIFT_SIDE: lot * 16 + 8 + shift (shift 0: none)
D_ACTION = 6        # phase 3: an action code below, A_END ends the turn
DECISIONS = ("start colour", "card", "discard", "dice", "dice extra", "dice shift", "action")
SKIP_CARD = 99

A_END = 0
A_TRIBUTE = 1
A_WALL = 20         # + a * 6 + b: pay the step's cubes, colours a and b (one cube: a == b)
A_SAIL = 60         # + colour: one cube, one space on
A_SAIL_BACK = 66    # + colour: one space back (ship_can_return)
A_JOKER = 72        # + colour: a joker tile for a cube; A_JOKER + 6: for coins
A_DELIVER = 80      # + good: deliver one tile of it where the ship is (deliveries "chosen")
A_GOODS = 100       # + quarter index: pay its cubes, take its tile
A_GOODS_COINS = 200  # + quarter index: GOODS_FOR_COINS
A_COMPLETE = 300    # + tableau slot: pay the card's cubes
A_COMPLETE_COINS = 310  # + tableau slot: PAY_COINS_COMPLETE_CARD
# discount_colour "chosen": a cost "n cubes less" names the colour they come off
A_COMPLETE_OFF = 400    # + tableau slot * 6 + colour: complete, the discount off that colour
A_GOODS_OFF = 500       # + quarter * 6 + colour: take the quarter's tile, the discount off that colour
A_ACT = 1000        # + completed index * ACT_BLOCK + option

# ---- the event log ------------------------------------------------------------------
EVENT_FIELDS = ("game", "round", "seat", "action", "a", "b", "c", "points", "coins")
N_EVENT_FIELDS = len(EVENT_FIELDS)
(EV_START_CUBES, EV_DRAFT, EV_DISCARD, EV_ROLL, EV_LOT, EV_ZERO, EV_ARRIVE, EV_TRIBUTE,
 EV_GOODS, EV_WALL, EV_SAIL, EV_DELIVER, EV_COMPLETE, EV_ACTIVATE, EV_TRIGGER, EV_JOKER,
 EV_WASTED, EV_END_CARD, EV_CITY, EV_TABLEAU, EV_MARKERS, EV_OFFER, EV_RANK) = range(23)
EVENT_NAMES = ("start_cubes", "draft", "discard", "roll", "lot", "zero_cubes", "arrive", "tribute",
               "goods", "wall", "sail", "deliver", "complete", "activate", "trigger", "joker",
               "wasted", "end_card", "city", "tableau", "markers", "offer", "rank")

# ---- effect codes (rules.EFFECT_CODES order) -------------------------------------------
EFFECT_ID = {code: i for i, code in enumerate(EFFECTS)}
for _code, _i in EFFECT_ID.items():
    globals()["E_" + _code] = _i
T_ACTIVATE, T_TRIGGER, T_END = 0, 1, 2
K_OFFICE_KIND, K_BUILDING_KIND, K_PERSON_KIND = 0, 1, 2
TIE_WALL, TIE_COINS, TIE_SHARED = 0, 1, 2

# the core's error-buffer slots (core.contract.ERR_GAME, ERR_EVENTS; a test checks they agree:
# a kernel module importing core.contract would make the runner's Python part compiled source)
ERR_GAME, ERR_EVENTS = 0, 6

# ---- result buffers -------------------------------------------------------------------
GAME_FIELDS = ("n_players", "rounds", "winner", "n_winners", "decisions", "deck_left")
PLAYER_FIELDS = ("vp", "rank", "won", "coins", "wall", "ship", "quarters", "group", "deliveries",
                 "delivery_vp", "tribute_paid", "tribute_vp", "card_vp", "end_vp", "penalty_vp",
                 "markers", "zero_cube", "overflow", "tableau_left", "completed", "drafted",
                 "cubes", "wasted", "jokers_used", "coins_gained")
