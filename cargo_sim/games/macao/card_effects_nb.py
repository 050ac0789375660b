"""Macao's card effects as numba kernels: what each effect code of ``effects.py`` does
(that module describes the codes as data: timing, arguments, words, estimated worth;
this one runs them). Once-per-round activations (``activate_ok_nb`` checks one,
``activate_nb`` applies it, ``options_nb`` counts its answers), triggers set off by the
owner's actions (completing a card, the tribute, a goods tile, a delivery) and the
end-game cards (``end_card_points_nb``). Standing effects that change a rule (discounts,
dice, jokers) are read where that rule is played (engine_nb) through
``table_nb.effect_sum_nb``.
"""
from ...core import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit

from .table_nb import (
    affords_packed_nb, alone_last_on_wall_nb, arg_nb, avail_nb, count_kind_nb, count_office_nb, covered_nb,
    effect_sum_nb, event_nb, first_on_wall_nb, gain_coins_nb, gain_cubes_nb, multiset_nb,
    multisets_nb, pay_coins_nb, pay_cubes_nb, pay_packed_nb, pb, score_nb, vp_alone_nb, wall_step_nb,
)
from .enums import (
    ACT_BLOCK, A_ACT, EV_ACTIVATE, EV_COMPLETE, EV_TRIGGER, E_COINS_IF_ALONE_LAST_ON_WALL,
    E_COINS_IF_COMPLETED, E_COINS_IF_GAINED_COINS, E_COINS_ON_COMPLETE, E_COINS_ON_GOODS,
    E_COINS_ON_OFFICE_ACTIVATE, E_COINS_PER_CITY_MARKERS, E_COINS_PER_OFFICE_COLOUR_ACTIVATED,
    E_COMPLETE_REFUND, E_CUBE_IF_ALONE_LOWEST, E_CUBE_IF_TRIBUTE_PAID, E_DELIVERY_BONUS,
    E_DELIVERY_MULTIPLIER, E_DISCARD_PERSON_FOR_COINS, E_END_NO_TABLEAU_PENALTY, E_END_POINTS,
    E_END_POINTS_PER_CITY_MARKER, E_END_POINTS_PER_COMPLETED, E_END_POINTS_PER_DARK_MARKER,
    E_END_POINTS_PER_OFFICE_KIND, E_END_POINTS_PER_OFFICE_SET, E_END_POINTS_PER_SCORING_CARD,
    E_END_SET_POINTS, E_EXTRA_GOODS, E_EXTRA_TRIBUTE, E_GAIN_ANY_CUBE, E_GAIN_COINS,
    E_GAIN_COINS_PAIR, E_GAIN_COINS_POINTS, E_GAIN_CUBE, E_IF_EMPTY_SPACES, E_JOKER_REUSE,
    E_PAY_COINS_COMPLETE_CARD, E_PAY_COINS_FOR_ANY_CUBE, E_PAY_COINS_FOR_POINTS, E_PAY_COINS_SAIL,
    E_PAY_CUBES_FOR_ANY_CUBE, E_PAY_CUBES_FOR_COINS, E_PAY_CUBE_FOR_COINS,
    E_PAY_DISTINCT_CUBES_FOR_POINTS, E_POINTS_IF_ALONE_LEADING, E_POINTS_IF_FIRST_ON_WALL,
    E_POINTS_IF_GOODS_HELD, E_POINTS_IF_OFFICE_ACTIVATED, E_POINTS_IF_SAILED, E_POINTS_IF_SCORED,
    E_POINTS_ON_TRIBUTE, E_POINTS_PER_OFFICE, E_SAIL, E_WALL_STEPS_ON_GOODS,
    E_WALL_STEP_IF_NOT_FIRST, E_WALL_TO_TOP, G_DISCARDED, G_Q_OWNER, G_STAMP, K_C_COLOUR,
    K_C_EFFECT, K_C_KIND, K_C_TIMING, K_MIXED, K_NQ, K_PALACE_ALL, K_N_GOODS, K_OFFICE_KIND, K_PERSON_KIND, K_PER_SET,
    K_Q_DARK, K_REFUND_ALL, K_ROUTE_END, K_TAB_SPACES, K_WALL_SPACES, NC, P_CARD_PTS, P_CITY,
    P_COINS, P_COMPLETED, P_DONE, P_GOODS, P_GOODS_MAX, P_GOT_COINS, P_N_DONE, P_N_REF, P_N_TAB,
    P_OFF_EXTRA, P_OFF_MASK, P_REF, P_SAILED, P_SCORED, P_SHIP, P_STAMP, P_TAB, P_TRIB_MAX,
    P_TRIB_N, P_USED, P_WALL, T_ACTIVATE, T_END,
)


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
def joker_uses_nb(s, q):
    u = 1
    b = pb(q)
    for i in range(s[b + P_N_DONE]):
        card = s[b + P_DONE + i]
        if s[K_C_EFFECT + card] == E_JOKER_REUSE and arg_nb(s, card, 0) > u:
            u = arg_nb(s, card, 0)
    return u


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
def activation_open_nb(s, q, i):
    """Can completed card i be activated at all now (activate_ok_nb's checks that do not
    depend on the option; engine_nb.legal_actions_nb asks once a card, not once an option)?"""
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
    return True


@njit(cache=True)
def activate_ok_nb(s, q, i, x):
    if not activation_open_nb(s, q, i):
        return False
    b = pb(q)
    card = s[b + P_DONE + i]
    e = s[K_C_EFFECT + card]
    a0, a1, a2 = arg_nb(s, card, 0), arg_nb(s, card, 1), arg_nb(s, card, 2)
    if e == E_PAY_CUBE_FOR_COINS:
        return x == 0 and avail_nb(s, q, a0) >= a1
    if e == E_GAIN_COINS or e == E_GAIN_CUBE or e == E_GAIN_COINS_POINTS or e == E_GAIN_COINS_PAIR:
        return x == 0
    if e == E_GAIN_ANY_CUBE:
        return x < NC
    if e == E_PAY_CUBES_FOR_COINS:
        if s[K_MIXED]:                        # x: the multiset of colours paid
            return x < multisets_nb(a0, NC) and affords_packed_nb(s, q, multiset_nb(x, a0))
        return x < NC and avail_nb(s, q, x) >= a0
    if e == E_PAY_COINS_FOR_POINTS:
        return x == 0 and s[b + P_COINS] >= a0
    if e == E_PAY_COINS_FOR_ANY_CUBE:
        return x < NC and s[b + P_COINS] >= a0
    if e == E_PAY_CUBES_FOR_ANY_CUBE:         # x // NC paid (a multiset, or a colour), x % NC gained
        if s[K_MIXED]:
            return x < multisets_nb(a0, NC) * NC and affords_packed_nb(s, q, multiset_nb(x // NC, a0))
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
def open_options_nb(s, q, i, out, n):
    """The answers A_ACT + i * ACT_BLOCK + x for each option x of completed card i (open:
    activation_open_nb) that activate_ok_nb accepts, in increasing x, into out[n:];
    returns the new count. The cards of many options (a set of colours, a pair of
    colours) are listed without asking activate_ok_nb once an option."""
    card = s[pb(q) + P_DONE + i]
    e = s[K_C_EFFECT + card]
    at = A_ACT + i * ACT_BLOCK
    if e == E_PAY_DISTINCT_CUBES_FOR_POINTS:  # any non-empty set of colours in hand
        have = 0
        for c in range(NC):
            if avail_nb(s, q, c) >= 1:
                have |= 1 << c
        for x in range(1, 1 << NC):
            if x & ~have == 0:
                out[n] = at + x
                n += 1
        return n
    if e == E_PAY_CUBES_FOR_ANY_CUBE and s[K_MIXED]:   # each payment the seat has, 6 colours gained
        a0 = arg_nb(s, card, 0)
        for y in range(multisets_nb(a0, NC)):
            if affords_packed_nb(s, q, multiset_nb(y, a0)):
                for g in range(NC):
                    out[n] = at + y * NC + g
                    n += 1
        return n
    if e == E_PAY_CUBES_FOR_ANY_CUBE:         # a colour paid (x // NC), one gained
        for x in range(NC * NC):
            if avail_nb(s, q, x // NC) >= arg_nb(s, card, 0):
                out[n] = at + x
                n += 1
        return n
    for x in range(options_nb(s, q, card)):
        if activate_ok_nb(s, q, i, x):
            out[n] = at + x
            n += 1
    return n


@njit(cache=True)
def activate_nb(s, q, i, x, log):
    """A completed card's once-per-round effect (legal: activate_ok_nb). Returns the
    spaces the ship sails for the cards that sail (the engine moves it: act_nb), else 0."""
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
            return 0
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
        if s[K_MIXED]:
            pay_packed_nb(s, q, multiset_nb(x, a0))
        else:
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
        if s[K_MIXED]:
            pay_packed_nb(s, q, multiset_nb(x // NC, a0))
        else:
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
        return x                            # the engine sails (act_nb)
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
        return 0
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
    return 0


@njit(cache=True)
def options_nb(s, q, card):
    """How many options (x) an activated card's answers range over."""
    e = s[K_C_EFFECT + card]
    if e == E_PAY_CUBES_FOR_COINS and s[K_MIXED]:
        return min(multisets_nb(arg_nb(s, card, 0), NC), ACT_BLOCK)
    if e == E_PAY_CUBES_FOR_ANY_CUBE and s[K_MIXED]:
        return min(multisets_nb(arg_nb(s, card, 0), NC) * NC, ACT_BLOCK)
    if (e == E_GAIN_ANY_CUBE or e == E_PAY_CUBES_FOR_COINS or e == E_PAY_COINS_FOR_ANY_CUBE
            or e == E_CUBE_IF_ALONE_LOWEST or e == E_CUBE_IF_TRIBUTE_PAID):
        return NC
    if e == E_PAY_CUBES_FOR_ANY_CUBE:
        return NC * NC
    if e == E_PAY_DISTINCT_CUBES_FOR_POINTS:
        return 1 << NC
    if e == E_PAY_COINS_SAIL:
        return min(arg_nb(s, card, 1) + 1, ACT_BLOCK)
    if e == E_SAIL:
        return min(arg_nb(s, card, 0) + 1, ACT_BLOCK)
    if e == E_DISCARD_PERSON_FOR_COINS:
        return s[pb(q) + P_N_DONE]
    if e == E_COMPLETE_REFUND:
        return 8
    return 1


@njit(cache=True)
def plain_end_points_nb(s, q, i):
    """An end card's points, Palast's (which counts the others) aside: 0."""
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
def end_card_points_nb(s, q, i):
    """Completed end card i's points at the game's end."""
    b = pb(q)
    card = s[b + P_DONE + i]
    e = s[K_C_EFFECT + card]
    a0 = arg_nb(s, card, 0)
    if e == E_END_POINTS_PER_SCORING_CARD:
        n = 0
        for j in range(s[b + P_N_DONE]):
            other = s[b + P_DONE + j]
            if j == i or s[K_C_TIMING + other] != T_END:
                continue
            if s[K_PALACE_ALL]:                 # every other end card but Abt
                if s[K_C_EFFECT + other] != E_END_NO_TABLEAU_PENALTY:
                    n += 1
            elif s[K_C_EFFECT + other] != E_END_POINTS_PER_SCORING_CARD and plain_end_points_nb(s, q, j) > 0:
                n += 1                          # the cards that score (another Palast: never)
        return a0 * n
    return plain_end_points_nb(s, q, i)


# ---- triggers: effects the owner's actions set off ------------------------------------
@njit(cache=True)
def on_tribute_nb(s, q, log):
    """POINTS_ON_TRIBUTE: each such card scores when its owner pays the tribute."""
    b = pb(q)
    for i in range(s[b + P_N_DONE]):
        card = s[b + P_DONE + i]
        if s[K_C_EFFECT + card] == E_POINTS_ON_TRIBUTE:
            pts = arg_nb(s, card, 0)
            score_nb(s, q, pts)
            s[b + P_CARD_PTS] += pts
            event_nb(s, log, q, EV_TRIGGER, card, 0, 0, pts, 0)


@njit(cache=True)
def on_goods_nb(s, q, log):
    """WALL_STEPS_ON_GOODS, COINS_ON_GOODS: when the owner takes a goods tile."""
    b = pb(q)
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


@njit(cache=True)
def delivery_effects_nb(s, q, g, pts):
    """One delivered tile of good g worth ``pts``: DELIVERY_MULTIPLIER (each such card of
    this good multiplies), then DELIVERY_BONUS if it scores. Returns (points, coins got)."""
    b = pb(q)
    for i in range(s[b + P_N_DONE]):
        card = s[b + P_DONE + i]
        if s[K_C_EFFECT + card] == E_DELIVERY_MULTIPLIER and arg_nb(s, card, 0) == g:
            pts *= arg_nb(s, card, 1)
    coins = 0
    if pts > 0:
        pts += effect_sum_nb(s, q, E_DELIVERY_BONUS, -1, 0, 0)
        coins = gain_coins_nb(s, q, effect_sum_nb(s, q, E_DELIVERY_BONUS, -1, 0, 1))
    return pts, coins
