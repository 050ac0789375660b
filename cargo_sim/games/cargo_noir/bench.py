"""Cargo Noir's own benchmarks, run by ``make bench`` (cargo_sim.bench finds them through
the Game object): the forward model's clone and playout rates."""
from __future__ import annotations

import time

import numpy as np


def forward_rates(table, kernel_rate, n_games: int = 4096, clones: int = 200_000) -> dict:
    """ns per clone of the game part, and whole games played through the forward
    model (begin_nb + playout_nb per game) as a share of the kernel's rate on the
    same games (1 thread). ``table``: a prepared ``core.runner.Table``;
    ``kernel_rate(n_games)``: the kernel's games/s on one thread (cargo_sim.bench)."""
    from numba import njit

    from ...core.seeds_nb import game_seeds
    from .enums import N_EVENT_FIELDS
    from .forward_nb import begin_nb, clone_into_nb, playout_nb
    from .simulate import solver_address

    @njit
    def clone_loop_nb(dst, src, k):
        for _ in range(k):
            clone_into_nb(dst, src)
            src[0] = dst[0]          # the loop cannot be hoisted away

    template, decide = table.template, table.decide
    a, b = template.copy(), template.copy()
    clone_loop_nb(a, b, 10)
    t0 = time.perf_counter()
    clone_loop_nb(a, b, clones)
    clone_ns = (time.perf_counter() - t0) / clones * 1e9
    seeds = game_seeds(1, 0, n_games)
    log = np.zeros((0, N_EVENT_FIELDS), dtype=np.int64)
    fn = solver_address()
    @njit
    def playouts_nb(s, log, decide, seeds, fn):
        for g in range(seeds.shape[0]):
            begin_nb(s, log, seeds[g], g, fn)
            playout_nb(s, log, decide, fn)

    s = template.copy()
    playouts_nb(s, log, decide, seeds[:2], fn)
    best_fm = best_kernel = 0.0
    for _ in range(3):
        t0 = time.perf_counter()
        playouts_nb(s, log, decide, seeds, fn)
        best_fm = max(best_fm, n_games / (time.perf_counter() - t0))
        best_kernel = max(best_kernel, kernel_rate(n_games))
    return {"clone_ns": clone_ns, "playout_games_s": best_fm, "kernel_games_s": best_kernel,
            "playout_share": best_fm / best_kernel}


def public_rates(n_players: int, kernel_rate, n_games: int = 400, reps: int = 3000,
                 bot: str = "random", rounds: int = 7) -> dict:
    """The public forward model (``cargo_sim.GameState``, Python) at ``n_players``
    seats of ``bot``: µs per ``clone()`` and per ``determinize()`` of a state in
    mid-game (best of 3 rounds of ``reps``), and µs per whole game played as
    ``GameState.clone().playout()`` from each game's start against µs per game
    inside ``simulate``'s kernel on the same games (``kernel_rate(n)``: its games/s
    on one thread), each the best of ``rounds`` timed in alternation, and the
    median of the rounds' ratios."""
    from .forward import GameState
    players = [bot] * n_players
    st = GameState(players, seed=1, game=0)
    for _ in range(6 * n_players):          # into the game: a few turns answered by the bots
        st.apply(st.bot_answer())
    seat = st.decision.seat

    def best(fn, k, tries=3):
        out = float("inf")
        for _ in range(tries):
            t0 = time.perf_counter()
            for i in range(k):
                fn(i)
            out = min(out, (time.perf_counter() - t0) / k)
        return out * 1e6

    clone_us = best(lambda i: st.clone(), reps)
    det_us = best(lambda i: st.determinize(seat, i), reps)
    starts = [GameState(players, seed=1, game=g) for g in range(n_games)]
    starts[0].clone().playout()
    kernel_rate(n_games)
    play, kern = [], []
    for _ in range(rounds):     # interleaved: each ratio compares the same moments
        play.append(best(lambda i: starts[i].clone().playout(), n_games, 1))
        kern.append(1e6 / kernel_rate(n_games))
    play_us, kernel_us = min(play), min(kern)
    return {"clone_us": clone_us, "determinize_us": det_us, "playout_us": play_us,
            "kernel_us": kernel_us, "playout_ratio": play_us / kernel_us,
            "playout_ratio_median": float(np.median([p / k for p, k in zip(play, kern)])),
            "rounds": rounds}
