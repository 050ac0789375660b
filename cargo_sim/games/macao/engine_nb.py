"""Macao's rules as numba kernels: one place for every rule (docs/rules_macao.md).

A resumable machine: ``begin_nb`` sets a game up and runs to the first decision;
``pending_nb`` says which decision (kind, seat) the game waits for (kind -1: over);
``ok_nb`` is the engine's check of an answer and ``answer_nb`` applies it and runs
to the next decision. ``legal_nb`` lists the answers ``ok_nb`` accepts (the same
check, so the enumeration and the engine cannot disagree). The chunk kernel
(``simulate.py``) and the forward model both loop "ask, check, answer".

Chance (deck order, goods tiles, wall stack, dice) comes only from the game's own
stream ``M_RNG``, which no bot can read (core dispatch_nb.ask_nb hides it).
Every change of a seat's points or coins is written to the event log in the
``points``/``coins`` columns, so scores can be recomputed from the log.

The card effects are card_effects_nb's, the table's bookkeeping (coins, cubes, points,
the wall's order) table_nb's; their kernels are imported here under their own names,
so ``engine_nb.gain_coins_nb`` etc. still name them.
"""
import numpy as np
from ...core import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit

from ...core.layout import MARKS, MARKS_END, M_BOT_SEED, M_DECISIONS, M_RNG, R_N_PLAYERS
from ...core.rng_nb import bot_seed_nb, rand_below_at_nb
from .table_nb import (
    arg_nb, avail_nb, before_nb, card_cost_nb, cost_ok_nb, effect_sum_nb, event_nb, gain_coins_nb,
    gain_cubes_nb, markers_left_nb, names_colour_nb, off_colour_nb, off_ok_nb, order_nb, pay_coins_nb, pay_cubes_nb, pb, penalty_nb,
    quarter_cost_nb, score_nb, stack_words_nb, wall_step_nb,
)
from .card_effects_nb import (
    activate_nb, activate_ok_nb, activation_open_nb, coin_completer_nb, complete_nb,
    delivery_effects_nb, end_card_points_nb, joker_uses_nb, on_goods_nb, on_tribute_nb,
    open_options_nb,
)
from .enums import (
    ACT_BLOCK, A_ACT, A_COMPLETE, A_COMPLETE_COINS, A_COMPLETE_OFF, A_DELIVER, A_END, A_GOODS_OFF, A_GOODS, A_GOODS_COINS, A_JOKER, A_SAIL,
    A_SAIL_BACK, A_TRIBUTE, A_WALL, D_ACTION, D_CARD, D_COLOUR, D_DICE, D_DICE_EXTRA, D_DICE_SHIFT,
    D_DISCARD, EV_ACTIVATE, EV_ARRIVE, EV_CITY, EV_DELIVER, EV_DISCARD, EV_DRAFT, EV_END_CARD,
    EV_GOODS, EV_JOKER, EV_LOT, EV_MARKERS, EV_OFFER, EV_RANK, EV_ROLL, EV_SAIL, EV_START_CUBES,
    EV_TABLEAU, EV_TRIBUTE, EV_TRIGGER, EV_WALL, EV_WASTED, EV_ZERO, E_COMPLETE_DISCOUNT,
    E_DICE_COINS_PER_ONE, E_DICE_EXTRA_CUBE, E_DICE_SHIFT_SIDE, E_END_NO_TABLEAU_PENALTY,
    E_EXTRA_OFFICE_ACTIVATION, E_GOODS_DISCOUNT, E_GOODS_FOR_COINS, E_MAY_SKIP_CARD, G_ASK, G_BANK,
    G_DECK, G_DECK_TOP, G_DELIV, G_DICE, G_DISCARDED, G_GAME, G_IDX, G_LOG_CAP, G_LOT, G_NEV,
    G_N_OFFER, G_OFFER, G_OFFICES, G_OFF_TOP, G_ORDER, G_PHASE, G_PORT_DELIV, G_Q_OWNER, G_Q_TILE,
    G_ROUND, G_SEAT, G_STAMP, G_SUB, G_SUPPLY, G_TRIB_PRICE, G_TRIB_REWARD, G_WINNERS, K_CUBES_PER,
    K_C_COST, K_C_KIND, K_C_TIMING, K_C_TRIB_COINS, K_C_TRIB_POINTS, K_CHOSEN, K_DECK_BOX, K_OFF_CHOSEN, K_DECK_ROUND,
    K_DICE_SIDES, K_DP, K_GROUP_PTS, K_JOKER_COINS, K_JOKER_CUBES, K_LATE_DIE, K_LIMIT_CUBES,
    K_MARK_PEN, K_ONES_ROLLED, K_NQ, K_N_DECK, K_N_DP, K_N_GOODS, K_N_OFFICE, K_N_PORTS, K_N_START, K_OFFICE_BOX,
    K_OFFICE_ROUND, K_PASSING, K_PER_GOOD, K_PORT_GOODS, K_PORT_SPACE, K_Q_ADJ, K_Q_COST, K_Q_DARK,
    K_REMOVED, K_RETURN, K_ROSE_SIDES, K_ROUNDS, K_ROUTE_END, K_START, K_START_COINS, K_START_EXTRA,
    K_TAB_PEN, K_TAB_SPACES, K_TIE, K_TILES_PER_GOOD, K_TOTAL_COINS, K_TRIB_MAX, K_WALL_COST1,
    K_WALL_COST2, K_WALL_SPACES, K_ZERO_PEN, MAX_ADJ, MAX_DONE, MAX_GOODS, MAX_OFFER,
    MAX_Q, NC, PH_ACTIONS, PH_CARDS, PH_DICE, PH_OVER, PH_START_CUBES, PH_START_DRAFT, P_CITY,
    P_COINS, P_CUBES_IN, P_DELIV, P_DELIVERED_TILES, P_DELIV_PTS, P_DONE, P_DRAFTED, P_END_PTS,
    P_GOODS, P_GOODS_MAX, P_GOODS_N, P_GOT_COINS, P_GROUP, P_JOKERS, P_JOKERS_USED, P_JOKER_USED,
    P_MARK_PEN, P_N_DONE, P_N_REF, P_N_TAB, P_OFF_EXTRA, P_OFF_MASK, P_OVERFLOW, P_PEN_PTS, P_RANK,
    P_ROSE, P_SAILED, P_SCORED, P_SHIP, P_STAMP, P_TAB, P_TAB_LEFT, P_TRIB_MAX, P_TRIB_N,
    P_TRIB_PAID, P_TRIB_PTS, P_USED, P_VP, P_WALL, P_WALL_N, P_WASTED, P_WON, P_ZERO_PEN, RULES_END,
    SKIP_CARD, STATE_SIZE, TIE_COINS, TIE_WALL, T_END,
)


# ---- the ship ----------------------------------------------------------------------------
@njit(cache=True)
def port_here_nb(s, q):
    """The port at the seat's ship's space, or -1."""
    space = s[pb(q) + P_SHIP]
    port = -1
    for i in range(s[K_N_PORTS]):
        if s[K_PORT_SPACE + i] == space:
            port = i
    return port


@njit(cache=True)
def deliver_one_nb(s, q, port, g, log):
    """One goods tile of good g delivered at ``port`` (which takes it)."""
    b = pb(q)
    k = s[G_DELIV + port * MAX_GOODS + g] if s[K_PER_GOOD] else s[G_PORT_DELIV + port]
    pts = s[K_DP + k] if k < s[K_N_DP] else 0
    s[G_DELIV + port * MAX_GOODS + g] += 1
    s[G_PORT_DELIV + port] += 1
    s[b + P_GOODS + g] -= 1
    s[b + P_DELIVERED_TILES] += 1
    pts, coins = delivery_effects_nb(s, q, g, pts)
    score_nb(s, q, pts)
    s[b + P_DELIV] += 1
    s[b + P_DELIV_PTS] += pts
    event_nb(s, log, q, EV_DELIVER, port, g, k, pts, coins)


@njit(cache=True)
def deliver_nb(s, q, log):
    """The ship is at a port: deliver every goods tile the port takes (deliveries "all")."""
    b = pb(q)
    port = port_here_nb(s, q)
    if port < 0:
        return
    for g in range(s[K_N_GOODS]):
        if s[K_PORT_GOODS + port * MAX_GOODS + g] == 0:
            continue
        while s[b + P_GOODS + g] > 0:
            deliver_one_nb(s, q, port, g, log)


@njit(cache=True)
def deliver_ok_nb(s, q, g):
    """A_DELIVER + g (deliveries "chosen"): the ship is at a port that takes good g and the
    seat holds a tile of it."""
    if not s[K_CHOSEN] or g >= s[K_N_GOODS] or s[pb(q) + P_GOODS + g] < 1:
        return False
    port = port_here_nb(s, q)
    return port >= 0 and s[K_PORT_GOODS + port * MAX_GOODS + g] != 0


@njit(cache=True)
def sail_nb(s, q, spaces, direction, log):
    """Move the ship; deliver at the last space, and at ports passed if deliver_passing
    (deliveries "all"; "chosen": the seat's answers deliver where the ship is)."""
    b = pb(q)
    for i in range(spaces):
        s[b + P_SHIP] += direction
        s[b + P_SAILED] += 1
        if (i == spaces - 1 or s[K_PASSING]) and not s[K_CHOSEN]:
            deliver_nb(s, q, log)


@njit(cache=True)
def take_card_nb(s, q, card):
    b = pb(q)
    s[b + P_TAB + s[b + P_N_TAB]] = card
    s[b + P_N_TAB] += 1
    s[b + P_DRAFTED] += 1


# ---- setup ------------------------------------------------------------------------------
@njit(cache=True)
def shuffle_nb(s, at, n):
    for i in range(n - 1, 0, -1):
        j = rand_below_at_nb(s, M_RNG, i + 1)
        t = s[at + i]
        s[at + i] = s[at + j]
        s[at + j] = t


@njit(cache=True)
def begin_nb(s, seed, game, log, n_events, log_rows):
    """Set up game ``game`` (index in its chunk) from its seed and run to the first decision.
    ``s`` holds the rules and the table (its rules part is never written); event rows
    are written from row ``n_events`` of ``log`` on."""
    for i in range(MARKS, MARKS_END):
        s[i] = 0
    for i in range(RULES_END, STATE_SIZE):
        s[i] = 0
    s[M_RNG] = np.int64(seed)
    s[M_BOT_SEED] = bot_seed_nb(np.int64(seed))
    s[G_GAME] = game
    s[G_NEV] = n_events
    s[G_LOG_CAP] = log_rows
    n = s[R_N_PLAYERS]
    s[G_BANK] = s[K_TOTAL_COINS]
    for i in range(MAX_OFFER):
        s[G_OFFER + i] = -1
    for c in range(NC):
        s[G_SUPPLY + c] = s[K_CUBES_PER]
    for i in range(s[K_N_DECK]):
        s[G_DECK + i] = s[K_DECK_BOX + i]
    shuffle_nb(s, G_DECK, s[K_N_DECK])
    for i in range(s[K_N_OFFICE]):
        s[G_OFFICES + i] = s[K_OFFICE_BOX + i]
    shuffle_nb(s, G_OFFICES, s[K_N_OFFICE])
    # goods tiles at random on the light quarters, jokers on the dark ones
    k = 0
    for quarter in range(s[K_NQ]):
        s[G_Q_OWNER + quarter] = -1
        if s[K_Q_DARK + quarter]:
            s[G_Q_TILE + quarter] = -1
        else:
            s[G_Q_TILE + quarter] = k // s[K_TILES_PER_GOOD]
            k += 1
    light = np.empty(MAX_Q, np.int64)
    m = 0
    for quarter in range(s[K_NQ]):
        if not s[K_Q_DARK + quarter]:
            light[m] = quarter
            m += 1
    for i in range(m - 1, 0, -1):
        j = rand_below_at_nb(s, M_RNG, i + 1)
        t = s[G_Q_TILE + light[i]]
        s[G_Q_TILE + light[i]] = s[G_Q_TILE + light[j]]
        s[G_Q_TILE + light[j]] = t
    # wall discs stacked on space 0 in random order
    for q in range(n):
        s[pb(q) + P_STAMP] = q + 1
    for i in range(n - 1, 0, -1):
        j = rand_below_at_nb(s, M_RNG, i + 1)
        t = s[pb(i) + P_STAMP]
        s[pb(i) + P_STAMP] = s[pb(j) + P_STAMP]
        s[pb(j) + P_STAMP] = t
    s[G_STAMP] = n
    for q in range(n):
        for t in range(8):
            s[pb(q) + P_TAB + t] = -1
        gain_coins_nb(s, q, s[K_START_COINS])
        s[pb(q) + P_GOT_COINS] = 0
    order_nb(s)
    s[G_PHASE] = PH_START_CUBES
    s[G_IDX] = 0
    s[G_SUB] = 0
    advance_nb(s, log)


@njit(cache=True)
def reveal_nb(s, n_cards, log):
    """n_cards from the deck into the offer (fewer if the deck runs out)."""
    for _ in range(n_cards):
        if s[G_DECK_TOP] >= s[K_N_DECK] or s[G_N_OFFER] >= MAX_OFFER:
            break
        card = s[G_DECK + s[G_DECK_TOP]]
        s[G_DECK_TOP] += 1
        s[G_OFFER + s[G_N_OFFER]] = card
        s[G_N_OFFER] += 1


@njit(cache=True)
def clear_offer_nb(s):
    for i in range(s[G_N_OFFER]):
        if s[G_OFFER + i] >= 0:
            s[G_DISCARDED] += 1
        s[G_OFFER + i] = -1
    s[G_N_OFFER] = 0


@njit(cache=True)
def begin_round_nb(s, log):
    s[G_ROUND] += 1
    n = s[R_N_PLAYERS]
    order_nb(s)
    for q in range(n):
        b = pb(q)
        s[b + P_TRIB_N], s[b + P_TRIB_MAX], s[b + P_GOODS_N], s[b + P_GOODS_MAX] = 0, 1, 0, 1
        s[b + P_WALL_N], s[b + P_SAILED], s[b + P_GOT_COINS], s[b + P_SCORED] = 0, 0, 0, 0
        s[b + P_OFF_MASK], s[b + P_N_REF] = 0, 0
        extra = effect_sum_nb(s, q, E_EXTRA_OFFICE_ACTIVATION, -1, 0, 0)
        for c in range(NC):
            s[b + P_OFF_EXTRA + c] = extra
        for i in range(s[b + P_N_DONE]):
            s[b + P_USED + i] = 0
    # phase 1: the round's offices and deck cards; all count for the tribute
    for _ in range(s[K_OFFICE_ROUND]):
        if s[G_OFF_TOP] < s[K_N_OFFICE] and s[G_N_OFFER] < MAX_OFFER:
            s[G_OFFER + s[G_N_OFFER]] = s[G_OFFICES + s[G_OFF_TOP]]
            s[G_OFF_TOP] += 1
            s[G_N_OFFER] += 1
    reveal_nb(s, s[K_DECK_ROUND], log)
    price, reward = 0, 0
    for i in range(s[G_N_OFFER]):
        price += s[K_C_TRIB_COINS + s[G_OFFER + i]]
        reward += s[K_C_TRIB_POINTS + s[G_OFFER + i]]
    s[G_TRIB_PRICE] = min(price, s[K_TRIB_MAX])     # the tribute track ends at tribute_track_max
    s[G_TRIB_REWARD] = min(reward, s[K_TRIB_MAX])
    for _ in range(s[K_REMOVED]):           # the last revealed go (fewer players)
        if s[G_N_OFFER] > 0:
            s[G_N_OFFER] -= 1
            s[G_DISCARDED] += 1
            s[G_OFFER + s[G_N_OFFER]] = -1
    for i in range(s[G_N_OFFER]):               # the tribute as paid: capped
        event_nb(s, log, -1, EV_OFFER, s[G_OFFER + i], s[G_TRIB_PRICE], s[G_TRIB_REWARD], 0, 0)
    s[G_PHASE], s[G_IDX], s[G_SUB] = PH_CARDS, 0, 0


@njit(cache=True)
def roll_nb(s, log):
    packed = 0
    for c in range(NC):
        s[G_DICE + c] = 1 + rand_below_at_nb(s, M_RNG, s[K_DICE_SIDES])
        packed = packed * 16 + s[G_DICE + c]
    event_nb(s, log, -1, EV_ROLL, packed, 0, 0, 0, 0)


@njit(cache=True)
def rotate_nb(s, log):
    """Every rose turns one side: side 1's cubes reach the arrow (this round's cubes)."""
    n = s[R_N_PLAYERS]
    for q in range(n):
        b = pb(q) + P_ROSE
        got = 0
        for side in range(s[K_ROSE_SIDES]):
            for c in range(NC):
                s[b + side * NC + c] += s[b + (side + 1) * NC + c]
                s[b + (side + 1) * NC + c] = 0
        for c in range(NC):
            got += s[b + c]
        event_nb(s, log, q, EV_ARRIVE, got, 0, 0, 0, 0)
        if got == 0 and s[K_ZERO_PEN]:
            penalty_nb(s, q)
            s[pb(q) + P_ZERO_PEN] += 1
            event_nb(s, log, q, EV_ZERO, 0, 0, 0, 0, 0)


@njit(cache=True)
def end_round_nb(s, log):
    """Cubes not spent are lost."""
    for q in range(s[R_N_PLAYERS]):
        lost = 0
        for c in range(NC):
            k = s[pb(q) + P_ROSE + c]
            if k > 0:
                s[G_SUPPLY + c] += k
                s[pb(q) + P_ROSE + c] = 0
                lost += k
        if lost > 0:
            s[pb(q) + P_WASTED] += lost
            event_nb(s, log, q, EV_WASTED, lost, 0, 0, 0, 0)


@njit(cache=True)
def place_lots_nb(s, q, log):
    """The chosen dice's cubes onto the rose (G_LOT: colour, side, cubes per lot)."""
    for lot in range(2):
        c, side, cubes = s[G_LOT + lot * 3], s[G_LOT + lot * 3 + 1], s[G_LOT + lot * 3 + 2]
        if s[K_LIMIT_CUBES] and cubes > s[G_SUPPLY + c]:
            cubes = s[G_SUPPLY + c]
        s[G_SUPPLY + c] -= cubes
        s[pb(q) + P_ROSE + side * NC + c] += cubes
        s[pb(q) + P_CUBES_IN] += cubes
        event_nb(s, log, q, EV_LOT, c, side, cubes, 0, 0)


# ---- the machine: run to the next decision -----------------------------------------------
@njit(cache=True)
def ask_nb_(s, kind, seat):
    s[G_ASK] = kind
    s[G_SEAT] = seat


@njit(cache=True)
def advance_nb(s, log):
    n = s[R_N_PLAYERS]
    while True:
        ph = s[G_PHASE]
        if ph == PH_START_CUBES:
            while s[G_IDX] < n and (s[G_SUB] >= s[K_N_START] or s[K_START + s[G_SUB]] == 0):
                if s[G_SUB] >= s[K_N_START]:
                    s[G_IDX] += 1
                    s[G_SUB] = 0
                else:
                    s[G_SUB] += 1
            if s[G_IDX] < n:
                ask_nb_(s, D_COLOUR, s[G_ORDER + s[G_IDX]])
                return
            s[G_PHASE], s[G_IDX] = PH_START_DRAFT, 0
            reveal_nb(s, n + s[K_START_EXTRA], log)
        elif ph == PH_START_DRAFT:
            if s[G_IDX] < n:
                ask_nb_(s, D_CARD, s[G_ORDER + n - 1 - s[G_IDX]])      # reverse turn order
                return
            clear_offer_nb(s)
            begin_round_nb(s, log)
        elif ph == PH_CARDS:
            if s[G_IDX] < n:
                ask_nb_(s, D_DISCARD if s[G_SUB] == 1 else D_CARD, s[G_ORDER + s[G_IDX]])
                return
            clear_offer_nb(s)
            roll_nb(s, log)
            s[G_PHASE], s[G_IDX], s[G_SUB] = PH_DICE, 0, 0
        elif ph == PH_DICE:
            if s[G_IDX] < n:
                kind = D_DICE if s[G_SUB] == 0 else (D_DICE_EXTRA if s[G_SUB] == 1 else D_DICE_SHIFT)
                ask_nb_(s, kind, s[G_ORDER + s[G_IDX]])
                return
            rotate_nb(s, log)
            s[G_PHASE], s[G_IDX], s[G_SUB] = PH_ACTIONS, 0, 0
        elif ph == PH_ACTIONS:
            if s[G_IDX] < n:
                ask_nb_(s, D_ACTION, s[G_ORDER + s[G_IDX]])
                return
            end_round_nb(s, log)
            if s[G_ROUND] >= s[K_ROUNDS]:
                final_nb(s, log)
                s[G_PHASE] = PH_OVER
            else:
                begin_round_nb(s, log)
        else:
            s[G_ASK], s[G_SEAT] = -1, -1
            return


@njit(cache=True)
def pending_nb(s):
    """(decision kind, seat) the game waits for; kind -1 when it is over."""
    return s[G_ASK], s[G_SEAT]


# ---- checking and applying answers -----------------------------------------------------
@njit(cache=True)
def lot_side_ok_nb(s, side):
    return 1 <= side <= s[K_ROSE_SIDES] and s[G_ROUND] + side - 1 <= s[K_ROUNDS]


@njit(cache=True)
def ok_nb(s, a):
    """Is ``a`` a legal answer to the pending decision? (The engine's one check.)"""
    kind, q = s[G_ASK], s[G_SEAT]
    if kind < 0:
        return False
    b = pb(q)
    if kind == D_COLOUR:
        return 0 <= a < NC
    if kind == D_CARD:
        if a == SKIP_CARD:
            return s[G_PHASE] == PH_CARDS and effect_sum_nb(s, q, E_MAY_SKIP_CARD, -1, 0, -1) > 0
        return 0 <= a < s[G_N_OFFER] and s[G_OFFER + a] >= 0
    if kind == D_DISCARD:
        return 0 <= a < s[b + P_N_TAB]
    if kind == D_DICE:
        i, j = a // NC, a % NC
        return 0 <= a < NC * NC and i < j
    if kind == D_DICE_EXTRA:
        return a == 0 or a == 1
    if kind == D_DICE_SHIFT:
        lot, shift = a // 16, a % 16 - 8
        k = effect_sum_nb(s, q, E_DICE_SHIFT_SIDE, -1, 0, 0)
        if not (0 <= a < 32) or shift < -k or shift > k:
            return False
        if shift == 0:
            return lot == 0
        side = s[G_LOT + lot * 3 + 1] + shift
        if side == 1 and s[G_LOT + lot * 3 + 2] >= s[K_DICE_SIDES]:
            return False                    # never a full die's cubes on side 1
        return lot_side_ok_nb(s, side)
    return action_ok_nb(s, q, a)


@njit(cache=True)
def action_ok_nb(s, q, a):
    b = pb(q)
    if a == A_END:
        return True
    if a == A_TRIBUTE:
        return s[b + P_TRIB_N] < s[b + P_TRIB_MAX] and s[b + P_COINS] >= s[G_TRIB_PRICE]
    if A_WALL <= a < A_WALL + NC * NC:
        x, y = (a - A_WALL) // NC, (a - A_WALL) % NC
        if s[b + P_WALL] >= s[K_WALL_SPACES] - 1 or x > y:
            return False
        cost = s[K_WALL_COST1] if s[b + P_WALL_N] == 0 else s[K_WALL_COST2]
        if cost == 0:
            return x == 0 and y == 0
        if cost == 1:
            return x == y and avail_nb(s, q, x) >= 1
        if x == y:
            return avail_nb(s, q, x) >= 2
        return avail_nb(s, q, x) >= 1 and avail_nb(s, q, y) >= 1
    if A_SAIL <= a < A_SAIL + NC:
        return s[b + P_SHIP] < s[K_ROUTE_END] and avail_nb(s, q, a - A_SAIL) >= 1
    if A_SAIL_BACK <= a < A_SAIL_BACK + NC:
        return s[K_RETURN] != 0 and s[b + P_SHIP] > 0 and avail_nb(s, q, a - A_SAIL_BACK) >= 1
    if A_JOKER <= a <= A_JOKER + NC:
        return s[b + P_JOKERS] > 0
    if A_DELIVER <= a < A_DELIVER + MAX_GOODS:
        return deliver_ok_nb(s, q, a - A_DELIVER)
    if A_GOODS <= a < A_GOODS + s[K_NQ] or A_GOODS_COINS <= a < A_GOODS_COINS + s[K_NQ]:
        by_coins = a >= A_GOODS_COINS
        quarter = a - (A_GOODS_COINS if by_coins else A_GOODS)
        if s[G_Q_OWNER + quarter] >= 0 or s[b + P_GOODS_N] >= s[b + P_GOODS_MAX] or markers_left_nb(s, q) <= 0:
            return False
        if by_coins:
            price = effect_sum_nb(s, q, E_GOODS_FOR_COINS, -1, 0, 0)
            return effect_sum_nb(s, q, E_GOODS_FOR_COINS, -1, 0, -1) > 0 and s[b + P_COINS] >= price
        disc = effect_sum_nb(s, q, E_GOODS_DISCOUNT, -1, 0, 0)
        at = K_Q_COST + quarter * NC
        return not names_colour_nb(s, at, disc) and cost_ok_nb(s, q, at, disc)
    if A_COMPLETE <= a < A_COMPLETE + s[b + P_N_TAB]:
        card = s[b + P_TAB + a - A_COMPLETE]
        disc = effect_sum_nb(s, q, E_COMPLETE_DISCOUNT, 0, s[K_C_KIND + card], 1)
        return s[b + P_N_DONE] < MAX_DONE and not names_colour_nb(s, K_C_COST + card * NC, disc) and cost_ok_nb(
            s, q, K_C_COST + card * NC, disc)
    if A_COMPLETE_OFF <= a < A_COMPLETE_OFF + s[b + P_N_TAB] * NC:
        card = s[b + P_TAB + (a - A_COMPLETE_OFF) // NC]
        return s[b + P_N_DONE] < MAX_DONE and off_ok_nb(
            s, q, K_C_COST + card * NC, effect_sum_nb(s, q, E_COMPLETE_DISCOUNT, 0, s[K_C_KIND + card], 1),
            (a - A_COMPLETE_OFF) % NC)
    if A_GOODS_OFF <= a < A_GOODS_OFF + s[K_NQ] * NC:
        quarter = (a - A_GOODS_OFF) // NC
        if s[G_Q_OWNER + quarter] >= 0 or s[b + P_GOODS_N] >= s[b + P_GOODS_MAX] or markers_left_nb(s, q) <= 0:
            return False
        return off_ok_nb(s, q, K_Q_COST + quarter * NC, effect_sum_nb(s, q, E_GOODS_DISCOUNT, -1, 0, 0),
                         (a - A_GOODS_OFF) % NC)
    if A_COMPLETE_COINS <= a < A_COMPLETE_COINS + s[b + P_N_TAB]:
        return s[b + P_N_DONE] < MAX_DONE and coin_completer_nb(s, q) >= 0
    if a >= A_ACT:
        i, x = (a - A_ACT) // ACT_BLOCK, (a - A_ACT) % ACT_BLOCK
        return i < s[b + P_N_DONE] and activate_ok_nb(s, q, i, x)
    return False


@njit(cache=True)
def answer_nb(s, a, log):
    """Apply a legal answer (``ok_nb`` said so) and run to the next decision."""
    kind, q = s[G_ASK], s[G_SEAT]
    b = pb(q)
    s[M_DECISIONS] += 1
    if kind == D_COLOUR:
        side = s[G_SUB] + 1
        k = s[K_START + s[G_SUB]]
        if s[K_LIMIT_CUBES] and k > s[G_SUPPLY + a]:
            k = s[G_SUPPLY + a]
        s[G_SUPPLY + a] -= k
        s[b + P_ROSE + side * NC + a] += k
        s[b + P_CUBES_IN] += k
        event_nb(s, log, q, EV_START_CUBES, a, side, k, 0, 0)
        s[G_SUB] += 1
    elif kind == D_CARD:
        if a == SKIP_CARD:
            event_nb(s, log, q, EV_DRAFT, -1, -1, 0, 0, 0)
            s[G_IDX] += 1
        else:
            card = s[G_OFFER + a]
            s[G_OFFER + a] = -1
            take_card_nb(s, q, card)
            event_nb(s, log, q, EV_DRAFT, card, a, 0, 0, 0)
            if s[b + P_N_TAB] > s[K_TAB_SPACES]:
                s[G_SUB] = 1
            else:
                s[G_IDX] += 1
    elif kind == D_DISCARD:
        card = s[b + P_TAB + a]
        for t in range(a, s[b + P_N_TAB] - 1):
            s[b + P_TAB + t] = s[b + P_TAB + t + 1]
        s[b + P_N_TAB] -= 1
        s[b + P_TAB + s[b + P_N_TAB]] = -1
        s[G_DISCARDED] += 1
        penalty_nb(s, q)
        s[b + P_OVERFLOW] += 1
        event_nb(s, log, q, EV_DISCARD, card, a, 0, 0, 0)
        s[G_SUB] = 0
        s[G_IDX] += 1
    elif kind == D_DICE:
        ones = 0
        for lot in range(2):
            die = a // NC if lot == 0 else a % NC
            v = s[G_DICE + die]
            if v == 1 and s[K_ONES_ROLLED]:
                ones += 1
            if s[G_ROUND] + v - 1 > s[K_ROUNDS]:
                v = s[K_LATE_DIE]           # no cubes beyond the last round
            if v == 1 and not s[K_ONES_ROLLED]:
                ones += 1                   # the die as it shows (a late die turned to 1)
            s[G_LOT + lot * 3], s[G_LOT + lot * 3 + 1], s[G_LOT + lot * 3 + 2] = die, v, v
        per_one = effect_sum_nb(s, q, E_DICE_COINS_PER_ONE, -1, 0, 0)
        if ones > 0 and per_one > 0:
            got = gain_coins_nb(s, q, ones * per_one)
            event_nb(s, log, q, EV_TRIGGER, -1, E_DICE_COINS_PER_ONE, ones, 0, got)
        dice_next_nb(s, q, 0, log)
    elif kind == D_DICE_EXTRA:
        s[G_LOT + a * 3 + 2] += effect_sum_nb(s, q, E_DICE_EXTRA_CUBE, -1, 0, 0)
        dice_next_nb(s, q, 1, log)
    elif kind == D_DICE_SHIFT:
        lot, shift = a // 16, a % 16 - 8
        s[G_LOT + lot * 3 + 1] += shift
        dice_next_nb(s, q, 2, log)
    else:
        if a == A_END:
            s[G_IDX] += 1
        else:
            act_nb(s, q, a, log)
    advance_nb(s, log)


@njit(cache=True)
def dice_next_nb(s, q, done, log):
    """After a dice sub-decision: the next one the seat's cards give, or place the cubes."""
    if done < 1 and effect_sum_nb(s, q, E_DICE_EXTRA_CUBE, -1, 0, 0) > 0:
        s[G_SUB] = 1
        return
    if done < 2 and effect_sum_nb(s, q, E_DICE_SHIFT_SIDE, -1, 0, 0) > 0:
        s[G_SUB] = 2
        return
    place_lots_nb(s, q, log)
    s[G_SUB] = 0
    s[G_IDX] += 1


@njit(cache=True)
def act_nb(s, q, a, log):
    """One phase-3 action (legal)."""
    b = pb(q)
    if a == A_TRIBUTE:
        price, reward = s[G_TRIB_PRICE], s[G_TRIB_REWARD]
        pay_coins_nb(s, q, price)
        score_nb(s, q, reward)
        s[b + P_TRIB_N] += 1
        s[b + P_TRIB_PAID] += 1
        s[b + P_TRIB_PTS] += reward
        event_nb(s, log, q, EV_TRIBUTE, price, reward, 0, reward, -price)
        on_tribute_nb(s, q, log)
    elif A_WALL <= a < A_WALL + NC * NC:
        x, y = (a - A_WALL) // NC, (a - A_WALL) % NC
        cost = s[K_WALL_COST1] if s[b + P_WALL_N] == 0 else s[K_WALL_COST2]
        if cost >= 1:
            pay_cubes_nb(s, q, y, 1)
        if cost >= 2:
            pay_cubes_nb(s, q, x, 1)
        s[b + P_WALL_N] += 1
        wall_step_nb(s, q, log)
        event_nb(s, log, q, EV_WALL, s[b + P_WALL], cost, 0, 0, 0)
    elif A_SAIL <= a < A_SAIL + NC or A_SAIL_BACK <= a < A_SAIL_BACK + NC:
        back = a >= A_SAIL_BACK
        pay_cubes_nb(s, q, a - (A_SAIL_BACK if back else A_SAIL), 1)
        event_nb(s, log, q, EV_SAIL, s[b + P_SHIP] + (-1 if back else 1), 1, 0, 0, 0)
        sail_nb(s, q, 1, -1 if back else 1, log)
    elif A_JOKER <= a <= A_JOKER + NC:
        got = 0
        if a < A_JOKER + NC:
            gain_cubes_nb(s, q, a - A_JOKER, s[K_JOKER_CUBES])
        else:
            got = gain_coins_nb(s, q, s[K_JOKER_COINS])
        s[b + P_JOKER_USED] += 1
        s[b + P_JOKERS_USED] += 1
        if s[b + P_JOKER_USED] >= joker_uses_nb(s, q):
            s[b + P_JOKERS] -= 1
            s[b + P_JOKER_USED] = 0
        event_nb(s, log, q, EV_JOKER, a - A_JOKER, 0, 0, 0, got)
    elif A_DELIVER <= a < A_DELIVER + MAX_GOODS:
        deliver_one_nb(s, q, port_here_nb(s, q), a - A_DELIVER, log)
    elif A_GOODS <= a < A_GOODS + MAX_Q or A_GOODS_COINS <= a < A_GOODS_COINS + MAX_Q \
            or A_GOODS_OFF <= a < A_GOODS_OFF + MAX_Q * NC:
        by_coins = A_GOODS_COINS <= a < A_GOODS_COINS + MAX_Q
        quarter = a - (A_GOODS_COINS if by_coins else A_GOODS)
        paid = 0
        if by_coins:
            paid = effect_sum_nb(s, q, E_GOODS_FOR_COINS, -1, 0, 0)
            pay_coins_nb(s, q, paid)
        else:
            cost = stack_words_nb(NC)
            if a >= A_GOODS_OFF:
                quarter = (a - A_GOODS_OFF) // NC
                for c in range(NC):
                    cost[c] = s[K_Q_COST + quarter * NC + c]
                off_colour_nb(cost, effect_sum_nb(s, q, E_GOODS_DISCOUNT, -1, 0, 0), (a - A_GOODS_OFF) % NC)
            else:
                quarter_cost_nb(s, q, quarter, cost)
            for c in range(NC):
                if cost[c] > 0:
                    pay_cubes_nb(s, q, c, cost[c])
        s[G_Q_OWNER + quarter] = q
        s[b + P_CITY] += 1
        s[b + P_GOODS_N] += 1
        tile = s[G_Q_TILE + quarter]
        if tile >= 0:
            s[b + P_GOODS + tile] += 1
        else:
            s[b + P_JOKERS] += 1
        event_nb(s, log, q, EV_GOODS, quarter, tile, 0, 0, -paid)
        on_goods_nb(s, q, log)
    elif A_COMPLETE <= a < A_COMPLETE + 8 or A_COMPLETE_OFF <= a < A_COMPLETE_OFF + 8 * NC:
        cost = stack_words_nb(NC)
        slot = a - A_COMPLETE
        if a >= A_COMPLETE_OFF:
            slot = (a - A_COMPLETE_OFF) // NC
            card = s[b + P_TAB + slot]
            for c in range(NC):
                cost[c] = s[K_C_COST + card * NC + c]
            off_colour_nb(cost, effect_sum_nb(s, q, E_COMPLETE_DISCOUNT, 0, s[K_C_KIND + card], 1),
                          (a - A_COMPLETE_OFF) % NC)
        else:
            card_cost_nb(s, q, s[b + P_TAB + slot], cost)
        for c in range(NC):
            if cost[c] > 0:
                pay_cubes_nb(s, q, c, cost[c])
        complete_nb(s, q, slot, cost, log)
    elif A_COMPLETE_COINS <= a < A_COMPLETE_COINS + 8:
        i = coin_completer_nb(s, q)
        graf = s[b + P_DONE + i]
        price = arg_nb(s, graf, 0)
        pay_coins_nb(s, q, price)
        s[b + P_USED + i] += 1
        event_nb(s, log, q, EV_ACTIVATE, graf, a - A_COMPLETE_COINS, 0, 0, -price)
        zero = stack_words_nb(NC)
        for c in range(NC):
            zero[c] = 0
        complete_nb(s, q, a - A_COMPLETE_COINS, zero, log)
    else:
        i, x = (a - A_ACT) // ACT_BLOCK, (a - A_ACT) % ACT_BLOCK
        spaces = activate_nb(s, q, i, x, log)
        if spaces > 0:                      # a card that sails (its event is written)
            sail_nb(s, q, spaces, 1, log)


# ---- the end ---------------------------------------------------------------------------
@njit(cache=True)
def largest_group_nb(s, q):
    """Quarters in the seat's largest connected group of markers."""
    nq = s[K_NQ]
    seen = np.zeros(MAX_Q, np.int64)
    stack = np.empty(MAX_Q, np.int64)
    best = 0
    for start in range(nq):
        if seen[start] or s[G_Q_OWNER + start] != q:
            continue
        size, top = 0, 0
        seen[start] = 1
        stack[0] = start
        top = 1
        while top > 0:
            top -= 1
            v = stack[top]
            size += 1
            for k in range(MAX_ADJ):
                w = s[K_Q_ADJ + v * MAX_ADJ + k]
                if w >= 0 and not seen[w] and s[G_Q_OWNER + w] == q:
                    seen[w] = 1
                    stack[top] = w
                    top += 1
        if size > best:
            best = size
    return best


@njit(cache=True)
def final_nb(s, log):
    """End scoring: the largest group, cards left on the tableau, penalty markers, end cards;
    then ranks with the tie-break."""
    n = s[R_N_PLAYERS]
    for q in range(n):
        b = pb(q)
        g = largest_group_nb(s, q)
        s[b + P_GROUP] = g
        score_nb(s, q, g * s[K_GROUP_PTS])
        event_nb(s, log, q, EV_CITY, g, s[b + P_CITY], 0, g * s[K_GROUP_PTS], 0)
        left = s[b + P_N_TAB]
        s[b + P_TAB_LEFT] = left
        if left > 0 and effect_sum_nb(s, q, E_END_NO_TABLEAU_PENALTY, -1, 0, -1) == 0:
            pen = left * s[K_TAB_PEN]
            s[b + P_VP] -= pen
            s[b + P_PEN_PTS] += pen
            event_nb(s, log, q, EV_TABLEAU, left, 0, 0, -pen, 0)
        if s[b + P_MARK_PEN] > 0:
            pen = s[b + P_MARK_PEN] * s[K_MARK_PEN]
            s[b + P_VP] -= pen
            s[b + P_PEN_PTS] += pen
            event_nb(s, log, q, EV_MARKERS, s[b + P_MARK_PEN], 0, 0, -pen, 0)
        for i in range(s[b + P_N_DONE]):
            card = s[b + P_DONE + i]
            if s[K_C_TIMING + card] == T_END:
                pts = end_card_points_nb(s, q, i)
                s[b + P_VP] += pts
                s[b + P_END_PTS] += pts
                event_nb(s, log, q, EV_END_CARD, card, 0, 0, pts, 0)
    # ranks: points, then the tie-break (wall: ahead on the wall; coins: more coins)
    winners = 0
    for q in range(n):
        rank = 1
        for o in range(n):
            if o != q and beats_nb(s, o, q):
                rank += 1
        s[pb(q) + P_RANK] = rank
        s[pb(q) + P_WON] = 1 if rank == 1 else 0
        winners += s[pb(q) + P_WON]
        event_nb(s, log, q, EV_RANK, rank, s[pb(q) + P_VP], 0, 0, 0)
    s[G_WINNERS] = winners


@njit(cache=True)
def beats_nb(s, o, q):
    """Seat o ranks ahead of seat q."""
    vo, vq = s[pb(o) + P_VP], s[pb(q) + P_VP]
    if vo != vq:
        return vo > vq
    if s[K_TIE] == TIE_WALL:
        return before_nb(s, o, q)
    if s[K_TIE] == TIE_COINS:
        return s[pb(o) + P_COINS] > s[pb(q) + P_COINS]
    return False


# ---- the legal answers ------------------------------------------------------------------
@njit(cache=True)
def legal_nb(s, out):
    """Every answer ``ok_nb`` accepts for the pending decision, in increasing order, into
    ``out`` (at least enums.MAX_LEGAL long); returns how many."""
    kind, q = s[G_ASK], s[G_SEAT]
    n = 0
    if kind < 0:
        return 0
    if kind == D_COLOUR:
        for c in range(NC):
            out[n] = c
            n += 1
        return n
    if kind == D_CARD:
        for i in range(s[G_N_OFFER]):
            if s[G_OFFER + i] >= 0:
                out[n] = i
                n += 1
        if ok_nb(s, SKIP_CARD):
            out[n] = SKIP_CARD
            n += 1
        return n
    if kind == D_DISCARD:
        for i in range(s[pb(q) + P_N_TAB]):
            out[n] = i
            n += 1
        return n
    if kind == D_DICE:
        for i in range(NC):
            for j in range(i + 1, NC):
                out[n] = i * NC + j
                n += 1
        return n
    if kind == D_DICE_EXTRA:
        out[0], out[1] = 0, 1
        return 2
    if kind == D_DICE_SHIFT:
        for a in range(32):
            if ok_nb(s, a):
                out[n] = a
                n += 1
        return n
    return legal_actions_nb(s, q, out)


@njit(cache=True, inline="always")
def wall_pair_ok_nb(s, q, cost, x, y, ax):
    """Can the seat pay a wall step of ``cost`` (1 or 2) cubes of colours x <= y (one
    cube: x == y), holding ``ax`` >= 1 cubes of colour x?"""
    if cost == 1:
        return x == y
    if x == y:
        return ax >= 2
    return avail_nb(s, q, y) >= 1


@njit(cache=True)
def legal_actions_nb(s, q, out):
    """Phase 3's legal answers in increasing order: action_ok_nb's checks written out
    per kind of action, each kind's shared part once (the random bot and the heuristic
    list these at every action; docs/performance.md, Macao)."""
    b = pb(q)
    out[0] = A_END
    n = 1
    if action_ok_nb(s, q, A_TRIBUTE):
        out[n] = A_TRIBUTE
        n += 1
    if s[b + P_WALL] < s[K_WALL_SPACES] - 1:
        cost = s[K_WALL_COST1] if s[b + P_WALL_N] == 0 else s[K_WALL_COST2]
        if cost == 0:
            out[n] = A_WALL
            n += 1
        else:
            for x in range(NC):
                ax = avail_nb(s, q, x)
                if ax < 1:
                    continue
                for y in range(x, NC):
                    if wall_pair_ok_nb(s, q, cost, x, y, ax):
                        out[n] = A_WALL + x * NC + y
                        n += 1
    if s[b + P_SHIP] < s[K_ROUTE_END]:
        for c in range(NC):
            if avail_nb(s, q, c) >= 1:
                out[n] = A_SAIL + c
                n += 1
    if s[K_RETURN] != 0 and s[b + P_SHIP] > 0:
        for c in range(NC):
            if avail_nb(s, q, c) >= 1:
                out[n] = A_SAIL_BACK + c
                n += 1
    if s[b + P_JOKERS] > 0:
        for a in range(A_JOKER, A_JOKER + NC + 1):
            out[n] = a
            n += 1
    if s[K_CHOSEN]:
        for g in range(s[K_N_GOODS]):
            if deliver_ok_nb(s, q, g):
                out[n] = A_DELIVER + g
                n += 1
    return legal_cards_nb(s, q, out, n)


@njit(cache=True, inline="always")
def legal_cards_nb(s, q, out, n):
    """legal_actions_nb's last part, the actions that need no colour choice: goods tiles,
    completing and activating cards, into out[n:]; returns the new count (the heuristic
    lists the colour choices its own way: bots/greedy_nb.tries_nb). Inlined: the random
    bot's listing compiles as one function, as before the split."""
    b = pb(q)
    goods = s[b + P_GOODS_N] < s[b + P_GOODS_MAX] and markers_left_nb(s, q) > 0
    disc = effect_sum_nb(s, q, E_GOODS_DISCOUNT, -1, 0, 0) if goods else 0
    if goods:
        for quarter in range(s[K_NQ]):
            at = K_Q_COST + quarter * NC
            if s[G_Q_OWNER + quarter] < 0 and not names_colour_nb(s, at, disc) and cost_ok_nb(s, q, at, disc):
                out[n] = A_GOODS + quarter
                n += 1
        if effect_sum_nb(s, q, E_GOODS_FOR_COINS, -1, 0, -1) > 0:
            for quarter in range(s[K_NQ]):
                if action_ok_nb(s, q, A_GOODS_COINS + quarter):
                    out[n] = A_GOODS_COINS + quarter
                    n += 1
    if s[b + P_N_DONE] < MAX_DONE:
        for t in range(s[b + P_N_TAB]):
            card = s[b + P_TAB + t]
            d = effect_sum_nb(s, q, E_COMPLETE_DISCOUNT, 0, s[K_C_KIND + card], 1)
            if not names_colour_nb(s, K_C_COST + card * NC, d) and cost_ok_nb(s, q, K_C_COST + card * NC, d):
                out[n] = A_COMPLETE + t
                n += 1
        if coin_completer_nb(s, q) >= 0:
            for t in range(s[b + P_N_TAB]):
                out[n] = A_COMPLETE_COINS + t
                n += 1
        if s[K_OFF_CHOSEN] and effect_sum_nb(s, q, E_COMPLETE_DISCOUNT, -1, 0, -1) > 0:
            for t in range(s[b + P_N_TAB]):
                card = s[b + P_TAB + t]
                d = effect_sum_nb(s, q, E_COMPLETE_DISCOUNT, 0, s[K_C_KIND + card], 1)
                for c in range(NC):
                    if off_ok_nb(s, q, K_C_COST + card * NC, d, c):
                        out[n] = A_COMPLETE_OFF + t * NC + c
                        n += 1
    if goods and s[K_OFF_CHOSEN] and disc > 0:
        for quarter in range(s[K_NQ]):
            if s[G_Q_OWNER + quarter] < 0:
                for c in range(NC):
                    if off_ok_nb(s, q, K_Q_COST + quarter * NC, disc, c):
                        out[n] = A_GOODS_OFF + quarter * NC + c
                        n += 1
    for i in range(s[b + P_N_DONE]):
        if activation_open_nb(s, q, i):       # the option-free checks once a card
            n = open_options_nb(s, q, i, out, n)
    return n


@njit(cache=True)
def is_legal_nb(s, a):
    return ok_nb(s, a)
