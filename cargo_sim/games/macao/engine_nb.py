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
"""
import numpy as np
from ...core import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit

from ...core.layout import M_BOT_SEED, M_DECISIONS, M_RNG, MARKS, MARKS_END, R_N_PLAYERS
from ...core.rng_nb import bot_seed_nb, rand_below_at_nb
from .enums import (
    A_ACT, A_COMPLETE, A_COMPLETE_COINS, A_END, A_GOODS, A_GOODS_COINS, A_JOKER, A_SAIL,
    A_SAIL_BACK, A_TRIBUTE, A_WALL, D_ACTION, D_CARD, D_COLOUR, D_DICE, D_DICE_EXTRA,
    D_DICE_SHIFT, D_DISCARD, E_COINS_IF_ALONE_LAST_ON_WALL, E_COINS_IF_COMPLETED,
    E_COINS_IF_GAINED_COINS, E_COINS_ON_COMPLETE, E_COINS_ON_GOODS, E_COINS_ON_OFFICE_ACTIVATE,
    E_COINS_PER_CITY_MARKERS, E_COINS_PER_OFFICE_COLOUR_ACTIVATED, E_COMPLETE_DISCOUNT,
    E_COMPLETE_REFUND, E_CUBE_IF_ALONE_LOWEST, E_CUBE_IF_TRIBUTE_PAID, E_DELIVERY_BONUS,
    E_DELIVERY_MULTIPLIER, E_DICE_COINS_PER_ONE, E_DICE_EXTRA_CUBE, E_DICE_SHIFT_SIDE,
    E_DISCARD_PERSON_FOR_COINS, E_END_NO_TABLEAU_PENALTY, E_END_POINTS, E_END_POINTS_PER_CITY_MARKER,
    E_END_POINTS_PER_COMPLETED, E_END_POINTS_PER_DARK_MARKER, E_END_POINTS_PER_OFFICE_KIND,
    E_END_POINTS_PER_OFFICE_SET, E_END_POINTS_PER_SCORING_CARD, E_END_SET_POINTS,
    E_EXTRA_GOODS, E_EXTRA_OFFICE_ACTIVATION, E_EXTRA_TRIBUTE, E_GAIN_ANY_CUBE, E_GAIN_COINS,
    E_GAIN_COINS_PAIR, E_GAIN_COINS_POINTS, E_GAIN_CUBE, E_GOODS_DISCOUNT, E_GOODS_FOR_COINS,
    E_IF_EMPTY_SPACES, E_JOKER_REUSE, E_MAY_SKIP_CARD, E_PAY_COINS_COMPLETE_CARD,
    E_PAY_COINS_FOR_ANY_CUBE, E_PAY_COINS_FOR_POINTS, E_PAY_COINS_SAIL, E_PAY_CUBE_FOR_COINS,
    E_PAY_CUBES_FOR_ANY_CUBE, E_PAY_CUBES_FOR_COINS, E_PAY_DISTINCT_CUBES_FOR_POINTS,
    E_POINTS_IF_ALONE_LEADING, E_POINTS_IF_FIRST_ON_WALL, E_POINTS_IF_GOODS_HELD,
    E_POINTS_IF_OFFICE_ACTIVATED, E_POINTS_IF_SAILED, E_POINTS_IF_SCORED, E_POINTS_ON_TRIBUTE,
    E_POINTS_PER_OFFICE, E_SAIL, E_WALL_STEP_IF_NOT_FIRST, E_WALL_STEPS_ON_GOODS, E_WALL_TO_TOP,
    EV_ACTIVATE, EV_ARRIVE, EV_CITY, EV_COMPLETE, EV_DELIVER, EV_DISCARD, EV_DRAFT, EV_END_CARD,
    EV_GOODS, EV_JOKER, EV_LOT, EV_MARKERS, EV_OFFER, EV_RANK, EV_ROLL, EV_SAIL, EV_START_CUBES,
    EV_TABLEAU, EV_TRIBUTE, EV_TRIGGER, EV_WALL, EV_WASTED, EV_ZERO, G_ASK, G_DECK, G_DECK_TOP,
    G_DELIV, G_DICE, G_DISCARDED, G_GAME, G_LOG_CAP, G_IDX, G_LOT, G_N_OFFER, G_NEV, G_OFF_TOP, G_OFFER,
    G_OFFICES, G_ORDER, G_PHASE, G_PORT_DELIV, G_Q_OWNER, G_Q_TILE, G_ROUND, G_SEAT, G_STAMP,
    G_SUB, G_SUPPLY, G_TRIB_PRICE, G_TRIB_REWARD, G_WINNERS, G_BANK, K_C_ARGS, K_C_COLOUR,
    K_C_COST, K_C_EFFECT, K_C_KIND, K_C_TIMING, K_C_TRIB_COINS, K_C_TRIB_POINTS, K_CUBES_PER,
    K_DECK_BOX, K_DECK_ROUND, K_DICE_SIDES, K_DP, K_GROUP_PTS, K_JOKER_COINS, K_JOKER_CUBES,
    K_LATE_DIE, K_LIMIT_COINS, K_LIMIT_CUBES, K_MARK_PEN, K_MARKERS, K_N_DECK, K_N_DP,
    K_N_GOODS, K_N_JOKERS, K_N_OFFICE, K_N_PORTS, K_N_START, K_NQ, K_OFFICE_BOX, K_OFFICE_ROUND,
    K_PASSING, K_PEN_NO_MARKER, K_PER_GOOD, K_PER_SET, K_PORT_GOODS, K_PORT_SPACE, K_Q_ADJ,
    K_Q_COST, K_Q_DARK, K_REFUND_ALL, K_REMOVED, K_RETURN, K_ROSE_SIDES, K_ROUNDS, K_ROUTE_END,
    K_START, K_START_COINS, K_START_EXTRA, K_TAB_PEN, K_TAB_SPACES, K_TIE, K_TILES_PER_GOOD,
    K_TOTAL_COINS, K_TRIB_MAX, K_WALL_COST1, K_WALL_COST2, K_WALL_SPACES, K_ZERO_PEN, MAX_ADJ, MAX_DONE,
    MAX_GOODS, MAX_OFFER, MAX_Q, N_EVENT_FIELDS, NC, P_CARD_PTS, P_CITY, P_COINS, P_COINS_IN,
    P_COINS_OUT, P_COMPLETED, P_CUBES_IN, P_CUBES_OUT, P_DELIV, P_DELIV_PTS, P_DELIVERED_TILES,
    P_DONE, P_DRAFTED, P_END_PTS, P_GOODS, P_GOODS_MAX, P_GOODS_N, P_GOT_COINS, P_GROUP,
    P_JOKER_USED, P_JOKERS, P_JOKERS_USED, P_MARK_PEN, P_N_DONE, P_N_REF, P_N_TAB, P_OFF_EXTRA,
    P_OFF_MASK, P_OVERFLOW, P_PEN_MARKERS, P_PEN_PTS, P_RANK, P_REF, P_ROSE, P_SAILED, P_SCORED,
    P_SHIP, P_STAMP, P_TAB, P_TAB_LEFT, P_TRIB_MAX, P_TRIB_N, P_TRIB_PAID, P_TRIB_PTS, P_USED,
    P_VP, P_WALL, P_WALL_N, P_WASTED, P_WON, P_ZERO_PEN, PH_ACTIONS, PH_CARDS, PH_DICE, PH_OVER,
    PH_START_CUBES, PH_START_DRAFT, PL, PW, RULES_END, SKIP_CARD, STATE_SIZE, T_ACTIVATE, T_END,
    TIE_COINS, TIE_WALL, K_OFFICE_KIND, K_PERSON_KIND,
)


# ---- small helpers -----------------------------------------------------------------
@njit(cache=True, inline="always")
def pb(q):
    return PL + q * PW


@njit(cache=True)
def event_nb(s, log, q, action, a, b, c, points, coins):
    """One row of the event log, a flat array or pointer of ``s[G_LOG_CAP]`` rows (counted
    even when the log is full: the runner regrows it)."""
    n = s[G_NEV]
    if n < s[G_LOG_CAP]:
        r = n * N_EVENT_FIELDS
        log[r], log[r + 1], log[r + 2], log[r + 3] = s[G_GAME], s[G_ROUND], q, action
        log[r + 4], log[r + 5], log[r + 6], log[r + 7], log[r + 8] = a, b, c, points, coins
    s[G_NEV] = n + 1


@njit(cache=True)
def arg_nb(s, card, i):
    return s[K_C_ARGS + card * 4 + i]


@njit(cache=True)
def gain_coins_nb(s, q, n):
    """Coins from the bank (limited unless unlimited_coins); returns those gained."""
    if s[K_LIMIT_COINS] and n > s[G_BANK]:
        n = s[G_BANK]
    if n <= 0:
        return 0
    s[G_BANK] -= n
    s[pb(q) + P_COINS] += n
    s[pb(q) + P_COINS_IN] += n
    s[pb(q) + P_GOT_COINS] = 1
    return n


@njit(cache=True)
def pay_coins_nb(s, q, n):
    s[G_BANK] += n
    s[pb(q) + P_COINS] -= n
    s[pb(q) + P_COINS_OUT] += n


@njit(cache=True)
def score_nb(s, q, n):
    s[pb(q) + P_VP] += n
    if n > 0:
        s[pb(q) + P_SCORED] = 1


@njit(cache=True)
def avail_nb(s, q, c):
    """Cubes of colour c the seat may spend this round (the rose's arrow side)."""
    return s[pb(q) + P_ROSE + c]


@njit(cache=True)
def gain_cubes_nb(s, q, c, n):
    """n cubes of colour c onto this round's cubes, from the supply; returns those gained."""
    if s[K_LIMIT_CUBES] and n > s[G_SUPPLY + c]:
        n = s[G_SUPPLY + c]
    if n <= 0:
        return 0
    s[G_SUPPLY + c] -= n
    s[pb(q) + P_ROSE + c] += n
    s[pb(q) + P_CUBES_IN] += n
    return n


@njit(cache=True)
def pay_cubes_nb(s, q, c, n):
    s[G_SUPPLY + c] += n
    s[pb(q) + P_ROSE + c] -= n
    s[pb(q) + P_CUBES_OUT] += n


@njit(cache=True)
def penalty_nb(s, q):
    """A -3 marker: counts if a marker is left, or always under penalty_without_marker."""
    b = pb(q)
    if s[K_MARKERS] - s[b + P_CITY] - s[b + P_PEN_MARKERS] > 0:
        s[b + P_PEN_MARKERS] += 1
        s[b + P_MARK_PEN] += 1
    elif s[K_PEN_NO_MARKER]:
        s[b + P_MARK_PEN] += 1


@njit(cache=True)
def markers_left_nb(s, q):
    b = pb(q)
    return s[K_MARKERS] - s[b + P_CITY] - s[b + P_PEN_MARKERS]


@njit(cache=True)
def effect_sum_nb(s, q, eff, match, value, arg):
    """Sum of argument ``arg`` over the seat's completed cards with effect ``eff`` (and
    argument ``match`` equal to ``value`` when match >= 0); arg -1: count them."""
    b = pb(q)
    tot = 0
    for i in range(s[b + P_N_DONE]):
        card = s[b + P_DONE + i]
        if s[K_C_EFFECT + card] != eff:
            continue
        if match >= 0 and arg_nb(s, card, match) != value:
            continue
        tot += 1 if arg < 0 else arg_nb(s, card, arg)
    return tot


@njit(cache=True)
def count_kind_nb(s, q, kind):
    b = pb(q)
    n = 0
    for i in range(s[b + P_N_DONE]):
        if s[K_C_KIND + s[b + P_DONE + i]] == kind:
            n += 1
    return n


@njit(cache=True)
def count_office_nb(s, q, colour):
    b = pb(q)
    n = 0
    for i in range(s[b + P_N_DONE]):
        card = s[b + P_DONE + i]
        if s[K_C_KIND + card] == K_OFFICE_KIND and s[K_C_COLOUR + card] == colour:
            n += 1
    return n


@njit(cache=True)
def reduced_cost_nb(cost, n):
    """A cost (per colour) n cubes cheaper: each cube off the colour with the most (first
    such colour) -- our ruling for 'costs n cube(s) less'."""
    for _ in range(n):
        best = -1
        for c in range(NC):
            if cost[c] > 0 and (best < 0 or cost[c] > cost[best]):
                best = c
        if best < 0:
            break
        cost[best] -= 1


@njit(cache=True)
def affordable_nb(s, q, cost):
    for c in range(NC):
        if avail_nb(s, q, c) < cost[c]:
            return False
    return True


@njit(cache=True)
def cost_ok_nb(s, q, at, discount):
    """Can the seat pay the cost at s[at:at+NC], ``discount`` cubes less?"""
    if discount == 0:
        for c in range(NC):
            if avail_nb(s, q, c) < s[at + c]:
                return False
        return True
    cost = np.empty(NC, np.int64)
    for c in range(NC):
        cost[c] = s[at + c]
    reduced_cost_nb(cost, discount)
    return affordable_nb(s, q, cost)


@njit(cache=True)
def quarter_cost_nb(s, q, quarter, cost):
    for c in range(NC):
        cost[c] = s[K_Q_COST + quarter * NC + c]
    reduced_cost_nb(cost, effect_sum_nb(s, q, E_GOODS_DISCOUNT, -1, 0, 0))


@njit(cache=True)
def card_cost_nb(s, q, card, cost):
    for c in range(NC):
        cost[c] = s[K_C_COST + card * NC + c]
    reduced_cost_nb(cost, effect_sum_nb(s, q, E_COMPLETE_DISCOUNT, 0, s[K_C_KIND + card], 1))


# ---- the wall and turn order --------------------------------------------------------------
@njit(cache=True)
def before_nb(s, a, b):
    """True if seat a's disc is ahead of seat b's (further, or on top on a shared space)."""
    wa, wb = s[pb(a) + P_WALL], s[pb(b) + P_WALL]
    if wa != wb:
        return wa > wb
    return s[pb(a) + P_STAMP] > s[pb(b) + P_STAMP]


@njit(cache=True)
def order_nb(s):
    """Turn order into G_ORDER: by the wall, furthest first, top of a stack first."""
    n = s[R_N_PLAYERS]
    for i in range(n):
        s[G_ORDER + i] = i
    for i in range(1, n):
        j = i
        while j > 0 and before_nb(s, s[G_ORDER + j], s[G_ORDER + j - 1]):
            t = s[G_ORDER + j]
            s[G_ORDER + j] = s[G_ORDER + j - 1]
            s[G_ORDER + j - 1] = t
            j -= 1


@njit(cache=True)
def first_on_wall_nb(s, q):
    for o in range(s[R_N_PLAYERS]):
        if o != q and before_nb(s, o, q):
            return False
    return True


@njit(cache=True)
def alone_last_on_wall_nb(s, q):
    for o in range(s[R_N_PLAYERS]):
        if o != q and s[pb(o) + P_WALL] <= s[pb(q) + P_WALL]:
            return False
    return True


@njit(cache=True)
def covered_nb(s, q):
    for o in range(s[R_N_PLAYERS]):
        if o != q and s[pb(o) + P_WALL] == s[pb(q) + P_WALL] and s[pb(o) + P_STAMP] > s[pb(q) + P_STAMP]:
            return True
    return False


@njit(cache=True)
def wall_step_nb(s, q, log):
    """One space on (on top of any disc there); False at the wall's last space."""
    b = pb(q)
    if s[b + P_WALL] >= s[K_WALL_SPACES] - 1:
        return False
    s[b + P_WALL] += 1
    s[G_STAMP] += 1
    s[b + P_STAMP] = s[G_STAMP]
    return True


@njit(cache=True)
def vp_alone_nb(s, q, lowest):
    for o in range(s[R_N_PLAYERS]):
        if o == q:
            continue
        d = s[pb(o) + P_VP] - s[pb(q) + P_VP]
        if (lowest and d <= 0) or (not lowest and d >= 0):
            return False
    return True


# ---- the ship ----------------------------------------------------------------------------
@njit(cache=True)
def deliver_nb(s, q, log):
    """The ship is at a port: deliver every goods tile the port takes."""
    b = pb(q)
    space = s[b + P_SHIP]
    port = -1
    for i in range(s[K_N_PORTS]):
        if s[K_PORT_SPACE + i] == space:
            port = i
    if port < 0:
        return
    for g in range(s[K_N_GOODS]):
        if s[K_PORT_GOODS + port * MAX_GOODS + g] == 0:
            continue
        while s[b + P_GOODS + g] > 0:
            k = s[G_DELIV + port * MAX_GOODS + g] if s[K_PER_GOOD] else s[G_PORT_DELIV + port]
            pts = s[K_DP + k] if k < s[K_N_DP] else 0
            s[G_DELIV + port * MAX_GOODS + g] += 1
            s[G_PORT_DELIV + port] += 1
            s[b + P_GOODS + g] -= 1
            s[b + P_DELIVERED_TILES] += 1
            # DELIVERY_MULTIPLIER: each such card of this good multiplies
            for i in range(s[b + P_N_DONE]):
                card = s[b + P_DONE + i]
                if s[K_C_EFFECT + card] == E_DELIVERY_MULTIPLIER and arg_nb(s, card, 0) == g:
                    pts *= arg_nb(s, card, 1)
            coins = 0
            if pts > 0:
                pts += effect_sum_nb(s, q, E_DELIVERY_BONUS, -1, 0, 0)
                coins = gain_coins_nb(s, q, effect_sum_nb(s, q, E_DELIVERY_BONUS, -1, 0, 1))
            score_nb(s, q, pts)
            s[b + P_DELIV] += 1
            s[b + P_DELIV_PTS] += pts
            event_nb(s, log, q, EV_DELIVER, port, g, k, pts, coins)


@njit(cache=True)
def sail_nb(s, q, spaces, direction, log):
    """Move the ship; deliver at the last space, and at ports passed if deliver_passing."""
    b = pb(q)
    for i in range(spaces):
        s[b + P_SHIP] += direction
        s[b + P_SAILED] += 1
        if i == spaces - 1 or s[K_PASSING]:
            deliver_nb(s, q, log)


# ---- cards on the tableau and completed --------------------------------------------------
@njit(cache=True)
def complete_nb(s, q, slot, paid, log):
    """The card in tableau slot moves to the completed cards (active from now)."""
    b = pb(q)
    card = s[b + P_TAB + slot]
    for t in range(slot, s[b + P_N_TAB] - 1):
        s[b + P_TAB + t] = s[b + P_TAB + t + 1]
    s[b + P_N_TAB] -= 1
    s[b + P_TAB + s[b + P_N_TAB]] = -1
    n = s[b + P_N_DONE]
    s[b + P_DONE + n] = card
    s[b + P_USED + n] = 0
    s[b + P_N_DONE] = n + 1
    s[b + P_COMPLETED] += 1
    cubes = 0
    for c in range(NC):
        cubes += paid[c]
    if cubes > 0 and s[b + P_N_REF] < 8:      # what COMPLETE_REFUND can give back
        r = s[b + P_N_REF]
        for c in range(NC):
            s[b + P_REF + r * NC + c] = paid[c]
        s[b + P_N_REF] = r + 1
    event_nb(s, log, q, EV_COMPLETE, card, cubes, 0, 0, 0)
    kind = s[K_C_KIND + card]
    for i in range(s[b + P_N_DONE]):
        other = s[b + P_DONE + i]
        if s[K_C_EFFECT + other] == E_COINS_ON_COMPLETE and arg_nb(s, other, 0) == kind:
            got = gain_coins_nb(s, q, arg_nb(s, other, 1))
            event_nb(s, log, q, EV_TRIGGER, other, card, 0, 0, got)


@njit(cache=True)
def take_card_nb(s, q, card):
    b = pb(q)
    s[b + P_TAB + s[b + P_N_TAB]] = card
    s[b + P_N_TAB] += 1
    s[b + P_DRAFTED] += 1


@njit(cache=True)
def joker_uses_nb(s, q):
    u = 1
    b = pb(q)
    for i in range(s[b + P_N_DONE]):
        card = s[b + P_DONE + i]
        if s[K_C_EFFECT + card] == E_JOKER_REUSE and arg_nb(s, card, 0) > u:
            u = arg_nb(s, card, 0)
    return u


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
    for i in range(s[G_N_OFFER]):
        event_nb(s, log, -1, EV_OFFER, s[G_OFFER + i], price, reward, 0, 0)
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
    if A_GOODS <= a < A_GOODS + s[K_NQ] or A_GOODS_COINS <= a < A_GOODS_COINS + s[K_NQ]:
        by_coins = a >= A_GOODS_COINS
        quarter = a - (A_GOODS_COINS if by_coins else A_GOODS)
        if s[G_Q_OWNER + quarter] >= 0 or s[b + P_GOODS_N] >= s[b + P_GOODS_MAX] or markers_left_nb(s, q) <= 0:
            return False
        if by_coins:
            price = effect_sum_nb(s, q, E_GOODS_FOR_COINS, -1, 0, 0)
            return effect_sum_nb(s, q, E_GOODS_FOR_COINS, -1, 0, -1) > 0 and s[b + P_COINS] >= price
        return cost_ok_nb(s, q, K_Q_COST + quarter * NC, effect_sum_nb(s, q, E_GOODS_DISCOUNT, -1, 0, 0))
    if A_COMPLETE <= a < A_COMPLETE + s[b + P_N_TAB]:
        card = s[b + P_TAB + a - A_COMPLETE]
        return s[b + P_N_DONE] < MAX_DONE and cost_ok_nb(
            s, q, K_C_COST + card * NC, effect_sum_nb(s, q, E_COMPLETE_DISCOUNT, 0, s[K_C_KIND + card], 1))
    if A_COMPLETE_COINS <= a < A_COMPLETE_COINS + s[b + P_N_TAB]:
        return s[b + P_N_DONE] < MAX_DONE and coin_completer_nb(s, q) >= 0
    if a >= A_ACT:
        i, x = (a - A_ACT) // 64, (a - A_ACT) % 64
        return i < s[b + P_N_DONE] and activate_ok_nb(s, q, i, x)
    return False


@njit(cache=True)
def coin_completer_nb(s, q):
    """Index of an unused completed PAY_COINS_COMPLETE_CARD card the seat can pay, -1 none."""
    b = pb(q)
    for i in range(s[b + P_N_DONE]):
        card = s[b + P_DONE + i]
        if (s[K_C_EFFECT + card] == E_PAY_COINS_COMPLETE_CARD and s[b + P_USED + i] == 0
                and s[b + P_COINS] >= arg_nb(s, card, 0)):
            return i
    return -1


@njit(cache=True)
def activate_ok_nb(s, q, i, x):
    b = pb(q)
    card = s[b + P_DONE + i]
    if s[K_C_TIMING + card] != T_ACTIVATE:
        return False
    e = s[K_C_EFFECT + card]
    if e == E_PAY_COINS_COMPLETE_CARD:
        return False                          # used through A_COMPLETE_COINS
    if s[b + P_USED + i] > 0:
        again = e == E_PAY_CUBES_FOR_COINS and arg_nb(s, card, 2) == 1
        office = s[K_C_KIND + card] == K_OFFICE_KIND and s[b + P_OFF_EXTRA + s[K_C_COLOUR + card]] > 0
        if not (again or office):
            return False
    a0, a1, a2 = arg_nb(s, card, 0), arg_nb(s, card, 1), arg_nb(s, card, 2)
    if e == E_PAY_CUBE_FOR_COINS:
        return x == 0 and avail_nb(s, q, a0) >= a1
    if e == E_GAIN_COINS or e == E_GAIN_CUBE or e == E_GAIN_COINS_POINTS or e == E_GAIN_COINS_PAIR:
        return x == 0
    if e == E_GAIN_ANY_CUBE:
        return x < NC
    if e == E_PAY_CUBES_FOR_COINS:
        return x < NC and avail_nb(s, q, x) >= a0
    if e == E_PAY_COINS_FOR_POINTS:
        return x == 0 and s[b + P_COINS] >= a0
    if e == E_PAY_COINS_FOR_ANY_CUBE:
        return x < NC and s[b + P_COINS] >= a0
    if e == E_PAY_CUBES_FOR_ANY_CUBE:
        return x < NC * NC and avail_nb(s, q, x // NC) >= a0
    if e == E_PAY_DISTINCT_CUBES_FOR_POINTS:
        if x < 1 or x >= 1 << NC:
            return False
        for c in range(NC):
            if (x >> c) & 1 and avail_nb(s, q, c) < 1:
                return False
        return True
    if e == E_PAY_COINS_SAIL:
        return 1 <= x <= a1 and s[b + P_COINS] >= a0 and s[b + P_SHIP] + x <= s[K_ROUTE_END]
    if e == E_SAIL:
        return 1 <= x <= a0 and s[b + P_SHIP] + x <= s[K_ROUTE_END]
    if x != 0 and e != E_CUBE_IF_ALONE_LOWEST and e != E_CUBE_IF_TRIBUTE_PAID \
            and e != E_DISCARD_PERSON_FOR_COINS and e != E_COMPLETE_REFUND:
        return False
    if e == E_COINS_PER_OFFICE_COLOUR_ACTIVATED or e == E_POINTS_IF_OFFICE_ACTIVATED:
        return s[b + P_OFF_MASK] != 0
    if e == E_COINS_IF_COMPLETED:
        return count_kind_nb(s, q, a0) >= a1
    if e == E_CUBE_IF_ALONE_LOWEST:
        return x < NC and vp_alone_nb(s, q, True)
    if e == E_POINTS_PER_OFFICE:
        return count_office_nb(s, q, a0) > 0
    if e == E_CUBE_IF_TRIBUTE_PAID:
        return x < NC and s[b + P_TRIB_N] > 0
    if e == E_EXTRA_TRIBUTE or e == E_EXTRA_GOODS:
        return True
    if e == E_COINS_IF_ALONE_LAST_ON_WALL:
        return alone_last_on_wall_nb(s, q)
    if e == E_POINTS_IF_SCORED:
        return s[b + P_SCORED] != 0
    if e == E_POINTS_IF_SAILED:
        return s[b + P_SAILED] >= a0
    if e == E_POINTS_IF_ALONE_LEADING:
        return vp_alone_nb(s, q, False)
    if e == E_COINS_IF_GAINED_COINS:
        return s[b + P_GOT_COINS] != 0
    if e == E_POINTS_IF_GOODS_HELD:
        held = 0
        for g in range(s[K_N_GOODS]):
            held += s[b + P_GOODS + g]
        return held == a1 or held == a2
    if e == E_IF_EMPTY_SPACES:
        return s[K_TAB_SPACES] - s[b + P_N_TAB] >= a0
    if e == E_COINS_PER_CITY_MARKERS:
        return s[b + P_CITY] >= max(a0, 1)
    if e == E_DISCARD_PERSON_FOR_COINS:
        return x < s[b + P_N_DONE] and x != i and s[K_C_KIND + s[b + P_DONE + x]] == K_PERSON_KIND
    if e == E_WALL_TO_TOP:
        return covered_nb(s, q)
    if e == E_WALL_STEP_IF_NOT_FIRST:
        return not first_on_wall_nb(s, q) and s[b + P_WALL] < s[K_WALL_SPACES] - 1
    if e == E_POINTS_IF_FIRST_ON_WALL:
        return first_on_wall_nb(s, q)
    if e == E_COMPLETE_REFUND:
        if s[K_REFUND_ALL]:
            return x == 0 and s[b + P_N_REF] > 0
        return x < s[b + P_N_REF]
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
            if v == 1:
                ones += 1
            if s[G_ROUND] + v - 1 > s[K_ROUNDS]:
                v = s[K_LATE_DIE]           # no cubes beyond the last round
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
        for i in range(s[b + P_N_DONE]):
            card = s[b + P_DONE + i]
            if s[K_C_EFFECT + card] == E_POINTS_ON_TRIBUTE:
                pts = arg_nb(s, card, 0)
                score_nb(s, q, pts)
                s[b + P_CARD_PTS] += pts
                event_nb(s, log, q, EV_TRIGGER, card, 0, 0, pts, 0)
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
    elif A_GOODS <= a < A_GOODS + MAX_Q or A_GOODS_COINS <= a < A_GOODS_COINS + MAX_Q:
        by_coins = a >= A_GOODS_COINS
        quarter = a - (A_GOODS_COINS if by_coins else A_GOODS)
        paid = 0
        if by_coins:
            paid = effect_sum_nb(s, q, E_GOODS_FOR_COINS, -1, 0, 0)
            pay_coins_nb(s, q, paid)
        else:
            cost = np.empty(NC, np.int64)
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
        for i in range(s[b + P_N_DONE]):
            card = s[b + P_DONE + i]
            e = s[K_C_EFFECT + card]
            if e == E_WALL_STEPS_ON_GOODS:
                for _ in range(arg_nb(s, card, 0)):
                    wall_step_nb(s, q, log)
                event_nb(s, log, q, EV_TRIGGER, card, s[b + P_WALL], 0, 0, 0)
            elif e == E_COINS_ON_GOODS:
                got = gain_coins_nb(s, q, arg_nb(s, card, 0))
                event_nb(s, log, q, EV_TRIGGER, card, 0, 0, 0, got)
    elif A_COMPLETE <= a < A_COMPLETE + 8:
        cost = np.empty(NC, np.int64)
        slot = a - A_COMPLETE
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
        zero = np.zeros(NC, np.int64)
        complete_nb(s, q, a - A_COMPLETE_COINS, zero, log)
    else:
        i, x = (a - A_ACT) // 64, (a - A_ACT) % 64
        activate_nb(s, q, i, x, log)


@njit(cache=True)
def activate_nb(s, q, i, x, log):
    """A completed card's once-per-round effect (legal: activate_ok_nb)."""
    b = pb(q)
    card = s[b + P_DONE + i]
    e = s[K_C_EFFECT + card]
    a0, a1, a2 = arg_nb(s, card, 0), arg_nb(s, card, 1), arg_nb(s, card, 2)
    if s[b + P_USED + i] > 0 and s[K_C_KIND + card] == K_OFFICE_KIND:
        s[b + P_OFF_EXTRA + s[K_C_COLOUR + card]] -= 1     # EXTRA_OFFICE_ACTIVATION
    s[b + P_USED + i] += 1
    pts = 0
    coins = 0                   # coins gained (+) or paid (-)
    if e == E_PAY_CUBE_FOR_COINS:
        pay_cubes_nb(s, q, a0, a1)
        coins = gain_coins_nb(s, q, a2)
        if s[K_C_KIND + card] == K_OFFICE_KIND:
            colour = s[K_C_COLOUR + card]
            s[b + P_OFF_MASK] |= 1 << colour
            event_nb(s, log, q, EV_ACTIVATE, card, x, 0, 0, coins)
            for j in range(s[b + P_N_DONE]):
                other = s[b + P_DONE + j]
                if s[K_C_EFFECT + other] == E_COINS_ON_OFFICE_ACTIVATE and arg_nb(s, other, 0) == colour:
                    got = gain_coins_nb(s, q, arg_nb(s, other, 1))
                    event_nb(s, log, q, EV_TRIGGER, other, card, 0, 0, got)
            return
    elif e == E_GAIN_COINS:
        coins = gain_coins_nb(s, q, a0)
    elif e == E_GAIN_CUBE:
        gain_cubes_nb(s, q, a0, a1)
    elif e == E_GAIN_ANY_CUBE:
        gain_cubes_nb(s, q, x, a0)
    elif e == E_GAIN_COINS_POINTS:
        coins = gain_coins_nb(s, q, a0)
        pts = a1
    elif e == E_GAIN_COINS_PAIR:
        paired = False
        for j in range(s[b + P_N_DONE]):
            other = s[b + P_DONE + j]
            if j != i and s[K_C_EFFECT + other] == E_GAIN_COINS_PAIR and arg_nb(s, other, 2) == a2:
                paired = True
        coins = gain_coins_nb(s, q, a1 if paired else a0)
    elif e == E_PAY_CUBES_FOR_COINS:
        pay_cubes_nb(s, q, x, a0)
        coins = gain_coins_nb(s, q, a1)
    elif e == E_PAY_COINS_FOR_POINTS:
        pay_coins_nb(s, q, a0)
        coins = -a0
        pts = a1
    elif e == E_PAY_COINS_FOR_ANY_CUBE:
        pay_coins_nb(s, q, a0)
        coins = -a0
        gain_cubes_nb(s, q, x, a1)
    elif e == E_PAY_CUBES_FOR_ANY_CUBE:
        pay_cubes_nb(s, q, x // NC, a0)
        gain_cubes_nb(s, q, x % NC, a1)
    elif e == E_PAY_DISTINCT_CUBES_FOR_POINTS:
        for c in range(NC):
            if (x >> c) & 1:
                pay_cubes_nb(s, q, c, 1)
                pts += a0
    elif e == E_PAY_COINS_SAIL or e == E_SAIL:
        if e == E_PAY_COINS_SAIL:
            pay_coins_nb(s, q, a0)
            coins = -a0
        event_nb(s, log, q, EV_ACTIVATE, card, x, 0, 0, coins)
        sail_nb(s, q, x, 1, log)
        return
    elif e == E_COINS_PER_OFFICE_COLOUR_ACTIVATED:
        k = 0
        for c in range(NC):
            k += (s[b + P_OFF_MASK] >> c) & 1
        coins = gain_coins_nb(s, q, k * a0)
    elif e == E_COINS_IF_COMPLETED:
        coins = gain_coins_nb(s, q, a2)
    elif e == E_POINTS_IF_OFFICE_ACTIVATED or e == E_POINTS_IF_SCORED or e == E_POINTS_IF_ALONE_LEADING \
            or e == E_POINTS_IF_FIRST_ON_WALL:
        pts = a0
    elif e == E_CUBE_IF_ALONE_LOWEST or e == E_CUBE_IF_TRIBUTE_PAID:
        gain_cubes_nb(s, q, x, a0)
    elif e == E_POINTS_PER_OFFICE:
        pts = a1 * count_office_nb(s, q, a0)
    elif e == E_EXTRA_TRIBUTE:
        s[b + P_TRIB_MAX] += a0
    elif e == E_COINS_IF_ALONE_LAST_ON_WALL or e == E_COINS_IF_GAINED_COINS:
        coins = gain_coins_nb(s, q, a0)
    elif e == E_POINTS_IF_SAILED:
        pts = a1
    elif e == E_POINTS_IF_GOODS_HELD:
        pts = a0
    elif e == E_IF_EMPTY_SPACES:
        coins = gain_coins_nb(s, q, a1)
        pts = a2
    elif e == E_COINS_PER_CITY_MARKERS:
        coins = gain_coins_nb(s, q, (s[b + P_CITY] // max(a0, 1)) * a1)
    elif e == E_EXTRA_GOODS:
        s[b + P_GOODS_MAX] += a0
    elif e == E_DISCARD_PERSON_FOR_COINS:
        gone = s[b + P_DONE + x]
        for j in range(x, s[b + P_N_DONE] - 1):
            s[b + P_DONE + j] = s[b + P_DONE + j + 1]
            s[b + P_USED + j] = s[b + P_USED + j + 1]
        s[b + P_N_DONE] -= 1
        s[G_DISCARDED] += 1
        coins = gain_coins_nb(s, q, a0)
        event_nb(s, log, q, EV_ACTIVATE, card, x, gone, 0, coins)
        return
    elif e == E_WALL_TO_TOP:
        s[G_STAMP] += 1
        s[b + P_STAMP] = s[G_STAMP]
    elif e == E_WALL_STEP_IF_NOT_FIRST:
        for _ in range(a0):
            wall_step_nb(s, q, log)
    elif e == E_COMPLETE_REFUND:
        lo, hi = x, x + 1
        if s[K_REFUND_ALL]:
            lo, hi = 0, s[b + P_N_REF]
        for r in range(lo, hi):
            for c in range(NC):
                k = s[b + P_REF + r * NC + c]
                if k > 0:
                    gain_cubes_nb(s, q, c, k)
                s[b + P_REF + r * NC + c] = 0     # a refund is given once
    score_nb(s, q, pts)
    s[b + P_CARD_PTS] += pts
    event_nb(s, log, q, EV_ACTIVATE, card, x, 0, pts, coins)


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
def end_card_points_nb(s, q, i):
    b = pb(q)
    card = s[b + P_DONE + i]
    e = s[K_C_EFFECT + card]
    a0, a1, a2, a3 = arg_nb(s, card, 0), arg_nb(s, card, 1), arg_nb(s, card, 2), arg_nb(s, card, 3)
    if e == E_END_POINTS:
        return a0
    if e == E_END_SET_POINTS:
        n, first = 0, -1
        for j in range(s[b + P_N_DONE]):
            other = s[b + P_DONE + j]
            if s[K_C_EFFECT + other] == E_END_SET_POINTS and arg_nb(s, other, 3) == a3:
                n += 1
                if first < 0:
                    first = j
        if s[K_PER_SET] and first != i:
            return 0                        # per_set: the set scores once
        return a0 if n <= 1 else (a1 if n == 2 else a2)
    if e == E_END_POINTS_PER_COMPLETED:
        return a1 * count_kind_nb(s, q, a0)
    if e == E_END_POINTS_PER_SCORING_CARD:
        n = 0
        for j in range(s[b + P_N_DONE]):
            other = s[b + P_DONE + j]
            if (j != i and s[K_C_TIMING + other] == T_END
                    and s[K_C_EFFECT + other] != E_END_NO_TABLEAU_PENALTY):
                n += 1
        return a0 * n
    if e == E_END_POINTS_PER_OFFICE_SET:
        tot = 0
        for c in range(NC):
            tot += count_office_nb(s, q, c) // max(a0, 1)
        return a1 * tot
    if e == E_END_POINTS_PER_CITY_MARKER:
        return a0 * s[b + P_CITY]
    if e == E_END_POINTS_PER_OFFICE_KIND:
        n = 0
        for c in range(NC):
            if count_office_nb(s, q, c) > 0:
                n += 1
        return a0 * n
    if e == E_END_POINTS_PER_DARK_MARKER:
        n = 0
        for quarter in range(s[K_NQ]):
            if s[G_Q_OWNER + quarter] == q and s[K_Q_DARK + quarter]:
                n += 1
        return a0 * n
    return 0


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


@njit(cache=True)
def legal_actions_nb(s, q, out):
    b = pb(q)
    n = 0
    out[0] = A_END
    n = 1
    if action_ok_nb(s, q, A_TRIBUTE):
        out[n] = A_TRIBUTE
        n += 1
    if s[b + P_WALL] < s[K_WALL_SPACES] - 1:
        for a in range(A_WALL, A_WALL + NC * NC):
            if action_ok_nb(s, q, a):
                out[n] = a
                n += 1
    for a in range(A_SAIL, A_SAIL_BACK + NC):
        if action_ok_nb(s, q, a):
            out[n] = a
            n += 1
    if s[b + P_JOKERS] > 0:
        for a in range(A_JOKER, A_JOKER + NC + 1):
            out[n] = a
            n += 1
    if s[b + P_GOODS_N] < s[b + P_GOODS_MAX] and markers_left_nb(s, q) > 0:
        disc = effect_sum_nb(s, q, E_GOODS_DISCOUNT, -1, 0, 0)
        for quarter in range(s[K_NQ]):
            if s[G_Q_OWNER + quarter] < 0 and cost_ok_nb(s, q, K_Q_COST + quarter * NC, disc):
                out[n] = A_GOODS + quarter
                n += 1
        if effect_sum_nb(s, q, E_GOODS_FOR_COINS, -1, 0, -1) > 0:
            for quarter in range(s[K_NQ]):
                if action_ok_nb(s, q, A_GOODS_COINS + quarter):
                    out[n] = A_GOODS_COINS + quarter
                    n += 1
    for t in range(s[b + P_N_TAB]):
        if action_ok_nb(s, q, A_COMPLETE + t):
            out[n] = A_COMPLETE + t
            n += 1
    for t in range(s[b + P_N_TAB]):
        if action_ok_nb(s, q, A_COMPLETE_COINS + t):
            out[n] = A_COMPLETE_COINS + t
            n += 1
    for i in range(s[b + P_N_DONE]):
        card = s[b + P_DONE + i]
        if s[K_C_TIMING + card] != T_ACTIVATE:
            continue
        for x in range(options_nb(s, q, card)):
            if activate_ok_nb(s, q, i, x):
                out[n] = A_ACT + i * 64 + x
                n += 1
    return n


@njit(cache=True)
def options_nb(s, q, card):
    """How many options (x) an activated card's answers range over."""
    e = s[K_C_EFFECT + card]
    if (e == E_GAIN_ANY_CUBE or e == E_PAY_CUBES_FOR_COINS or e == E_PAY_COINS_FOR_ANY_CUBE
            or e == E_CUBE_IF_ALONE_LOWEST or e == E_CUBE_IF_TRIBUTE_PAID):
        return NC
    if e == E_PAY_CUBES_FOR_ANY_CUBE:
        return NC * NC
    if e == E_PAY_DISTINCT_CUBES_FOR_POINTS:
        return 1 << NC
    if e == E_PAY_COINS_SAIL:
        return min(arg_nb(s, card, 1) + 1, 64)
    if e == E_SAIL:
        return min(arg_nb(s, card, 0) + 1, 64)
    if e == E_DISCARD_PERSON_FOR_COINS:
        return s[pb(q) + P_N_DONE]
    if e == E_COMPLETE_REFUND:
        return 8
    return 1


@njit(cache=True)
def is_legal_nb(s, a):
    return ok_nb(s, a)
