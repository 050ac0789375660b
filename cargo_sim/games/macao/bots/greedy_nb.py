"""Macao's heuristic family (`greedy` and its named strategies): one step of look-ahead.

Phase 3: every legal action is applied to a scratch copy of the game part and the
seat's position is valued (``value_nb``: points, coins, the city group, goods held,
the ship, active cards, the wall, less the tableau's penalty; cubes in hand are worth
nothing, as they are lost at the round's end); the best action is taken, and the turn
ends when no action raises the value. Cards, dice and colours by simple rules (below).
Parameters (fixed point, ``PARAMS``): see ``registry.GREEDY_PARAMS``; from ``fade`` on
(end-game fading, delivery values, dice and draft for the tableau's colours, colours
kept, dice for empty rose sides and for a quarter's cost, end cards' points in the draft,
a full tableau) 0 is the first behaviour (docs/macao_study.md). Speed (docs/macao_study.md,
docs/performance.md): a try is undone by copying back the words it may write, actions of
equal value are tried once, what the tries share is found once a decision, and the
commonest tries (a sail, a wall step, a goods tile, an office's coins) write only the
words the value reads and put them back (light_value_nb).
"""
from ....core import cache  # noqa: F401  (first: numba's cache folder for this source version)
import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from ....core.borrow_nb import keep_nb, state_ptr_nb
from ....core.layout import N_PARAMS, PARAM_SCALE, PARAMS
from ..card_effects_nb import (activate_ok_nb, activation_open_nb, coin_completer_nb,
                               open_options_nb, options_nb)
from ..engine_nb import act_nb, action_ok_nb, deliver_ok_nb, end_card_points_nb, pb, port_here_nb, wall_pair_ok_nb
from ..table_nb import (arg_nb, avail_nb, copy_words_nb, cost_ok_nb, effect_sum_nb, markers_left_nb, multiset_nb,
                        multiset_rank_nb, names_colour_nb, off_ok_nb, stack_words_nb)
from ..enums import (ACT_BLOCK, A_ACT, A_COMPLETE, A_COMPLETE_COINS, A_COMPLETE_OFF, A_DELIVER, A_END, A_GOODS, A_GOODS_COINS, A_GOODS_OFF, A_JOKER, A_SAIL, A_SAIL_BACK,
                     A_TRIBUTE, A_WALL, D_ACTION, D_CARD, D_COLOUR, D_DICE, D_DICE_EXTRA,
                     D_DICE_SHIFT, D_DISCARD, E_COINS_ON_GOODS, E_COINS_ON_OFFICE_ACTIVATE,
                     E_COMPLETE_DISCOUNT, E_CUBE_IF_ALONE_LOWEST, E_CUBE_IF_TRIBUTE_PAID, E_EXTRA_GOODS, E_EXTRA_TRIBUTE,
                     E_GAIN_ANY_CUBE, E_GAIN_CUBE, E_GOODS_DISCOUNT, E_GOODS_FOR_COINS,
                     E_PAY_COINS_COMPLETE_CARD, E_PAY_COINS_FOR_ANY_CUBE,
                     E_PAY_CUBES_FOR_ANY_CUBE, E_PAY_CUBES_FOR_COINS, E_PAY_CUBE_FOR_COINS,
                     E_PAY_DISTINCT_CUBES_FOR_POINTS, E_WALL_STEPS_ON_GOODS, E_WALL_TO_TOP, G_DELIV,
                     G_DICE, G_LOG_CAP, G_NEV, G_N_OFFER, G_OFFER, G_PORT_DELIV, G_Q_OWNER,
                     G_Q_TILE, G_ROUND, G_STAMP, G_SUPPLY, K_C_COLOUR, K_C_COST, K_C_EFFECT, K_C_PACK,
                     K_C_KIND, K_C_TIMING, K_CHOSEN, K_DP, K_MIXED, K_OFF_CHOSEN, K_GROUP_PTS, K_LIMIT_COINS, K_LIMIT_CUBES, K_NQ,
                     K_N_DP, K_N_GOODS, K_N_PORTS, K_OFFICE_KIND, K_PER_GOOD, K_PORT_GOODS,
                     K_PORT_SPACE, K_Q_ADJ, K_Q_AFFORD, K_Q_COST, K_RETURN, K_ROSE_SIDES, K_ROUNDS, K_ROUTE_END, K_TAB_SPACES,
                     K_TAB_PEN, K_WALL_COST1, K_WALL_COST2, K_WALL_SPACES, MAX_ADJ, MAX_DONE,
                     MAX_GOODS, MAX_LEGAL, MAX_PORTS, MAX_Q, MAX_TAB, NC, PACK_HIGH, PW, P_CITY, P_COINS,
                     P_DELIVERED_TILES, P_DONE, P_GOODS, P_GOODS_MAX, P_GOODS_N, P_JOKERS, P_N_DONE,
                     P_N_TAB, P_REF, P_ROSE, P_SHIP, P_TAB, P_TRIB_N, P_USED, P_VP, P_WALL,
                     P_WALL_N, COST_CAP, T_ACTIVATE, T_END)

# parameter slots (registry.GREEDY_PARAMS, in this order); from W_FADE on, 0 is the old
# behaviour (greedy and the named strategies leave them 0, expert all but W_DELIV to W_FIT)
(W_COIN, W_CITY, W_GOODS, W_SHIP, W_CARD, W_WALL, W_JOKER, W_SOON,
 W_FADE, W_DELIV, W_NEED, W_KEEP, W_FIT, W_GAP, W_CROWD, W_END, W_QDICE) = range(17)


@njit(cache=True)
def w_nb(s, seat, i):
    return s[PARAMS + seat * N_PARAMS + i] / PARAM_SCALE


@njit(cache=True)
def weights_nb(s, q):
    """The seat's parameters that value_nb reads as floats (w_nb's), once a decision
    rather than once a try; 0.0 for the others (W_SOON, W_NEED, W_KEEP, W_FIT, W_GAP,
    W_END, W_QDICE: read elsewhere through w_nb or the state; their divisions were a
    quarter of this one's)."""
    at = PARAMS + q * N_PARAMS
    return (s[at] / PARAM_SCALE, s[at + 1] / PARAM_SCALE, s[at + 2] / PARAM_SCALE,
            s[at + 3] / PARAM_SCALE, s[at + 4] / PARAM_SCALE, s[at + 5] / PARAM_SCALE,
            s[at + 6] / PARAM_SCALE, 0.0, s[at + 8] / PARAM_SCALE,
            s[at + 9] / PARAM_SCALE, 0.0, 0.0, 0.0, 0.0, s[at + 14] / PARAM_SCALE, 0.0)


# value_nb's memo of one decision (memo_nb; docs/performance.md, Macao): the decision's
# completed cards, city, ship and tiles delivered, then each completed card's end points
# (NOT_YET until asked), then each good's best port ahead at any distance (its points and
# distance; -1 until asked) from the ship's space, then from the next space
M_N_DONE, M_CITY, M_SHIP, M_DELIVERED, M_ENDS = 0, 1, 2, 3, 4
M_PORTS = M_ENDS + MAX_DONE + 1
M_NEXT = M_PORTS + 2 * MAX_GOODS
N_MEMO = M_NEXT + 2 * MAX_GOODS
NOT_YET = -(1 << 62)
ANY_DISTANCE = 1 << 40


@njit(cache=True, inline="always")
def memo_nb(s, q, memo, at):
    """value_nb's memo for the decision's state (nothing asked yet)."""
    b = pb(q)
    memo[at + M_N_DONE], memo[at + M_CITY], memo[at + M_SHIP] = s[b + P_N_DONE], s[b + P_CITY], s[b + P_SHIP]
    memo[at + M_DELIVERED] = s[b + P_DELIVERED_TILES]
    for i in range(s[b + P_N_DONE]):
        memo[at + M_ENDS + i] = NOT_YET
    for g in range(s[K_N_GOODS]):
        memo[at + M_PORTS + 2 * g + 1] = -1
        memo[at + M_NEXT + 2 * g + 1] = -1


@njit(cache=True)
def best_port_nb(s, g, ship, reach):
    """The port ahead within ``reach`` spaces that takes good g for the most points a space
    to go (the first such): (its points, its distance), or (0, 0)."""
    best, pts, dist = 0.0, 0, 0
    here = 0 if s[K_CHOSEN] else 1             # "chosen": the port where the ship is counts
    for i in range(s[K_N_PORTS]):
        d = s[K_PORT_SPACE + i] - ship
        if d < here or d > reach or s[K_PORT_GOODS + i * MAX_GOODS + g] == 0:
            continue
        k = s[G_DELIV + i * MAX_GOODS + g] if s[K_PER_GOOD] else s[G_PORT_DELIV + i]
        if k < s[K_N_DP] and s[K_DP + k] / (1.0 + d) > best:
            best, pts, dist = s[K_DP + k] / (1.0 + d), s[K_DP + k], d
    return pts, dist


@njit(cache=True, inline="always")
def deliver_value_nb(s, q, left, memo, at):
    """Points the seat's goods would score at the best port ahead that takes each, each
    divided by 1 + the spaces to go; nothing beyond the cubes it can still sail (those in
    hand, and 3 a round after this one). ``at`` >= 0: memo[at:] (a region of memo_nb's)
    holds each good's best port at any distance for this state's ship and deliveries,
    found once: its best when within reach. Inlined in value_nb, its one caller: one
    call less a value."""
    b = pb(q)
    ship = s[b + P_SHIP]
    reach = 3 * left
    for c in range(NC):
        reach += s[b + P_ROSE + c]
    v = 0.0
    for g in range(s[K_N_GOODS]):
        held = s[b + P_GOODS + g]
        if held == 0:
            continue
        if at >= 0:
            m = at + 2 * g
            if memo[m + 1] < 0:
                memo[m], memo[m + 1] = best_port_nb(s, g, ship, ANY_DISTANCE)
            if memo[m + 1] <= reach:
                pts, dist = memo[m], memo[m + 1]
            else:
                pts, dist = best_port_nb(s, g, ship, reach)
        else:
            pts, dist = best_port_nb(s, g, ship, reach)
        v += held * (pts / (1.0 + dist))       # (none: 0 points)
    return v


@njit(cache=True)
def value_nb(s, q, group, w, memo, at):
    """The seat's position; ``group``: its largest connected group (largest_group_nb);
    ``w``: weights_nb(s, q); memo[at:]: memo_nb's of the decision (at -1: none), used
    for what the state shares with the decision's (the deliveries and the ship, or the
    next space: the ports ahead; the completed cards and the city: the end points).
    With ``fade`` > 0 what is not yet points (coins, goods, the ship, the wall, jokers, the
    group beyond its points) fades over the last ``fade`` rounds, to nothing after round 12."""
    b = pb(q)
    left = s[K_ROUNDS] - s[G_ROUND]
    f = 1.0
    fade = w[W_FADE]
    if fade > 0 and left < fade:
        f = left / fade
    v = float(s[b + P_VP]) + f * w[W_COIN] * s[b + P_COINS]
    if fade > 0:
        v += (1.0 + f * (w[W_CITY] - 1.0)) * group * s[K_GROUP_PTS]
    else:
        v += w[W_CITY] * group * s[K_GROUP_PTS]
    held = 0
    for g in range(s[K_N_GOODS]):
        held += s[b + P_GOODS + g]
    v += f * (w[W_GOODS] * held + w[W_SHIP] * s[b + P_SHIP])
    v += f * (w[W_WALL] * s[b + P_WALL] + w[W_JOKER] * s[b + P_JOKERS])
    if w[W_DELIV] > 0 and held > 0:
        ports = -1                            # the memo's region for this ship, if any
        if at >= 0 and s[b + P_DELIVERED_TILES] == memo[at + M_DELIVERED]:   # same deliveries
            if s[b + P_SHIP] == memo[at + M_SHIP]:
                ports = at + M_PORTS
            elif s[b + P_SHIP] == memo[at + M_SHIP] + 1:                     # sailed one on
                ports = at + M_NEXT
        v += w[W_DELIV] * deliver_value_nb(s, q, left, memo, ports)
    v -= s[K_TAB_PEN] * s[b + P_N_TAB]
    if w[W_CROWD] > 0 and left > 0:           # a full tableau: the next drafts cost markers
        v -= w[W_CROWD] * max(s[b + P_N_TAB] - s[K_TAB_SPACES] + 2, 0)
    same_cards = at >= 0 and s[b + P_N_DONE] == memo[at + M_N_DONE] and s[b + P_CITY] == memo[at + M_CITY]
    for i in range(s[b + P_N_DONE]):
        card = s[b + P_DONE + i]
        if s[K_C_TIMING + card] == T_ACTIVATE:
            v += w[W_CARD] * left
        elif s[K_C_TIMING + card] == T_END:
            if not same_cards:
                v += end_card_points_nb(s, q, i)
            else:
                if memo[at + M_ENDS + i] == NOT_YET:
                    memo[at + M_ENDS + i] = end_card_points_nb(s, q, i)
                v += memo[at + M_ENDS + i]
        else:
            v += w[W_CARD] * left * 0.5
    return v


# the words an action may write besides the seat's block (act_nb and what it calls):
# G_STAMP..G_SUPPLY (stamp, bank, deck and office tops, discards, the cube supply) and the
# event count; the deliveries (G_PORT_DELIV, G_DELIV) only when the ship moved with goods
# aboard, G_Q_OWNER only for the quarter taken (undone by hand). In the seat's block an
# action writes neither the rose's later sides nor completed cards beyond the one it adds
# (SEAT_RANGES). test_macao_heuristic checks a try leaves no other word changed.
N_FRONT = G_SUPPLY + NC - G_STAMP
AT_SEAT = N_FRONT + 1                        # saved: front, G_NEV, the seat, the deliveries
AT_DELIV = AT_SEAT + PW
N_SAVE = AT_DELIV + MAX_PORTS + MAX_PORTS * MAX_GOODS
# best_action_nb's buffer: the legal answers, the saved words, components_nb's, need_nb's,
# the value's memo
N_BUF = MAX_LEGAL + N_SAVE + 3 * MAX_Q + NC + N_MEMO


@njit(cache=True)
def seat_words_nb(src, sb, dst, db, m, refunds):
    """The seat's words an action may write, src[sb + i] -> dst[db + i]: up to this round's
    cubes, goods to the tableau, the first m completed cards, the round's flags, the
    refunds (if ``refunds``: only completing a card and its refund write them) and the
    statistics (not the rose's later sides, nor completed cards beyond the one it adds)."""
    copy_words_nb(dst, db, src, sb, P_ROSE + NC)
    copy_words_nb(dst, db + P_GOODS, src, sb + P_GOODS, P_DONE - P_GOODS)
    for i in range(m):                         # a few words: a loop, not a memcpy call
        dst[db + P_DONE + i] = src[sb + P_DONE + i]
        dst[db + P_USED + i] = src[sb + P_USED + i]
    if refunds:
        copy_words_nb(dst, db + P_TRIB_N, src, sb + P_TRIB_N, PW - P_TRIB_N)
    else:
        copy_words_nb(dst, db + P_TRIB_N, src, sb + P_TRIB_N, P_REF - P_TRIB_N)
        copy_words_nb(dst, db + P_REF + 8 * NC, src, sb + P_REF + 8 * NC, PW - P_REF - 8 * NC)


@njit(cache=True)
def deliveries_nb(src, sp, sd, dst, dp, dd, n_ports):
    """The ports' delivery counts (the first n_ports ports: all that deliver_nb writes),
    from src[sp:]/src[sd:] to dst[dp:]/dst[dd:]."""
    copy_words_nb(dst, dp, src, sp, n_ports)
    copy_words_nb(dst, dd, src, sd, n_ports * MAX_GOODS)


@njit(cache=True)
def save_nb(p, q, out, at):
    """What undo_nb puts back: the shared words, the seat's (seat_words_nb: a try adds at
    most one completed card) and the deliveries if it holds goods."""
    b = pb(q)
    copy_words_nb(out, at, p, G_STAMP, N_FRONT)
    out[at + N_FRONT] = p[G_NEV]
    seat_words_nb(p, b, out, at + AT_SEAT, min(p[b + P_N_DONE] + 2, MAX_DONE + 1), True)
    if goods_held_nb(p, q) > 0:
        deliveries_nb(p, G_PORT_DELIV, G_DELIV, out, at + AT_DELIV, at + AT_DELIV + MAX_PORTS,
                      p[K_N_PORTS])


@njit(cache=True)
def goods_held_nb(p, q):
    b = pb(q)
    n = 0
    for g in range(MAX_GOODS):
        n += p[b + P_GOODS + g]
    return n


@njit(cache=True)
def undo_nb(p, q, a, out, at):
    """Put back what ``act_nb(p, q, a)`` wrote (save_nb saved it at out[at:])."""
    b = pb(q)
    s = at + AT_SEAT                           # the seat's saved block
    if p[b + P_CITY] != out[s + P_CITY]:
        p[G_Q_OWNER + a - (A_GOODS_COINS if a >= A_GOODS_COINS else A_GOODS)] = -1
    if p[b + P_SHIP] != out[s + P_SHIP]:
        held = 0
        for g in range(MAX_GOODS):
            held += out[s + P_GOODS + g]
        if held > 0:
            deliveries_nb(out, at + AT_DELIV, at + AT_DELIV + MAX_PORTS, p, G_PORT_DELIV, G_DELIV,
                          p[K_N_PORTS])
    copy_words_nb(p, G_STAMP, out, at, N_FRONT)
    p[G_NEV] = out[at + N_FRONT]
    seat_words_nb(out, s, p, b, min(out[s + P_N_DONE] + 2, MAX_DONE + 1), a >= A_COMPLETE)


@njit(cache=True)
def need_nb(s, q, need, at):
    """Cubes of each colour the seat's tableau cards still cost, less those in hand, into
    need[at:at + NC]."""
    b = pb(q)
    for c in range(NC):
        need[at + c] = -s[b + P_ROSE + c]
    for t in range(s[b + P_N_TAB]):
        for c in range(NC):
            need[at + c] += s[K_C_COST + s[b + P_TAB + t] * NC + c]


@njit(cache=True)
def colour_score_nb(a, need, at):
    """How little a colour choice costs the tableau's needs (higher: better): the cubes
    paid that a card needs count against it, a cube gained that one needs for it."""
    if A_WALL <= a < A_WALL + NC * NC:
        x, y = (a - A_WALL) // NC, (a - A_WALL) % NC
        return -(max(need[at + x] + 1, 0) + max(need[at + y] + 1 + (x == y), 0))
    if A_JOKER <= a < A_JOKER + NC:
        return max(need[at + a - A_JOKER], 0)
    c = a - (A_SAIL_BACK if a >= A_SAIL_BACK else A_SAIL)
    return -max(need[at + c] + 1, 0)


@njit(cache=True)
def plentiful_nb(s, q, n):
    """"Any cubes" paid in a mix (any_cubes "mixed"): n cubes taken one at a time off the
    colour the seat has most of left (the first such), so the scarce colours a cost needs
    stay; packed counts (table_nb.multiset_nb), -1 if it has fewer than n cubes."""
    paid = 0
    for _ in range(n):
        best, most = -1, 0
        for c in range(NC):
            left = avail_nb(s, q, c) - ((paid >> (8 * c)) & 255)
            if left > most:
                best, most = c, left
        if best < 0:
            return -1
        paid += 1 << (8 * best)
    return paid


@njit(cache=True)
def act_class_nb(s, q, i, x):
    """Options of one card's activation that differ only in cube colours have equal values
    (the value reads no colour): the class of option x (one tried a class), or -1 (tried
    anyway). A cube gained is one only if the supply is unlimited."""
    e = s[K_C_EFFECT + s[pb(q) + P_DONE + i]]
    if e == E_PAY_CUBES_FOR_COINS:
        return 0
    if e == E_PAY_DISTINCT_CUBES_FOR_POINTS:    # one cube of each colour of the mask
        k = 0
        for c in range(NC):
            k += (x >> c) & 1
        return k
    if s[K_LIMIT_CUBES] == 0 and (e == E_GAIN_ANY_CUBE or e == E_PAY_COINS_FOR_ANY_CUBE
                                  or e == E_PAY_CUBES_FOR_ANY_CUBE or e == E_CUBE_IF_ALONE_LOWEST
                                  or e == E_CUBE_IF_TRIBUTE_PAID):
        return 0
    return -1


UNSCORED = -(1 << 62)                        # kept_colour_nb: a group's first action, not yet scored


@njit(cache=True, inline="always")
def kept_colour_nb(s, q, a, keep, need, at, best, bs, ready):
    """pick of a colour group's actions, one at a time in increasing order: the first
    legal one, or with ``keep`` the first of those that spare most the colours the
    tableau needs (colour_score_nb against need[at:at + NC]). ``best``: the group's kept
    action so far (-1: none yet), ``bs`` its score (UNSCORED until a second action of the
    group comes: a group of one needs no score); ``ready``: need_nb's are at
    need[at:at + NC] (found when a score is first needed). Returns (best, bs, ready)."""
    if best < 0:
        return a, UNSCORED, ready
    if not keep:
        return best, bs, ready
    if not ready:
        need_nb(s, q, need, at)
        ready = True
    if bs == UNSCORED:
        bs = colour_score_nb(best, need, at)
    sc = colour_score_nb(a, need, at)
    if sc > bs:
        return a, sc, ready
    return best, bs, ready


@njit(cache=True)
def tries_nb(s, q, out, keep, need):
    """The actions best_action_nb tries, in increasing order into out (returns how many):
    legal_actions_nb's, but one of each colour group (their values are equal: cubes in
    hand are worth nothing; kept_colour_nb's) and the first option of each activation
    class (act_class_nb). need_nb's go to out[need:need + NC] if ``keep`` and a colour
    group has two actions."""
    b = pb(q)
    ready = False                             # need_nb's found
    out[0] = A_END
    n = 1
    if action_ok_nb(s, q, A_TRIBUTE):
        out[n] = A_TRIBUTE
        n += 1
    if s[b + P_WALL] < s[K_WALL_SPACES] - 1:
        cost = s[K_WALL_COST1] if s[b + P_WALL_N] == 0 else s[K_WALL_COST2]
        best, bs = (A_WALL if cost == 0 else -1), 0
        for x in range(NC if cost > 0 else 0):
            ax = avail_nb(s, q, x)
            if ax < 1:
                continue
            for y in range(x, NC):
                if wall_pair_ok_nb(s, q, cost, x, y, ax):
                    best, bs, ready = kept_colour_nb(s, q, A_WALL + x * NC + y, keep, out, need, best, bs,
                                                     ready)
        if best >= 0:
            out[n] = best
            n += 1
    for back in range(2):
        if (s[K_RETURN] != 0 and s[b + P_SHIP] > 0) if back else s[b + P_SHIP] < s[K_ROUTE_END]:
            best, bs = -1, 0
            for c in range(NC):
                if avail_nb(s, q, c) >= 1:
                    best, bs, ready = kept_colour_nb(s, q, (A_SAIL_BACK if back else A_SAIL) + c, keep,
                                                     out, need, best, bs, ready)
            if best >= 0:
                out[n] = best
                n += 1
    if s[b + P_JOKERS] > 0:
        best, bs = -1, 0
        for c in range(NC):
            best, bs, ready = kept_colour_nb(s, q, A_JOKER + c, keep, out, need, best, bs, ready)
        out[n], out[n + 1] = best, A_JOKER + NC
        n += 2
    return card_tries_nb(s, q, out, n)


# the activated effects never tried: valued -inf by light_value_nb (never above the turn's
# end), or taken through A_COMPLETE_COINS
UNTRIED_ACT = ((1 << E_EXTRA_TRIBUTE) | (1 << E_EXTRA_GOODS) | (1 << E_WALL_TO_TOP)
               | (1 << E_PAY_COINS_COMPLETE_CARD))


@njit(cache=True, inline="always")
def effect_mask_nb(s, q):
    """(bit e set: the seat has a completed card of effect e (fewer than 64 effects); bit
    i set: its completed card i is activated (T_ACTIVATE) and its activations are tried
    (not UNTRIED_ACT's)), without a branch a card."""
    b = pb(q)
    m, act = 0, 0
    for i in range(s[b + P_N_DONE]):
        card = s[b + P_DONE + i]
        e = s[K_C_EFFECT + card]
        m |= 1 << e
        act |= np.int64((s[K_C_TIMING + card] == T_ACTIVATE) & ((UNTRIED_ACT >> e) & 1 == 0)) << i
    return m, act


@njit(cache=True, inline="always")
def card_tries_nb(s, q, out, n):
    """tries_nb's actions that need no colour choice, into out[n:] (returns the new
    count): engine_nb.legal_cards_nb's answers in its order (goods tiles, completing,
    activating), but of each activation class (act_class_nb) only the first option, found
    without listing the others, and none of the activations light_value_nb skips (-inf):
    only the cards effect_mask_nb marks are asked (activation_open_nb's branch on the
    card's timing, mostly mispredicted, was a tenth of this listing's time).
    The effect sums are asked only of a seat with such a card (effect_mask_nb), and
    without a discount the quarters the seat can pay are a mask: those left (owners_mask_nb)
    AND each colour's affordable ones (K_Q_AFFORD, built with the table; testing each
    quarter's 6 costs was about 5 % of expert's time). Inlined in tries_nb, as
    effect_mask_nb in it and components_nb and memo_nb in best_action_nb: no call a
    decision (light_value_nb's inlining showed what the calls' spilled arguments cost)."""
    b = pb(q)
    mask, act = effect_mask_nb(s, q)
    if s[b + P_GOODS_N] < s[b + P_GOODS_MAX] and markers_left_nb(s, q) > 0:
        disc = effect_sum_nb(s, q, E_GOODS_DISCOUNT, -1, 0, 0) if (mask >> E_GOODS_DISCOUNT) & 1 else 0
        if disc == 0:
            # the quarters left (owners_mask_nb) that the seat can pay: of each colour, those
            # costing at most its cubes (K_Q_AFFORD's masks; no test a quarter)
            paid = owners_mask_nb(s, -1)
            for c in range(NC):
                r = min(max(s[b + P_ROSE + c], -1), COST_CAP)
                paid &= s[K_Q_AFFORD + c * (COST_CAP + 2) + r + 1]
            while paid != 0:
                out[n] = A_GOODS + trailing_zeros(paid)
                n += 1
                paid &= paid - 1
        else:
            for x in range(s[K_NQ]):
                if s[G_Q_OWNER + x] < 0 and cost_ok_nb(s, q, K_Q_COST + x * NC, disc):
                    out[n] = A_GOODS + x
                    n += 1
        if (mask >> E_GOODS_FOR_COINS) & 1:
            for x in range(s[K_NQ]):
                if action_ok_nb(s, q, A_GOODS_COINS + x):
                    out[n] = A_GOODS_COINS + x
                    n += 1
    if s[b + P_N_DONE] < MAX_DONE:
        if (mask >> E_COMPLETE_DISCOUNT) & 1:
            for t in range(s[b + P_N_TAB]):
                card = s[b + P_TAB + t]
                d = effect_sum_nb(s, q, E_COMPLETE_DISCOUNT, 0, s[K_C_KIND + card], 1)
                if cost_ok_nb(s, q, K_C_COST + card * NC, d):
                    out[n] = A_COMPLETE + t
                    n += 1
        else:                                 # one test a card (K_C_PACK), no branch: a
            hand = 0                          # card's 6 tests were 2-3 % of expert's time
            for c in range(NC):
                hand |= (min(max(s[b + P_ROSE + c], -1), 126) + 129) << (8 * c)
            for t in range(s[b + P_N_TAB]):
                out[n] = A_COMPLETE + t
                n += ((hand - s[K_C_PACK + s[b + P_TAB + t]]) & PACK_HIGH) == PACK_HIGH
        if (mask >> E_PAY_COINS_COMPLETE_CARD) & 1 and coin_completer_nb(s, q) >= 0:
            for t in range(s[b + P_N_TAB]):
                out[n] = A_COMPLETE_COINS + t
                n += 1
    while act != 0:                           # the cards whose activations are tried,
        i = trailing_zeros(act)               # in increasing order (effect_mask_nb's)
        act &= act - 1
        if not activation_open_nb(s, q, i):
            continue
        card = s[b + P_DONE + i]
        e = s[K_C_EFFECT + card]
        at = A_ACT + i * ACT_BLOCK
        unlimited = s[K_LIMIT_CUBES] == 0
        if e == E_PAY_DISTINCT_CUBES_FOR_POINTS:
            # the colours in hand (have); of each class (how many colours) the first
            # option in increasing order: the lowest 1, 2, ... colours of have
            have = 0
            for c in range(NC):
                if avail_nb(s, q, c) >= 1:
                    have |= 1 << c
            x = 0
            while have != 0:
                x |= have & -have
                have &= have - 1
                out[n] = at + x
                n += 1
        elif s[K_MIXED] and (e == E_PAY_CUBES_FOR_COINS or e == E_PAY_CUBES_FOR_ANY_CUBE):
            # "any cubes" in a mix: the cubes it has most of (plentiful_nb); Laden's colour
            # gained: the first (unlimited supply: the value reads no colour), else each
            paid = plentiful_nb(s, q, arg_nb(s, card, 0))
            if paid >= 0:
                x = multiset_rank_nb(paid, arg_nb(s, card, 0))
                if e == E_PAY_CUBES_FOR_COINS:
                    out[n] = at + x
                    n += activate_ok_nb(s, q, i, x)
                else:
                    for g in range(1 if unlimited else NC):
                        out[n] = at + x * NC + g
                        n += activate_ok_nb(s, q, i, x * NC + g)
        elif e == E_PAY_CUBES_FOR_ANY_CUBE and unlimited:   # the first colour it can pay
            for c in range(NC):
                if avail_nb(s, q, c) >= arg_nb(s, card, 0):
                    out[n] = at + c * NC
                    n += 1
                    break
        else:
            k = options_nb(s, q, card)
            if k == 1:                        # (most cards) open_options_nb's one question,
                out[n] = at                   # asked without its call and loop
                n += activate_ok_nb(s, q, i, 0)
            elif act_class_nb(s, q, i, 0) == 0:   # one class: the first option activate_ok_nb accepts
                for x in range(k):
                    if activate_ok_nb(s, q, i, x):
                        out[n] = at + x
                        n += 1
                        break
            else:
                n = open_options_nb(s, q, i, out, n)
    return n


@njit(cache=True)
def owners_mask_nb(s, who):
    """Bit x set: quarter x is seat ``who``'s (-1: no one's). No branch a quarter; read
    with trailing_zeros, the set bits give the quarters in increasing order (bit 63, a
    64th quarter, works too: the int64 arithmetic wraps)."""
    m = 0
    for x in range(s[K_NQ]):
        m |= np.int64(s[G_Q_OWNER + x] == who) << x
    return m


@njit(cache=True, inline="always")
def components_nb(s, q, buf, at):
    """Label the seat's connected groups of quarters (buf[at + x]: quarter x's group, -1
    not the seat's; buf[at + MAX_Q + i]: group i's quarters; then a stack); returns the
    largest (largest_group_nb's). The groups start from the seat's quarters in increasing
    order (owners_mask_nb: the owner's test a quarter, with a branch mostly mispredicted,
    was half of this kernel's time)."""
    comp, size, stack = at, at + MAX_Q, at + 2 * MAX_Q
    nq = s[K_NQ]
    for x in range(nq):
        buf[comp + x] = -1
    owned = owners_mask_nb(s, q)
    n, best = 0, 0
    while owned != 0:
        start = trailing_zeros(owned)
        owned &= owned - 1
        if buf[comp + start] >= 0:
            continue
        buf[comp + start] = n
        buf[stack + 0] = start
        top, k = 1, 0
        while top > 0:
            top -= 1
            v = buf[stack + top]
            k += 1
            for j in range(MAX_ADJ):
                w = s[K_Q_ADJ + v * MAX_ADJ + j]
                if w >= 0 and buf[comp + w] < 0 and s[G_Q_OWNER + w] == q:
                    buf[comp + w] = n
                    buf[stack + top] = w
                    top += 1
        buf[size + n] = k
        best = max(best, k)
        n += 1
    return best


@njit(cache=True)
def group_with_nb(s, x, buf, at, group):
    """The largest group once quarter x joins the groups it touches (components_nb's
    labels at buf[at:], from before x was taken)."""
    k = 1
    for j in range(MAX_ADJ):
        w = s[K_Q_ADJ + x * MAX_ADJ + j]
        if w < 0 or buf[at + w] < 0:
            continue
        c = buf[at + w]
        new = True
        for i in range(j):                    # a group touched twice counts once
            u = s[K_Q_ADJ + x * MAX_ADJ + i]
            if u >= 0 and buf[at + u] == c:
                new = False
        if new:
            k += buf[at + MAX_Q + c]
    return max(group, k)


@njit(cache=True)
def port_at_nb(s, space):
    for i in range(s[K_N_PORTS]):
        if s[K_PORT_SPACE + i] == space:
            return True
    return False


@njit(cache=True, inline="always")
def changed_value_nb(p, q, i, di, j, dj, k, dk, group, w, memo, at):
    """value_nb with the seat's words i, j, k changed by di, dj, dk (then put back).
    Inlined in light_value_nb, as goods_value_nb: one call less a light try."""
    b = pb(q)
    p[b + i] += di
    p[b + j] += dj
    p[b + k] += dk
    v = value_nb(p, q, group, w, memo, at)
    p[b + k] -= dk
    p[b + j] -= dj
    p[b + i] -= di
    return v


@njit(cache=True)
def plain_goods_nb(s, q):
    """A goods tile costs the seat its quarter's printed cubes and sets nothing off: no
    completed card with a goods discount, WALL_STEPS_ON_GOODS or COINS_ON_GOODS."""
    b = pb(q)
    for i in range(s[b + P_N_DONE]):
        e = s[K_C_EFFECT + s[b + P_DONE + i]]
        if e == E_GOODS_DISCOUNT or e == E_WALL_STEPS_ON_GOODS or e == E_COINS_ON_GOODS:
            return False
    return True


@njit(cache=True, inline="always")
def goods_value_nb(p, q, x, group, w, memo, at):
    """value_nb once the seat took quarter x's goods tile (plain_goods_nb: act_nb pays the
    printed cost, writes the owner, the city and the tile, and sets nothing off), the
    words written by hand and put back; ``group``: the largest group with x."""
    b = pb(q)
    for c in range(NC):
        p[b + P_ROSE + c] -= max(p[K_Q_COST + x * NC + c], 0)
    tile = p[G_Q_TILE + x]
    held = P_GOODS + tile if tile >= 0 else P_JOKERS
    p[G_Q_OWNER + x] = q
    p[b + P_CITY] += 1
    p[b + held] += 1
    v = value_nb(p, q, group, w, memo, at)
    p[b + held] -= 1
    p[b + P_CITY] -= 1
    p[G_Q_OWNER + x] = -1
    for c in range(NC):
        p[b + P_ROSE + c] += max(p[K_Q_COST + x * NC + c], 0)
    return v


@njit(cache=True, inline="always")
def light_value_nb(p, q, a, sail_light, plain_goods, group, w, memo, comp, at):
    """value_nb of the state ``act_nb(p, q, a)`` leaves, for the actions that change only
    a few of the words value_nb reads, written by hand and put back (no act_nb, no
    undo_nb): a sail that delivers nothing (``sail_light``: no goods aboard or no port
    on the next space), a wall step, a goods tile (``plain_goods``: plain_goods_nb; the
    largest group from components_nb's labels at memo[comp:]), an office's cubes for
    coins (coins unlimited), the activations that pay coins or cubes for cubes (cubes
    unlimited).
    -inf for the activations that change no word value_nb reads (their value is the
    decision's own, never better than the turn's end); NaN: to be tried in full.
    Inlined in best_action_nb: no call (and no copy of the weights) a try."""
    b = pb(q)
    if A_SAIL <= a < A_SAIL + NC:
        if sail_light:
            return changed_value_nb(p, q, P_ROSE + a - A_SAIL, -1, P_SHIP, 1, P_SHIP, 0,
                                    group, w, memo, at)
        return np.nan
    if A_WALL <= a < A_WALL + NC * NC:
        cost = p[K_WALL_COST1] if p[b + P_WALL_N] == 0 else p[K_WALL_COST2]
        x, y = (a - A_WALL) // NC, (a - A_WALL) % NC
        return changed_value_nb(p, q, P_ROSE + y, -1 if cost >= 1 else 0, P_ROSE + x,
                                -1 if cost >= 2 else 0, P_WALL, 1, group, w, memo, at)
    if A_GOODS <= a < A_GOODS + MAX_Q:
        if plain_goods:
            x = a - A_GOODS
            return goods_value_nb(p, q, x, group_with_nb(p, x, memo, comp, group), w, memo,
                                  at)
        return np.nan
    if a >= A_ACT:
        card = p[b + P_DONE + (a - A_ACT) // ACT_BLOCK]
        e = p[K_C_EFFECT + card]
        if e == E_EXTRA_TRIBUTE or e == E_EXTRA_GOODS or e == E_WALL_TO_TOP:
            return -np.inf
        if e == E_PAY_CUBE_FOR_COINS and p[K_LIMIT_COINS] == 0:    # activate_nb's coins
            got = max(arg_nb(p, card, 2), 0)
            if p[K_C_KIND + card] == K_OFFICE_KIND:
                for j in range(p[b + P_N_DONE]):
                    other = p[b + P_DONE + j]
                    if p[K_C_EFFECT + other] == E_COINS_ON_OFFICE_ACTIVATE and \
                            arg_nb(p, other, 0) == p[K_C_COLOUR + card]:
                        got += max(arg_nb(p, other, 1), 0)
            return changed_value_nb(p, q, P_ROSE + arg_nb(p, card, 0), -arg_nb(p, card, 1), P_COINS, got,
                                    P_COINS, 0, group, w, memo, at)
        if p[K_LIMIT_CUBES] == 0:             # cubes gained: activate_nb's (supply unlimited)
            x, a0, a1 = (a - A_ACT) % ACT_BLOCK, arg_nb(p, card, 0), arg_nb(p, card, 1)
            if e == E_GAIN_CUBE:
                return changed_value_nb(p, q, P_ROSE + a0, max(a1, 0), P_COINS, 0, P_COINS, 0,
                                        group, w, memo, at)
            if e == E_GAIN_ANY_CUBE or e == E_CUBE_IF_ALONE_LOWEST or e == E_CUBE_IF_TRIBUTE_PAID:
                return changed_value_nb(p, q, P_ROSE + x, max(a0, 0), P_COINS, 0, P_COINS, 0,
                                        group, w, memo, at)
            if e == E_PAY_COINS_FOR_ANY_CUBE:
                return changed_value_nb(p, q, P_COINS, -a0, P_ROSE + x, max(a1, 0), P_COINS, 0,
                                        group, w, memo, at)
            if e == E_PAY_CUBES_FOR_ANY_CUBE and p[K_MIXED]:
                if a0 != 2:
                    return np.nan                 # (tried on a copy)
                paid = multiset_nb(x // NC, 2)
                c1 = trailing_zeros(paid) // 8    # the two cubes' colours (c1 <= c2)
                c2 = trailing_zeros(paid - (1 << (8 * c1))) // 8
                return changed_value_nb(p, q, P_ROSE + c1, -1, P_ROSE + c2, -1, P_ROSE + x % NC, max(a1, 0),
                                        group, w, memo, at)
            if e == E_PAY_CUBES_FOR_ANY_CUBE:
                return changed_value_nb(p, q, P_ROSE + x // NC, -a0, P_ROSE + x % NC, max(a1, 0), P_COINS, 0,
                                        group, w, memo, at)
    return np.nan


@njit(cache=True)
def named_colour_nb(s, q, a):
    """discount_colour "chosen": the heuristic's plain answer to complete a card or take a
    quarter (its try paid the cost less the discount off the colour the cost has most of)
    as the answer naming that colour; another colour that pays if that one does not."""
    if not s[K_OFF_CHOSEN]:
        return a
    b = pb(q)
    if A_COMPLETE <= a < A_COMPLETE + MAX_TAB:
        card = s[b + P_TAB + a - A_COMPLETE]
        at, base = K_C_COST + card * NC, A_COMPLETE_OFF + (a - A_COMPLETE) * NC
        d = effect_sum_nb(s, q, E_COMPLETE_DISCOUNT, 0, s[K_C_KIND + card], 1)
    elif A_GOODS <= a < A_GOODS + MAX_Q:
        at, base = K_Q_COST + (a - A_GOODS) * NC, A_GOODS_OFF + (a - A_GOODS) * NC
        d = effect_sum_nb(s, q, E_GOODS_DISCOUNT, -1, 0, 0)
    else:
        return a
    if not names_colour_nb(s, at, d):
        return a
    most = 0
    for c in range(NC):
        if s[at + c] > s[at + most]:
            most = c
    if off_ok_nb(s, q, at, d, most):
        return base + most
    for c in range(NC):
        if off_ok_nb(s, q, at, d, c):
            return base + c
    return A_END


@njit(cache=True)
def scoring_delivery_nb(s, q):
    """Deliveries "chosen": the first tile that scores where the ship is (A_DELIVER + its
    good), else -1. The heuristic delivers every tile that scores and keeps those that
    would score nothing, for a port ahead."""
    port = port_here_nb(s, q)
    if port < 0:
        return -1
    for g in range(s[K_N_GOODS]):
        if deliver_ok_nb(s, q, g):
            k = s[G_DELIV + port * MAX_GOODS + g] if s[K_PER_GOOD] else s[G_PORT_DELIV + port]
            if k < s[K_N_DP] and s[K_DP + k] > 0:
                return A_DELIVER + g
    return -1


@njit(cache=True)
def best_action_nb(s, q):
    """Each legal action (one of each colour group: tries_nb) is tried on the state itself
    and undone (undo_nb: act_nb writes only the seat's block and a few shared words,
    Macao's effects acting on their owner), or valued by light_value_nb without act_nb;
    the event log is off meanwhile. After a quarter is
    taken the largest group is found from the groups the quarter joins (components_nb,
    once a decision). One buffer (the legal answers, the saved words, the scratch), read
    on the kernel's stack: no allocation."""
    out = stack_words_nb(N_BUF)
    p = state_ptr_nb(s)
    if p[K_CHOSEN]:
        d = scoring_delivery_nb(p, q)
        if d >= 0:
            keep_nb(s)
            return d
    at = MAX_LEGAL                             # the saved words
    comp = at + N_SAVE                         # then components_nb's comp, size, stack
    need = comp + 3 * MAX_Q                    # need_nb's
    memo = need + NC                           # and value_nb's
    n = tries_nb(p, q, out, p[PARAMS + q * N_PARAMS + W_KEEP] > 0, need)   # (w_nb(p, q, W_KEEP) > 0)
    if n == 1:                                 # only the turn's end (out[0]): nothing to try
        keep_nb(s)
        return A_END
    w = weights_nb(p, q)                       # (not before: 13 divisions)
    b = pb(q)
    saved = False                              # save_nb's words (before the first full try)
    lp = p              # the log argument: never written, as the tries' log capacity is 0
    cap = p[G_LOG_CAP]
    p[G_LOG_CAP] = 0                           # the tries write no events
    group = components_nb(p, q, out, comp)
    city = p[b + P_CITY]
    memo_nb(p, q, out, memo)
    sail_light = goods_held_nb(p, q) == 0 or not port_at_nb(p, p[b + P_SHIP] + 1) or p[K_CHOSEN] != 0
    plain_goods = p[b + P_GOODS_N] < p[b + P_GOODS_MAX] and plain_goods_nb(p, q)
    best, best_v = A_END, value_nb(p, q, group, w, out, memo) + 1e-9
    for k in range(n):
        a = out[k]
        if a == A_END:
            continue
        v = light_value_nb(p, q, a, sail_light, plain_goods, group, w, out, comp, memo)
        if v != v:                            # NaN: the full try
            if not saved:
                save_nb(p, q, out, at)
                saved = True
            act_nb(p, q, a, lp)
            g = group
            if p[b + P_CITY] != city:           # the action took quarter a - its base
                g = group_with_nb(p, a - (A_GOODS_COINS if a >= A_GOODS_COINS else A_GOODS), out, comp, group)
            v = value_nb(p, q, g, w, out, memo)
            undo_nb(p, q, a, out, at)
        if v > best_v:
            best, best_v = a, v
    p[G_LOG_CAP] = cap
    best = named_colour_nb(p, q, best)
    keep_nb(s)                                 # s outlives its pointer
    return best


@njit(cache=True)
def coming_nb(s, q, coming):
    """Cubes of each colour on the seat's rose, not yet arrived (sides 1 on)."""
    b = pb(q) + P_ROSE
    for c in range(NC):
        coming[c] = 0
        for side in range(1, s[K_ROSE_SIDES] + 1):
            coming[c] += s[b + side * NC + c]


@njit(cache=True)
def card_value_nb(s, card, coming, w_card, w_fit):
    """A card to draft (or keep): cheap first, active cards more; with ``draft_fit``
    (``w_fit``) the cubes of its cost already coming (``coming``: coming_nb's) count for
    it. ``w_card``, ``w_fit``: the seat's weights (w_nb's), read once a decision."""
    cost = 0
    for c in range(NC):
        cost += s[K_C_COST + card * NC + c]
    v = -cost + (2.0 if s[K_C_TIMING + card] == T_ACTIVATE else 1.0) * w_card * 4
    if w_fit > 0:
        fit = 0
        for c in range(NC):
            fit += min(coming[c], s[K_C_COST + card * NC + c])
        v += w_fit * fit
    return v


@njit(cache=True)
def end_draft_nb(s, q, card):
    """An end card's points were it completed now (end_draft): added to the seat's completed
    cards for the count, then taken off again."""
    p = state_ptr_nb(s)
    b = pb(q)
    n = p[b + P_N_DONE]
    if n >= MAX_DONE:
        keep_nb(s)
        return 0
    old = p[b + P_DONE + n]
    p[b + P_DONE + n] = card
    p[b + P_N_DONE] = n + 1
    pts = end_card_points_nb(p, q, n)
    p[b + P_N_DONE] = n
    p[b + P_DONE + n] = old
    keep_nb(s)
    return pts


@njit(cache=True, inline="always")
def zeros_nb():
    """NC zeros on the calling kernel's stack (inlined: the buffer is the caller's)."""
    z = stack_words_nb(NC)
    for c in range(NC):
        z[c] = 0
    return z


@njit(cache=True, inline="always")
def side_empty_nb(s, b, side):
    """No cube on rose side ``side`` of the seat's block at b."""
    for c in range(NC):
        if s[b + P_ROSE + side * NC + c] > 0:
            return False
    return True


@njit(cache=True)
def side_pays_quarter_nb(s, b, side, c0, n0, c1, n1):
    """Would rose side ``side``'s cubes, with n0 more of colour c0 and n1 of c1, pay the
    printed cost of an open quarter they do not pay now (cubes arriving together: a
    quarter's cost is paid in one round)?"""
    for x in range(s[K_NQ]):
        if s[G_Q_OWNER + x] >= 0:
            continue
        now, then = True, True
        for c in range(NC):
            have = s[b + P_ROSE + side * NC + c]
            cost = s[K_Q_COST + x * NC + c]
            if have < cost:
                now = False
            if have + (n0 if c == c0 else 0) + (n1 if c == c1 else 0) < cost:
                then = False
        if then and not now:
            return True
    return False


@njit(cache=True)
def greedy_decide_nb(kind, s, seat):
    b = pb(seat)
    if kind == D_ACTION:
        return best_action_nb(s, seat)
    if kind == D_CARD or kind == D_DISCARD:
        w_card, w_fit = w_nb(s, seat, W_CARD), w_nb(s, seat, W_FIT)
        w_end = w_nb(s, seat, W_END)
        coming = zeros_nb()
        if w_fit > 0:
            coming_nb(s, seat, coming)
        if kind == D_CARD:
            best, bv = -1, -1e18
            for i in range(s[G_N_OFFER]):
                card = s[G_OFFER + i]
                if card >= 0:
                    v = card_value_nb(s, card, coming, w_card, w_fit)
                    if w_end > 0 and s[K_C_TIMING + card] == T_END:
                        v += w_end * end_draft_nb(s, seat, card)
                    if v > bv:
                        best, bv = i, v
            return best
        worst, wv = 0, 1e18
        for t in range(s[b + P_N_TAB]):
            card = s[b + P_TAB + t]
            v = card_value_nb(s, card, coming, w_card, w_fit)
            if w_end > 0 and s[K_C_TIMING + card] == T_END:
                v += w_end * end_draft_nb(s, seat, card)
            if v < wv:
                worst, wv = t, v
        return worst
    if kind == D_COLOUR:
        need = zeros_nb()
        for t in range(s[b + P_N_TAB]):
            for c in range(NC):
                need[c] += s[K_C_COST + s[b + P_TAB + t] * NC + c]
        most = 0                              # np.argmax's: the first colour of the most
        for c in range(1, NC):
            if need[c] > need[most]:
                most = c
        return most
    if kind == D_DICE:
        # cubes soon are worth more (W_SOON per side of waiting); an empty next side is
        # filled first (zero-cube penalty); with W_GAP any empty side a die fills, with
        # W_QDICE lots that pay an open quarter's two colours in the round they arrive
        best, bv = 1, -1e18
        left = s[K_ROUNDS] - s[G_ROUND] + 1
        w_need = w_nb(s, seat, W_NEED)
        w_soon = w_nb(s, seat, W_SOON)
        w_gap = w_nb(s, seat, W_GAP)
        w_qdice = w_nb(s, seat, W_QDICE)
        need = zeros_nb()
        if w_need > 0:                  # the tableau's cost not yet on its way
            coming_nb(s, seat, need)
            for c in range(NC):
                need[c] = -need[c]
            for t in range(s[b + P_N_TAB]):
                for c in range(NC):
                    need[c] += s[K_C_COST + s[b + P_TAB + t] * NC + c]
        empty_next = True
        for c in range(NC):
            if s[b + P_ROSE + NC + c] > 0:
                empty_next = False
        for i in range(NC):
            for j in range(i + 1, NC):
                v = 0.0
                for d in (i, j):
                    pips = s[G_DICE + d]
                    if pips > left:
                        pips = 1
                    v += pips - w_soon * pips
                    if w_need > 0 and need[d] > 0:
                        v += w_need * min(pips, need[d])
                    if pips == 1 and empty_next:
                        v += 5.0
                if w_gap > 0:                 # sides still empty filled: rounds without cubes avoided
                    p0 = s[G_DICE + i] if s[G_DICE + i] <= left else 1
                    p1 = s[G_DICE + j] if s[G_DICE + j] <= left else 1
                    if side_empty_nb(s, b, p0):
                        v += w_gap
                    if p1 != p0 and side_empty_nb(s, b, p1):
                        v += w_gap
                if w_qdice > 0:               # the lots complete a quarter's cost on their side
                    p0 = s[G_DICE + i] if s[G_DICE + i] <= left else 1
                    p1 = s[G_DICE + j] if s[G_DICE + j] <= left else 1
                    if p0 == p1:
                        if side_pays_quarter_nb(s, b, p0, i, p0, j, p1):
                            v += w_qdice
                    elif side_pays_quarter_nb(s, b, p0, i, p0, j, 0) or \
                            side_pays_quarter_nb(s, b, p1, i, 0, j, p1):
                        v += w_qdice
                if v > bv:
                    best, bv = i * NC + j, v
        return best
    if kind == D_DICE_EXTRA:
        return 0
    if kind == D_DICE_SHIFT:
        return 8
    return 0
