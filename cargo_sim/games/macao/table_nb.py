"""Macao's table bookkeeping as numba kernels: coins, cubes, points and penalty markers
moving between the seats, the bank and the supply; what a seat's completed cards add up
to; costs; the wall's order. The rules use these (engine_nb), and so do the card effects
(card_effects_nb); every change of a seat's points or coins goes to the event log.
"""
from ...core import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from ...core.layout import R_N_PLAYERS
from .enums import (
    E_COMPLETE_DISCOUNT, E_GOODS_DISCOUNT, G_BANK, G_GAME, G_LOG_CAP, G_NEV, G_ORDER, G_ROUND,
    G_STAMP, G_SUPPLY, K_C_ARGS, K_C_COLOUR, K_C_COST, K_C_EFFECT, K_C_KIND, K_LIMIT_COINS,
    K_LIMIT_CUBES, K_MARKERS, K_OFF_CHOSEN, K_WALL_BY_SPACE, K_OFFICE_KIND, K_PEN_NO_MARKER, K_Q_COST, K_WALL_SPACES, NC,
    N_EVENT_FIELDS, PL, PW, P_CITY, P_COINS, P_COINS_IN, P_COINS_OUT, P_CUBES_IN, P_CUBES_OUT,
    P_DONE, P_GOT_COINS, P_MARK_PEN, P_N_DONE, P_PEN_MARKERS, P_ROSE, P_SCORED, P_STAMP, P_VP,
    P_WALL,
)


# ---- small helpers -----------------------------------------------------------------
@njit(cache=True, inline="always")
def pb(q):
    return PL + q * PW


@intrinsic
def stack_words_nb(typingctx, n):
    """``n`` (a constant: a literal or a module's int) int64 words on the calling kernel's
    stack, as a raw pointer, not initialised: a small buffer without a heap allocation (an
    allocation and its free were a fifth of random games' time; docs/performance.md, Macao).
    Valid until the caller returns; never returned or stored."""
    if not isinstance(n, types.IntegerLiteral):
        return None
    size = n.literal_value

    def codegen(context, builder, sig, args):
        return cgutils.alloca_once(builder, context.get_value_type(types.int64),
                                   size=context.get_constant(types.intp, size))
    return types.CPointer(types.int64)(n), codegen


@intrinsic
def copy_words_nb(typingctx, dst, dst_at, src, src_at, n):
    """dst[dst_at:dst_at + n] = src[src_at:src_at + n] for int64 raw pointers whose ranges
    do not overlap: one memcpy (LLVM expands a constant length inline), where a loop of
    words was neither unrolled nor vectorised (the two pointers might alias)."""
    if not (isinstance(dst, types.CPointer) and isinstance(src, types.CPointer)):
        return None

    def codegen(context, builder, sig, args):
        d, da, s, sa, k = args
        cgutils.raw_memcpy(builder, builder.gep(d, [da]), builder.gep(s, [sa]), k, 8, align=8)
        return context.get_dummy_value()
    return types.void(dst, types.intp, src, types.intp, types.intp), codegen


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


# ---- "any cubes" paid in a mix of colours (any_cubes "mixed") ------------------------------
# A payment of n cubes is a multiset of colours, numbered in lexicographic order of its
# cubes' colours sorted (n = 2: {0,0}, {0,1}, ..., {0,5}, {1,1}, ...); a card's answer is
# that number (docs/rules_macao.md, "Card effects"). Counts are packed one byte a colour.
@njit(cache=True)
def multisets_nb(n, colours):
    """How many multisets of n cubes over ``colours`` colours: C(n + colours - 1, n)."""
    r = 1
    for k in range(1, n + 1):
        r = r * (colours - 1 + k) // k
    return r


@njit(cache=True)
def multiset_nb(x, n):
    """Multiset number x of n cubes: the count of colour c in byte c."""
    packed, c = 0, 0
    for k in range(n):
        while True:                     # cube k's colour: skip the lower colours' blocks
            m = multisets_nb(n - k - 1, NC - c)
            if x < m:
                break
            x -= m
            c += 1
        packed += 1 << (8 * c)
    return packed


@njit(cache=True)
def multiset_rank_nb(packed, n):
    """The number of the multiset of n cubes with these packed counts (multiset_nb's inverse)."""
    x, c, k = 0, 0, 0
    for col in range(NC):
        for _ in range((packed >> (8 * col)) & 255):
            for d in range(c, col):
                x += multisets_nb(n - k - 1, NC - d)
            c = col
            k += 1
    return x


@njit(cache=True)
def affords_packed_nb(s, q, packed):
    """Has the seat the cubes of these packed counts this round?"""
    for c in range(NC):
        if avail_nb(s, q, c) < (packed >> (8 * c)) & 255:
            return False
    return True


@njit(cache=True)
def pay_packed_nb(s, q, packed):
    for c in range(NC):
        k = (packed >> (8 * c)) & 255
        if k > 0:
            pay_cubes_nb(s, q, c, k)


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
def off_colour_nb(cost, n, c):
    """A cost n cubes cheaper, the cubes off colour c (as many as it has; any left over off
    the colour with the most: reduced_cost_nb) -- discount_colour "chosen"."""
    k = min(n, cost[c])
    cost[c] -= k
    reduced_cost_nb(cost, n - k)


@njit(cache=True)
def names_colour_nb(s, at, discount):
    """Does a discount on the cost at s[at:at+NC] name its colour (discount_colour
    "chosen", a discount, a cube to take off)? Then the plain answer is not legal."""
    if discount <= 0 or not s[K_OFF_CHOSEN]:
        return False
    for c in range(NC):
        if s[at + c] > 0:
            return True
    return False


@njit(cache=True)
def off_ok_nb(s, q, at, discount, c):
    """Can the seat pay the cost at s[at:at+NC] with the discount off colour c (named:
    names_colour_nb, and the cost has a cube of c)?"""
    if not names_colour_nb(s, at, discount) or s[at + c] < 1:
        return False
    cost = stack_words_nb(NC)
    for k in range(NC):
        cost[k] = s[at + k]
    off_colour_nb(cost, discount, c)
    return affordable_nb(s, q, cost)


@njit(cache=True)
def affordable_nb(s, q, cost):
    for c in range(NC):
        if avail_nb(s, q, c) < cost[c]:
            return False
    return True


@njit(cache=True)
def cost_ok_nb(s, q, at, discount):
    """Can the seat pay the cost at s[at:at+NC], ``discount`` cubes less? (Small, so that
    the compiler inlines it in the legal-answer loops; a discount is rare.)"""
    if discount != 0:
        return discounted_ok_nb(s, q, at, discount)
    for c in range(NC):
        if avail_nb(s, q, c) < s[at + c]:
            return False
    return True


@njit(cache=True)
def discounted_ok_nb(s, q, at, discount):
    cost = stack_words_nb(NC)
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
    """No disc ahead of the seat's: in the wall's order (wall_rank "order": further, or on
    top), or by space alone ("space": no disc further on)."""
    for o in range(s[R_N_PLAYERS]):
        if o == q:
            continue
        if s[pb(o) + P_WALL] > s[pb(q) + P_WALL] if s[K_WALL_BY_SPACE] else before_nb(s, o, q):
            return False
    return True


@njit(cache=True)
def alone_last_on_wall_nb(s, q):
    """Every other disc ahead of the seat's: in the wall's order, or by space alone."""
    for o in range(s[R_N_PLAYERS]):
        if o == q:
            continue
        if s[pb(o) + P_WALL] <= s[pb(q) + P_WALL] if s[K_WALL_BY_SPACE] else not before_nb(s, o, q):
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
