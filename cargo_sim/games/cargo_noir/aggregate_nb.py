"""Statistics of many games folded inside compiled code (no per-event rows kept).

``aggregate_games_nb(template, decide, exact_fn, seeds, log, acc, err)`` plays a chunk of
games like ``engine_nb.run_games_nb``, but each game's events go to a small
event buffer that is re-used for the next game: after each game its events and
end-of-game statistics are *folded* into ``acc``, ONE flat int64 array of
counters with the fixed layout ``SECTIONS`` below (the same size for every
rules set, player count and game count). Merging two runs is an elementwise
sum, so results do not depend on chunking or the number of threads.

Every counter is an integer: counts, sums and sums of squares (for means and
their intervals), and histograms. Values beyond a histogram's range land in
its last bin (the overflow bin; the matching sums stay exact); turns from
``MAX_TURNS - 1`` on share the last turn row (the default rules have 10-11
turns); ``COPY_BINS - 1`` and more copies of a card share the last copies bin.
A shared win counts 1 in ``wins`` and ``tied_wins`` and ``WIN_SHARE_SCALE / k``
in ``win60`` (k winners; 60 is divisible by 1..5, so shares stay exact).

The event buffer must hold one game's events: on overflow (``s[M_N_EVENTS]``
reached the buffer's rows) the kernel stops and reports it (err[7] = the game's
event count so far, err[1] = -1); the caller replays the chunk with a larger
buffer into fresh counters (games are deterministic, so the replay is the same
games). The layout names and meanings are documented in ``SECTIONS``; the
Python side (``cargo_noir.aggregates``) labels them.
"""
import numpy as np
from ...core import cache  # noqa: F401  (first: numba's cache folder for this source version)
from numba import njit, types

from ...core.borrow_nb import state_ptr_nb
from ...core.counters_nb import OVERFLOW_KIND, OVERFLOW_ROWS, bin_nb, layout_id, section_offsets
from .engine_nb import DecideType, game_stopped_nb, own_workspace_nb, play_game_nb, start_state_nb
from .enums import (
    A_ABANDON, A_BUY, A_CASINO, A_PORT_WIN, A_RAISE, A_SCORE, A_SEND_BLACK_MARKET,
    A_SEND_CASINO, A_SEND_PORT, A_SYNDICATE, A_TRADE, CARDS, E, E_TOK0, LOC_PORT0,
    M_BAG_REFILLS, M_BANK, M_EMPTY_SLOTS, M_MINTED, M_N_EVENTS, M_SHORTFALL_COINS,
    M_SHORTFALLS, MAX_CARDS, MAX_PORTS, MAX_SEATS, N_EVENT_FIELDS, N_PLAYER_FIELDS, P,
    R_FINAL_COIN_VALUE, R_LOG_ROWS, R_N_CARDS, R_N_PLAYERS, R_N_PORTS, R_N_TURNS, R_N_TYPES, SCRATCH, STATS, STATS_W, EXACT_FN,
)
from .trade.packed_nb import packed_trade_value_nb

# ---- bounds (documented in the README; values beyond go to the last bin) ----
MAX_TURNS = 32          # turn rows 0..31 (0 = setup); turns >= 31 share row 31
VP_BINS = 512           # final VP 0..511 (511 = 511 or more; strong 2-player bots pass 255)
MARGIN_BINS = 512       # winner VP - runner-up VP
COPY_BINS = 8           # copies of a card held at the end: 0..7 (7 = 7 or more)
CASINO_BINS = 64        # ships a player sent to the Casino in a game
PRICE_BINS = 64         # winning price of a port (coins)
OVERPAY_BINS = 32       # price - runner-up's last stack (negative -> 0)
SHORT_BINS = 64         # bank shortfalls in a game
SHORT_COIN_BINS = 256   # coins the bank could not pay in a game
VALUE_BINS = 256        # smuggling value of a trade
LOST_BINS = 64          # value lost to "no change" in a trade
WIN_SHARE_SCALE = 60    # a win shared by k players adds 60 / k to win60

OUTCOME_FIELDS = ("players", "wins", "win60", "vp_sum", "vp_sumsq")
EPISODE_FIELDS = ("episodes", "sends", "contested_sends", "raises", "abandons", "wins")
PORT_WIN_FIELDS = ("wins", "price_sum", "price_sumsq", "tokens_sum", "value_sum")
DEST_NAMES = ("Casino", "Black Market", "port")
CASINO_FIELDS = ("ships", "coins")
COINS_FIELDS = ("player_turns", "coins_sum", "coins_sumsq")
TRADE_FIELDS = ("trades", "tokens", "wilds", "value", "value_sumsq", "coins_used", "cost",
                "lost", "lost_sumsq", "with_wild", "lossy")
BUY_FIELDS = ("copies", "copies_sq")
GAME_STATS = ("shortfalls", "shortfall_coins", "bag_refills", "empty_slots", "minted_coins",
              "bank_end")
MOMENT_FIELDS = ("n", "sum", "sumsq")
SYNDICATE_FIELDS = ("payments", "coins")

OUTCOME_W = len(OUTCOME_FIELDS)
EPISODE_W = len(EPISODE_FIELDS)
PORT_WIN_W = len(PORT_WIN_FIELDS)
TRADE_W = len(TRADE_FIELDS)
N_GAME_STATS = len(GAME_STATS)

# name, shape, meaning (the axes' labels are in the meaning)
SECTIONS = (
    ("games", (1,), "games played"),
    ("ties", (1,), "games whose win is shared (after the highest-card tie-break)"),
    ("wins", (MAX_SEATS,), "games won by seat (a shared win counts 1)"),
    ("tied_wins", (MAX_SEATS,), "shared wins by seat"),
    ("win60", (MAX_SEATS,), "win shares by seat x 60 (a win shared by k adds 60/k)"),
    ("player_sum", (MAX_SEATS, N_PLAYER_FIELDS), "sum over games of each per-player statistic "
                                                 "(enums.PLAYER_FIELDS) by seat"),
    ("player_sumsq", (MAX_SEATS, N_PLAYER_FIELDS), "sum of squares of the same"),
    ("vp_hist", (MAX_SEATS, VP_BINS), "player-games by seat and final VP"),
    ("margin_hist", (MARGIN_BINS,), "games by margin (winner VP - runner-up VP; 0 = top VP tied)"),
    ("margin", (3,), "margin moments: n, sum, sumsq"),
    ("game_sum", (N_GAME_STATS,), "sum over games of GAME_STATS"),
    ("game_sumsq", (N_GAME_STATS,), "sum of squares of GAME_STATS"),
    ("shortfall_hist", (SHORT_BINS,), "games by number of bank shortfalls"),
    ("shortfall_coins_hist", (SHORT_COIN_BINS,), "games by coins the bank could not pay"),
    ("card_outcome", (MAX_SEATS, MAX_CARDS, COPY_BINS, OUTCOME_W),
     "by seat, card and copies held at the end: OUTCOME_FIELDS"),
    ("casino_outcome", (MAX_SEATS, CASINO_BINS, OUTCOME_W),
     "by seat and ships sent to the Casino in the game: OUTCOME_FIELDS"),
    ("episodes", (MAX_PORTS, MAX_TURNS, EPISODE_W),
     "port auctions by port and the turn they started: EPISODE_FIELDS (contested = 2+ sends; "
     "an auction still open at the end counts with wins 0)"),
    ("port_wins", (MAX_PORTS, MAX_TURNS, PORT_WIN_W),
     "port wins by port and turn of the win: PORT_WIN_FIELDS (value = smuggling value of the cargo)"),
    ("price_hist", (MAX_PORTS, PRICE_BINS), "port wins by port and price"),
    ("overpay_hist", (OVERPAY_BINS,), "contested wins with a runner-up by overpayment"),
    ("overpay", (3,), "overpayment moments: n, sum, sumsq"),
    ("syndicate", (MAX_SEATS, 2), "Syndicate payments by seat: payments, coins"),
    ("sends", (MAX_SEATS, MAX_TURNS, 3), "ships sent by seat, turn and destination (DEST_NAMES)"),
    ("casino_turn", (MAX_SEATS, MAX_TURNS, 2), "Casino resolutions by seat and turn: ships, coins"),
    ("coins_turn", (MAX_SEATS, MAX_TURNS, 3),
     "coins in the safe after a player's last event of a turn: player-turns, sum, sumsq"),
    ("trade_turn", (MAX_SEATS, MAX_TURNS, TRADE_W), "trades by seat and turn: TRADE_FIELDS"),
    ("trade_value_hist", (MAX_SEATS, VALUE_BINS), "trades by seat and smuggling value"),
    ("trade_lost_hist", (MAX_SEATS, LOST_BINS), "trades by seat and value lost to no change"),
    ("buys", (MAX_CARDS, MAX_TURNS, 2),
     "cards bought by card and turn: copies, sum over games of (copies in the game)^2"),
)


OFFSETS, ACC_SIZE = section_offsets(SECTIONS)
LAYOUT_ID = layout_id("cargo_noir.aggregates/1", SECTIONS)

O_GAMES = OFFSETS["games"]
O_TIES = OFFSETS["ties"]
O_WINS = OFFSETS["wins"]
O_TIED_WINS = OFFSETS["tied_wins"]
O_WIN60 = OFFSETS["win60"]
O_PLAYER_SUM = OFFSETS["player_sum"]
O_PLAYER_SUMSQ = OFFSETS["player_sumsq"]
O_VP_HIST = OFFSETS["vp_hist"]
O_MARGIN_HIST = OFFSETS["margin_hist"]
O_MARGIN = OFFSETS["margin"]
O_GAME_SUM = OFFSETS["game_sum"]
O_GAME_SUMSQ = OFFSETS["game_sumsq"]
O_SHORT_HIST = OFFSETS["shortfall_hist"]
O_SHORT_COIN_HIST = OFFSETS["shortfall_coins_hist"]
O_CARD_OUTCOME = OFFSETS["card_outcome"]
O_CASINO_OUTCOME = OFFSETS["casino_outcome"]
O_EPISODES = OFFSETS["episodes"]
O_PORT_WINS = OFFSETS["port_wins"]
O_PRICE_HIST = OFFSETS["price_hist"]
O_OVERPAY_HIST = OFFSETS["overpay_hist"]
O_OVERPAY = OFFSETS["overpay"]
O_SYNDICATE = OFFSETS["syndicate"]
O_SENDS = OFFSETS["sends"]
O_CASINO_TURN = OFFSETS["casino_turn"]
O_COINS_TURN = OFFSETS["coins_turn"]
O_TRADE_TURN = OFFSETS["trade_turn"]
O_TRADE_VALUE_HIST = OFFSETS["trade_value_hist"]
O_TRADE_LOST_HIST = OFFSETS["trade_lost_hist"]
O_BUYS = OFFSETS["buys"]

# per-port auction state while folding a game's events
EP_FIRST = 0      # first turn + 1 (0 = no auction open)
EP_SENDS = 1
EP_RAISES = 2
EP_ABANDONS = 3
EP_STATE_W = 4


@njit(cache=True)
def add_outcome_nb(acc, at, won, share, vp):
    acc[at] += 1
    acc[at + 1] += won
    acc[at + 2] += share
    acc[at + 3] += vp
    acc[at + 4] += vp * vp


@njit(cache=True)
def fold_results_nb(s, acc):
    """End-of-game statistics of the game just played in s."""
    n = s[R_N_PLAYERS]
    n_cards = s[R_N_CARDS]
    acc[O_GAMES] += 1
    n_win = 0
    for seat in range(n):
        if s[STATS + seat * STATS_W + P.won]:
            n_win += 1
    if n_win > 1:
        acc[O_TIES] += 1
    share = WIN_SHARE_SCALE // n_win if n_win > 0 else 0
    first = -1
    second = -1
    for seat in range(n):
        st = STATS + seat * STATS_W
        won = 1 if s[st + P.won] else 0
        vp = s[st + P.vp]
        if won:
            acc[O_WINS + seat] += 1
            acc[O_WIN60 + seat] += share
            if n_win > 1:
                acc[O_TIED_WINS + seat] += 1
        for f in range(N_PLAYER_FIELDS):
            v = s[st + f]
            acc[O_PLAYER_SUM + seat * N_PLAYER_FIELDS + f] += v
            acc[O_PLAYER_SUMSQ + seat * N_PLAYER_FIELDS + f] += v * v
        acc[O_VP_HIST + seat * VP_BINS + bin_nb(vp, VP_BINS)] += 1
        if vp > first:
            second = first
            first = vp
        elif vp > second:
            second = vp
        my_share = share if won else 0
        for c in range(n_cards):
            k = bin_nb(s[CARDS + seat * MAX_CARDS + c], COPY_BINS)
            add_outcome_nb(acc, O_CARD_OUTCOME + ((seat * MAX_CARDS + c) * COPY_BINS + k) * OUTCOME_W,
                           won, my_share, vp)
        k = bin_nb(s[st + P.casino_visits], CASINO_BINS)
        add_outcome_nb(acc, O_CASINO_OUTCOME + (seat * CASINO_BINS + k) * OUTCOME_W, won, my_share, vp)
    margin = first - second if n > 1 else 0
    acc[O_MARGIN_HIST + bin_nb(margin, MARGIN_BINS)] += 1
    acc[O_MARGIN] += 1
    acc[O_MARGIN + 1] += margin
    acc[O_MARGIN + 2] += margin * margin
    for i in range(N_GAME_STATS):
        if i == 0:
            v = s[M_SHORTFALLS]
        elif i == 1:
            v = s[M_SHORTFALL_COINS]
        elif i == 2:
            v = s[M_BAG_REFILLS]
        elif i == 3:
            v = s[M_EMPTY_SLOTS]
        elif i == 4:
            v = s[M_MINTED]
        else:
            v = s[M_BANK]
        acc[O_GAME_SUM + i] += v
        acc[O_GAME_SUMSQ + i] += v * v
    acc[O_SHORT_HIST + bin_nb(s[M_SHORTFALLS], SHORT_BINS)] += 1
    acc[O_SHORT_COIN_HIST + bin_nb(s[M_SHORTFALL_COINS], SHORT_COIN_BINS)] += 1


@njit(cache=True)
def close_episode_nb(acc, ep, p, won):
    """Add port p's open auction to the episode counters (won: 1 if it ended in a win)."""
    first = ep[p, EP_FIRST] - 1
    sends = ep[p, EP_SENDS]
    at = O_EPISODES + (p * MAX_TURNS + bin_nb(first, MAX_TURNS)) * EPISODE_W
    acc[at] += 1
    acc[at + 1] += sends
    if sends >= 2:
        acc[at + 2] += sends
    acc[at + 3] += ep[p, EP_RAISES]
    acc[at + 4] += ep[p, EP_ABANDONS]
    acc[at + 5] += won
    for f in range(EP_STATE_W):
        ep[p, f] = 0


@njit(cache=True)
def open_episode_nb(ep, p, turn):
    if ep[p, EP_FIRST] == 0:
        ep[p, EP_FIRST] = turn + 1


@njit(cache=True)
def fold_trade_nb(acc, seat, t, value, coins, tokens, wilds, cost, coin_value):
    lost = value + coins * coin_value - cost
    at = O_TRADE_TURN + (seat * MAX_TURNS + t) * TRADE_W
    acc[at] += 1
    acc[at + 1] += tokens
    acc[at + 2] += wilds
    acc[at + 3] += value
    acc[at + 4] += value * value
    acc[at + 5] += coins
    acc[at + 6] += cost
    acc[at + 7] += lost
    acc[at + 8] += lost * lost
    if wilds > 0:
        acc[at + 9] += 1
    if lost > 0:
        acc[at + 10] += 1
    acc[O_TRADE_VALUE_HIST + seat * VALUE_BINS + bin_nb(value, VALUE_BINS)] += 1
    acc[O_TRADE_LOST_HIST + seat * LOST_BINS + bin_nb(lost, LOST_BINS)] += 1


@njit(cache=True)
def fold_events_nb(s, log, n_ev, acc, ep, last_stack, coins_last, buys):
    """Fold the game's first n_ev event rows into acc. ``log`` is the event
    log as a pointer (rows of N_EVENT_FIELDS, as the engine writes them); ep,
    last_stack, coins_last and buys are scratch arrays (reset here)."""
    n = s[R_N_PLAYERS]
    n_ports = s[R_N_PORTS]
    n_cards = s[R_N_CARDS]
    n_types = s[R_N_TYPES]
    coin_value = s[R_FINAL_COIN_VALUE]
    t_max = bin_nb(s[R_N_TURNS], MAX_TURNS)
    for p in range(n_ports):
        for f in range(EP_STATE_W):
            ep[p, f] = 0
        for seat in range(n):
            last_stack[p, seat] = 0
    for seat in range(n):
        for t in range(t_max + 1):
            coins_last[seat, t] = -1
    for c in range(n_cards):
        for t in range(t_max + 1):
            buys[c, t] = 0
    pending = False                 # a trade whose card purchases follow it
    tr_seat = 0
    tr_t = 0
    tr_value = 0
    tr_coins = 0
    tr_tokens = 0
    tr_wilds = 0
    tr_cost = 0
    for i in range(n_ev):
        r = i * N_EVENT_FIELDS
        a = log[r + E.action]
        seat = log[r + E.seat]
        t = bin_nb(log[r + E.turn], MAX_TURNS)
        if pending and a != A_BUY:
            fold_trade_nb(acc, tr_seat, tr_t, tr_value, tr_coins, tr_tokens, tr_wilds, tr_cost,
                          coin_value)
            pending = False
        if seat >= 0 and a != A_SCORE:
            coins_last[seat, t] = log[r + E.coins]
        if a == A_SEND_CASINO:
            acc[O_SENDS + (seat * MAX_TURNS + t) * 3] += 1
        elif a == A_SEND_BLACK_MARKET:
            acc[O_SENDS + (seat * MAX_TURNS + t) * 3 + 1] += 1
        elif a == A_SEND_PORT:
            acc[O_SENDS + (seat * MAX_TURNS + t) * 3 + 2] += 1
            p = log[r + E.loc] - LOC_PORT0
            open_episode_nb(ep, p, t)
            ep[p, EP_SENDS] += 1
            last_stack[p, seat] = log[r + E.amount]
        elif a == A_RAISE:
            p = log[r + E.loc] - LOC_PORT0
            open_episode_nb(ep, p, t)
            ep[p, EP_RAISES] += 1
            last_stack[p, seat] = log[r + E.value]
        elif a == A_ABANDON:
            p = log[r + E.loc] - LOC_PORT0
            open_episode_nb(ep, p, t)
            ep[p, EP_ABANDONS] += 1
            last_stack[p, seat] = log[r + E.amount]
        elif a == A_PORT_WIN:
            p = log[r + E.loc] - LOC_PORT0
            open_episode_nb(ep, p, t)
            price = log[r + E.amount]
            for k in range(n_types):
                s[SCRATCH + k] = log[r + E_TOK0 + k]
            value = packed_trade_value_nb(s, 0, SCRATCH, log[r + E_TOK0 + n_types], EXACT_FN)
            at = O_PORT_WINS + (p * MAX_TURNS + t) * PORT_WIN_W
            acc[at] += 1
            acc[at + 1] += price
            acc[at + 2] += price * price
            acc[at + 3] += log[r + E.count]
            acc[at + 4] += value
            acc[O_PRICE_HIST + p * PRICE_BINS + bin_nb(price, PRICE_BINS)] += 1
            runner_up = 0
            for other in range(n):
                if other != seat and last_stack[p, other] > runner_up:
                    runner_up = last_stack[p, other]
                last_stack[p, other] = 0
            if runner_up > 0:
                over = price - runner_up
                acc[O_OVERPAY_HIST + bin_nb(over, OVERPAY_BINS)] += 1
                acc[O_OVERPAY] += 1
                acc[O_OVERPAY + 1] += over
                acc[O_OVERPAY + 2] += over * over
            close_episode_nb(acc, ep, p, 1)
        elif a == A_CASINO:
            acc[O_CASINO_TURN + (seat * MAX_TURNS + t) * 2] += log[r + E.count]
            acc[O_CASINO_TURN + (seat * MAX_TURNS + t) * 2 + 1] += log[r + E.amount]
        elif a == A_SYNDICATE:
            acc[O_SYNDICATE + seat * 2] += 1
            acc[O_SYNDICATE + seat * 2 + 1] += log[r + E.amount]
        elif a == A_TRADE:
            pending = True
            tr_seat = seat
            tr_t = t
            tr_value = log[r + E.value]
            tr_coins = log[r + E.amount]
            tr_tokens = log[r + E.count]
            tr_wilds = log[r + E_TOK0 + n_types]
            tr_cost = 0
        elif a == A_BUY:
            tr_cost += log[r + E.amount]
            buys[log[r + E.card], t] += log[r + E.count]
    if pending:
        fold_trade_nb(acc, tr_seat, tr_t, tr_value, tr_coins, tr_tokens, tr_wilds, tr_cost,
                      coin_value)
    for p in range(n_ports):
        if ep[p, EP_FIRST] > 0:
            close_episode_nb(acc, ep, p, 0)
    for seat in range(n):
        for t in range(t_max + 1):
            c = coins_last[seat, t]
            if c >= 0:
                at = O_COINS_TURN + (seat * MAX_TURNS + t) * 3
                acc[at] += 1
                acc[at + 1] += c
                acc[at + 2] += c * c
    for c in range(n_cards):
        for t in range(t_max + 1):
            k = buys[c, t]
            if k != 0:
                acc[O_BUYS + (c * MAX_TURNS + t) * 2] += k
                acc[O_BUYS + (c * MAX_TURNS + t) * 2 + 1] += k * k


# The kernel's one signature (decide as a first-class function, as in the
# engine), compiled on first use by ensure_compiled(): `import cargo_sim` does
# not pay for it.
AGGREGATE_SIG = types.boolean(types.int64[::1], DecideType, types.int64, types.uint64[::1],
                              types.int64[:, ::1], types.int64[::1], types.int64[::1])


@njit(cache=True, nogil=True)
def aggregate_games_nb(template, decide, exact_fn, seeds, log, acc, err):
    """Play len(seeds) games from the template and add their statistics to acc
    (ACC_SIZE counters, layout SECTIONS); `log` is the per-game event buffer
    (re-used). Returns False on an illegal decision (err = [game, decision,
    seat, value, aux, turn], as run_games_nb) or when a game's events filled
    the buffer (err[0] = game, err[1] = -1, err[7] = its events so far): then
    acc holds part of the chunk and must be discarded."""
    own = template.copy()       # `own` keeps the memory alive while `s` points into it
    work = own_workspace_nb(own)
    s, plog = start_state_nb(own, log, exact_fn)
    pacc = state_ptr_nb(acc)
    ep = np.zeros((MAX_PORTS, EP_STATE_W), np.int64)
    last_stack = np.zeros((MAX_PORTS, MAX_SEATS), np.int64)
    coins_last = np.full((MAX_SEATS, MAX_TURNS), -1, np.int64)
    buys = np.zeros((MAX_CARDS, MAX_TURNS), np.int64)
    cap = s[R_LOG_ROWS]
    for g in range(seeds.shape[0]):
        play_game_nb(s, plog, decide, np.int64(seeds[g]), g, np.int64(0))   # the engine's signature: no second compile
        if game_stopped_nb(s, g, err):
            return own[0] != own[0]
        n_ev = s[M_N_EVENTS]
        if n_ev >= cap:
            err[0] = g
            err[OVERFLOW_KIND] = -1
            err[OVERFLOW_ROWS] = n_ev
            return own[0] != own[0]
        fold_results_nb(s, pacc)
        fold_events_nb(s, plog, n_ev, pacc, ep, last_stack, coins_last, buys)
    err[6] = seeds.shape[0]
    return own[0] == own[0] and work[0] == work[0]   # uses after the loop keep both alive until here


def ensure_compiled() -> None:
    """Compile (or load from the cache) aggregate_games_nb for AGGREGATE_SIG only,
    so that every bot table shares it (decide converts to the function type)."""
    if not _KERNEL.signatures:
        _KERNEL.compile(AGGREGATE_SIG)
        _KERNEL.disable_compile()


_KERNEL = aggregate_games_nb
