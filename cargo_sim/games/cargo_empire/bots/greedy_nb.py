"""Cargo Empire's heuristic family: one-step evaluation of each answer with weights a
player would recognise (the named strategies and `expert` in bots/registry.py set them).

A delivery is valued without playing it: the development steps it earns (transport
icons, city and perfect-upgrade steps) and the rewards those steps pass, the cards it
spends, the upgrade it causes (perfect or not, LV3 posts), the supply it opens, the
missions it advances. Only what the seat may see is read: its own missions, the
public board, every seat's (public) hand and markers.
"""
import numpy as np
from ....core import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit

from ....core.layout import N_PARAMS, PARAM_SCALE, PARAMS
from ..engine_nb import (COUNT, LIST, city_bonus_nb, deliveries_nb, free_slot_nb, has_post_nb, mission_done_nb,
                         ok_nb, answers_below_nb, path_len_nb, pb, produce_nb, scan_nb)
from ..enums import (D_ANY_CARD, D_BONUS, D_DELIVER, D_MISSION, D_PASS, D_PATH, D_START_CITY,
                     D_TAKE_CARD, G_CUBES, G_CURV, G_DEMAND, G_DEVSIDE, G_LV, G_MOFFER, G_PRESENT,
                     G_PUBLIC, G_USED, K_DEV, K_DEV_FORK, K_ICONS, K_MISS, K_NC, K_NSCORE, K_NSLOTS,
                     K_PAY, K_PAY_AT, K_PORT, K_PROD, K_SCORE, MAXC, MAX_OPT, MAX_PATH, MAX_SEATS,
                     MK_CITIES, MK_COLOUR, MK_LV3, MK_PORTS, N_VEH, P_DIST, P_HAND, P_IDX, P_MISS,
                     P_NMISS, P_PATH, P_TILE, R_CITY, R_MISSION, R_NONE)

# the parameters' slots (registry.GREEDY_PARAMS, in this order)
W_STEP, W_CARD_COST, W_SHIP_COST, W_PERFECT, W_UPGRADE, W_LV3, W_SUPPLY, W_MISSION = 0, 1, 2, 3, 4, 5, 6, 7
W_FOCUS, W_CITY, W_R_CARD, W_R_CITY, W_R_MISSION, W_VP, W_HAND = 8, 9, 10, 11, 12, 13, 14


@njit(cache=True)
def w_nb(s, seat, i):
    return s[PARAMS + seat * N_PARAMS + i] / PARAM_SCALE


@njit(cache=True)
def reward_value_nb(s, seat, r):
    if r == R_NONE:
        return 0.0
    if r == R_CITY:
        return w_nb(s, seat, W_R_CITY)
    if r == R_MISSION:
        return w_nb(s, seat, W_R_MISSION)
    return w_nb(s, seat, W_R_CARD)


@njit(cache=True)
def path_value_nb(s, seat, slot, path, ahead):
    """The rewards of the first ``ahead`` spaces of a path (and its branch space if reached)."""
    side = s[G_DEVSIDE + slot]
    n = path_len_nb(s, side, path)
    val = 0.0
    for i in range(min(n, ahead)):
        val += reward_value_nb(s, seat, s[K_DEV + (side * 2 + path) * MAX_PATH + i])
    if ahead > n:
        val += reward_value_nb(s, seat, s[K_DEV_FORK + side])
    return val - 0.01 * n           # of equal rewards, the shorter path (sooner to the points)


@njit(cache=True)
def best_path_nb(s, seat, slot, ahead):
    return 0 if path_value_nb(s, seat, slot, 0, ahead) >= path_value_nb(s, seat, slot, 1, ahead) else 1


@njit(cache=True)
def walk_value_nb(s, seat, v, steps):
    """The value of moving vehicle v ``steps`` spaces (paths chosen as the bot would):
    rewards passed and score points gained."""
    b = pb(seat)
    k, path, i = s[b + P_TILE + v], s[b + P_PATH + v], s[b + P_IDX + v]
    nslots = s[K_NSLOTS]
    val = 0.0
    for step in range(steps):
        if k >= nslots:
            before = s[K_SCORE + i] if path >= 0 else 0
            if path < 0:
                path, i = 0, 0
            elif i < s[K_NSCORE] - 1:
                i += 1
            val += w_nb(s, seat, W_VP) * (s[K_SCORE + i] - before)
            continue
        if path < 0:
            path = best_path_nb(s, seat, k, steps - step)
            i = -1
        side = s[G_DEVSIDE + k]
        i += 1
        if i < path_len_nb(s, side, path):
            val += reward_value_nb(s, seat, s[K_DEV + (side * 2 + path) * MAX_PATH + i])
        else:
            val += reward_value_nb(s, seat, s[K_DEV_FORK + side])
            k, path, i = k + 1, -1, -1
    return val


@njit(cache=True)
def missions_done_nb(s, seat):
    """Bit j: the seat's j-th mission is done (once a decision, not once an answer)."""
    b = pb(seat)
    done = 0
    for j in range(s[b + P_NMISS]):
        if mission_done_nb(s, seat, s[b + P_MISS + j]):
            done |= 1 << j
    return done


@njit(cache=True)
def mission_gain_nb(s, seat, src, dst, col, done):
    """How much a delivery (src -> dst, a cube of colour col) advances the seat's missions
    not yet done (``done``: missions_done_nb): one unit per mission it counts for,
    weighted by the mission's points."""
    b = pb(seat)
    gain = 0.0
    new_city = not has_post_nb(s, seat, dst)
    for j in range(s[b + P_NMISS]):
        m = s[b + P_MISS + j]
        if (done >> j) & 1:
            continue
        kind, arg, vp = s[K_MISS + m * 4], s[K_MISS + m * 4 + 2], s[K_MISS + m * 4 + 3]
        if ((kind == MK_COLOUR and arg == col) or (kind == MK_CITIES and new_city)
                or (kind == MK_PORTS and new_city and s[K_PORT + dst] == 1)
                or (kind == MK_LV3 and s[G_LV + dst] == 2 and new_city)):
            gain += vp / 4.0
    return gain


@njit(cache=True)
def delivery_value_nb(s, seat, a, done):
    pair, k = a // MAX_OPT, a % MAX_OPT
    src, dst = pair // MAXC, pair % MAXC
    w = s[K_PAY + s[K_PAY_AT + pair] + k]
    col = produce_nb(s, src)
    b = pb(seat)
    # the upgrade this post causes (the other demand space taken) and whether perfect
    other = 1 - free_slot_nb(s, dst, col)
    upgrade = s[G_DEMAND + dst * 2 + other] != 0
    perfect = upgrade and s[G_CUBES + dst] == 0
    bonus = city_bonus_nb(s, seat, src) + city_bonus_nb(s, seat, dst) + (1 if perfect else 0)
    val = 0.0
    cards = 0
    best_v, best_d = -1, -1
    for v in range(N_VEH):
        n = (w >> (8 * v)) & 255
        cards += n
        if n > 0 and s[b + P_DIST + v] > best_d:
            best_v, best_d = v, s[b + P_DIST + v]
    for v in range(N_VEH):
        n = (w >> (8 * v)) & 255
        if n == 0:
            continue
        steps = n * s[K_ICONS + v] + (bonus if v == best_v else 0)
        val += w_nb(s, seat, W_STEP) * steps + walk_value_nb(s, seat, v, steps)
        if v == best_v:
            val += w_nb(s, seat, W_FOCUS) * steps
    val -= w_nb(s, seat, W_CARD_COST) * cards + w_nb(s, seat, W_SHIP_COST) * (w >> 16)
    val += w_nb(s, seat, W_CITY) * (bonus - (1 if perfect else 0))
    if upgrade:
        val += w_nb(s, seat, W_UPGRADE)
        if perfect:
            val += w_nb(s, seat, W_PERFECT)
        if s[G_LV + dst] == 2:          # the city goes LV3: its posts score
            val += w_nb(s, seat, W_LV3) * (s[G_PRESENT + dst * MAX_SEATS + seat] + 1)
    # a new supply: the target's cubes (refilled at an LV1 -> LV2 upgrade) become reachable
    if not has_post_nb(s, seat, dst):
        cubes = s[K_PROD] if (upgrade and s[G_LV + dst] == 1) else (0 if upgrade else s[G_CUBES + dst])
        val += w_nb(s, seat, W_SUPPLY) * cubes
    val += w_nb(s, seat, W_MISSION) * mission_gain_nb(s, seat, src, dst, col, done)
    return val


@njit(cache=True)
def best_delivery_nb(s, seat):
    n = deliveries_nb(s, seat, s, COUNT)
    answers = np.empty(max(n, 1), np.int64)
    scan_nb(s, seat, answers, LIST)         # one more scan, not one per answer
    done = missions_done_nb(s, seat)
    best, best_val = -1, -1e300
    for j in range(n):
        a = answers[j]
        val = delivery_value_nb(s, seat, a, done)
        if val > best_val:
            best, best_val = a, val
    return best


@njit(cache=True)
def city_card_value_nb(s, seat, c):
    """A public city card worth taking: cities the seat supplies from or may deliver to."""
    if c < 0:
        return 0.0
    val = 0.5
    if s[G_LV + c] < 3:
        val += 1.0
        if has_post_nb(s, seat, c):
            val += 1.0 + s[G_CUBES + c] * 0.5
    return val


@njit(cache=True)
def start_value_nb(s, seat, c):
    """A start city: its cubes and the free demands of its colour on the map, a port."""
    col = produce_nb(s, c)
    val = s[G_CUBES + c] + 0.5 * s[K_PORT + c]
    for d in range(s[K_NC]):
        if d != c and free_slot_nb(s, d, col) >= 0:
            val += 0.2
    return val


@njit(cache=True)
def argmax_legal_nb(s, seat, kind):
    """The legal answer of a small decision with the highest value (first of equals)."""
    best, best_val = -1, -1e300
    b = pb(seat)
    for a in range(answers_below_nb(s, kind)):
        if not ok_nb(s, a):
            continue
        if kind == D_PATH:
            val = path_value_nb(s, seat, s[b + P_TILE + s[G_CURV]], a, 4)
        elif kind == D_BONUS:
            val = walk_value_nb(s, seat, a, 1) + w_nb(s, seat, W_FOCUS) * s[b + P_DIST + a] * 0.1
        elif kind == D_TAKE_CARD:
            val = city_card_value_nb(s, seat, s[G_PUBLIC + a])
        elif kind == D_MISSION:
            m = s[G_MOFFER + a]
            val = s[K_MISS + m * 4 + 3] / (1.0 + s[K_MISS + m * 4 + 1])
        elif kind == D_ANY_CARD:
            val = -s[b + P_HAND + a] + (0.5 if a == 1 else 0.0)     # the card held least, trains first
        elif kind == D_START_CITY:
            val = start_value_nb(s, seat, s[G_PUBLIC + a // 2]) - 0.01 * (a % 2)
        elif kind == D_PASS:
            hand = s[b + P_HAND] + s[b + P_HAND + 1] + s[b + P_HAND + 2]
            val = w_nb(s, seat, W_HAND) * (3.0 if a == 0 else 0.0) + (0.0 if a == 0 else
                                                                      hand * 0.5 + s[K_PROD] - s[G_CUBES + a - 1])
        else:
            val = -a
        if val > best_val:
            best, best_val = a, val
    return best


@njit(cache=True)
def greedy_decide_nb(kind, s, seat):
    if kind == D_DELIVER:
        return best_delivery_nb(s, seat)
    return argmax_legal_nb(s, seat, kind)
