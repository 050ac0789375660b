"""What the games' own benchmarks (their ``bench.kernel_rates``, part of ``make bench``)
share: every table's kernel rate timed in turn, repeat after repeat, so that ratios come
from the same minutes, and the share of one table's rate in another's."""
from __future__ import annotations


def interleaved_rates(kernel_rate, tables, game: str, repeat: int, seconds: float) -> dict:
    """{(n_players, bot): [games/s of each repeat]}: each table's size calibrated to
    ~``seconds`` after one load run (seed 1), then every table once per repeat (seeds
    2, 3, ...); ``kernel_rate`` is cargo_sim.bench's (n_players, n_games, workers, seed,
    bot, game)."""
    rate = {t: kernel_rate(t[0], 64, 1, 1, t[1], game) for t in tables}       # load
    size = {t: max(64, int(r * seconds)) for t, r in rate.items()}
    got = {t: [] for t in tables}
    for k in range(max(1, repeat)):           # interleaved: every rate from the same minutes
        for t, n in size.items():
            got[t].append(kernel_rate(t[0], n, 1, 2 + k, t[1], game))
    return got


def rate_share(got: dict, part, whole) -> dict:
    """The best rates of tables ``part`` and ``whole`` (keys of ``got``), the share of
    the best ones and the median of the repeats' shares."""
    a, b = max(got[part]), max(got[whole])
    shares = sorted(x / y for x, y in zip(got[part], got[whole]))
    return {"part": a, "whole": b, "share": a / b, "share_median": shares[len(shares) // 2]}
