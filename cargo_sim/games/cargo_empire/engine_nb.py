"""Cargo Empire's rules as numba kernels: a resumable machine stepped answer by answer.

``begin_nb`` sets a game up and runs to its first decision; ``answer_nb`` applies an
answer (checked first with ``ok_nb``) and runs to the next; ``legal_nb`` lists the
pending decision's answers. The state ``s`` is the game's int64 array (or a pointer
to it); ``log`` the event log (``G_LOG_CAP`` rows; 0: events only counted). Each rule
lives in one kernel here; docs/rules_cargo_empire.md gives the rulebook's lines.
"""
import numpy as np
from ...core import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit

from ...core.borrow_nb import popcount_nb
from ...core.layout import M_BOT_SEED, M_DECISIONS, MARKS, MARKS_END, M_RNG, R_N_PLAYERS
from ...core.rng_nb import bot_seed_nb, rand_below_at_nb
from .enums import (
    BLANK, B_ANY, D_ANY_CARD, D_BONUS, D_DELIVER, D_MISSION, D_PASS, D_PATH, D_START_CITY,
    D_START_SLOT, D_TAKE_CARD, EV_CARD, EV_DELIVER, EV_MISSION, EV_ORDER, EV_PASS, EV_SCORE,
    EV_START, EV_STEP, EV_TAKE, EV_UPGRADE, G_AFTER, G_ASK, G_BAG, G_BONUS, G_BONUS_OF, G_CUBES,
    G_CURV, G_DMASK, G_DECK, G_DECK_N, G_DECK_TOP, G_DEMAND, G_DEVSIDE, G_FIRST_CITY, G_GAME, G_IDX,
    G_LOG_CAP, G_LV, G_MDECK, G_MN, G_MOFFER, G_MOFFER_N, G_MTOP, G_NEV, G_NEXT, G_ORDER,
    G_PHASE, G_PRESENT, G_PUBLIC, G_ROUND, G_SEAT, G_STEPS, G_STOP, G_BAD, G_TILE, G_TURN,
    G_USED, G_WINNER, K_CARD_VP, K_DEV, K_DEV_FORK, K_DEV_N, K_ICONS, K_LV3_VP, K_MDRAW, K_MISS,
    K_NC, K_NCOL, K_NDEV, K_NMISS, K_NPUB, K_NSCORE, K_NSLOTS, K_NTILES, K_ORDER_BONUS, K_PAY,
    K_PAY_AT, K_PAY_MIN, K_PAY_N, K_PORT, K_PROD, K_ROUNDS, K_SCORE, K_START_HAND, K_TILE, K_TURNS, MAXC,
    MAX_KEEP, MAX_OPT, MAX_PATH, MAX_SEATS, MK_CARDS, MK_CITIES, MK_COLOUR, MK_LV3, MK_PERFECT,
    MK_PORTS, MK_TRACK, NO_CARD, N_EVENT_FIELDS, N_VEH, PH_ORDER_BONUS, PH_OVER, PH_RESOLVE,
    PH_SETUP_MISSION, PH_START1, PH_START2, PH_TURN, PL, PW, P_BLANKS, P_CARDS, P_CARD_VP,
    P_CITY_BONUS, P_DELIV, P_DELIV_COL, P_DEV_VP, P_DIST, P_GAINED, P_HAND, P_IDX, P_LV3_VP,
    P_MISS, P_MISS_DONE, P_MISS_VP, P_NMISS, P_PASSES, P_PATH, P_PERFECT, P_PLAYED, P_RANK,
    P_REMOVED, P_SECRET, P_STEPS, P_TILE, P_UPGRADES, P_VP, P_WON, R_CITY, R_MISSION, R_NONE,
    STATE_SIZE,
)


@njit(cache=True, inline="always")
def pb(q):
    return PL + q * PW


@njit(cache=True)
def event_nb(s, log, q, action, a, b, c, d):
    """One row of the event log (counted even when the log is full: the runner regrows it)."""
    n = s[G_NEV]
    if n < s[G_LOG_CAP]:
        r = n * N_EVENT_FIELDS
        log[r], log[r + 1], log[r + 2], log[r + 3] = s[G_GAME], s[G_ROUND], q, action
        log[r + 4], log[r + 5], log[r + 6], log[r + 7] = a, b, c, d
    s[G_NEV] = n + 1


# ---- cities ----------------------------------------------------------------------------
@njit(cache=True)
def produce_nb(s, city):
    """The colour the city's tile produces now (-1: LV3, no tile)."""
    t = s[G_TILE + city]
    if t < 0:
        return -1
    return s[K_TILE + t * 6 + (0 if s[G_LV + city] == 1 else 3)]


@njit(cache=True)
def demand_nb(s, city, slot):
    t = s[G_TILE + city]
    return s[K_TILE + t * 6 + (0 if s[G_LV + city] == 1 else 3) + 1 + slot]


@njit(cache=True)
def free_slot_nb(s, city, colour):
    """The city's free demand space of that colour, -1 if none (LV3: none)."""
    if s[G_TILE + city] < 0:
        return -1
    for k in range(2):
        if s[G_DEMAND + city * 2 + k] == 0 and demand_nb(s, city, k) == colour:
            return k
    return -1


@njit(cache=True)
def has_post_nb(s, q, city):
    return s[G_PRESENT + city * MAX_SEATS + q] > 0


@njit(cache=True)
def draw_city_nb(s):
    """The city deck's next card that is not an LV3 city (LV3 cards go to the bottom,
    seed line 192); BLANK once no such card is left (line 193)."""
    for _ in range(s[G_DECK_N]):
        top = s[G_DECK_TOP]
        c = s[G_DECK + top]
        s[G_DECK_TOP] = (top + 1) % MAXC
        s[G_DECK_N] -= 1
        if s[G_LV + c] < 3:
            return c
        deck_bottom_nb(s, c)
    return BLANK


@njit(cache=True)
def deck_bottom_nb(s, c):
    s[G_DECK + (s[G_DECK_TOP] + s[G_DECK_N]) % MAXC] = c
    s[G_DECK_N] += 1


@njit(cache=True)
def upgrade_nb(s, city, log, q):
    """Both demand spaces taken: the city upgrades (seed lines 137-147). Returns 1 if
    perfect (no cube left on its production spaces)."""
    perfect = 1 if s[G_CUBES + city] == 0 else 0
    s[G_CUBES + city] = 0               # leftover cubes go back to the supply
    s[G_DEMAND + city * 2] = 0          # the posts move to the post spaces (G_PRESENT keeps them)
    s[G_DEMAND + city * 2 + 1] = 0
    if s[G_LV + city] == 1:
        s[G_LV + city] = 2
        s[G_CUBES + city] = s[K_PROD]
    else:
        s[G_LV + city] = 3
        s[G_TILE + city] = -1
        for k in range(s[K_NPUB]):      # its public card is replaced (line 146)
            if s[G_PUBLIC + k] == city:
                deck_bottom_nb(s, city)
                s[G_PUBLIC + k] = draw_city_nb(s)
    event_nb(s, log, q, EV_UPGRADE, city, s[G_LV + city], perfect, 0)
    return perfect


@njit(cache=True)
def place_post_nb(s, q, city, slot, log):
    """A post on the city's demand space ``slot``; returns 1 for a perfect upgrade."""
    s[G_DEMAND + city * 2 + slot] = q + 1
    s[G_PRESENT + city * MAX_SEATS + q] += 1
    if s[G_DEMAND + city * 2] != 0 and s[G_DEMAND + city * 2 + 1] != 0:
        s[pb(q) + P_UPGRADES] += 1
        return upgrade_nb(s, city, log, q)
    return 0


# ---- cards -------------------------------------------------------------------------------
@njit(cache=True)
def gain_card_nb(s, q, v, n, log):
    s[pb(q) + P_HAND + v] += n
    s[pb(q) + P_GAINED + v] += n
    event_nb(s, log, q, EV_CARD, v, n, 0, 0)


@njit(cache=True)
def owns_nb(s, q, city):
    return (s[pb(q) + P_CARDS] >> city) & 1


@njit(cache=True)
def public_has_nb(s, city):
    for k in range(s[K_NPUB]):
        if s[G_PUBLIC + k] == city:
            return True
    return False


@njit(cache=True)
def draw_missions_nb(s, n):
    """Up to n missions from the deck into the offer; how many."""
    m = min(n, s[G_MN])
    for i in range(m):
        s[G_MOFFER + i] = s[G_MDECK + s[G_MTOP]]
        s[G_MTOP] = (s[G_MTOP] + 1) % s[K_NMISS]
        s[G_MN] -= 1
    s[G_MOFFER_N] = m
    return m


@njit(cache=True)
def keep_mission_nb(s, q, k, log):
    """Keep offered mission k; the others go to the bottom of the deck (seed line 61)."""
    b = pb(q)
    for i in range(s[G_MOFFER_N]):
        m = s[G_MOFFER + i]
        if i == k and s[b + P_NMISS] < MAX_KEEP:
            s[b + P_MISS + s[b + P_NMISS]] = m
            s[b + P_NMISS] += 1
            event_nb(s, log, q, EV_MISSION, m, 0, 0, 0)
        else:
            s[G_MDECK + (s[G_MTOP] + s[G_MN]) % s[K_NMISS]] = m
            s[G_MN] += 1
    s[G_MOFFER_N] = 0


# ---- the development board ------------------------------------------------------------
@njit(cache=True)
def at_branch_nb(s, q, v):
    """At the start or a branch space, before choosing a path (seed lines 158-159)."""
    b = pb(q)
    return s[b + P_PATH + v] < 0 and s[b + P_TILE + v] < s[K_NSLOTS]


@njit(cache=True)
def path_len_nb(s, side, path):
    return s[K_DEV_N + side * 2 + path]


@njit(cache=True)
def move_nb(s, q, v):
    """One step of vehicle v along its chosen path; the reward of the space entered."""
    b = pb(q)
    s[b + P_DIST + v] += 1
    s[b + P_STEPS] += 1
    k = s[b + P_TILE + v]
    if k >= s[K_NSLOTS]:                # on the score spaces (line 160): on, up to the last
        if s[b + P_PATH + v] < 0:
            s[b + P_PATH + v] = 0
            s[b + P_IDX + v] = 0
        elif s[b + P_IDX + v] < s[K_NSCORE] - 1:
            s[b + P_IDX + v] += 1
        return R_NONE
    side = s[G_DEVSIDE + k]
    path = s[b + P_PATH + v]
    i = s[b + P_IDX + v] + 1
    if i < path_len_nb(s, side, path):
        s[b + P_IDX + v] = i
        return s[K_DEV + (side * 2 + path) * MAX_PATH + i]
    s[b + P_TILE + v] = k + 1           # the branch space at the tile's end
    s[b + P_PATH + v] = -1
    s[b + P_IDX + v] = -1
    return s[K_DEV_FORK + side]


@njit(cache=True)
def dev_vp_nb(s, q):
    b = pb(q)
    vp = 0
    for v in range(N_VEH):
        if s[b + P_TILE + v] >= s[K_NSLOTS] and s[b + P_PATH + v] >= 0:
            vp += s[K_SCORE + s[b + P_IDX + v]]
    return vp


@njit(cache=True)
def reward_nb(s, q, r, log):
    """A development reward (seed lines 176-194); True if it waits for a decision."""
    if R_NONE < r < R_CITY:
        gain_card_nb(s, q, r - 1, 1, log)
        return False
    if r == R_CITY:
        s[G_ASK] = D_TAKE_CARD
        return True
    if r == R_MISSION:
        n = draw_missions_nb(s, s[K_MDRAW])
        if n == 1:
            keep_mission_nb(s, q, 0, log)
        if n > 1:
            s[G_ASK] = D_MISSION
        return n > 1
    return False


@njit(cache=True)
def take_card_nb(s, q, slot, log):
    c = s[G_PUBLIC + slot]
    if c == BLANK:
        s[pb(q) + P_BLANKS] += 1
    else:
        s[pb(q) + P_CARDS] |= np.int64(1) << c
    s[G_PUBLIC + slot] = draw_city_nb(s)
    event_nb(s, log, q, EV_TAKE, c, slot, 0, 0)


@njit(cache=True)
def resolve_nb(s, log):
    """Move this turn's steps (transport first, truck, train, ship; then the city and
    perfect-upgrade steps on vehicles used this turn, seed lines 149-194), stopping at
    each decision. True if a decision waits."""
    q = s[G_SEAT]
    while True:
        v = -1
        for x in range(N_VEH):
            if s[G_STEPS + x] > 0:
                v = x
                break
        if v < 0 and s[G_BONUS] > 0:
            used = s[G_USED]
            if used & (used - 1) == 0:      # one vehicle used: every bonus step is its
                v = 0 if used == 1 else (1 if used == 2 else 2)
                s[G_STEPS + v] += s[G_BONUS]
                s[G_BONUS] = 0
                continue
            s[G_ASK] = D_BONUS
            return True
        if v < 0:
            return False
        if at_branch_nb(s, q, v):
            s[G_CURV] = v
            s[G_ASK] = D_PATH
            return True
        s[G_STEPS + v] -= 1
        r = move_nb(s, q, v)
        event_nb(s, log, q, EV_STEP, v, r, s[pb(q) + P_TILE + v], s[pb(q) + P_IDX + v])
        if reward_nb(s, q, r, log):
            return True


# ---- deliveries ------------------------------------------------------------------------
HIGH = 0x808080                     # the top bit of each of a packed word's three bytes


@njit(cache=True, inline="always")
def packed_hand_nb(s, q):
    """Seat q's hand packed as a payment word (trucks | trains << 8 | ships << 16), each
    count capped at 127: a payment needs fewer cards than a route has segments (< MAXC)."""
    b = pb(q)
    return (min(s[b + P_HAND], 127) | (min(s[b + P_HAND + 1], 127) << 8)
            | (min(s[b + P_HAND + 2], 127) << 16))


@njit(cache=True, inline="always")
def covers_nb(hand, w):
    """hand >= w in each of the three counts, both packed (every byte below 128): a byte
    of (hand | HIGH) - w keeps its top bit exactly when hand's count is at least w's."""
    return ((hand | HIGH) - w) & HIGH == HIGH


@njit(cache=True)
def pays_nb(s, q, w):
    b = pb(q)
    return (s[b + P_HAND] >= (w & 255) and s[b + P_HAND + 1] >= ((w >> 8) & 255)
            and s[b + P_HAND + 2] >= (w >> 16))


LIST, COUNT, ANY = -1, -2, -3      # deliveries_nb's modes (k >= 0: the k-th answer)


@njit(cache=True)
def demand_masks_nb(s):
    """G_DMASK: per colour, the cities with a free demand space of it (one pass over the
    cities; scan_nb reads them, so every scan of a decision shares this pass)."""
    for col in range(s[K_NCOL]):
        s[G_DMASK + col] = 0
    for c in range(s[K_NC]):
        t = s[G_TILE + c]
        if t < 0:
            continue
        at = K_TILE + t * 6 + (0 if s[G_LV + c] == 1 else 3)
        for k in range(2):
            if s[G_DEMAND + c * 2 + k] == 0:
                s[G_DMASK + s[at + 1 + k]] |= np.int64(1) << c


@njit(cache=True)
def deliveries_nb(s, q, out, mode):
    """Seat q's legal deliveries (seed lines 108-126), in one fixed order. mode LIST:
    written into out, their number returned; COUNT: their number; ANY: 1 at the first
    (0 if none); k >= 0: the k-th answer (-1 if fewer). out is written in LIST only.
    The demand masks are rebuilt first (demand_masks_nb), the hand is read once."""
    demand_masks_nb(s)
    return scan_nb(s, q, out, mode)


@njit(cache=True)
def scan_nb(s, q, out, mode):
    """deliveries_nb on the demand masks as they are (G_DMASK): for a second scan of the
    same decision (run_nb builds them before it asks for a delivery)."""
    nc = s[K_NC]
    hand = packed_hand_nb(s, q)
    n = 0
    for src in range(nc):
        if s[G_PRESENT + src * MAX_SEATS + q] == 0 or s[G_CUBES + src] == 0:
            continue
        col = produce_nb(s, src)
        if col < 0:
            continue
        m = s[G_DMASK + col] & ~(np.int64(1) << src)
        while m != 0:
            low = m & -m
            m ^= low
            dst = popcount_nb(low - 1)
            pair = src * MAXC + dst
            if not covers_nb(hand, s[K_PAY_MIN + pair]):
                continue
            at = s[K_PAY_AT + pair]
            for k in range(s[K_PAY_N + pair]):
                if covers_nb(hand, s[K_PAY + at + k]):
                    if mode == ANY:
                        return 1
                    if n == mode:
                        return pair * MAX_OPT + k
                    if mode == LIST:
                        out[n] = pair * MAX_OPT + k
                    n += 1
    return n if mode < 0 else -1


@njit(cache=True)
def delivery_ok_nb(s, q, a):
    if a < 0:
        return False
    pair, k = a // MAX_OPT, a % MAX_OPT
    src, dst = pair // MAXC, pair % MAXC
    if src >= s[K_NC] or dst >= s[K_NC] or src == dst:
        return False
    if not has_post_nb(s, q, src) or s[G_CUBES + src] == 0:
        return False
    col = produce_nb(s, src)
    if col < 0 or free_slot_nb(s, dst, col) < 0 or k >= s[K_PAY_N + pair]:
        return False
    return pays_nb(s, q, s[K_PAY + s[K_PAY_AT + pair] + k])


@njit(cache=True)
def city_bonus_nb(s, q, city):
    return 1 if public_has_nb(s, city) or owns_nb(s, q, city) else 0


@njit(cache=True)
def deliver_nb(s, q, a, log):
    """Pay, move the cube, place the post, upgrade; the turn's steps set up (lines 118-172)."""
    pair, k = a // MAX_OPT, a % MAX_OPT
    src, dst = pair // MAXC, pair % MAXC
    w = s[K_PAY + s[K_PAY_AT + pair] + k]
    b = pb(q)
    used = 0
    for v in range(N_VEH):
        n = (w >> (8 * v)) & 255
        s[b + P_HAND + v] -= n
        s[b + P_PLAYED + v] += n
        s[G_STEPS + v] = n * s[K_ICONS + v]
        if n > 0:
            used |= 1 << v
    # the city bonus counts the cards as they are before the delivery (public or owned)
    bonus = city_bonus_nb(s, q, src) + city_bonus_nb(s, q, dst)
    col = produce_nb(s, src)
    s[G_CUBES + src] -= 1
    s[b + P_DELIV] += 1
    s[b + P_DELIV_COL + col] += 1
    event_nb(s, log, q, EV_DELIVER, src, dst, w, col)
    perfect = place_post_nb(s, q, dst, free_slot_nb(s, dst, col), log)
    s[b + P_PERFECT] += perfect
    s[b + P_CITY_BONUS] += bonus
    s[G_BONUS] = bonus + perfect
    s[G_USED] = used


@njit(cache=True)
def pass_ok_nb(s, q, a):
    if a == 0:
        return True
    c = a - 1
    return (0 <= c < s[K_NC] and has_post_nb(s, q, c) and s[G_TILE + c] >= 0
            and s[G_CUBES + c] < s[K_PROD])


@njit(cache=True)
def pass_nb(s, q, a, log):
    """The forced pass (seed lines 128-131): a post of this round leaves the game, then
    three cards or a city's production refilled."""
    s[pb(q) + P_REMOVED] += 1
    s[pb(q) + P_PASSES] += 1
    if a == 0:
        for v in range(N_VEH):
            gain_card_nb(s, q, v, 1, log)
    else:
        s[G_CUBES + a - 1] = s[K_PROD]
    event_nb(s, log, q, EV_PASS, a, 0, 0, 0)


# ---- turn order -------------------------------------------------------------------------
@njit(cache=True)
def rank_order_nb(s):
    """The next round's order (seed lines 203-217): space by space, the leader of the
    space's vehicle among the seats not placed yet (ties: earlier this round); a free-choice
    space, or the last seat left, takes the first unplaced seat in this round's order."""
    n = s[R_N_PLAYERS]
    placed = 0
    for i in range(n):
        bonus = s[K_ORDER_BONUS + i]
        best = -1
        for j in range(n):
            q = s[G_ORDER + j]
            if (placed >> q) & 1:
                continue
            if best < 0:
                best = q
                if bonus == B_ANY or i == n - 1:
                    break
                continue
            if s[pb(q) + P_DIST + bonus] > s[pb(best) + P_DIST + bonus]:
                best = q
        s[G_NEXT + i] = best
        placed |= 1 << best
    for i in range(n):
        s[G_ORDER + i] = s[G_NEXT + i]
        s[G_BONUS_OF + i] = s[K_ORDER_BONUS + i]


# ---- the machine -----------------------------------------------------------------------
@njit(cache=True)
def shuffle_nb(s, at, n):
    for i in range(n - 1, 0, -1):
        j = rand_below_at_nb(s, M_RNG, i + 1)
        t = s[at + i]
        s[at + i] = s[at + j]
        s[at + j] = t


@njit(cache=True)
def begin_nb(s, seed, game, log, n_events, rows):
    """Set up game ``game`` from its seed (seed lines 44-86) and run to the first decision."""
    for i in range(MARKS, MARKS_END):
        s[i] = 0
    for i in range(G_PHASE, STATE_SIZE):
        s[i] = 0
    s[M_RNG] = np.int64(seed)
    s[M_BOT_SEED] = bot_seed_nb(np.int64(seed))
    s[G_GAME], s[G_NEV], s[G_LOG_CAP] = game, n_events, rows
    s[G_WINNER] = -1
    n, nc = s[R_N_PLAYERS], s[K_NC]
    # city tiles from the bag, LV1 up, production filled
    for t in range(s[K_NTILES]):
        s[G_BAG + t] = t
    shuffle_nb(s, G_BAG, s[K_NTILES])
    for c in range(nc):
        s[G_TILE + c] = s[G_BAG + c]
        s[G_LV + c] = 1
        s[G_CUBES + c] = s[K_PROD]
    # development tiles: K_NSLOTS of the tiles at random, a random side each
    ntile = s[K_NDEV] // 2
    for k in range(ntile):
        s[G_DEVSIDE + k] = k
    for i in range(s[K_NSLOTS]):
        j = i + rand_below_at_nb(s, M_RNG, ntile - i)
        t = s[G_DEVSIDE + j]
        s[G_DEVSIDE + j] = s[G_DEVSIDE + i]
        s[G_DEVSIDE + i] = t
    for i in range(s[K_NSLOTS]):
        s[G_DEVSIDE + i] = 2 * s[G_DEVSIDE + i] + rand_below_at_nb(s, M_RNG, 2)
    # city deck (one card a city), four public
    for c in range(nc):
        s[G_DECK + c] = c
    shuffle_nb(s, G_DECK, nc)
    s[G_DECK_TOP], s[G_DECK_N] = 0, nc
    for k in range(s[K_NPUB]):
        s[G_PUBLIC + k] = draw_city_nb(s)
    # missions
    for m in range(s[K_NMISS]):
        s[G_MDECK + m] = m
    shuffle_nb(s, G_MDECK, s[K_NMISS])
    s[G_MTOP], s[G_MN] = 0, s[K_NMISS]
    # each seat: hand, markers at the start, a secret city card
    for q in range(n):
        b = pb(q)
        for v in range(N_VEH):
            s[b + P_HAND + v] = s[K_START_HAND + v]
            s[b + P_PATH + v] = -1
            s[b + P_IDX + v] = -1
        s[b + P_SECRET] = draw_city_nb(s)
        s[G_FIRST_CITY + q] = -1
    # the first player at random, then clockwise; the order bonuses (lines 67-71)
    first = rand_below_at_nb(s, M_RNG, n)
    for i in range(n):
        s[G_ORDER + i] = (first + i) % n
        s[G_BONUS_OF + i] = s[K_ORDER_BONUS + i]
    s[G_ROUND] = 0
    s[G_PHASE], s[G_IDX], s[G_AFTER] = PH_ORDER_BONUS, 0, PH_SETUP_MISSION
    run_nb(s, log)


@njit(cache=True)
def run_nb(s, log):
    """Run the machine until a decision waits (G_ASK, G_SEAT) or the game ends (G_ASK -1)."""
    n = s[R_N_PLAYERS]
    s[G_ASK] = -1
    while True:
        ph = s[G_PHASE]
        if ph == PH_ORDER_BONUS:
            i = s[G_IDX]
            if i >= n:
                s[G_PHASE], s[G_IDX] = s[G_AFTER], 0
                continue
            q = s[G_ORDER + i]
            s[G_SEAT] = q
            bonus = s[G_BONUS_OF + i]
            event_nb(s, log, q, EV_ORDER, i, bonus, 0, 0)
            if bonus == B_ANY:
                s[G_ASK] = D_ANY_CARD
                return
            gain_card_nb(s, q, bonus, 1, log)
            s[G_IDX] = i + 1
        elif ph == PH_SETUP_MISSION:
            i = s[G_IDX]
            if i >= n:
                s[G_PHASE], s[G_IDX] = PH_START1, 0
                continue
            s[G_SEAT] = s[G_ORDER + i]
            m = draw_missions_nb(s, s[K_MDRAW])
            if m > 1:
                s[G_ASK] = D_MISSION
                return
            if m == 1:
                keep_mission_nb(s, s[G_SEAT], 0, log)
            s[G_IDX] = i + 1
        elif ph == PH_START1:
            i = s[G_IDX]
            if i >= n:
                s[G_PHASE], s[G_IDX] = PH_START2, 0
                continue
            s[G_SEAT] = s[G_ORDER + n - 1 - i]         # reverse order (line 77)
            s[G_ASK] = D_START_CITY
            return
        elif ph == PH_START2:
            i = s[G_IDX]
            if i >= n:
                s[G_PHASE], s[G_IDX], s[G_TURN], s[G_ROUND] = PH_TURN, 0, 0, 1
                continue
            q = s[G_ORDER + i]
            s[G_SEAT] = q
            c = s[pb(q) + P_SECRET]
            if c >= 0:
                s[pb(q) + P_CARDS] |= np.int64(1) << c
                s[pb(q) + P_SECRET] = NO_CARD
            if c < 0 or s[G_TILE + c] < 0:             # no card (a tiny deck) or no tile left
                s[G_IDX] = i + 1
                continue
            free0 = s[G_DEMAND + c * 2] == 0
            free1 = s[G_DEMAND + c * 2 + 1] == 0
            if free0 and free1:
                s[G_CURV] = c
                s[G_ASK] = D_START_SLOT
                return
            place_post_nb(s, q, c, 0 if free0 else 1, log)
            event_nb(s, log, q, EV_START, c, 0 if free0 else 1, 2, 0)
            s[G_IDX] = i + 1
        elif ph == PH_TURN:
            if s[G_TURN] >= s[K_TURNS]:
                if s[G_ROUND] >= s[K_ROUNDS]:
                    end_nb(s, log)
                    return
                rank_order_nb(s)                        # cleanup (lines 196-221)
                s[G_ROUND] += 1
                s[G_TURN], s[G_IDX] = 0, 0
                s[G_PHASE], s[G_AFTER] = PH_ORDER_BONUS, PH_TURN
                continue
            q = s[G_ORDER + s[G_IDX]]
            s[G_SEAT] = q
            s[G_ASK] = D_DELIVER if deliveries_nb(s, q, s, ANY) > 0 else D_PASS
            return
        elif ph == PH_RESOLVE:
            if resolve_nb(s, log):
                return
            next_turn_nb(s)
        else:
            return


@njit(cache=True)
def next_turn_nb(s):
    s[G_PHASE] = PH_TURN
    s[G_IDX] += 1
    if s[G_IDX] >= s[R_N_PLAYERS]:
        s[G_IDX] = 0
        s[G_TURN] += 1


@njit(cache=True)
def ok_nb(s, a):
    """Is ``a`` a legal answer to the pending decision?"""
    kind, q = s[G_ASK], s[G_SEAT]
    if kind == D_DELIVER:
        return delivery_ok_nb(s, q, a)
    if kind == D_PASS:
        return pass_ok_nb(s, q, a)
    if kind == D_PATH or kind == D_START_SLOT:
        return a == 0 or a == 1
    if kind == D_BONUS:
        return 0 <= a < N_VEH and (s[G_USED] >> a) & 1 == 1
    if kind == D_TAKE_CARD:
        return 0 <= a < s[K_NPUB] and s[G_PUBLIC + a] != NO_CARD
    if kind == D_ANY_CARD:
        return 0 <= a < N_VEH
    if kind == D_MISSION:
        return 0 <= a < s[G_MOFFER_N]
    if kind == D_START_CITY:
        return start_city_ok_nb(s, a)
    return False


@njit(cache=True)
def start_city_ok_nb(s, a):
    """A public card's city, different from every first start city chosen so far while
    such a card is left (seed line 84; more seats than public cards: any, our ruling)."""
    if a < 0 or a >= 2 * s[K_NPUB]:
        return False
    c = s[G_PUBLIC + a // 2]
    if c < 0 or s[G_DEMAND + c * 2 + a % 2] != 0:
        return False
    if not chosen_nb(s, c):
        return True
    for k in range(s[K_NPUB]):          # a taken city only when every public city is taken
        d = s[G_PUBLIC + k]
        if d >= 0 and not chosen_nb(s, d):
            return False
    return True


@njit(cache=True)
def chosen_nb(s, c):
    for q in range(s[R_N_PLAYERS]):
        if s[G_FIRST_CITY + q] == c:
            return True
    return False


@njit(cache=True)
def answers_below_nb(s, kind):
    """An upper bound of the answers of a decision other than a delivery."""
    if kind == D_PASS:
        return 1 + s[K_NC]
    if kind == D_TAKE_CARD:
        return s[K_NPUB]
    if kind == D_MISSION:
        return s[G_MOFFER_N]
    if kind == D_START_CITY:
        return 2 * s[K_NPUB]
    if kind == D_BONUS or kind == D_ANY_CARD:
        return N_VEH
    return 2


@njit(cache=True)
def legal_nb(s, out):
    """The pending decision's legal answers into out (MAX_LEGAL long); their number."""
    kind, q = s[G_ASK], s[G_SEAT]
    if kind < 0:
        return 0
    if kind == D_DELIVER:
        return deliveries_nb(s, q, out, LIST)
    n = 0
    for a in range(answers_below_nb(s, kind)):
        if ok_nb(s, a):
            out[n] = a
            n += 1
    return n


@njit(cache=True)
def answer_nb(s, a, log):
    """Apply the (legal) answer ``a`` to the pending decision; run to the next."""
    kind, q = s[G_ASK], s[G_SEAT]
    s[M_DECISIONS] += 1
    if kind == D_DELIVER:
        deliver_nb(s, q, a, log)
        s[G_PHASE] = PH_RESOLVE
    elif kind == D_PASS:
        pass_nb(s, q, a, log)
        next_turn_nb(s)
    elif kind == D_PATH:
        v = s[G_CURV]
        s[pb(q) + P_PATH + v] = a
        s[pb(q) + P_IDX + v] = -1
    elif kind == D_BONUS:
        s[G_STEPS + a] += 1
        s[G_BONUS] -= 1
    elif kind == D_TAKE_CARD:
        take_card_nb(s, q, a, log)
    elif kind == D_MISSION:
        keep_mission_nb(s, q, a, log)
        if s[G_PHASE] == PH_SETUP_MISSION:
            s[G_IDX] += 1
    elif kind == D_ANY_CARD:
        gain_card_nb(s, q, a, 1, log)
        s[G_IDX] += 1
    elif kind == D_START_CITY:
        c = s[G_PUBLIC + a // 2]
        s[G_FIRST_CITY + q] = c
        place_post_nb(s, q, c, a % 2, log)
        event_nb(s, log, q, EV_START, c, a % 2, 1, 0)
        s[G_IDX] += 1
    elif kind == D_START_SLOT:
        c = s[G_CURV]
        place_post_nb(s, q, c, a, log)
        event_nb(s, log, q, EV_START, c, a, 2, 0)
        s[G_IDX] += 1
    run_nb(s, log)


# ---- the end --------------------------------------------------------------------------
@njit(cache=True)
def mission_done_nb(s, q, m):
    kind, need, arg = s[K_MISS + m * 4], s[K_MISS + m * 4 + 1], s[K_MISS + m * 4 + 2]
    b = pb(q)
    have = 0
    if kind == MK_PORTS or kind == MK_CITIES or kind == MK_LV3:
        for c in range(s[K_NC]):
            if has_post_nb(s, q, c) and (kind == MK_CITIES or (kind == MK_PORTS and s[K_PORT + c] == 1)
                                         or (kind == MK_LV3 and s[G_LV + c] == 3)):
                have += 1
    elif kind == MK_COLOUR:
        have = s[b + P_DELIV_COL + arg]
    elif kind == MK_CARDS:
        have = cards_owned_nb(s, q)
    elif kind == MK_TRACK:
        for v in range(N_VEH):
            if s[b + P_TILE + v] >= s[K_NSLOTS] and s[b + P_PATH + v] >= 0:
                have += 1
    elif kind == MK_PERFECT:
        have = s[b + P_PERFECT]
    return have >= need


@njit(cache=True)
def cards_owned_nb(s, q):
    n = s[pb(q) + P_BLANKS]
    m = s[pb(q) + P_CARDS]
    while m:
        m &= m - 1
        n += 1
    return n


@njit(cache=True)
def score_nb(s, q):
    """Final points (seed lines 225-230): development, LV3 posts, city cards, missions."""
    b = pb(q)
    s[b + P_DEV_VP] = dev_vp_nb(s, q)
    lv3 = 0
    for c in range(s[K_NC]):
        if s[G_LV + c] == 3:
            lv3 += s[G_PRESENT + c * MAX_SEATS + q]
    s[b + P_LV3_VP] = lv3 * s[K_LV3_VP]
    s[b + P_CARD_VP] = cards_owned_nb(s, q) * s[K_CARD_VP]
    mvp, done = 0, 0
    for i in range(s[b + P_NMISS]):
        m = s[b + P_MISS + i]
        if mission_done_nb(s, q, m):
            mvp += s[K_MISS + m * 4 + 3]
            done += 1
    s[b + P_MISS_VP], s[b + P_MISS_DONE] = mvp, done
    s[b + P_VP] = s[b + P_DEV_VP] + s[b + P_LV3_VP] + s[b + P_CARD_VP] + mvp


@njit(cache=True)
def beats_nb(s, a, ia, c, ic):
    """Does seat a (at place ia of the final order) rank before seat c (line 232)?"""
    ba, bc = pb(a), pb(c)
    for f in (P_VP, P_DEV_VP, P_LV3_VP, P_CARD_VP, P_MISS_VP):
        if s[ba + f] != s[bc + f]:
            return s[ba + f] > s[bc + f]
    return ia < ic


@njit(cache=True)
def end_nb(s, log):
    n = s[R_N_PLAYERS]
    for q in range(n):
        score_nb(s, q)
    for i in range(n):
        a = s[G_ORDER + i]
        rank = 1
        for j in range(n):
            if j != i and beats_nb(s, s[G_ORDER + j], j, a, i):
                rank += 1
        s[pb(a) + P_RANK] = rank
        s[pb(a) + P_WON] = 1 if rank == 1 else 0
        if rank == 1:
            s[G_WINNER] = a
        event_nb(s, log, a, EV_SCORE, s[pb(a) + P_VP], s[pb(a) + P_DEV_VP], s[pb(a) + P_LV3_VP],
                 s[pb(a) + P_MISS_VP])
    s[G_PHASE] = PH_OVER
    s[G_ASK] = -1
