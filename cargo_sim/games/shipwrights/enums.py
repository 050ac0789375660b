"""Shipwrights' state layout, decision kinds, answer codes and event fields.

One int64 array holds a game: the core header (core/layout.py), the rules' words
(``K_*``, filled by ``simulate.compile_rules``), the game part (``G_*``) and one
block of ``PW`` words per seat (``P_*`` inside a block at ``PL + seat * PW``).
A card in play is a *copy* (0 .. deck size - 1): its face is ``K_BOX[copy]`` and
the goods price on its back ``K_BOX_BACK[copy]``. docs/rules_shipwrights.md has
the rules these words carry.
"""
from ...core.layout import HEADER_LEN, N_PARAMS, Slots

MAX_SEATS = 5
NG = 3                      # goods: oak, wool, iron
MAX_FACES = 64
MAX_SHIPS, MAX_CRAFT, MAX_TOOLS, MAX_BLD, MAX_TOWN, MAX_BACKS = 16, 16, 8, 8, 24, 8
MAX_DECK = 256
MAX_HAND = 12               # 3 drafted + what the Chieftain and Sage draw
MAX_BOARD = 8               # craftsmen under the board (rules: max_craftsmen <= 8)
MAX_YARDS = 4
MAX_DONE = 32               # completed ships of a seat (the game ends the day of the 4th)
MAX_PACKET = MAX_SEATS + 1
MAX_ROUNDS = 6
MAX_LEGAL = 2048
REFS = MAX_BOARD + MAX_HAND     # legal_nb keeps a ship's craftsmen refs at the end of its buffer
MAX_MODELS = 8
SHIP_W, TOOL_W, BLD_W, TOWN_W = 11, 5, 4, 5
# a ship's words (K_SHIP + ship * SHIP_W + ...)
S_MIL, S_PTS, S_GOLD, S_WORK, S_GOODS, S_CRAFT, S_GICON, S_WICON, S_MICON = 0, 1, 2, 3, 4, 7, 8, 9, 10
# a tool's, a building's, a townsfolk's words
T_PRICE, T_EFFECT, T_GOODS = 0, 1, 2
B_GOLD, B_WORK, B_EFFECT, B_ARG = 0, 1, 2, 3
TF_EFFECT, TF_ARGS = 0, 1
KIND_SHIP, KIND_CRAFT, KIND_TOOL, KIND_BLD, KIND_TOWN = 0, 1, 2, 3, 4
TOOL_IGNORE, TOOL_CART = 0, 1
BLD_POINTS, BLD_PER_GOLD, BLD_PER_CIVIL, BLD_MILL_OVER = 0, 1, 2, 3
(TF_REMOVE_CRAFT, TF_REMOVE_SHIP, TF_STEAL_CRAFT, TF_FIRST, TF_PROTECT, TF_GOLD_ALL, TF_RAID,
 TF_DESTROY_TOOL, TF_STEAL_GOODS, TF_DRAW, TF_DISCARD_DRAW, TF_GAIN_WORKERS, TF_GAIN_GOODS,
 TF_SWAP_GOODS, TF_GOODS_FOR_WORKERS, TF_GAIN_GOLD, TF_NAVIGATE) = range(17)
TIE_GOLD, TIE_SHARED = 0, 1
MIL_ALL, MIL_NONE = 0, 1


# ---- the rules' words (read-only during a game) -----------------------------------------
_k = Slots(HEADER_LEN)
K_GOLD_MAX, K_MILL_CAP, K_VILLAGE_CAP, K_EVE_WORKERS, K_MIN_EVE = _k(), _k(), _k(), _k(), _k()
K_MAX_CRAFT, K_YARDS, K_ROUNDS, K_GOAL, K_MIL_PTS, K_GOODS_GOLD, K_GOODS_WORK = (_k() for _ in range(7))
K_MAX_DAYS, K_TIE, K_MIL_TIE, K_TAKE_CART = _k(), _k(), _k(), _k()
K_START_GOLD, K_START_WORK, K_START_GOODS, K_N_CARDS, K_N_FACES = _k(), _k(), _k(), _k(), _k()
K_N_SHIPS = _k()
K_KIND = _k(MAX_FACES)                       # a face's kind (KIND_*)
K_IDX = _k(MAX_FACES)                        # its index among its kind
K_SHIP = _k(MAX_SHIPS * SHIP_W)
K_BUILDS = _k(MAX_CRAFT * MAX_SHIPS)         # 1: craftsman c builds ship x
K_TOOL = _k(MAX_TOOLS * TOOL_W)
K_BLD = _k(MAX_BLD * BLD_W)
K_TOWN = _k(MAX_TOWN * TOWN_W)
K_BACK = _k(MAX_BACKS * NG)                  # goods bought per back
K_BOX = _k(MAX_DECK)                         # face of each copy
K_BOX_BACK = _k(MAX_DECK)                    # back of each copy
K_MODELS = _k(MAX_MODELS * N_PARAMS)         # the search bots' models: each built-in's parameters
RULES_END = _k.at

# ---- the game part ----------------------------------------------------------------------
_g = Slots(RULES_END)
G_DAY, G_PHASE, G_ASK, G_SEAT, G_IDX, G_SUB, G_ROUND = (_g() for _ in range(7))
G_FIRST, G_NEXT_FIRST, G_ENDING, G_WINNERS, G_TOP_BACK = _g(), _g(), _g(), _g(), _g()
G_NEV, G_GAME, G_LOG_CAP, G_STOP, G_BAD, G_RESHUFFLES = _g(), _g(), _g(), _g(), _g(), _g()
G_DECK_N = _g()
G_DECK = _g(MAX_DECK)                        # the deck, top at G_DECK[G_DECK_N - 1]
G_DISC_N = _g()
G_DISC = _g(MAX_DECK)                        # the face-up discard pile
G_PACKET_N = _g()
G_PACKET = _g(MAX_PACKET)                    # the cards being drafted
G_FD_N = _g()
G_FD = _g(MAX_ROUNDS)                        # the day's face-down discards (one a draft round)
G_FD_ROUND = _g(MAX_ROUNDS)
G_POS = _g(MAX_SEATS)                        # each seat's place in today's order (0: first player)
PL = _g.at

# ---- one seat's block ---------------------------------------------------------------------
_p = Slots(0)
P_GOLD, P_WORKERS = _p(), _p()
P_GOODS = _p(NG)
P_HAND_N = _p()
P_HAND = _p(MAX_HAND)
P_SRC = _p(MAX_HAND)                         # the draft round a hand card came from (ROUND_DRAWN: drawn)
P_CRAFT_N = _p()
P_CRAFT = _p(MAX_BOARD)
P_YARD = _p(MAX_YARDS)                       # copy of the ship started there, -1 empty
P_TOOL = _p()                                # copy of the tool owned, -1 none
P_CART = _p(NG)                              # goods left on the cart
P_BLD = _p(MAX_BLD)                          # copy of each building owned, -1 none
P_DONE = _p(MAX_SHIPS)                       # completed ships of each kind
P_N_DONE, P_MIL, P_CIVIL, P_GICON, P_WICON, P_MICON = _p(), _p(), _p(), _p(), _p(), _p()
P_SHIPS = _p(MAX_DONE)                       # the completed ships' copies
P_FRONT_N = _p()
P_FRONT = _p(MAX_HAND)                       # Pioneer and Watchman kept in front until tomorrow
P_PROTECTED = _p()                           # a Watchman played today
# statistics (and the conservation ledger)
P_GOLD_IN, P_GOLD_OUT, P_GOLD_CAPPED, P_BOUGHT, P_TOWN_PLAYED, P_ATTACKS, P_ATTACKED = (_p() for _ in range(7))
P_SHIP_PTS, P_BLD_PTS, P_MIL_PTS, P_DISCARDED, P_STARTED, P_LOST_SHIPS, P_RETURNED = (_p() for _ in range(7))
P_HIRED, P_N_BLD, P_TOOLS, P_VP, P_RANK, P_WON = _p(), _p(), _p(), _p(), _p(), _p()
PW = _p.at
STATE_SIZE = PL + MAX_SEATS * PW
# after the game: a built-in bot's scratch for the legal answers (never copied by a clone)
SCRATCH = STATE_SIZE
STATE_LEN = SCRATCH + MAX_LEGAL
ROUND_DRAWN = MAX_ROUNDS                     # P_SRC of a card drawn in the afternoon

# ---- phases of the resumable machine ----------------------------------------------------------
PH_START, PH_DRAFT, PH_AFTERNOON, PH_EVENING, PH_OVER = 0, 1, 2, 3, 4

# ---- decision kinds and their answers -------------------------------------------------------
D_START = 0         # setup: a goods kind for the mill, 0..2 (start_goods times)
D_DRAFT = 1         # keep a card of the packet: its slot
D_ACTION = 2        # the afternoon: an action code below; A_END ends the seat's afternoon
D_RETURN = 3        # overnight, the mill over capacity: a goods kind to give back
DECISIONS = ("start goods", "draft", "action", "return goods")

A_END = 0           # discard what is left in hand, end the afternoon
A_DISCARD = 1       # + hand slot
A_GOODS = 20        # + goods kind: buy at the top card's back price
A_PLAY = 32         # + hand slot: buy a tool, hire a craftsman, start a ship, construct a building
A_TOWN = 100        # + hand slot * 256 + argument: play a townsfolk (docs: each one's argument)
A_COMPLETE = 4000   # + ((yard * 2 + tool) * 32 + i) * 32 + j: craftsmen refs i, j (NO_REF: none)
HAND_REF = 8        # a craftsman ref: 0..7 the board's, 8 + slot a hand card
NO_REF = 31

# ---- the event log ---------------------------------------------------------------------------
EVENT_FIELDS = ("game", "day", "seat", "action", "a", "b", "c", "points", "gold")
N_EVENT_FIELDS = len(EVENT_FIELDS)
(EV_FIRST, EV_START_GOODS, EV_DRAFT, EV_FACEDOWN, EV_BUY_GOODS, EV_TOOL, EV_HIRE, EV_START_SHIP,
 EV_COMPLETE, EV_BUILD, EV_TOWNSFOLK, EV_DISCARD, EV_INCOME, EV_RETURN, EV_RESHUFFLE, EV_MILITARY,
 EV_SCORE, EV_RANK, EV_LOSE_GOLD, EV_LOSE_CARD, EV_DRAW) = range(21)
EVENT_NAMES = ("first_player", "start_goods", "draft", "facedown", "buy_goods", "tool", "hire",
               "start_ship", "complete", "build", "townsfolk", "discard", "income", "return",
               "reshuffle", "military", "score", "rank", "lose_gold", "lose_card", "draw")

# the core's error-buffer slots (core.contract.ERR_GAME, ERR_EVENTS; a test checks they agree)
ERR_GAME, ERR_EVENTS = 0, 6

# ---- result buffers ---------------------------------------------------------------------------
GAME_FIELDS = ("n_players", "days", "winner", "n_winners", "decisions", "reshuffles", "capped")
PLAYER_FIELDS = ("vp", "rank", "won", "gold", "workers", "goods", "ships", "military", "civil",
                 "ship_vp", "building_vp", "military_vp", "buildings", "craftsmen", "goods_bought",
                 "townsfolk", "attacks", "attacked", "discarded", "started", "lost_ships",
                 "returned", "hired", "tools", "gold_capped")
