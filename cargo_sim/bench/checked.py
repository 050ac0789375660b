"""The cost of checking user bots (docs/safety.md): one table of a user bot, played
checked (the default) and unchecked (``check_bots=False``) on the same games, in
alternated rounds in one process, games/s on one thread.

The bot is the 30-line example of docs/example_bot.py (its own loop over the ports
with botkit calls when it sends a ship, the built-in heuristic for the rest), so the
cost covers both parts of checking: the guard around each call (the state kept and
compared, the hidden slots) and the bot's own code compiled with bounds checks and
a loop budget.
"""
from __future__ import annotations

import time

NAME = "bench_user_bot"
PLAYERS = 3
GAMES = 512


def _register() -> None:
    import cargo_sim
    from ..botkit import (D_SEND, LOC_CASINO, LOC_PORT0, OUT, hand_value_nb, heuristic_decide_nb,
                          n_ports_nb, param_nb, port_min_bid_nb, top_bid_nb, value_with_port_nb)

    def bench_user_bot(kind, s, seat):
        if kind != D_SEND:
            return heuristic_decide_nb(kind, s, seat)
        base = hand_value_nb(s, seat)
        best, choice, bid = param_nb(s, seat, 0), LOC_CASINO, 0
        for p in range(n_ports_nb(s)):
            need = port_min_bid_nb(s, seat, p)
            if need < 0 or top_bid_nb(s, p, -1) > 0:
                continue
            per_coin = (value_with_port_nb(s, seat, p) - base) / need
            if per_coin > best:
                best, choice, bid = per_coin, LOC_PORT0 + p, need
        s[OUT] = bid
        return choice

    if NAME not in cargo_sim.bot_names():
        cargo_sim.bot(NAME, params={"min_gain": 2.0})(bench_user_bot)


def check_cost(say, rounds: int = 5, games: int = GAMES) -> dict:
    """games/s of ``PLAYERS`` seats of the user bot, checked and unchecked, best of
    ``rounds`` alternated rounds, and the median of the rounds' ratios."""
    from ..core.contract import get_game
    from ..core.runner import Table
    from ..core.seeds_nb import game_seeds
    _register()
    game = get_game("cargo_noir")
    rules = game.Rules.default()
    players = [game.bots.parse(NAME)] * PLAYERS
    seeds = game_seeds(1, 0, games)
    tables = {mode: Table.build(game, rules, players, mode) for mode in (True, False)}
    for t in tables.values():
        t.play(seeds[:4], 0)                            # compile (the user bots' kernels) untimed
    times = {True: [], False: []}
    for _ in range(max(1, rounds)):
        for mode in (False, True):
            t0 = time.perf_counter()
            tables[mode].play(seeds, 0)
            times[mode].append(time.perf_counter() - t0)
    fast, checked = games / min(times[False]), games / min(times[True])
    ratios = sorted(c / f for c, f in zip(times[True], times[False]))
    median = ratios[len(ratios) // 2]
    say(f"user bots checked (the default) vs check_bots=False, {PLAYERS} seats of a user bot, "
        f"1 thread: {checked:,.0f} vs {fast:,.0f} games/s = {fast / checked:.2f}x the time "
        f"(best / best; median of {len(ratios)} alternated rounds {median:.2f}x)")
    return {"games": games, "rounds": len(ratios), "checked_games_s": checked,
            "fast_games_s": fast, "cost": fast / checked, "cost_median": median}
