"""What Cargo Noir adds to the shared summaries: the run summary's tie and bank
lines, the sweep's own measures, and the aggregate counters' report (the
contract's ``summary_counts``/``summary_lines``, ``sweep_measures``/``sweep_units``
and ``counters.summary_lines``). The shared code prints them without knowing a coin.
"""
from __future__ import annotations

import numpy as np


def summary_counts(games) -> dict:
    """Additive per-run counts (a run on disk sums them chunk by chunk): games with a
    shared win, games in which the finite bank ran short."""
    return {"ties": int(np.asarray(games["tie"]).sum()),
            "bank_short": int((np.asarray(games["shortfalls"]) > 0).sum())}


def bank_line(share: float, lo: float, hi: float, rules) -> str:
    """The summary line every run prints: how often the finite bank ran short."""
    if rules["unlimited_coins"]:
        return "bank: unlimited (rules option unlimited_coins), never short"
    return (f"bank ran short in {100 * share:.1f}% of games [{100 * lo:.1f}%, {100 * hi:.1f}%] "
            f"(a payment it could not make in full; unlimited_coins=true is the alternative rule)")


def summary_lines(counts: dict, n: int, rules) -> list[str]:
    """The lines under the seat table of a run summary (``n`` > 0 games)."""
    from ...core.stats import wilson_interval
    ties, short = counts["ties"], counts["bank_short"]
    lo, hi = wilson_interval(short / n * n, n)     # as the CLI always computed it: same digits
    return [f"ties (win shared after the highest-card tie-break): {ties:,} games "
            f"({100 * ties / n:.2f}%); win rates count a shared win as 1/k",
            bank_line(short / n, lo, hi, rules)]


def aggregate_lines(agg) -> list[str]:
    """The ``simulate --aggregate`` report under its headline: per seat win rate with
    95 % Wilson CI and mean VP with t CI, the seat test, ties and the bank line."""
    from ...core.columns import aligned_rows
    s = agg.summary()
    rows = [("seat", "bot", "win rate", "95% CI", "mean VP", "95% CI")]
    for seat, r in s.iterrows():
        rows.append((str(seat), str(r["bot"]), f"{100 * r['win_rate']:.2f}%",
                     f"[{100 * r['ci_lo']:.2f}%, {100 * r['ci_hi']:.2f}%]", f"{r['mean_vp']:.2f}",
                     f"[{r['vp_ci_lo']:.2f}, {r['vp_ci_hi']:.2f}]"))
    lines = aligned_rows(rows)
    t = agg.seat_test()
    m = agg.margin_summary()
    lines.append(f"equal seats: chi2 {t['chi2']:.2f} on {t['dof']} df, p = {t['p_value']:.3g}; "
                 f"ties (win shared): {100 * m['tie_rate']:.2f}% of games; win rates count a "
                 f"shared win as 1/k")
    b = agg.shortfalls()
    lines.append(bank_line(b["shortfall_rate"], b["ci_lo"], b["ci_hi"], agg.rules))
    return lines


# ---------------------------------------------------------------------------
# sweep measures: name -> (description, the kind of interval), and their per-game units
SWEEP_MEASURES = {
    "win_price": ("mean winning price (coins per port won)", "t"),
    "casino_share": ("share of ship placements at the Casino", "t"),
}

def _ratio_units(num, den):
    """Per-game linearisation of sum(num)/sum(den): u_i = R + (num_i - R den_i)/mean(den)
    (mean(u) == R exactly)."""
    num = np.asarray(num, dtype=float)
    den = np.asarray(den, dtype=float)
    tot = den.sum()
    if tot <= 0:
        return np.full(len(num), np.nan)
    r = num.sum() / tot
    return r + (num - r * den) / den.mean()


def sweep_units(grid) -> dict:
    """Per-game values whose mean is each of the game's sweep measures (the pairing unit of a
    sweep's differences); ``grid(col)``: the players column as (games, seats) floats."""
    casino = grid("casino_visits").sum(1)
    placed = casino + grid("bids").sum(1) + grid("bm_swaps").sum(1) + grid("bm_draws").sum(1)
    return {"win_price": _ratio_units(grid("coins_paid").sum(1), grid("ports_won").sum(1)),
            "casino_share": _ratio_units(casino, placed)}
