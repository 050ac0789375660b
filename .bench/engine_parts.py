"""Issue #25, bench only: the library's engine without the parts the reference kernel
(``shared/tools/refsim.py``) does not do, timed against the reference and the library
as ``simulate`` plays, alternated in ONE process, 4 players, one thread.

Variants (each a compiled loop of whole games on the engine's own kernels,
``begin_game_nb`` / ``answer_nb``; none is a bot a table can seat, none is reachable from
``simulate``, and their games are NOT the library's games):

* ``library``  ``bench.kernel_rate``: the core runner's chunks, as ``simulate`` plays them.
* ``asked``    this file's loop of whole games, the bots asked as ``simulate`` asks them
  (``ask_keyed_nb`` with the table's ``decide``: the library's games), each game writing
  its winners and points only (no per-seat statistics rows, no runner).
* ``direct``   the same engine and the same random bot, but the bot is called directly
  (no ``ask_keyed_nb``: no hidden chance stream, no per-decision stream of its own, no
  first-class ``decide`` call) and draws from the game's one stream, as the reference's
  answers do; each game writes its winners and points only (no per-seat statistics rows).
* ``simple``   ``direct`` with the reference's trade rule instead of the random trade: sell
  the whole hand if its value buys at least one card, the cards taken greedily, most
  expensive first (the reference's order: cost, then VP, descending).
What ``direct`` and ``simple`` still do that the reference does not: check every answer,
keep the statistics and the resumable machine (a step per decision), the event-log
calls (a log of 0 rows), the packed trade tables (the engine's check looks the value up
again after the bot).

    NUMBA_CACHE_DIR=... python .bench/engine_parts.py [rounds] [seconds] [cpu|wall]
(the reference: ``shared/tools/refsim.py`` beside the repository or ``$CARGO_SIM_REFSIM``)
"""
import statistics
import sys
import time

import numpy as np
from numba import njit, types

from cargo_sim.bench import kernel_rate, _prepare
from cargo_sim.bench_ref import load_reference, reference_path
from cargo_sim.core.dispatch_nb import DecideType
from cargo_sim.core.seeds_nb import game_seeds
from cargo_sim.games.cargo_noir.bots.random_nb import random_decide_at_nb
from cargo_sim.games.cargo_noir.engine_nb import (
    answer_nb, ask_keyed_nb, begin_game_nb, seat_oneway_nb, card_buyable_nb, card_i, hand_i, n_tok_nb, own_workspace_nb,
    start_state_nb, stat_i, trade_budget_extra_nb, trade_value_at_nb)
from cargo_sim.games.cargo_noir.enums import (
    C_COST, D_TRADE, M_ASK, M_RNG, M_SEAT, N_EVENT_FIELDS, OUT, OUT_CARDS, P, R_N_CARDS,
    R_N_PLAYERS, R_N_TYPES)
from cargo_sim.games.cargo_noir.simulate import solver_address


@njit(cache=True)
def simple_trade_nb(s, seat, order):
    """The reference's trade: all the hand, if its value buys a card; greedy purchase."""
    nt = n_tok_nb(s)
    for t in range(nt):
        s[OUT + t] = s[hand_i(seat, t)]
    budget = trade_budget_extra_nb(s, seat) + trade_value_at_nb(s, OUT, s[OUT + s[R_N_TYPES]])
    spent = 0
    for i in range(s[R_N_CARDS]):
        c = order[i]
        cost = s[card_i(c, C_COST)]
        room = card_buyable_nb(s, seat, c)
        while s[OUT_CARDS + c] < room and cost <= budget - spent:
            s[OUT_CARDS + c] += 1
            spent += cost
    return 1 if spent > 0 else 0


@njit(types.boolean(types.int64[::1], DecideType, types.int64, types.uint64[::1], types.int64,
                    types.int64[::1], types.int64[:, ::1]), cache=True, nogil=True)
def play_plain_nb(template, decide, exact_fn, seeds, mode, order, out):
    """mode 0: asked as simulate asks; 1: the random bot called directly; 2: and the
    reference's trade rule."""
    own = template.copy()
    work = own_workspace_nb(own)
    log = np.zeros((0, N_EVENT_FIELDS), np.int64)
    s, plog = start_state_nb(own, log, exact_fn)
    n = s[R_N_PLAYERS]
    for g in range(seeds.shape[0]):
        begin_game_nb(s, plog, np.int64(seeds[g]), g, np.int64(0))
        oneway = np.empty(n, np.int64)
        for seat in range(n):
            oneway[seat] = seat_oneway_nb(s, seat)
        while s[M_ASK] >= 0:
            kind = s[M_ASK]
            seat = s[M_SEAT]
            if mode == 0:
                ans = ask_keyed_nb(decide, kind, s, seat, oneway[seat])
            elif mode == 2 and kind == D_TRADE:
                ans = simple_trade_nb(s, seat, order)
            else:
                ans = random_decide_at_nb(kind, s, seat, M_RNG)
            answer_nb(s, plog, ans)
        mask = 0
        for seat in range(n):
            out[g, seat] = s[stat_i(seat, P.vp)]
            mask |= s[stat_i(seat, P.won)] << seat
        out[g, 5] = mask
    return own[0] == own[0] and work[0] == work[0] and log.shape[0] == 0


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    secs = float(sys.argv[2]) if len(sys.argv) > 2 else 1.0
    clock = time.process_time if (sys.argv[3] if len(sys.argv) > 3 else "cpu") == "cpu" \
        else time.perf_counter
    if reference_path() is None:
        sys.exit("no reference kernel: set CARGO_SIM_REFSIM to refsim.py")
    ref = load_reference(reference_path())
    table = _prepare(4, "random")
    tpl = table.template
    cards = range(int(tpl[R_N_CARDS]))
    cost = [int(tpl[card_i(c, C_COST)]) for c in cards]
    vp = [int(tpl[card_i(c, 2)]) for c in cards]            # C_VP
    order = np.array(sorted(cards, key=lambda c: (-cost[c], -vp[c])), np.int64)

    def lib(n, seed):
        t0 = clock()
        kernel_rate(4, n, 1, seed=seed)
        return n / (clock() - t0)

    def plain(mode):
        def rate(n, seed):
            seeds = game_seeds(seed, 0, n)
            out = np.zeros((n, 6), np.int64)
            t0 = clock()
            ok = play_plain_nb(tpl, table.decide, solver_address(), seeds, mode, order, out)
            dt = clock() - t0
            assert ok and (out[:, 5] != 0).all(), "a game without a winner"
            return n / dt
        return rate

    def reference(n, seed):
        t0 = clock()
        ref.run(n, 4, seed, False)
        return n / (clock() - t0)

    kinds = {"library": lib, "asked": plain(0), "direct": plain(1),
             "simple": plain(2), "reference": reference}
    sizes = {}
    for k, f in kinds.items():
        f(64, 1)
        sizes[k] = max(256, int(f(2048, 2) * secs))
    got = {k: [] for k in kinds}
    for r in range(rounds):
        for k, f in kinds.items():
            got[k].append(f(sizes[k], 10 + r))
        ref_r = got["reference"][-1]
        print(f"round {r}: " + ", ".join(f"{k} {v[-1]:,.0f}" for k, v in got.items())
              + " games/s; /reference: " + ", ".join(
                  f"{k} {got[k][-1] / ref_r:.3f}" for k in kinds if k != "reference"), flush=True)
    for k in kinds:
        if k == "reference":
            continue
        v = [a / b for a, b in zip(got[k], got["reference"])]
        print(f"{k}/reference: median {statistics.median(v):.3f} (min {min(v):.3f}, max {max(v):.3f})")


if __name__ == "__main__":
    main()
