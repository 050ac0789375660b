"""Cargo Empire's benchmark (part of ``make bench``, through ``cargo_sim.bench.game_bench``):
games of the compiled kernel on one thread, `random` in every seat at 2 to 5 players and
`expert` in every seat at 4, timed in turn (best of the repeats, as the rest of the bench),
against the targets (expert at least a fifth of random's rate at 4 players)."""
from __future__ import annotations

from ...core.kernel_rates import interleaved_rates, rate_share

RANDOM_TARGET = 10_000          # 4-player random games/s on one thread (quiet machine)
EXPERT_SHARE_TARGET = 0.20      # expert's rate / random's, 4 players
PLAYERS = (2, 3, 4, 5)
SHARE_AT = 4


def kernel_rates(kernel_rate, repeat: int = 5, seconds: float = 1.0) -> dict:
    """games/s of `random` at each of PLAYERS and of `expert` at SHARE_AT, and expert's
    share; ``kernel_rate`` is cargo_sim.bench's (n_players, n_games, workers, seed, bot, game)."""
    runs = [(n, "random") for n in PLAYERS] + [(SHARE_AT, "expert")]
    got = interleaved_rates(kernel_rate, runs, "cargo_empire", repeat, seconds)
    s = rate_share(got, (SHARE_AT, "expert"), (SHARE_AT, "random"))
    exp = s["part"]
    out = {"random": {n: max(got[(n, "random")]) for n in PLAYERS}, "expert": exp,
           "expert_share": s["share"], "expert_share_median": s["share_median"]}
    per_n = ", ".join(f"{n} players {out['random'][n]:,.0f}" for n in PLAYERS)
    out["lines"] = [
        f"Cargo Empire, kernel games/s on 1 thread (best of {max(1, repeat)}, timed in turn): "
        f"random {per_n} (target at {SHARE_AT} players >= {RANDOM_TARGET:,})",
        f"  expert at {SHARE_AT} players {exp:,.0f} = {out['expert_share']:.1%} of random (median of "
        f"the repeats' shares {out['expert_share_median']:.1%}; target >= {EXPERT_SHARE_TARGET:.0%})"]
    return out
