"""The heuristic bot family: one compiled decision function, many strategies.

Every built-in strategy except `random` is this function with its own
parameters (``strategies.py`` names them and says what each one is for). The
building blocks:

* **cargo value**: a holding is scored by its exact smuggling value
  (``trade_value``) plus optional biases towards same-type sets
  (``same_bias`` per token of the largest set) or all-different sets
  (``diff_bias`` per distinct type);
* **destinations** (phase 3): each ship goes where ``gain - coin_value * cost``
  is highest -- a port's gain is the marginal score of its cargo, the Casino's
  is its payout in coins, the Black Market's the best expected swap or draw;
* **raises** (phase 1): raise by the least amount if the cargo is still worth
  the whole stack, else abandon (coins come back);
* **trades** (phase 2): the exact planner picks the tokens and cards with the
  highest utility (VP, plus a value for Smuggler's Edge effects while turns
  remain); the bot holds cargo for bigger sets unless the trade wastes little;
* **discards**: drop the tokens whose loss lowers the hand's score least.
"""
import numpy as np
from ....core import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit

from ....core.borrow_nb import bits_float_nb, float_bits_nb
from ....core.shared_nb import shared_ptr_nb
from ..enums import (MAX_TOK, M_TURN, BM_CODE, BM_DRAW, CTX, D_BLACK_MARKET, D_DISCARD, D_ORDER, D_RAISE, D_SEND,
                     D_TRADE, LOC_BLACK_MARKET, LOC_CASINO, LOC_PORT0, OUT, R_CASINO_PAYOUT,
                     R_FINAL_COIN_VALUE, R_MAX_SHIPS, R_N_TURNS, SCRATCH, SCRATCH_W, MAX_PORTS)
from .botkit_nb import (abandoned_nb, bag_nb, bank_nb, black_market_nb, casino_ships_nb, card_buyable_nb, card_cost_nb, card_ships_nb,
                        card_syndicate_nb, card_vp_nb, card_warehouse_nb, cards_held_nb, coins_nb,
                        hand_nb, hand_size_nb, is_final_turn_nb, n_cards_nb, n_players_nb, n_ports_nb,
                        n_tok_nb, n_types_nb, param_nb, plan_trade_answer_nb, port_bid_nb,
                        port_cargo_nb, port_min_bid_nb, ships_nb, top_bid_nb,
                        trade_budget_extra_nb, turn_nb, turns_left_nb, utility_buffer_nb,
                        warehouse_nb)
from ..engine_nb import trade_value_at_nb
from ..trade.packed_nb import T_MAX_TOTAL, T_MAX_WILDS, T_POW, T_POW_LEN, probe_consts_nb, probe_with_nb

# parameter slots (strategies.py gives names and defaults in this order)
HP_COIN_VALUE = 0       # smuggling points one coin is worth when comparing costs
HP_BID_MARGIN = 1       # coins above the least legal bid
HP_CASINO_BIAS = 2      # extra points for a Casino visit
HP_LOW_COINS = 3        # below this many coins the Casino gets +2 points per missing coin/2
HP_CONTEST = 4          # 0..1: how much a port already bid on is still worth to enter
HP_MAX_PAY = 5          # never stack more than this many coins per point of gain (0: no cap)
HP_SAME_BIAS = 6        # points per token in the largest same-type set
HP_DIFF_BIAS = 7        # points per distinct type held
HP_BM_BIAS = 8          # extra points for a Black Market visit
HP_SHIP_VALUE = 9       # utility of a Cargo Ship card per turn left
HP_WAREHOUSE_VALUE = 10  # utility of a Warehouses card (on top of its VP)
HP_SYNDICATE_VALUE = 11  # utility of a Syndicate card (on top of its VP)
HP_HOLD = 12            # sell only if card utility >= hold * value of the tokens sold
HP_RAISE_RATIO = 13     # raise while gain * raise_ratio >= coin_value * whole stack
HP_LATE_BID = 14        # extra bid margin per turn in the second half of the game
HP_BAIT = 15            # 1: enter contested ports cheaply to be paid (Syndicate) for leaving
HP_SELL_AT = 16         # before the last turn, trade only once the hand is worth this much
# switches added with expert v2 (0 = the behaviour before them; docs/bots.md)
HP_FINAL_ABANDON = 17   # 1: never raise on the final turn (the raise never resolves)
HP_BANK_AWARE = 18      # 1: the Casino is worth only what the bank can still pay
HP_SYNDICATE_COUNT = 19  # 1: bait/abandon only while a Syndicate card is left to pay
HP_RICH_COINS = 20      # above this many coins (0: never) a coin is worth rich_value
HP_RICH_VALUE = 21      # coin_value when rich
# strong-bot switches (0 = the behaviour before them; docs/bots.md)
HP_DENY = 22            # points per point a port's cargo would add to the opponent who gains most
HP_GUARD = 23           # coins of bid per point the port's cargo would add to that opponent

# best_black_market_nb's scores of one call by token count (float bits; the
# types are symmetric, so adding or removing a token of a type scores the same
# for every type holding as many): counts below MEMO_W
MEMO_ADD = SCRATCH + MAX_TOK
MEMO_LOSS = SCRATCH + 2 * MAX_TOK
MEMO_W = MAX_TOK

# bot notes kept in the scratch area, valid for one phase 3 of one seat (the
# hand, the ports' cargo and the market do not change while ships are sent):
# the Black Market estimate, the hand's score and each port's gain
NOTE_BM_STAMP = SCRATCH + 3 * MAX_TOK
NOTE_BM_GAIN = NOTE_BM_STAMP + 1
NOTE_SEND_STAMP = NOTE_BM_GAIN + 1
NOTE_BASE = NOTE_SEND_STAMP + 1          # float bits
NOTE_PORT_GAIN = NOTE_BASE + 1           # [MAX_PORTS] float bits, NOT_YET if not computed
NOT_YET = -(1 << 62)
NOTE_SYNDICATE = NOTE_PORT_GAIN + MAX_PORTS   # syndicate_room_nb (cards are bought in phase 2)
# the seat's parameters choose_send_nb reads at every ship, divided by PARAM_SCALE
# once a phase (float bits; the same floats param_nb returns), and the phase's flags
NOTE_P_COIN = NOTE_SYNDICATE + 1         # coin_value
NOTE_P_RICH_COINS = NOTE_P_COIN + 1
NOTE_P_RICH_VALUE = NOTE_P_COIN + 2
NOTE_P_CASINO_BIAS = NOTE_P_COIN + 3
NOTE_P_LOW_COINS = NOTE_P_COIN + 4
NOTE_P_BM_BIAS = NOTE_P_COIN + 5
NOTE_P_CONTEST = NOTE_P_COIN + 6
NOTE_P_MAX_PAY = NOTE_P_COIN + 7
NOTE_BANK_AWARE = NOTE_P_COIN + 8        # 1: casino_payout_nb counts the bank
NOTE_BAIT = NOTE_P_COIN + 9              # 1: bait
NOTE_SYNDICATE_COUNT = NOTE_P_COIN + 10  # 1: bait_room_nb counts the contested ports
NOTE_MARGIN = NOTE_P_COIN + 11           # bid_margin_nb (a function of the turn)
NOTE_P_SAME = NOTE_P_COIN + 12           # same_bias
NOTE_P_DIFF = NOTE_P_COIN + 13           # diff_bias
NOTE_P_DENY = NOTE_P_COIN + 14           # deny / (players - 1)
NOTE_P_GUARD = NOTE_P_COIN + 15          # guard
assert NOTE_P_GUARD < SCRATCH + SCRATCH_W
# with deny or guard, each port's denied_nb, noted with its gain: the Black Market's
# memo words (best_black_market_nb fills them before the first port is scored and
# not again in the phase: its gain is noted too)
NOTE_PORT_DENIED = MEMO_LOSS                # [MAX_PORTS] float bits
assert MAX_PORTS <= MEMO_W


@njit(cache=True)
def scratch_score_nb(s, seat):
    """Score of the holding in s[SCRATCH...]: trade value plus set biases."""
    nt = n_tok_nb(s)
    n_types = n_types_nb(s)
    v = np.float64(trade_value_at_nb(s, SCRATCH, s[SCRATCH + n_types]))
    same = param_nb(s, seat, HP_SAME_BIAS)
    diff = param_nb(s, seat, HP_DIFF_BIAS)
    if same != 0.0 or diff != 0.0:
        top = 0
        distinct = 0
        for t in range(n_types):
            k = s[SCRATCH + t]
            if k > top:
                top = k
            if k > 0:
                distinct += 1
        top += s[SCRATCH + n_types]          # Wilds join the largest set
        v += same * top + diff * distinct
    return v


@njit(cache=True)
def load_hand_nb(s, seat):
    for t in range(n_tok_nb(s)):
        s[SCRATCH + t] = hand_nb(s, seat, t)


@njit(cache=True, inline="always")
def probe_limits_nb(s):
    """changed_value_nb's `lim`: the tables' (max total, max Wilds, probe_consts_nb,
    the tables: the shared array's pointer)."""
    tab = shared_ptr_nb(s)
    return (tab[T_MAX_TOTAL], tab[T_MAX_WILDS], probe_consts_nb(tab, 0), tab)


@njit(cache=True, inline="always")
def holding_stats_nb(s, seat, p):
    """Write the seat's hand plus port p's cargo (p < 0: the hand alone) to
    s[SCRATCH...] and return, computed as it is written: its table hash (sum of
    hash_pow[count]; fast = False if a count is beyond hash_pow), real tokens,
    3 largest counts (a count of several types repeats), distinct types and
    Wilds. Inlined: a caller that needs less has the rest optimised away."""
    n = n_types_nb(s)
    tab = shared_ptr_nb(s)
    pow0 = tab[T_POW]
    cmax = tab[T_POW_LEN] - 1
    h = np.int64(0)
    tot = 0
    m1 = 0
    m2 = 0
    m3 = 0
    distinct = 0
    fast = True
    for t in range(n):
        k = hand_nb(s, seat, t)
        if p >= 0:
            k += port_cargo_nb(s, p, t)
        s[SCRATCH + t] = k
        if k > cmax:
            fast = False
        else:
            h += tab[pow0 + k]
        tot += k
        if k > m1:
            m3 = m2
            m2 = m1
            m1 = k
        elif k > m2:
            m3 = m2
            m2 = k
        elif k > m3:
            m3 = k
        if k > 0:
            distinct += 1
    wilds = hand_nb(s, seat, n)
    if p >= 0:
        wilds += port_cargo_nb(s, p, n)
    s[SCRATCH + n] = wilds
    return h, fast, tot, m1, m2, m3, distinct, wilds


@njit(cache=True)
def holding_score_nb(s, seat, p):
    """scratch_score_nb of the hand plus port p's cargo (p < 0: the hand
    alone), written to s[SCRATCH...]: holding_stats_nb, then one probe."""
    return holding_score_with_nb(s, seat, p, param_nb(s, seat, HP_SAME_BIAS),
                                 param_nb(s, seat, HP_DIFF_BIAS))


@njit(cache=True)
def holding_score_with_nb(s, seat, p, same, diff):
    """holding_score_nb told the seat's same_bias and diff_bias."""
    h, fast, tot, top, _, _, distinct, wilds = holding_stats_nb(s, seat, p)
    return biased_score_nb(changed_value_nb(s, fast, h, tot, wilds, -1, -1, probe_limits_nb(s)),
                           top + wilds, distinct, same, diff)


@njit(cache=True)
def hand_score_nb(s, seat):
    return holding_score_nb(s, seat, -1)


@njit(cache=True, inline="always")
def changed_value_nb(s, fast, h, tot, wilds, add_t, remove_t, lim):
    """Trade value of the holding in s[SCRATCH...] with one token of type add_t
    added and one of remove_t removed (-1: none), told the changed holding's
    table hash h (sum of hash_pow[count] over the types), real tokens tot and
    Wilds: one probe when the table holds it (fast: every count of the
    holding it derives from was hashable), else packed_trade_value_nb.
    lim: probe_limits_nb(s), read once per search. Inlined at every call (a
    call costs as much as the probe); the rare other case is not."""
    max_total, max_wilds, consts, tab = lim
    if fast and tot <= max_total and 0 <= wilds <= max_wilds:
        # packed_trade_value_nb's probe (counts <= tot <= table_max_total <= the hashable maximum)
        return probe_with_nb(tab, 0, consts, h, wilds)
    return changed_value_slow_nb(s, wilds, add_t, remove_t)


@njit(cache=True)
def changed_value_slow_nb(s, wilds, add_t, remove_t):
    """changed_value_nb for holdings beyond the table: the holding written out."""
    if add_t >= 0:
        s[SCRATCH + add_t] += 1
    if remove_t >= 0:
        s[SCRATCH + remove_t] -= 1
    tv = trade_value_at_nb(s, SCRATCH, wilds)
    if add_t >= 0:
        s[SCRATCH + add_t] -= 1
    if remove_t >= 0:
        s[SCRATCH + remove_t] += 1
    return tv


@njit(cache=True, inline="always")
def biased_score_nb(tv, top, distinct, same, diff):
    """scratch_score_nb from a holding's trade value, largest set (Wilds
    included) and distinct types."""
    v = np.float64(tv)
    if same != 0.0 or diff != 0.0:
        v += same * top + diff * distinct
    return v


@njit(cache=True, inline="always")
def insert3_nb(t, v, i0, i1, i2, v0, v1, v2, highest):
    """Insert candidate t of value v into a best-3 list (i: candidates, -1
    empty; v: their values) at the first place that is empty or that it beats
    (a higher value if `highest`, else a lower one); the last one drops out."""
    if i0 < 0 or (v > v0 if highest else v < v0):
        return t, i0, i1, v, v0, v1
    if i1 < 0 or (v > v1 if highest else v < v1):
        return i0, t, i1, v0, v, v1
    if i2 < 0 or (v > v2 if highest else v < v2):
        return i0, i1, t, v0, v1, v
    return i0, i1, i2, v0, v1, v2


@njit(cache=True)
def best_black_market_nb(s, seat):
    """best_black_market_with_nb with the seat's same_bias and diff_bias."""
    return best_black_market_with_nb(s, seat, param_nb(s, seat, HP_SAME_BIAS),
                                     param_nb(s, seat, HP_DIFF_BIAS))


@njit(cache=True)
def best_black_market_with_nb(s, seat, same, diff):
    """(gain, answer) of the best Black Market action: a blind draw valued at its
    expected gain over the bag's contents, or a swap. Swaps are scored exactly
    for the 3 best tokens to take (by the gain of adding them) times the 3
    cheapest tokens to give (by the loss of removing them).
    Every holding scored is the hand with one or two tokens changed: its table
    hash, size, largest set and distinct types follow from the hand's; a real
    token added or removed is scored once per count held (MEMO_ADD, MEMO_LOSS)."""
    nt = n_tok_nb(s)
    n = nt - 1
    tab = shared_ptr_nb(s)
    pow0 = tab[T_POW]
    cmax = tab[T_POW_LEN] - 1
    lim = probe_limits_nb(s)
    h, fast, tot, m1, m2, m3, distinct, wilds = holding_stats_nb(s, seat, -1)
    top = m1
    base = biased_score_nb(changed_value_nb(s, fast, h, tot, wilds, -1, -1, lim),
                           top + wilds, distinct, same, diff)
    bag_total = 0
    draw = 0.0
    # the 3 best tokens to take (present in the market) and to give (held)
    take0, take1, take2 = -1, -1, -1
    add0, add1, add2 = 0.0, 0.0, 0.0
    give0, give1, give2 = -1, -1, -1
    loss0, loss1, loss2 = 0.0, 0.0, 0.0
    seen = np.int64(0)      # bit k: MEMO_ADD + k holds the add of a type holding k
    for t in range(nt):
        k = s[SCRATCH + t]
        b = bag_nb(s, t)
        offered = black_market_nb(s, t) > 0
        if b > 0 or offered:         # else neither drawn nor taken: no need to score it
            if t < n:
                if k < MEMO_W and (seen >> k) & 1:
                    add = bits_float_nb(s[MEMO_ADD + k])
                else:
                    ok = fast and k + 1 <= cmax
                    hv = h - tab[pow0 + k] + tab[pow0 + k + 1] if ok else h
                    add = biased_score_nb(changed_value_nb(s, ok, hv, tot + 1, wilds, t, -1, lim),
                                          max(top, k + 1) + wilds, distinct + (1 if k == 0 else 0),
                                          same, diff) - base
                    if k < MEMO_W:
                        seen |= np.int64(1) << k
                        s[MEMO_ADD + k] = float_bits_nb(add)
            else:
                add = biased_score_nb(changed_value_nb(s, fast, h, tot, wilds + 1, t, -1, lim),
                                      top + wilds + 1, distinct, same, diff) - base
            if b > 0:
                bag_total += b
                draw += b * add
            if offered:
                take0, take1, take2, add0, add1, add2 = insert3_nb(
                    t, add, take0, take1, take2, add0, add1, add2, True)
    best = draw / bag_total if bag_total > 0 else 0.0
    answer = BM_DRAW
    # a swap's holding is the hand plus its take minus a token: with trade values
    # monotone (value tables never decrease, rules.py) and biases >= 0, its gain
    # is at most the take's `add` (the same float operations on smaller terms)
    bounded = same >= 0.0 and diff >= 0.0
    if take0 < 0 or (bounded and add0 <= best + 1e-9):
        return best, answer         # no swap can beat the draw: no token to give is scored
    seen = np.int64(0)      # bit k: MEMO_LOSS + k holds the loss of a type holding k
    for t in range(nt):
        k = s[SCRATCH + t]
        if k > 0:
            if t < n:
                if k < MEMO_W and (seen >> k) & 1:
                    loss = bits_float_nb(s[MEMO_LOSS + k])
                else:
                    hv = h - tab[pow0 + k] + tab[pow0 + k - 1] if fast else h
                    top_after = max(m2 if k == m1 else m1, k - 1)
                    loss = base - biased_score_nb(changed_value_nb(s, fast, hv, tot - 1, wilds, -1, t, lim),
                                                  top_after + wilds, distinct - (1 if k == 1 else 0),
                                                  same, diff)
                    if k < MEMO_W:
                        seen |= np.int64(1) << k
                        s[MEMO_LOSS + k] = float_bits_nb(loss)
            else:
                loss = base - biased_score_nb(changed_value_nb(s, fast, h, tot, wilds - 1, -1, t, lim),
                                              top + wilds - 1, distinct, same, diff)
            give0, give1, give2, loss0, loss1, loss2 = insert3_nb(
                t, loss, give0, give1, give2, loss0, loss1, loss2, False)
    takes = (take0, take1, take2)
    adds = (add0, add1, add2)
    gives = (give0, give1, give2)
    # a swap's score depends only on the counts held of its take and give (-1: a
    # Wild): a pair of counts scored once can never beat the best again (best only
    # grows), so its later pairs are skipped; the pairs scored are listed in
    # MEMO_ADD (free again: the adds are read)
    nsw = 0
    for i in range(3):
        give = gives[i]
        if give < 0:
            break
        for j in range(3):
            take = takes[j]
            if take < 0:
                break
            if bounded and adds[j] <= best + 1e-9:
                break       # takes come by falling `add`: none after it can beat the best
            if take == give:
                continue
            key = ((((s[SCRATCH + take] if take < n else -1) + 1) << 20)
                   + (s[SCRATCH + give] if give < n else -1) + 1)
            again = False
            for q in range(nsw):
                if s[MEMO_ADD + q] == key:
                    again = True
                    break
            if again:
                continue
            s[MEMO_ADD + nsw] = key
            nsw += 1
            hs = h
            ts = tot
            ws = wilds
            ok = fast
            # largest set: the largest count of the other types (the 3 largest
            # counts without the changed ones), or a changed count
            rest1 = m1
            rest2 = m2
            top_s = 0
            distinct_s = distinct
            if take < n:
                k = s[SCRATCH + take]
                ok = ok and k + 1 <= cmax
                if ok:
                    hs += tab[pow0 + k + 1] - tab[pow0 + k]
                ts += 1
                if k == m1:
                    rest1 = m2
                    rest2 = m3
                elif k == m2:
                    rest2 = m3
                top_s = k + 1
                if k == 0:
                    distinct_s += 1
            else:
                ws += 1
            if give < n:
                k = s[SCRATCH + give]
                if ok:
                    hs += tab[pow0 + k - 1] - tab[pow0 + k]
                ts -= 1
                if k == rest1:
                    rest1 = rest2
                top_s = max(top_s, k - 1)
                if k == 1:
                    distinct_s -= 1
            else:
                ws -= 1
            top_s = max(top_s, rest1)
            g = biased_score_nb(changed_value_nb(s, ok, hs, ts, ws, take, give, lim),
                                top_s + ws, distinct_s, same, diff) - base
            if g > best + 1e-9:
                best = g
                answer = give * BM_CODE + take
    return best, answer


@njit(cache=True)
def syndicate_room_nb(s, seat):
    """Syndicate cards held (each pays for one port abandoned in a turn)."""
    k = 0
    for c in range(n_cards_nb(s)):
        if card_syndicate_nb(s, c) > 0:
            k += cards_held_nb(s, seat, c)
    return k


@njit(cache=True)
def abandon_room_nb(s, seat):
    """Syndicate payouts left this turn: with syndicate_count, cards held minus
    ports abandoned this turn (the j-th abandon is paid by the j-th card)."""
    k = syndicate_room_nb(s, seat)
    if param_nb(s, seat, HP_SYNDICATE_COUNT) > 0.5:
        for p in range(n_ports_nb(s)):
            k -= abandoned_nb(s, p)
    return k


@njit(cache=True, inline="always")
def bait_room_nb(s, seat, k, count):
    """Syndicate payouts left for next turn's abandons, told the Syndicate cards
    held k (syndicate_room_nb): with `count` (syndicate_count), k minus the
    contested ports this seat already holds a stack on."""
    if count:
        n = n_players_nb(s)
        for p in range(n_ports_nb(s)):
            if port_bid_nb(s, p, seat) > 0:
                for o in range(n):
                    if o != seat and port_bid_nb(s, p, o) > 0:
                        k -= 1
                        break
    return k


@njit(cache=True)
def coin_value_nb(s, seat):
    """Points one coin is worth to the seat: rich_value above rich_coins coins."""
    rich = param_nb(s, seat, HP_RICH_COINS)
    if rich > 0.0 and coins_nb(s, seat) > rich:
        return param_nb(s, seat, HP_RICH_VALUE)
    return param_nb(s, seat, HP_COIN_VALUE)


@njit(cache=True, inline="always")
def casino_payout_nb(s, bank_aware):
    """Coins one more Casino ship is expected to bring: the rules' payout, or
    with bank_aware what the bank keeps after every ship already waiting
    there is paid (the bank may be refilled before; this ignores it)."""
    payout = s[R_CASINO_PAYOUT]
    if not bank_aware:
        return float(payout)
    bank = bank_nb(s)
    if bank < 0:
        return float(payout)
    for o in range(n_players_nb(s)):
        bank -= casino_ships_nb(s, o) * payout
    return float(min(max(bank, 0), payout))


@njit(cache=True)
def bid_margin_nb(s, seat):
    m = param_nb(s, seat, HP_BID_MARGIN)
    half = s[R_N_TURNS] // 2
    if turn_nb(s) > half:
        m += param_nb(s, seat, HP_LATE_BID) * (turn_nb(s) - half)
    return int(m + 0.5) if m > 0 else 0


@njit(cache=True)
def send_notes_nb(s, seat):
    """choose_send_nb's notes at the first ship of a phase 3: the hand's score,
    no port gain yet, the Syndicate cards held, the parameters it reads at every
    ship (param_nb's floats: one division each a phase, not a ship) and the bid
    margin (a function of the turn)."""
    same = param_nb(s, seat, HP_SAME_BIAS)
    diff = param_nb(s, seat, HP_DIFF_BIAS)
    s[NOTE_P_SAME] = float_bits_nb(same)
    s[NOTE_P_DIFF] = float_bits_nb(diff)
    s[NOTE_BASE] = float_bits_nb(holding_score_with_nb(s, seat, -1, same, diff))
    for p in range(MAX_PORTS):
        s[NOTE_PORT_GAIN + p] = NOT_YET
    bait = param_nb(s, seat, HP_BAIT) > 0.5
    s[NOTE_SYNDICATE] = syndicate_room_nb(s, seat) if bait else 0
    s[NOTE_BAIT] = 1 if bait else 0
    # parameters that play no part are noted as if absent (rich_value without
    # rich_coins; syndicate_count without bait), so that seats whose parameters
    # differ only in them leave the same state (test_belief.py)
    coin_value = param_nb(s, seat, HP_COIN_VALUE)
    rich = param_nb(s, seat, HP_RICH_COINS)
    s[NOTE_P_COIN] = float_bits_nb(coin_value)
    s[NOTE_P_RICH_COINS] = float_bits_nb(rich)
    s[NOTE_P_RICH_VALUE] = float_bits_nb(param_nb(s, seat, HP_RICH_VALUE) if rich > 0.0 else coin_value)
    s[NOTE_P_CASINO_BIAS] = float_bits_nb(param_nb(s, seat, HP_CASINO_BIAS))
    s[NOTE_P_LOW_COINS] = float_bits_nb(param_nb(s, seat, HP_LOW_COINS))
    s[NOTE_P_BM_BIAS] = float_bits_nb(param_nb(s, seat, HP_BM_BIAS))
    s[NOTE_P_CONTEST] = float_bits_nb(param_nb(s, seat, HP_CONTEST))
    s[NOTE_P_MAX_PAY] = float_bits_nb(param_nb(s, seat, HP_MAX_PAY))
    s[NOTE_BANK_AWARE] = 0 if param_nb(s, seat, HP_BANK_AWARE) < 0.5 else 1
    s[NOTE_SYNDICATE_COUNT] = 1 if bait and param_nb(s, seat, HP_SYNDICATE_COUNT) > 0.5 else 0
    s[NOTE_MARGIN] = bid_margin_nb(s, seat)
    s[NOTE_P_DENY] = float_bits_nb(param_nb(s, seat, HP_DENY) / (n_players_nb(s) - 1))
    s[NOTE_P_GUARD] = float_bits_nb(param_nb(s, seat, HP_GUARD))


@njit(cache=True)
def denied_nb(s, seat, p):
    """The most port p's whole cargo would add to another seat's hand (its trade
    value): what taking the port keeps from the opponent who wants it most."""
    top = 0.0
    for o in range(n_players_nb(s)):
        if o != seat:
            g = holding_score_with_nb(s, o, p, 0.0, 0.0) - holding_score_with_nb(s, o, -1, 0.0, 0.0)
            if g > top:
                top = g
    return top


@njit(cache=True)
def choose_send_nb(s, seat):
    stamp = s[M_TURN] * 8 + seat + 1
    if s[NOTE_SEND_STAMP] != stamp:         # first ship of this phase 3
        s[NOTE_SEND_STAMP] = stamp
        send_notes_nb(s, seat)
    coins = coins_nb(s, seat)
    # coin_value_nb from the notes
    rich = bits_float_nb(s[NOTE_P_RICH_COINS])
    if rich > 0.0 and coins > rich:
        coin_value = bits_float_nb(s[NOTE_P_RICH_VALUE])
    else:
        coin_value = bits_float_nb(s[NOTE_P_COIN])
    base = bits_float_nb(s[NOTE_BASE])
    # Casino: coins now; next turn's final trade counts coins 1:1
    payout = casino_payout_nb(s, s[NOTE_BANK_AWARE] != 0)
    unit = coin_value
    if turns_left_nb(s) == 1 and s[R_FINAL_COIN_VALUE] > unit:
        unit = float(s[R_FINAL_COIN_VALUE])
    best = payout * unit + bits_float_nb(s[NOTE_P_CASINO_BIAS])
    low = bits_float_nb(s[NOTE_P_LOW_COINS])
    if coins < low:
        # the Casino's appeal to the short of coins, scaled by what it pays
        best += (low - coins) * (payout / s[R_CASINO_PAYOUT] if s[R_CASINO_PAYOUT] > 0 else 1.0)
    choice = LOC_CASINO
    bid_choice = 0
    bm_bias = bits_float_nb(s[NOTE_P_BM_BIAS])
    if bm_bias > -50.0:
        if s[NOTE_BM_STAMP] != stamp:
            g, _ = best_black_market_with_nb(s, seat, bits_float_nb(s[NOTE_P_SAME]),
                                             bits_float_nb(s[NOTE_P_DIFF]))
            s[NOTE_BM_STAMP] = stamp
            s[NOTE_BM_GAIN] = int(g * 1000.0)
        g = s[NOTE_BM_GAIN] / 1000.0
        if g + bm_bias > best:
            best = g + bm_bias
            choice = LOC_BLACK_MARKET
    contest = bits_float_nb(s[NOTE_P_CONTEST])
    max_pay = bits_float_nb(s[NOTE_P_MAX_PAY])
    bait = (s[NOTE_BAIT] != 0
            and bait_room_nb(s, seat, s[NOTE_SYNDICATE], s[NOTE_SYNDICATE_COUNT] != 0) > 0)
    margin = s[NOTE_MARGIN]
    guard = bits_float_nb(s[NOTE_P_GUARD])
    for p in range(n_ports_nb(s)):
        need = port_min_bid_nb(s, seat, p)
        if need < 0:
            continue
        contested = need > 1              # need = the top stack + 1
        if s[NOTE_PORT_GAIN + p] == NOT_YET:
            # the score the port's whole cargo adds to the hand
            g = holding_score_with_nb(s, seat, p, bits_float_nb(s[NOTE_P_SAME]),
                                      bits_float_nb(s[NOTE_P_DIFF])) - base
            deny = bits_float_nb(s[NOTE_P_DENY])
            if deny != 0.0 or guard != 0.0:
                denied = denied_nb(s, seat, p)
                g += deny * denied
                s[NOTE_PORT_DENIED + p] = float_bits_nb(denied)
            s[NOTE_PORT_GAIN + p] = float_bits_nb(g)
        gain = bits_float_nb(s[NOTE_PORT_GAIN + p])
        if contested:
            if bait and need <= coins:
                # enter cheaply, expecting to be outbid and paid for leaving
                sc = 2.0 * coin_value + 0.25 * gain
                if sc > best:
                    best = sc
                    choice = LOC_PORT0 + p
                    bid_choice = need
                continue
            gain *= contest
        bid = need + margin
        if guard != 0.0:
            # a stack the opponent who wants the cargo most would find too dear to top
            bid = max(bid, need + int(guard * bits_float_nb(s[NOTE_PORT_DENIED + p]) + 0.5))
        if bid > coins:
            bid = coins
        if max_pay > 0.0 and bid > max_pay * gain:
            continue
        sc = gain - coin_value * bid
        if sc > best:
            best = sc
            choice = LOC_PORT0 + p
            bid_choice = bid
    s[OUT] = bid_choice
    return choice


@njit(cache=True)
def choose_raise_nb(s, seat):
    p = s[CTX]
    need = s[CTX + 1]
    if param_nb(s, seat, HP_FINAL_ABANDON) > 0.5 and is_final_turn_nb(s):
        return 0            # the raise would never resolve; the coins count toward cards
    if param_nb(s, seat, HP_BAIT) > 0.5 and abandon_room_nb(s, seat) > 0:
        return 0
    # the hand's score and the port's gain, the biases read once
    same = param_nb(s, seat, HP_SAME_BIAS)
    diff = param_nb(s, seat, HP_DIFF_BIAS)
    base = holding_score_with_nb(s, seat, -1, same, diff)
    gain = holding_score_with_nb(s, seat, p, same, diff) - base
    deny = param_nb(s, seat, HP_DENY)
    if deny != 0.0:
        gain += deny / (n_players_nb(s) - 1) * denied_nb(s, seat, p)
    stack = port_bid_nb(s, p, seat) + need
    if gain * param_nb(s, seat, HP_RAISE_RATIO) >= coin_value_nb(s, seat) * stack:
        return need
    return 0


@njit(cache=True)
def choose_order_nb(s, seat):
    """Casino first (coins for raises), then ports where alone, then contested
    ports, then the Black Market (swap against the newly won cargo)."""
    if s[CTX + LOC_CASINO] > 0:
        return LOC_CASINO
    n_ports = n_ports_nb(s)
    n = n_players_nb(s)
    for p in range(n_ports):
        if s[CTX + LOC_PORT0 + p] > 0:
            # alone there (top_bid_nb(s, p, seat) == 0: stacks are >= 0), by a loop
            # that stops at the first other stack (LLVM vectorised top_bid_nb's
            # maximum for 8+ seats: a wide set-up at every call, for 2-5 seats)
            alone = True
            for o in range(n):
                if o != seat and port_bid_nb(s, p, o) > 0:
                    alone = False
                    break
            if alone:
                return LOC_PORT0 + p
    for p in range(n_ports):
        if s[CTX + LOC_PORT0 + p] > 0:
            return LOC_PORT0 + p
    return LOC_BLACK_MARKET


@njit(cache=True)
def choose_black_market_nb(s, seat):
    _, answer = best_black_market_nb(s, seat)
    return answer


@njit(cache=True)
def card_utilities_nb(s, seat):
    n_cards = n_cards_nb(s)
    u = utility_buffer_nb(s)
    left = turns_left_nb(s)
    for c in range(n_cards):
        u[c] = card_vp_nb(s, c)
        if left > 0:
            if card_ships_nb(s, c) > 0 and ships_nb(s, seat) < s[R_MAX_SHIPS]:
                u[c] += param_nb(s, seat, HP_SHIP_VALUE) * left
            if card_warehouse_nb(s, c) > 0:
                u[c] += param_nb(s, seat, HP_WAREHOUSE_VALUE) * min(left, 4) / 4.0
            if card_syndicate_nb(s, c) > 0:
                u[c] += param_nb(s, seat, HP_SYNDICATE_VALUE) * min(left, 4) / 4.0
    return u


@njit(cache=True)
def choose_trade_nb(s, seat):
    extra = trade_budget_extra_nb(s, seat)
    n_types = n_types_nb(s)
    load_hand_nb(s, seat)
    value = trade_value_at_nb(s, SCRATCH, s[SCRATCH + n_types])
    # two answers of 0 that write nothing: the cheaper test first
    must = is_final_turn_nb(s) or hand_size_nb(s, seat) > warehouse_nb(s, seat)
    if not must and value < param_nb(s, seat, HP_SELL_AT):
        return 0            # hold: let the sets grow
    cheapest = 1 << 30
    for c in range(n_cards_nb(s)):
        if card_buyable_nb(s, seat, c) > 0 and card_cost_nb(s, c) < cheapest:
            cheapest = card_cost_nb(s, c)
    if value + extra < cheapest:
        return 0
    u = plan_trade_answer_nb(s, seat, card_utilities_nb(s, seat), extra)
    if u <= 0.0:
        return 0
    if must:
        return 1
    sold = trade_value_at_nb(s, OUT, s[OUT + n_types])
    if u >= param_nb(s, seat, HP_HOLD) * sold:
        return 1
    return 0


@njit(cache=True)
def choose_discard_nb(s, seat):
    """Drop, one at a time, the token whose loss lowers the score least."""
    nt = n_tok_nb(s)
    for _ in range(s[CTX]):
        best_t = -1
        best = -1e300
        for t in range(nt):
            if hand_nb(s, seat, t) - s[OUT + t] <= 0:
                continue
            for u in range(nt):
                s[SCRATCH + u] = hand_nb(s, seat, u) - s[OUT + u]
            s[SCRATCH + t] -= 1
            v = scratch_score_nb(s, seat)
            if v > best:
                best = v
                best_t = t
        s[OUT + best_t] += 1
    return 0


@njit(cache=True)
def heuristic_decide_nb(kind, s, seat):
    if kind == D_SEND:
        return choose_send_nb(s, seat)
    if kind == D_ORDER:
        return choose_order_nb(s, seat)
    if kind == D_RAISE:
        return choose_raise_nb(s, seat)
    if kind == D_BLACK_MARKET:
        return choose_black_market_nb(s, seat)
    if kind == D_TRADE:
        return choose_trade_nb(s, seat)
    if kind == D_DISCARD:
        return choose_discard_nb(s, seat)
    return -1
