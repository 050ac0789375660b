"""Macao's benchmark (part of ``make bench``, through ``cargo_sim.bench.game_bench``):
4-player games of the compiled kernel on one thread, `random` in every seat and
`expert` in every seat, timed in turn (best of the repeats, as the rest of the bench),
against the targets (expert at least a quarter of random's rate)."""
from __future__ import annotations

RANDOM_TARGET = 10_000          # 4-player random games/s on one thread (quiet machine)
EXPERT_SHARE_TARGET = 0.25      # expert's rate / random's


def kernel_rates(kernel_rate, repeat: int = 5, seconds: float = 1.0, n_players: int = 4) -> dict:
    """games/s of `random` and `expert` at ``n_players`` and expert's share; ``kernel_rate``
    is cargo_sim.bench's (n_players, n_games, workers, seed, bot, game)."""
    rate = {b: kernel_rate(n_players, 64, 1, 1, b, "macao") for b in ("random", "expert")}  # load
    size = {b: max(64, int(r * seconds)) for b, r in rate.items()}
    got = {b: [] for b in size}
    for k in range(max(1, repeat)):           # interleaved: both rates from the same minutes
        for b, n in size.items():
            got[b].append(kernel_rate(n_players, n, 1, 2 + k, b, "macao"))
    rnd, exp = max(got["random"]), max(got["expert"])
    shares = sorted(e / r for e, r in zip(got["expert"], got["random"]))
    out = {"players": n_players, "random": rnd, "expert": exp, "expert_share": exp / rnd,
           "expert_share_median": shares[len(shares) // 2]}
    out["lines"] = [
        f"Macao, {n_players} players, kernel games/s on 1 thread (best of {max(1, repeat)}, timed in turn): "
        f"random {rnd:,.0f} (target >= {RANDOM_TARGET:,}), expert {exp:,.0f} = "
        f"{out['expert_share']:.1%} of random (median of the repeats' shares "
        f"{out['expert_share_median']:.1%}; target >= {EXPERT_SHARE_TARGET:.0%})"]
    return out
