"""The Cargo Noir rules as numba kernels: one place for every rule.

Layers: ``Rules.compile(n)`` -> a template state array (the rules' numbers in
its header, the layout in ``enums``) -> the phase kernels below ->
``play_game_nb`` -> ``chunk_nb.run_games_nb`` (a chunk of games, nogil). The whole
game, with the table's bots, their parameters and the trade-value tables,
lives in ONE int64 array. Inside the kernels it travels as a raw pointer
``s`` (``state_ptr_nb``), and the event log as a pointer ``log`` to rows of
``N_EVENT_FIELDS``: numba reference-counts every array passed to a function
and fixes up negative indices on every ``a[i]``; pointers do neither, which
made the games about twice as fast. Entry kernels (``start_state_nb``) take
arrays and make the pointers; the functions below also accept arrays.

The turn structure is a resumable machine: ``advance_nb`` plays every step that
needs no decision and stops at the next one (``s[M_ASK]``, the seat ``s[M_SEAT]``,
the context in ``s[CTX...]``); ``answer_nb`` applies an answer and advances. The
forward model (``forward_nb``) steps it answer by answer; ``play_on_nb`` asks the
seats' bots, ``decide(kind, s, seat)`` (the bot is ``s[BOTS + seat]``; ``enums.D_*``
lists the decisions and their answers). The engine checks each answer; on an illegal
one it stops the game and records the decision, value and seat (``M_ERR_*``) so the
Python layer can raise a clear error. It never corrects an answer silently.

Chance: every draw comes from the game's own splitmix64 stream (``M_RNG``),
which no bot can read or move: ``ask_nb`` hides it for the duration of every
bot call and hands the seat its own stream instead (docs/safety.md, "What a
bot can see").
"""
import numpy as np
from ...core import cache  # noqa: F401  (first: numba's cache folder for this source version)
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from ...core.borrow_nb import state_ptr_nb
from .enums import (
    A_ABANDON, A_BAG_REFILL, A_BM_DRAW, A_BM_SWAP, A_BUY, A_CASINO, A_DISCARD, A_PORT_WIN,
    A_RAISE, A_SCORE, A_SEND_BLACK_MARKET, A_SEND_CASINO, A_SEND_PORT, A_SHORTFALL,
    A_SYNDICATE, A_TRADE, ABANDONED, BAG, BLACK_MARKET, BM_CODE, BOT_FAULT, BM_DRAW, C_COPIES, C_COST,
    C_EDGE, C_SHIPS, C_SYNDICATE, C_VP, C_WAREHOUSE, CARD, CARD_W, CARDS, CTX, D_BLACK_MARKET,
    D_DISCARD, D_ORDER, D_RAISE, D_SEND, D_TRADE, DISCARD, E, E_TOK0, G, HAND, LOC_BLACK_MARKET,
    LOC_CASINO, LOC_PORT0, M_BAG_REFILLS, M_BANK, M_EMPTY_SLOTS, M_ERR_AUX, M_ERR_KIND,
    M_ERR_SEAT, M_ERR_VALUE, M_FINAL, M_MINTED, M_N_EVENTS, M_PHASE, M_RNG, M_SEAT, M_GAME,
    M_SHORTFALL_COINS, M_SHORTFALLS, M_TURN, MAX_CARDS, MAX_PORTS, MAX_SEATS, MAX_TOK, OUT,
    OUT_CARDS, P, PL_BM_SHIPS, PL_CASINO_SHIPS, PL_COINS, PL_HAND_SHIPS, PL_SHIPS,
    PL_WAREHOUSE, PLAYER, PLAYER_W, PORT_BID, PORT_SLOTS, PORT_TOK, PORT_TOP, R_BM_SLOTS,
    R_CASINO_PAYOUT, R_EDGE_LIMIT, R_FINAL_COIN_VALUE, R_MAX_SHIPS, R_N_CARDS, R_N_PLAYERS,
    R_N_PORTS, R_N_TURNS, R_N_TYPES, R_START_COINS, R_START_SHIPS, R_START_WAREHOUSE,
    R_TOKENS_PER_TYPE, R_TOTAL_COINS, R_UNLIMITED_COINS, R_WILDS_IN_BAG, RULES_END, STATE_SIZE,
    R_LEN, R_LOG_ROWS, N_EVENT_FIELDS, R_FINAL_PHASE3, R_TIE_BY_COST, R_TRADE_NO_CARD, ERR_NEED_SOLVER,
    STATS, STATS_W, SUPPLY, N_PLAYER_FIELDS, N_PARAMS, PARAM_SCALE, PARAMS, EXACT_FN,
    M_ASK, M_AUX, M_BOT_SEED, M_PENDING, M_STEP, M_STOP, ST_NEXT, ST_OVER, ST_P1, ST_P1_START, ST_P2,
    ST_P2_DISCARD, ST_P2_END, ST_P3, ST_SCORE, ST_TURN, ST_WAIT,
    M_DECISIONS, M_FAULT, M_FAULT_ARG, M_TABLE_SUM, R_SEARCH, R_WORK,
    R_WORK_LEN, FAULT_TABLES,
)
from ...core.dispatch_nb import ask_keyed_nb, ask_nb, observe_nb, seat_oneway_nb  # noqa: F401  (the one fair way a bot is asked)
from ...core.layout import MARKS, MARKS_END
from ...core.rng_nb import bot_seed_nb, rand_below_at_nb
from ...core.borrow_nb import ptr_addr_nb
from ...core.shared_nb import shared_ptr_nb, shared_sum_nb
from .trade.packed_nb import T_MAX_WILDS, T_WILD_ONLY, packed_trade_value_nb


# Every bot table (built-in or user-written) reaches the engine as a first-class
# function of this signature (the core's, core.dispatch_nb), so the engine is compiled
# (and cached) once for all tables; a user's bot compiles only itself.
from ...core.dispatch_nb import DECIDE_SIG, DecideType  # noqa: E402,F401


# ---------------------------------------------------------------------------
# where things are in the state array (all inlined by LLVM)
@njit(cache=True)
def pl_i(seat, field):
    """A player's scalar: PL_COINS, PL_SHIPS, PL_HAND_SHIPS, ..."""
    return PLAYER + seat * PLAYER_W + field


@njit(cache=True)
def hand_i(seat, t):
    return HAND + seat * MAX_TOK + t


@njit(cache=True)
def port_tok_i(p, t):
    return PORT_TOK + p * MAX_TOK + t


@njit(cache=True)
def port_bid_i(p, seat):
    return PORT_BID + p * MAX_SEATS + seat


@njit(cache=True)
def cards_i(seat, c):
    return CARDS + seat * MAX_CARDS + c


@njit(cache=True)
def card_i(c, field):
    """A card's rules data: C_COST, C_VP, C_COPIES, C_EDGE, C_SHIPS, ..."""
    return CARD + c * CARD_W + field


@njit(cache=True)
def stat_i(seat, f):
    return STATS + seat * STATS_W + f


# ---------------------------------------------------------------------------
# chance: the game's own stream (the engine's; bots draw from their seat's, botkit_nb)
@njit(cache=True)
def chance_below_nb(s, n):
    """Uniform integer in [0, n) from the game's stream."""
    return rand_below_at_nb(s, M_RNG, n)


# ---------------------------------------------------------------------------
# table data
@njit(cache=True)
def param_nb(s, seat, i):
    """Parameter i of the seat's bot (a float)."""
    return s[PARAMS + seat * N_PARAMS + i] / PARAM_SCALE


@njit(cache=True)
def trade_value_at_nb(s, counts_at, wilds):
    """Exact smuggling value of selling all of s[counts_at : counts_at + n_types]
    plus `wilds` Wilds (see trade/)."""
    return packed_trade_value_nb(s, 0, counts_at, wilds, EXACT_FN)


# ---------------------------------------------------------------------------
# small helpers
@njit(cache=True)
def log_event_nb(s, log, action, seat, loc, amount, value, card, count, tok_at, sign):
    """Append one event row (no-op when the log is full or has no rows). Cargo
    is read from s[tok_at + t] (tok_at < 0: no cargo)."""
    i = s[M_N_EVENTS]
    if i >= s[R_LOG_ROWS]:
        return
    s[M_N_EVENTS] = i + 1
    row = i * N_EVENT_FIELDS
    log[row + E.game] = s[M_GAME]
    log[row + E.turn] = s[M_TURN]
    log[row + E.seat] = seat
    log[row + E.phase] = s[M_PHASE]
    log[row + E.action] = action
    log[row + E.loc] = loc
    log[row + E.coins] = s[pl_i(seat, PL_COINS)] if seat >= 0 else 0
    log[row + E.amount] = amount
    log[row + E.value] = value
    log[row + E.card] = card
    log[row + E.count] = count
    for t in range(MAX_TOK):
        log[row + E_TOK0 + t] = sign * s[tok_at + t] if tok_at >= 0 else 0


@njit(cache=True)
def illegal_nb(s, kind, seat, value, aux):
    """Record an illegal answer; the game stops at the next check."""
    if s[M_ERR_KIND] < 0:
        s[M_ERR_KIND] = kind
        s[M_ERR_SEAT] = seat
        s[M_ERR_VALUE] = value
        s[M_ERR_AUX] = aux


@njit(cache=True)
def fault_aux_nb(reason, arg):
    """M_ERR_AUX of a bot fault: the reason (enums.FAULT_*) in the low 8 bits,
    the value at fault (clamped to +-2**40) above them."""
    arg = min(max(arg, -(1 << 40)), 1 << 40)
    return arg * 256 + reason


@njit(cache=True)
def bot_fault_nb(kind, s, seat):
    """A user bot raised an exception (its own, a refused botkit call, or in
    checked mode an index out of bounds, a write outside its area or a runaway
    loop): stop the game as for an illegal answer, with value BOT_FAULT and the
    reason the bot's tools left in M_FAULT."""
    illegal_nb(s, kind, seat, BOT_FAULT, fault_aux_nb(s[M_FAULT], s[M_FAULT_ARG]))
    return BOT_FAULT


@njit(cache=True)
def tables_sum_nb(s):
    """Checked mode: a checksum (never 0) of the table's shared array (trade
    tables, the search models' rows): a change of any one word changes it."""
    return shared_sum_nb(s)


@njit(cache=True)
def failed_nb(s):
    return s[M_ERR_KIND] >= 0


@njit(cache=True)
def needed_solver_nb(s):
    """A holding beyond the trade table was valued without the exact solver
    loaded (the game's values are wrong from there: replay it with the solver)."""
    return s[EXACT_FN] < 0


@njit(cache=True)
def n_tok_nb(s):
    return s[R_N_TYPES] + 1


@njit(cache=True)
def bank_pay_nb(s, log, seat, amount):
    """The bank pays `amount` coins to a safe, or what it has (the shortfall is counted)."""
    paid = amount
    if s[R_UNLIMITED_COINS]:
        if amount > s[M_BANK]:
            s[M_MINTED] += amount - s[M_BANK]
            s[M_BANK] = amount
    elif amount > s[M_BANK]:
        paid = s[M_BANK]
        s[M_SHORTFALLS] += 1
        s[M_SHORTFALL_COINS] += amount - paid
        log_event_nb(s, log, A_SHORTFALL, seat, -1, amount - paid, 0, -1, 0, -1, 0)
    s[M_BANK] -= paid
    s[pl_i(seat, PL_COINS)] += paid
    return paid


@intrinsic
def scalar_nb(typingctx, x):
    """x as it is, through an empty inline asm LLVM cannot see into: a sum carried through
    it stays a scalar loop. Vectorised, the token sums loaded words just stored one by
    one (a hand after phase 1) in one wide load, which waits for those stores to drain
    (no store-to-load forwarding): a quarter of advance_nb's samples (docs/performance.md)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, sig, args):
        fnty = ir.FunctionType(args[0].type, [args[0].type])
        return builder.call(ir.InlineAsm(fnty, "", "=r,0"), [args[0]])
    return types.int64(types.int64), codegen


@njit(cache=True)
def tok_sum_nb(s, at):
    """s[at] + ... + s[at + n_tok_nb(s) - 1] (a bag, a hand, a port's cargo)."""
    total = np.int64(0)
    for t in range(n_tok_nb(s)):
        total = scalar_nb(total + s[at + t])
    return total


@njit(cache=True)
def bag_total_nb(s):
    """Tokens in the bag."""
    return tok_sum_nb(s, BAG)


@njit(cache=True, inline="always")     # three callers, one per token drawn: no call
def draw_counted_nb(s, log, total):
    """draw_token_nb told the bag's total (bag_total_nb): (token or -1, the bag's
    total after), so a port's refill sums the bag once, not once per token."""
    nt = n_tok_nb(s)
    if total == 0:
        for t in range(nt):
            total += s[DISCARD + t]
            s[BAG + t] += s[DISCARD + t]
            s[DISCARD + t] = 0
        if total == 0:
            s[M_EMPTY_SLOTS] += 1
            return -1, total
        s[M_BAG_REFILLS] += 1
        log_event_nb(s, log, A_BAG_REFILL, -1, -1, 0, 0, -1, total, BAG, 1)
    r = chance_below_nb(s, total)
    # the token whose run of the bag holds r is the number of running sums <= r:
    # counted without a branch (a loop that stops at it mispredicts its exit)
    t = np.int64(0)
    run = np.int64(0)
    for u in range(nt):
        run += s[BAG + u]
        t += np.int64(run <= r)
    s[BAG + t] -= 1
    return t, total - 1


@njit(cache=True)
def draw_token_nb(s, log):
    """Draw one token at random from the bag; an empty bag is first refilled with
    the discard pile. Returns the token index, or -1 if both are empty."""
    t, _ = draw_counted_nb(s, log, bag_total_nb(s))
    return t


@njit(cache=True)
def fill_port_nb(s, log, p):
    """Draw tokens into the empty slots of port p."""
    held = tok_sum_nb(s, port_tok_i(p, 0))
    total = bag_total_nb(s)
    for _ in range(s[PORT_SLOTS + p] - held):
        t, total = draw_counted_nb(s, log, total)
        if t >= 0:
            s[port_tok_i(p, t)] += 1


@njit(cache=True)
def top_bid_nb(s, p, skip_seat):
    """Highest stack at port p, ignoring skip_seat (-1: nobody ignored)."""
    best = 0
    for seat in range(s[R_N_PLAYERS]):
        if seat != skip_seat and s[port_bid_i(p, seat)] > best:
            best = s[port_bid_i(p, seat)]
    return best


@njit(cache=True)
def set_bid_nb(s, p, seat, coins):
    """Every change of a stack goes through here or set_top_bid_nb: they keep the
    port's top stack (read on every ship sent) with the stacks."""
    s[port_bid_i(p, seat)] = coins
    s[PORT_TOP + p] = top_bid_nb(s, p, -1)


@njit(cache=True)
def set_top_bid_nb(s, p, seat, coins):
    """set_bid_nb for a stack that is the port's top after the change, so without the
    scan: above every other (a ship sent above the top, a raise above the others) or
    0 with no other stack (a port won alone)."""
    s[port_bid_i(p, seat)] = coins
    s[PORT_TOP + p] = coins


@njit(cache=True)
def hand_size_nb(s, seat):
    return tok_sum_nb(s, hand_i(seat, 0))


@njit(cache=True)
def card_buyable_nb(s, seat, c):
    """How many more copies of card c this player may take now (supply, edge limit)."""
    n = s[SUPPLY + c]
    if s[card_i(c, C_EDGE)]:
        room = s[R_EDGE_LIMIT] - s[cards_i(seat, c)]
        if room < n:
            n = room
    return n if n > 0 else 0


@njit(cache=True)
def trade_budget_extra_nb(s, seat):
    """Points the safe adds to a trade: coins count only on the final turn."""
    if s[M_FINAL]:
        return s[pl_i(seat, PL_COINS)] * s[R_FINAL_COIN_VALUE]
    return 0


@njit(cache=True)
def trade_value_bound_nb(s, k):
    """An upper bound on the smuggling value of any k tokens: the value of k
    Wilds, since a Wild fits every combination (-1 = no bound known: k is
    beyond the Wild counts the tables hold)."""
    t = shared_ptr_nb(s)
    if k > t[T_MAX_WILDS]:
        return -1
    return t[t[T_WILD_ONLY] + k]


@njit(cache=True)
def least_card_cost_nb(s):
    best = -1
    for c in range(s[R_N_CARDS]):
        if best < 0 or s[card_i(c, C_COST)] < best:
            best = s[card_i(c, C_COST)]
    return best


@njit(cache=True)
def port_min_bid_nb(s, seat, p):
    """Least bid for a ship of `seat` at port p now, or -1 if it may not go there
    (abandoned this turn, already has a ship there, or cannot pay)."""
    need = s[PORT_TOP + p] + 1
    # `&`, not `and`: no branches (the answer is as unpredictable as the game)
    ok = (s[ABANDONED + p] == 0) & (s[port_bid_i(p, seat)] == 0) & (need <= s[pl_i(seat, PL_COINS)])
    return need if ok else -1


# ---------------------------------------------------------------------------
# setup
@njit(cache=True)
def setup_nb(s, log, seed, game, first_event):
    """Setup on a state array whose rules header is filled: bag, ports and black
    market filled, each player's ships, coins and warehouse, the bank.
    (`game` and `first_event` place this game's rows in the event log.)"""
    for i in range(MARKS, MARKS_END):
        s[i] = 0
    for i in range(RULES_END, STATE_SIZE):
        s[i] = 0
    s[M_GAME] = game
    s[M_N_EVENTS] = first_event
    n = s[R_N_PLAYERS]
    s[M_RNG] = seed
    s[M_BOT_SEED] = bot_seed_nb(seed)
    s[M_ERR_KIND] = -1
    s[M_BANK] = s[R_TOTAL_COINS] - s[R_START_COINS] * n
    for t in range(s[R_N_TYPES]):
        s[BAG + t] = s[R_TOKENS_PER_TYPE]
    s[BAG + s[R_N_TYPES]] = s[R_WILDS_IN_BAG]
    for c in range(s[R_N_CARDS]):
        s[SUPPLY + c] = s[card_i(c, C_COPIES)]
    for seat in range(n):
        s[pl_i(seat, PL_COINS)] = s[R_START_COINS]
        s[pl_i(seat, PL_SHIPS)] = s[R_START_SHIPS]
        s[pl_i(seat, PL_HAND_SHIPS)] = s[R_START_SHIPS]
        s[pl_i(seat, PL_WAREHOUSE)] = s[R_START_WAREHOUSE]
    for p in range(s[R_N_PORTS]):
        fill_port_nb(s, log, p)
    total = bag_total_nb(s)
    for _ in range(s[R_BM_SLOTS]):
        t, total = draw_counted_nb(s, log, total)
        if t >= 0:
            s[BLACK_MARKET + t] += 1


# ---------------------------------------------------------------------------
# phase 1: resolve ships
@njit(cache=True)
def resolve_casino_nb(s, log, seat):
    """Every ship at the Casino: payout per ship from the bank; ships come back."""
    n = s[pl_i(seat, PL_CASINO_SHIPS)]
    paid = bank_pay_nb(s, log, seat, n * s[R_CASINO_PAYOUT])
    s[stat_i(seat, P.casino_visits)] += n
    s[stat_i(seat, P.casino_coins)] += paid
    s[pl_i(seat, PL_CASINO_SHIPS)] = 0
    s[pl_i(seat, PL_HAND_SHIPS)] += n
    log_event_nb(s, log, A_CASINO, seat, LOC_CASINO, paid, 0, -1, n, -1, 0)


@njit(cache=True)
def wait_nb(s, kind):
    """Stop the game at decision `kind` of the current seat (answer_nb resumes it)."""
    s[M_ASK] = kind
    s[M_STEP] = ST_WAIT + kind


@njit(cache=True, inline="always")     # answer_nb's one call: no call
def black_market_answer_nb(s, log, seat, ans):
    """One ship at the Black Market: swap one token with the market, or draw one."""
    nt = n_tok_nb(s)
    s[pl_i(seat, PL_BM_SHIPS)] -= 1
    s[pl_i(seat, PL_HAND_SHIPS)] += 1
    for t in range(MAX_TOK):
        s[OUT + t] = 0
    if ans == BM_DRAW:
        t = draw_token_nb(s, log)
        if t >= 0:
            s[hand_i(seat, t)] += 1
            s[OUT + t] = 1
        s[stat_i(seat, P.bm_draws)] += 1
        log_event_nb(s, log, A_BM_DRAW, seat, LOC_BLACK_MARKET, 0, 0, -1, 1, OUT, 1)
        return
    give = ans // BM_CODE
    take = ans % BM_CODE
    if ans < 0 or give >= nt or take >= nt or s[hand_i(seat, give)] <= 0 \
            or s[BLACK_MARKET + take] <= 0:
        illegal_nb(s, D_BLACK_MARKET, seat, ans, 0)
        return
    s[hand_i(seat, give)] -= 1
    s[BLACK_MARKET + give] += 1
    s[BLACK_MARKET + take] -= 1
    s[hand_i(seat, take)] += 1
    s[stat_i(seat, P.bm_swaps)] += 1
    s[OUT + give] -= 1
    s[OUT + take] += 1
    log_event_nb(s, log, A_BM_SWAP, seat, LOC_BLACK_MARKET, 0, 0, -1, 1, OUT, 1)


@njit(cache=True)
def abandon_port_nb(s, log, seat, p):
    """Take ship and coins back from port p; no return there this turn. The j-th
    port abandoned this turn is paid for by the j-th Syndicate card held."""
    bid = s[port_bid_i(p, seat)]
    s[pl_i(seat, PL_COINS)] += bid
    set_bid_nb(s, p, seat, 0)
    s[pl_i(seat, PL_HAND_SHIPS)] += 1
    s[ABANDONED + p] = 1
    s[stat_i(seat, P.abandons)] += 1
    log_event_nb(s, log, A_ABANDON, seat, LOC_PORT0 + p, bid, 0, -1, 0, -1, 0)
    n_ab = 0
    for q in range(s[R_N_PORTS]):
        n_ab += s[ABANDONED + q]
    j = 0
    for c in range(s[R_N_CARDS]):
        bonus = s[card_i(c, C_SYNDICATE)]
        if bonus > 0:
            for _ in range(s[cards_i(seat, c)]):
                j += 1
                if j == n_ab:
                    paid = bank_pay_nb(s, log, seat, bonus)
                    s[stat_i(seat, P.syndicate_coins)] += paid
                    log_event_nb(s, log, A_SYNDICATE, seat, LOC_PORT0 + p, paid, 0, c, 1, -1, 0)


@njit(cache=True, inline="always")     # resolve_port_nb's one call: no call
def win_port_nb(s, log, seat, p):
    """Alone at port p: pay the stack to the bank, take ALL the cargo, refill at once."""
    nt = n_tok_nb(s)
    bid = s[port_bid_i(p, seat)]
    s[M_BANK] += bid
    set_top_bid_nb(s, p, seat, 0)      # alone there: no stack left
    s[pl_i(seat, PL_HAND_SHIPS)] += 1
    won = 0
    for t in range(nt):
        s[hand_i(seat, t)] += s[port_tok_i(p, t)]
        won += s[port_tok_i(p, t)]
    s[stat_i(seat, P.ports_won)] += 1
    s[stat_i(seat, P.coins_paid)] += bid
    s[stat_i(seat, P.cargo_won)] += won
    log_event_nb(s, log, A_PORT_WIN, seat, LOC_PORT0 + p, bid, 0, -1, won, port_tok_i(p, 0), 1)
    for t in range(nt):
        s[port_tok_i(p, t)] = 0
    fill_port_nb(s, log, p)


@njit(cache=True, inline="always")     # resolve_location_nb's one call: no call
def resolve_port_nb(s, log, seat, p):
    """The player's ship at port p: alone -> buy the cargo; outbid -> raise (asked,
    D_RAISE) or abandon when the safe cannot pay the least raise.
    (After a raise a player holds the top stack, so on his turn he is alone or outbid.)"""
    bid = s[port_bid_i(p, seat)]
    top = top_bid_nb(s, p, seat)
    if top == 0:
        win_port_nb(s, log, seat, p)
        return
    need = top + 1 - bid
    if s[pl_i(seat, PL_COINS)] >= need:
        s[CTX] = p
        s[CTX + 1] = need
        s[M_AUX] = p
        wait_nb(s, D_RAISE)
    else:
        abandon_port_nb(s, log, seat, p)


@njit(cache=True)
def raise_answer_nb(s, log, seat, add):
    """Coins added to the stack at port s[M_AUX] (>= the least raise), or 0 to abandon."""
    p = s[M_AUX]
    bid = s[port_bid_i(p, seat)]
    need = top_bid_nb(s, p, seat) + 1 - bid
    if add != 0 and (add < need or add > s[pl_i(seat, PL_COINS)]):
        illegal_nb(s, D_RAISE, seat, add, need)
        return
    if add > 0:
        # the ship stays on the port and is not available in phase 3
        s[pl_i(seat, PL_COINS)] -= add
        set_top_bid_nb(s, p, seat, bid + add)      # add >= need: above the others
        s[stat_i(seat, P.raises)] += 1
        s[stat_i(seat, P.raise_coins)] += add
        log_event_nb(s, log, A_RAISE, seat, LOC_PORT0 + p, add, bid + add, -1, 0, -1, 0)
    else:
        abandon_port_nb(s, log, seat, p)


@njit(cache=True)
def phase1_start_nb(s):
    """Phase 1 begins: note the ports where the player has a ship."""
    seat = s[M_SEAT]
    s[M_PHASE] = 1
    pending = 0
    for p in range(s[R_N_PORTS]):
        if s[port_bid_i(p, seat)] > 0:
            pending |= 1 << p
    s[M_PENDING] = pending
    s[M_STEP] = ST_P1


@njit(cache=True)
def resolve_location_nb(s, log, seat, loc):
    """Resolve the player's ship(s) at `loc` (an answer to D_ORDER, or the only option).
    Each effect is immediate: Casino coins can pay a raise later in the phase."""
    pending = s[M_PENDING]
    if loc == LOC_CASINO and s[pl_i(seat, PL_CASINO_SHIPS)] > 0:
        resolve_casino_nb(s, log, seat)
    elif loc == LOC_BLACK_MARKET and s[pl_i(seat, PL_BM_SHIPS)] > 0:
        wait_nb(s, D_BLACK_MARKET)
    elif LOC_PORT0 <= loc < LOC_PORT0 + s[R_N_PORTS] and (pending >> (loc - LOC_PORT0)) & 1:
        s[M_PENDING] = pending & ~(1 << (loc - LOC_PORT0))
        resolve_port_nb(s, log, seat, loc - LOC_PORT0)
    else:
        illegal_nb(s, D_ORDER, seat, loc, 0)


@njit(cache=True, inline="always")     # advance_nb's and answer_nb's step: no call
def phase1_step_nb(s, log):
    """Resolve the player's next ship out, in the order the player chooses (D_ORDER,
    asked only when there is a choice); phase 2 when none is left."""
    seat = s[M_SEAT]
    pending = s[M_PENDING]
    at_casino = s[pl_i(seat, PL_CASINO_SHIPS)] > 0
    at_market = s[pl_i(seat, PL_BM_SHIPS)] > 0
    n_opts = np.int64(at_casino) + np.int64(at_market)
    rest = pending
    while rest:                   # one step per pending port
        rest &= rest - 1
        n_opts += 1
    if n_opts == 0:
        s[M_STEP] = ST_P2
        return
    if n_opts == 1:               # no choice to ask for
        if at_casino:
            loc = LOC_CASINO
        elif at_market:
            loc = LOC_BLACK_MARKET
        else:
            loc = LOC_PORT0
            while not (pending >> (loc - LOC_PORT0)) & 1:
                loc += 1
        resolve_location_nb(s, log, seat, loc)
        return
    s[CTX + LOC_CASINO] = s[pl_i(seat, PL_CASINO_SHIPS)]
    s[CTX + LOC_BLACK_MARKET] = s[pl_i(seat, PL_BM_SHIPS)]
    for p in range(s[R_N_PORTS]):
        s[CTX + LOC_PORT0 + p] = (pending >> p) & 1
    wait_nb(s, D_ORDER)


# ---------------------------------------------------------------------------
# phase 2: trade cargo for victory cards, then discard down to capacity
@njit(cache=True)
def apply_trade_nb(s, log, seat):
    """Check and carry out the trade in s[OUT...]: sell the tokens, take the cards
    (total cost <= smuggling value + final-turn coins; no change is given) and
    apply Smuggler's Edge effects at once. Returns False if the trade is illegal."""
    nt = n_tok_nb(s)
    n_types = s[R_N_TYPES]
    n_sold = 0
    for t in range(nt):
        k = s[OUT + t]
        if k < 0 or k > s[hand_i(seat, t)]:
            illegal_nb(s, D_TRADE, seat, k, t)
            return False
        n_sold += k
    cost = 0
    n_bought = 0
    for c in range(s[R_N_CARDS]):
        k = s[OUT_CARDS + c]
        if k < 0 or k > card_buyable_nb(s, seat, c):
            illegal_nb(s, D_TRADE, seat, k, 100 + c)
            return False
        cost += k * s[card_i(c, C_COST)]
        n_bought += k
    value = 0
    if n_sold > 0:
        value = trade_value_at_nb(s, OUT, s[OUT + n_types])
    coins_used = 0
    if cost > value:
        unit = s[R_FINAL_COIN_VALUE]
        if s[M_FINAL] and unit > 0:
            coins_used = (cost - value + unit - 1) // unit
        if coins_used == 0 or coins_used > s[pl_i(seat, PL_COINS)]:
            illegal_nb(s, D_TRADE, seat, cost, 1000 + value)
            return False
    if n_bought == 0:
        if n_sold == 0:
            return True
        if not s[R_TRADE_NO_CARD]:      # selling for nothing only throws tokens away
            illegal_nb(s, D_TRADE, seat, n_sold, -1)
            return False
    for t in range(nt):
        s[hand_i(seat, t)] -= s[OUT + t]
        s[DISCARD + t] += s[OUT + t]
    s[pl_i(seat, PL_COINS)] -= coins_used
    s[M_BANK] += coins_used
    s[stat_i(seat, P.trades)] += 1
    s[stat_i(seat, P.cargo_traded)] += n_sold
    s[stat_i(seat, P.wilds_traded)] += s[OUT + n_types]
    s[stat_i(seat, P.trade_value)] += value
    s[stat_i(seat, P.value_lost)] += value + coins_used * s[R_FINAL_COIN_VALUE] - cost
    s[stat_i(seat, P.final_coins_spent)] += coins_used
    s[stat_i(seat, P.cards_bought)] += n_bought
    log_event_nb(s, log, A_TRADE, seat, -1, coins_used, value, -1, n_sold, OUT, 1)
    for c in range(s[R_N_CARDS]):
        k = s[OUT_CARDS + c]
        if k == 0:
            continue
        s[SUPPLY + c] -= k
        s[cards_i(seat, c)] += k
        s[pl_i(seat, PL_WAREHOUSE)] += k * s[card_i(c, C_WAREHOUSE)]
        for _ in range(k * s[card_i(c, C_SHIPS)]):
            if s[pl_i(seat, PL_SHIPS)] < s[R_MAX_SHIPS]:    # a reserve ship joins at once
                s[pl_i(seat, PL_SHIPS)] += 1
                s[pl_i(seat, PL_HAND_SHIPS)] += 1
        log_event_nb(s, log, A_BUY, seat, -1, k * s[card_i(c, C_COST)], k * s[card_i(c, C_VP)],
                     c, k, -1, 0)
    return True


@njit(cache=True)
def clear_out_nb(s):
    for i in range(OUT, OUT + MAX_TOK + MAX_CARDS):
        s[i] = 0


@njit(cache=True)
def phase2_trade_nb(s):
    """Phase 2 begins: a player with cargo (or coins on the final turn) may trade (D_TRADE)."""
    seat = s[M_SEAT]
    s[M_PHASE] = 2
    s[M_STEP] = ST_P2_DISCARD
    if hand_size_nb(s, seat) > 0 or trade_budget_extra_nb(s, seat) > 0:
        clear_out_nb(s)
        wait_nb(s, D_TRADE)


@njit(cache=True)
def phase2_discard_nb(s):
    """Tokens above warehouse capacity are discarded; the player chooses which (D_DISCARD)."""
    excess = hand_size_nb(s, s[M_SEAT]) - s[pl_i(s[M_SEAT], PL_WAREHOUSE)]
    s[M_STEP] = ST_P2_END
    if excess > 0:
        clear_out_nb(s)
        s[CTX] = excess
        wait_nb(s, D_DISCARD)


@njit(cache=True)
def discard_answer_nb(s, log, seat):
    """Check and carry out the discard in s[OUT...] (exactly the excess)."""
    nt = n_tok_nb(s)
    excess = hand_size_nb(s, seat) - s[pl_i(seat, PL_WAREHOUSE)]
    total = 0
    for t in range(nt):
        d = s[OUT + t]
        if d < 0 or d > s[hand_i(seat, t)]:
            illegal_nb(s, D_DISCARD, seat, d, -1 - t)
            return
        total += d
    if total != excess:
        illegal_nb(s, D_DISCARD, seat, total, excess)
        return
    for t in range(nt):
        s[hand_i(seat, t)] -= s[OUT + t]
        s[DISCARD + t] += s[OUT + t]
    s[stat_i(seat, P.cargo_discarded)] += excess
    log_event_nb(s, log, A_DISCARD, seat, -1, 0, 0, -1, excess, OUT, 1)


# ---------------------------------------------------------------------------
# phase 3: send ships out
@njit(cache=True)
def phase3_step_nb(s):
    """Send the player's next ship (D_SEND) until none is left in hand."""
    s[M_PHASE] = 3
    if s[pl_i(s[M_SEAT], PL_HAND_SHIPS)] > 0:
        s[OUT] = 0
        wait_nb(s, D_SEND)
    else:
        s[M_STEP] = ST_NEXT


@njit(cache=True, inline="always")     # answer_nb's one call, the most frequent answer: no call
def send_answer_nb(s, log, seat, loc):
    """Send one ship from the player's hand: Casino, Black Market, or a port with a
    stack of coins (s[OUT]) above every stack there (at least 1 on an empty port)."""
    if loc == LOC_CASINO:
        s[pl_i(seat, PL_CASINO_SHIPS)] += 1
        log_event_nb(s, log, A_SEND_CASINO, seat, loc, 0, 0, -1, 1, -1, 0)
    elif loc == LOC_BLACK_MARKET:
        s[pl_i(seat, PL_BM_SHIPS)] += 1
        log_event_nb(s, log, A_SEND_BLACK_MARKET, seat, loc, 0, 0, -1, 1, -1, 0)
    elif LOC_PORT0 <= loc < LOC_PORT0 + s[R_N_PORTS]:
        p = loc - LOC_PORT0
        bid = s[OUT]
        need = port_min_bid_nb(s, seat, p)
        if need < 0 or bid < need or bid > s[pl_i(seat, PL_COINS)]:
            illegal_nb(s, D_SEND, seat, loc, bid)
            return
        s[pl_i(seat, PL_COINS)] -= bid
        set_top_bid_nb(s, p, seat, bid)      # bid >= need: above the top
        s[stat_i(seat, P.bids)] += 1
        s[stat_i(seat, P.bid_coins)] += bid
        log_event_nb(s, log, A_SEND_PORT, seat, loc, bid, 0, -1, 1, -1, 0)
    else:
        illegal_nb(s, D_SEND, seat, loc, s[OUT])
        return
    s[pl_i(seat, PL_HAND_SHIPS)] -= 1


# ---------------------------------------------------------------------------
# the game
@njit(cache=True)
def tie_key_nb(s, seat):
    """The tie-break: the player's single highest card, by VP or (rules option
    tie_break = "cost") by cost; 0 with no card."""
    if not s[R_TIE_BY_COST]:
        return s[stat_i(seat, P.max_card_vp)]
    top = 0
    for c in range(s[R_N_CARDS]):
        if s[cards_i(seat, c)] > 0 and s[card_i(c, C_COST)] > top:
            top = s[card_i(c, C_COST)]
    return top


@njit(cache=True)
def score_nb(s, log):
    """VP of each player; winners: highest VP, then the single highest card held
    (tie_key_nb); players still tied share the win."""
    n = s[R_N_PLAYERS]
    best_vp = -1
    for seat in range(n):
        vp = 0
        top = 0
        for c in range(s[R_N_CARDS]):
            k = s[cards_i(seat, c)]
            vp += k * s[card_i(c, C_VP)]
            if k > 0 and s[card_i(c, C_VP)] > top:
                top = s[card_i(c, C_VP)]
        s[stat_i(seat, P.vp)] = vp
        s[stat_i(seat, P.max_card_vp)] = top
        if vp > best_vp:
            best_vp = vp
    best_top = -1
    for seat in range(n):
        if s[stat_i(seat, P.vp)] == best_vp and tie_key_nb(s, seat) > best_top:
            best_top = tie_key_nb(s, seat)
    for seat in range(n):
        won = s[stat_i(seat, P.vp)] == best_vp and tie_key_nb(s, seat) == best_top
        s[stat_i(seat, P.won)] = 1 if won else 0
        s[stat_i(seat, P.coins)] = s[pl_i(seat, PL_COINS)]
        s[stat_i(seat, P.ships)] = s[pl_i(seat, PL_SHIPS)]
        s[stat_i(seat, P.warehouse)] = s[pl_i(seat, PL_WAREHOUSE)]
        s[stat_i(seat, P.cargo_held)] = hand_size_nb(s, seat)
        log_event_nb(s, log, A_SCORE, seat, -1, 0, s[stat_i(seat, P.vp)], -1, 1 if won else 0,
                     -1, 0)


# ---------------------------------------------------------------------------
# the turn structure: a resumable machine (the forward model steps it answer by answer)
@njit(cache=True)
def turn_start_nb(s):
    """A seat's turn: turn 1 is phase 3 only, the last turn phases 1 and 2 only
    (all three with the rules option final_turn_phase3), otherwise phases 1, 2, 3. Abandoned ports are forgotten at each turn's start."""
    for p in range(MAX_PORTS):
        s[ABANDONED + p] = 0
    if s[M_TURN] > 1:
        s[M_STEP] = ST_P1_START
    elif s[M_TURN] < s[R_N_TURNS] or s[R_FINAL_PHASE3]:
        s[M_STEP] = ST_P3
    else:
        s[M_STEP] = ST_NEXT


@njit(cache=True)
def phase2_end_nb(s):
    """Phase 3 follows, except on the last turn (unless the rules option final_turn_phase3)."""
    s[M_STEP] = ST_P3 if s[M_TURN] < s[R_N_TURNS] or s[R_FINAL_PHASE3] else ST_NEXT


@njit(cache=True)
def begin_turn_nb(s, turn):
    s[M_TURN] = turn
    s[M_FINAL] = 1 if turn == s[R_N_TURNS] else 0
    s[M_SEAT] = 0
    s[M_STEP] = ST_TURN


@njit(cache=True)
def next_seat_nb(s):
    """Seat 0 is the first player all game; after the last turn, scoring."""
    seat = s[M_SEAT] + 1
    if seat < s[R_N_PLAYERS]:
        s[M_SEAT] = seat
        s[M_STEP] = ST_TURN
    elif s[M_TURN] < s[R_N_TURNS]:
        begin_turn_nb(s, s[M_TURN] + 1)
    else:
        s[M_STEP] = ST_SCORE


@njit(cache=True)
def advance_nb(s, log):
    """Play every step that needs no decision, up to the next decision (s[M_ASK]
    >= 0 and its context in s[CTX...]), the end of the game, an illegal answer,
    or a step whose bit is set in s[M_STOP]."""
    while not failed_nb(s):
        st = s[M_STEP]
        if st >= ST_WAIT or st == ST_OVER or (s[M_STOP] >> st) & 1:
            return
        if st == ST_P1:
            phase1_step_nb(s, log)
        elif st == ST_P3:
            phase3_step_nb(s)
        elif st == ST_TURN:
            turn_start_nb(s)
        elif st == ST_P1_START:
            phase1_start_nb(s)
        elif st == ST_P2:
            phase2_trade_nb(s)
        elif st == ST_P2_DISCARD:
            phase2_discard_nb(s)
        elif st == ST_P2_END:
            phase2_end_nb(s)
        elif st == ST_NEXT:
            next_seat_nb(s)
        else:                     # ST_SCORE
            s[M_PHASE] = 4
            score_nb(s, log)
            s[M_STEP] = ST_OVER


@njit(cache=True)
def answer_nb(s, log, ans):
    """Apply `ans` (and the vector answer in s[OUT...]) to the pending decision,
    then advance to the next one. An illegal answer stops the game (M_ERR_*)."""
    kind = s[M_ASK]
    seat = s[M_SEAT]
    if s[R_SEARCH] != 0:    # a search seat's opponent models see every answer (public play)
        observe_nb(s, kind, seat, ans)
    s[M_ASK] = -1
    s[M_DECISIONS] += 1
    # After the frequent answers the next step is known: it is run at once, so
    # advance_nb's dispatch (a hard-to-predict branch per decision) is skipped.
    if kind == D_SEND:
        s[M_STEP] = ST_P3
        send_answer_nb(s, log, seat, ans)
        if not failed_nb(s) and not (s[M_STOP] >> ST_P3) & 1:
            phase3_step_nb(s)
    elif kind == D_ORDER or kind == D_BLACK_MARKET or kind == D_RAISE:
        s[M_STEP] = ST_P1
        if kind == D_ORDER:
            resolve_location_nb(s, log, seat, ans)
        elif kind == D_BLACK_MARKET:
            black_market_answer_nb(s, log, seat, ans)
        else:
            raise_answer_nb(s, log, seat, ans)
        if s[M_STEP] == ST_P1 and not failed_nb(s) and not (s[M_STOP] >> ST_P1) & 1:
            phase1_step_nb(s, log)
    elif kind == D_TRADE:
        s[M_STEP] = ST_P2_DISCARD
        if ans == 1:
            apply_trade_nb(s, log, seat)
        elif ans != 0:
            illegal_nb(s, D_TRADE, seat, ans, -2)
    elif kind == D_DISCARD:
        s[M_STEP] = ST_P2_END
        discard_answer_nb(s, log, seat)
    else:
        illegal_nb(s, kind, seat, ans, -1)
    if s[M_STEP] < ST_WAIT:       # (advance_nb would return at once: no call)
        advance_nb(s, log)


@njit(cache=True)
def seat_oneways_nb(s):
    """Each seat's one-way stream key (seat_oneway_nb), once per game or call, not
    two mix64 chains per decision (the bots' seed is fixed from setup on: the
    streams are ask_nb's)."""
    n = s[R_N_PLAYERS]
    oneway = np.empty(n, np.int64)
    for seat in range(n):
        oneway[seat] = seat_oneway_nb(s, seat)
    return oneway


@njit(cache=True)
def play_on_nb(s, log, decide):
    """Ask the seats' bots until the game is over, stopped or at a stop step."""
    advance_nb(s, log)
    oneway = seat_oneways_nb(s)
    while s[M_ASK] >= 0:
        seat = s[M_SEAT]
        answer_nb(s, log, ask_keyed_nb(decide, s[M_ASK], s, seat, oneway[seat]))
    if s[M_TABLE_SUM] != 0 and tables_sum_nb(s) != s[M_TABLE_SUM]:
        # checked mode (registry.user_table noted the sum): a user bot wrote there
        illegal_nb(s, 0, -1, BOT_FAULT, fault_aux_nb(FAULT_TABLES, 0))


@njit(cache=True)
def begin_game_nb(s, log, seed, game, first_event):
    """Set up a game and advance to its first decision."""
    setup_nb(s, log, seed, game, first_event)
    s[M_ASK] = -1
    begin_turn_nb(s, 1)
    advance_nb(s, log)


@njit(cache=True)
def play_game_nb(s, log, decide, seed, game, first_event):
    """Play one whole game in the state array s (rules header already filled).
    Afterwards s[M_ERR_KIND] >= 0 means a bot answered illegally."""
    begin_game_nb(s, log, seed, game, first_event)
    play_on_nb(s, log, decide)


@njit(cache=True)
def game_stopped_nb(s, g, err):
    """After game g of a chunk: True (and err filled) if the game stopped on an
    illegal decision (err = [g, decision, seat, value, aux, turn]) or needed
    the exact trade solver (err = [g, ERR_NEED_SOLVER, ...]: replay with it)."""
    if needed_solver_nb(s):
        err[0] = g
        err[1] = ERR_NEED_SOLVER
        return True
    if failed_nb(s):
        err[0] = g
        err[1] = s[M_ERR_KIND]
        err[2] = s[M_ERR_SEAT]
        err[3] = s[M_ERR_VALUE]
        err[4] = s[M_ERR_AUX]
        err[5] = s[M_TURN]
        return True
    return False


@njit(cache=True)
def start_state_nb(s, log, exact_fn):
    """Pointers to a state array and an event log (int64[rows, N_EVENT_FIELDS]),
    after recording their sizes in the state (R_LEN, R_LOG_ROWS) and the
    address of the exact trade-value solver (trade.packed_nb.exact_value_fn, or 0). The caller
    keeps both arrays alive while the pointers are used (an array created in
    a kernel must be used again after the pointers' last use)."""
    s[R_LEN] = s.shape[0]
    s[R_LOG_ROWS] = log.shape[0]
    s[EXACT_FN] = exact_fn
    return state_ptr_nb(s), state_ptr_nb(log)


@njit(cache=True)
def own_workspace_nb(s):
    """A workspace of the bots for this kernel's games alone (threads play chunks of one
    table at once): its address in s[R_WORK]. The caller keeps it alive while s is used."""
    work = np.zeros(max(s[R_WORK_LEN], 1), np.int64)
    if s[R_WORK_LEN] > 0:
        s[R_WORK] = ptr_addr_nb(work)
    return work


@njit(cache=True)
def game_rows_nb(s, g, out_games, out_players, err):
    """After game g of a chunk: its row and its seats' rows written (the statistics,
    enums.PLAYER_FIELDS, then cards held), or False if it stopped (game_stopped_nb)."""
    if game_stopped_nb(s, g, err):
        return False
    n = s[R_N_PLAYERS]
    n_cards = s[R_N_CARDS]
    n_win = 0
    mask = 0
    for seat in range(n):
        for f in range(N_PLAYER_FIELDS):
            out_players[g, seat, f] = s[stat_i(seat, f)]
        for c in range(n_cards):
            out_players[g, seat, N_PLAYER_FIELDS + c] = s[cards_i(seat, c)]
        if s[stat_i(seat, P.won)]:
            n_win += 1
            mask |= 1 << seat
    out_games[g, G.n_players] = n
    out_games[g, G.turns] = s[R_N_TURNS]
    out_games[g, G.winners_mask] = mask
    out_games[g, G.tie] = 1 if n_win > 1 else 0
    out_games[g, G.shortfalls] = s[M_SHORTFALLS]
    out_games[g, G.shortfall_coins] = s[M_SHORTFALL_COINS]
    out_games[g, G.bag_refills] = s[M_BAG_REFILLS]
    out_games[g, G.empty_slots] = s[M_EMPTY_SLOTS]
    out_games[g, G.minted_coins] = s[M_MINTED]
    out_games[g, G.bank_end] = s[M_BANK]
    return True
