"""Macao's benchmark (part of ``make bench``, through ``cargo_sim.bench.game_bench``):
4-player games of the compiled kernel on one thread, `random` in every seat and
`expert` in every seat, timed in turn (best of the repeats, as the rest of the bench),
against the targets (expert at least a quarter of random's rate)."""
from __future__ import annotations

from ...core.kernel_rates import interleaved_rates, rate_share

RANDOM_TARGET = 10_000          # 4-player random games/s on one thread (quiet machine)
EXPERT_SHARE_TARGET = 0.25      # expert's rate / random's


def kernel_rates(kernel_rate, repeat: int = 5, seconds: float = 1.0, n_players: int = 4) -> dict:
    """games/s of `random` and `expert` at ``n_players`` and expert's share; ``kernel_rate``
    is cargo_sim.bench's (n_players, n_games, workers, seed, bot, game)."""
    tables = [(n_players, "random"), (n_players, "expert")]
    s = rate_share(interleaved_rates(kernel_rate, tables, "macao", repeat, seconds), *tables[::-1])
    rnd, exp = s["whole"], s["part"]
    out = {"players": n_players, "random": rnd, "expert": exp, "expert_share": s["share"],
           "expert_share_median": s["share_median"]}
    out["lines"] = [
        f"Macao, {n_players} players, kernel games/s on 1 thread (best of {max(1, repeat)}, timed in turn): "
        f"random {rnd:,.0f} (target >= {RANDOM_TARGET:,}), expert {exp:,.0f} = "
        f"{out['expert_share']:.1%} of random (median of the repeats' shares "
        f"{out['expert_share_median']:.1%}; target >= {EXPERT_SHARE_TARGET:.0%})"]
    return out
