"""Cargo Empire's state layout, decision kinds, answer codes and event fields.

One int64 array holds a game: the core header (core/layout.py), the rules' words
(``K_*``, from ``Rules.compiled()`` by ``simulate.compile_rules``), the game part
(``G_*``) and one block of ``PW`` words per seat (``P_*`` at ``PL + seat * PW``).
Every offset is a module constant, so numba compiles them in.
"""
from ...core.layout import HEADER_LEN, N_PARAMS

MAX_SEATS = 5
MAXC = 32                   # cities (a card mask is one word)
MAX_COL = 8                 # goods colours
MAX_TILES = 64              # city tiles in the bag
MAX_DEV = 16                # development tile sides (8 tiles)
MAX_PATH = 8                # spaces on one path of a development tile
MAX_SLOTS = 4               # development tiles on the board
MAX_SCORE = 32              # score spaces after the last tile
MAX_PAY = 8192              # payment options of every pair of cities
MAX_OPT = 16                # payment options of one pair
MAX_MISSIONS = 64
MAX_KEEP = 16               # missions one seat keeps
MAX_PUBLIC = 8
MAX_LEGAL = 16384
MAX_MODELS = 8              # non-search built-in bots the search bots can model
N_VEH = 3                   # truck, train, ship
TRUCK, TRAIN, SHIP = 0, 1, 2
VEHICLES = ("truck", "train", "ship")
R_NONE, R_TRUCK, R_TRAIN, R_SHIP, R_CITY, R_MISSION = 0, 1, 2, 3, 4, 5   # rules.REWARDS
B_ANY = 3                   # an order space's free-choice bonus (rules.ORDER_BONUS)
MK_PORTS, MK_CITIES, MK_COLOUR, MK_LV3, MK_CARDS, MK_TRACK, MK_PERFECT = range(7)
BLANK = -1                  # a blank city card
NO_CARD = -2


class _Alloc:
    def __init__(self, at):
        self.at = at

    def __call__(self, n=1):
        a = self.at
        self.at += n
        return a


# ---- the rules' words (read-only during a game) ---------------------------------------
_k = _Alloc(HEADER_LEN)
K_ROUNDS, K_TURNS, K_NCOL, K_PROD, K_NC, K_NTILES, K_NDEV, K_NSLOTS = (_k() for _ in range(8))
K_START_HAND = _k(N_VEH)
K_ICONS = _k(N_VEH)
K_LV3_VP, K_CARD_VP, K_NPUB, K_MDRAW, K_NSCORE, K_NMISS = (_k() for _ in range(6))
K_SCORE = _k(MAX_SCORE)
K_ORDER_BONUS = _k(MAX_SEATS)
K_PORT = _k(MAXC)
K_PAY_AT = _k(MAXC * MAXC)          # first option of the pair (src * MAXC + dst) in K_PAY
K_PAY_N = _k(MAXC * MAXC)
K_PAY_MIN = _k(MAXC * MAXC)         # the pair's options' least trucks, trains, ships (packed as K_PAY)
K_PAY = _k(MAX_PAY)                 # trucks | trains << 8 | ships << 16
K_TILE = _k(MAX_TILES * 6)          # lv1 produce, demand, demand, lv2 produce, demand, demand
K_DEV_N = _k(MAX_DEV * 2)           # spaces of the upper (0) and lower (1) path of a side
K_DEV = _k(MAX_DEV * 2 * MAX_PATH)  # rewards along them
K_DEV_FORK = _k(MAX_DEV)
K_MISS = _k(MAX_MISSIONS * 4)       # kind, n, arg, vp
K_MODELS = _k(MAX_MODELS * N_PARAMS)  # the search bots' models: each built-in's parameters
RULES_END = _k.at

# ---- the game part ---------------------------------------------------------------------
_g = _Alloc(RULES_END)
G_PHASE, G_ASK, G_SEAT, G_ROUND, G_TURN, G_IDX = (_g() for _ in range(6))
G_NEV, G_GAME, G_LOG_CAP, G_STOP, G_BAD, G_WINNER, G_AFTER = (_g() for _ in range(7))
G_ORDER = _g(MAX_SEATS)             # this round's order (seats)
G_NEXT = _g(MAX_SEATS)              # the next round's order, being filled
G_BONUS_OF = _g(MAX_SEATS)          # the order bonus each place of G_ORDER took (cleanup)
G_TILE = _g(MAXC)                   # the city's tile, -1 once LV3
G_LV = _g(MAXC)                     # 1, 2 or 3
G_CUBES = _g(MAXC)                  # cubes on the production spaces
G_DEMAND = _g(MAXC * 2)             # seat + 1 on each demand space, 0 free
G_PRESENT = _g(MAXC * MAX_SEATS)    # each seat's posts at the city (demand and post spaces)
G_BAG = _g(MAX_TILES)               # the tile bag's draw order (the first K_NC are placed)
G_DECK = _g(MAXC)                   # city deck, a ring: G_DECK_TOP, G_DECK_N cards
G_DECK_TOP, G_DECK_N = _g(), _g()
G_PUBLIC = _g(MAX_PUBLIC)           # public city cards: a city, BLANK or NO_CARD
G_MDECK = _g(MAX_MISSIONS)          # mission deck, a ring
G_MTOP, G_MN = _g(), _g()
G_MOFFER = _g(4)                    # missions drawn, waiting for the keep
G_MOFFER_N = _g()
G_DEVSIDE = _g(MAX_SLOTS)           # the side on each development slot
G_STEPS = _g(N_VEH)                 # this turn's transport steps still to move
G_BONUS, G_USED, G_CURV = _g(), _g(), _g()
G_FIRST_CITY = _g(MAX_SEATS)        # each seat's first start city (-1 none yet)
G_DMASK = _g(MAX_COL)               # scratch of deliveries_nb: cities with a free demand, per colour
PL = _g.at

# ---- one seat's block ------------------------------------------------------------------
_p = _Alloc(0)
P_HAND = _p(N_VEH)
P_TILE = _p(N_VEH)                  # marker: development slot (K_NSLOTS = on the score spaces)
P_PATH = _p(N_VEH)                  # path on that slot (-1: at its branch, not chosen yet)
P_IDX = _p(N_VEH)                   # space on the path (-1 before its first); score index
P_DIST = _p(N_VEH)                  # steps moved (the cleanup's ranking)
P_CARDS, P_BLANKS, P_SECRET = _p(), _p(), _p()      # card mask of cities owned; blanks; hidden card
P_NMISS = _p()
P_MISS = _p(MAX_KEEP)
P_REMOVED = _p()                    # posts removed by forced passes
P_DELIV, P_PERFECT, P_UPGRADES, P_PASSES, P_STEPS, P_CITY_BONUS = (_p() for _ in range(6))
P_DELIV_COL = _p(MAX_COL)
P_PLAYED = _p(N_VEH)
P_GAINED = _p(N_VEH)                # cards gained (setup hand excluded)
P_VP, P_DEV_VP, P_LV3_VP, P_CARD_VP, P_MISS_VP, P_MISS_DONE, P_RANK, P_WON = (_p() for _ in range(8))
PW = _p.at
STATE_SIZE = PL + MAX_SEATS * PW

# ---- phases ---------------------------------------------------------------------------
(PH_ORDER_BONUS, PH_SETUP_MISSION, PH_START1, PH_START2, PH_TURN, PH_RESOLVE, PH_OVER) = range(7)

# ---- decisions and answers ---------------------------------------------------------------
D_START_CITY = 0    # first start city: public slot * 2 + demand space
D_START_SLOT = 1    # second start city (the secret card's): demand space 0 or 1
D_MISSION = 2       # the drawn mission kept: 0 .. drawn - 1
D_DELIVER = 3       # (supply * MAXC + target) * MAX_OPT + payment option of the pair
D_PASS = 4          # forced pass: 0 take a truck, a train and a ship; 1 + city: refill it
D_PATH = 5          # the path taken from a branch: 0 upper, 1 lower
D_BONUS = 6         # a city or perfect-upgrade step: the vehicle (one used this turn)
D_TAKE_CARD = 7     # a public city card taken: its slot
D_ANY_CARD = 8      # a free-choice card: 0 truck, 1 train, 2 ship
DECISIONS = ("start city", "start space", "mission", "deliver", "pass", "path", "bonus step",
             "take card", "any card")

# ---- the event log ---------------------------------------------------------------------
EVENT_FIELDS = ("game", "round", "seat", "action", "a", "b", "c", "d")
N_EVENT_FIELDS = len(EVENT_FIELDS)
(EV_ORDER, EV_CARD, EV_MISSION, EV_START, EV_DELIVER, EV_UPGRADE, EV_PASS, EV_STEP,
 EV_TAKE, EV_SCORE) = range(10)
EVENT_NAMES = ("order", "card", "mission", "start", "deliver", "upgrade", "pass", "step",
               "take", "score")

ERR_GAME, ERR_EVENTS = 0, 6     # core.contract's error slots (a test checks they agree)

# ---- result buffers ---------------------------------------------------------------------
GAME_FIELDS = ("n_players", "winner", "decisions", "lv3_cities", "upgrades", "passes")
PLAYER_FIELDS = ("vp", "rank", "won", "dev_vp", "lv3_vp", "card_vp", "mission_vp", "missions_done",
                 "missions", "cards", "deliveries", "perfect", "upgrades", "passes", "steps",
                 "city_bonus", "trucks_played", "trains_played", "ships_played", "hand_left")
