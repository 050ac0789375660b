"""Shipwrights' benchmark (part of ``make bench``, through ``cargo_sim.bench.game_bench``):
kernel games/s on one thread with `random` in every seat at 2, 3 and 4 players and
`expert` in every seat at 4, timed in turn (best of the repeats, as the rest of the
bench), against the targets (4-player random, and expert at least a fifth of random's
rate: an expert game is far shorter than a random one, ~10 days against ~35, but each of
its afternoon decisions tries every legal action on a copy of the state)."""
from __future__ import annotations

from ...core.kernel_rates import interleaved_rates, rate_share

RANDOM_TARGET = 10_000          # 4-player random games/s on one thread (quiet machine)
EXPERT_SHARE_TARGET = 0.20      # expert's rate / random's, at 4 players
PLAYERS = (2, 3, 4)


def kernel_rates(kernel_rate, repeat: int = 5, seconds: float = 1.0, n_players: int = 4) -> dict:
    """games/s of `random` at each of PLAYERS and of `expert` at ``n_players``, and
    expert's share; ``kernel_rate`` is cargo_sim.bench's (n_players, n_games, workers,
    seed, bot, game)."""
    tables = [(n, "random") for n in PLAYERS] + [(n_players, "expert")]
    got = interleaved_rates(kernel_rate, tables, "shipwrights", repeat, seconds)
    best = {t: max(v) for t, v in got.items()}
    s = rate_share(got, (n_players, "expert"), (n_players, "random"))
    rnd, exp = s["whole"], s["part"]
    out = {"players": n_players, "random": rnd, "expert": exp, "expert_share": s["share"],
           "expert_share_median": s["share_median"],
           "random_by_players": {n: best[(n, "random")] for n in PLAYERS}}
    by = ", ".join(f"{n}p {best[(n, 'random')]:,.0f}" for n in PLAYERS)
    out["lines"] = [
        f"Shipwrights, kernel games/s on 1 thread (best of {max(1, repeat)}, timed in turn): "
        f"random {by} ({n_players}p target >= {RANDOM_TARGET:,}: "
        f"{'met' if rnd >= RANDOM_TARGET else 'NOT met'}); expert {n_players}p {exp:,.0f} = "
        f"{out['expert_share']:.1%} of random (median of the repeats' shares "
        f"{out['expert_share_median']:.1%}; target >= {EXPERT_SHARE_TARGET:.0%})"]
    return out
