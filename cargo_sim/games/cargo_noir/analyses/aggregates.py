"""Tables and figures from ``cargo_sim.Aggregates`` (counters of very large runs).

``run_all(agg)`` gives the tables the per-event pipelines give (same names and
columns where the statistic is the same, an ``n_players`` column on each), so
the figures of ``analyses.plots`` draw them unchanged; ``write_figures`` saves a
few of those plus two figures made for the counters (price by port and turn,
win rate by copies held of every card).

What the counters cannot give (honestly): medians and percentiles come from
histograms (exact below the overflow bin, no bootstrap CI); means of per-item
ratios (price per token of each win) become ratios of sums; nothing can be
broken down by a key the kernel did not count (e.g. overpayment by port).
Several runs (e.g. one per player count) are combined with ``pd.concat`` of
the tables: the ``n_players`` column keeps them apart.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from analyses import plots

from .. import figures
from analyses.stats import mean_from_sums, proportion_frame

# what run_all reads (an Aggregates): the report runs the pipelines of a game's
# Game.analyses that read results (analyses.games.pipelines)
READS = "aggregates"


def _with_n(df: pd.DataFrame, n: int) -> pd.DataFrame:
    df = df.copy()
    df.insert(0, "n_players", n)
    return df


def casino_use_vs_win(agg, bins=(0, 3, 6, 9, 12, 15, 20, 1000)) -> pd.DataFrame:
    """casino.casino_use_vs_win from the counters: win rate (Wilson) and mean VP
    (t) by ships sent to the Casino, binned [lo, hi); n = player-games."""
    arr = agg["casino_outcome"][:agg.n_players].sum(axis=0)       # visits x OUTCOME_FIELDS
    b = np.asarray(bins)
    rows = []
    for lo, hi in zip(b[:-1], b[1:]):
        c = arr[lo:min(hi, len(arr))].sum(axis=0)
        if c[0] == 0:
            continue
        label = f"{lo}-{hi - 1}" if hi < 1000 else f"{lo}+"
        rows.append({"casino_bin": label, "bin_lo": int(lo), "players": c[0],
                     "win_share": c[2] / agg.WIN_SHARE_SCALE, "vp_sum": c[3], "vp_sumsq": c[4]})
    d = pd.DataFrame(rows)
    p = proportion_frame(d["win_share"], d["players"], "win_rate")
    m = mean_from_sums(d["players"].to_numpy(), d["vp_sum"].to_numpy(), d["vp_sumsq"].to_numpy())
    out = d[["casino_bin", "bin_lo"]].copy()
    for c in ("n", "win_rate", "se", "ci_lo", "ci_hi"):
        out[c] = p[c].to_numpy()
    out["mean_vp"], out["vp_ci_lo"], out["vp_ci_hi"] = m["mean"], m["ci_lo"], m["ci_hi"]
    return _with_n(out, agg.n_players)


def run_all(agg) -> dict[str, pd.DataFrame]:
    """Every table from the counters, named like the pipelines' tables
    (an empty dict when no game was played)."""
    if agg.n_games == 0:
        return {}
    n = agg.n_players
    w = agg.win_rates()
    seat_chi2 = pd.DataFrame([{"n_players": n, **agg.seat_test(), "bots": ",".join(agg.players)}])
    ms = agg.margin_summary()
    br = agg.bidding(by=("turn",)).rename(columns={
        "turn": "first_turn", "contest_rate_ci_lo": "contest_ci_lo", "contest_rate_ci_hi": "contest_ci_hi",
        "raise_rate_ci_lo": "raise_ci_lo", "raise_rate_ci_hi": "raise_ci_hi",
        "abandon_rate_ci_lo": "abandon_ci_lo", "abandon_rate_ci_hi": "abandon_ci_hi",
        "win_per_send_ci_lo": "win_ci_lo", "win_per_send_ci_hi": "win_ci_hi"})
    out = {
        "win_rate_by_seat": _with_n(w, n),
        "seat_chi2": seat_chi2,
        "vp_by_seat": _with_n(agg.vp(), n),
        "vp_distribution": _with_n(agg.vp_distribution(), n),
        "margin_distribution": _with_n(agg.margins(), n),
        "margin_summary": pd.DataFrame([{"n_players": n, **ms}]),
        "price_by_port": _with_n(agg.prices(by=("port",)), n),
        "price_by_turn": _with_n(agg.prices(by=("turn",)).rename(columns={"turn": "win_turn"}), n),
        "price_by_port_turn": _with_n(agg.prices(by=("port", "turn")).rename(columns={"turn": "win_turn"}), n),
        "bidding_rates_by_turn": _with_n(br, n),
        "bidding_rates_by_port": _with_n(agg.bidding(by=("port",)), n),
        "overpayment": pd.DataFrame([{"n_players": n, **agg.overpayment()}]),
        "destinations_by_turn": _with_n(agg.destinations(by=("turn",)), n),
        "casino_share_by_seat": _with_n(agg.casino_share(by=("seat",)), n),
        "coins_by_turn": _with_n(agg.coins_by_turn(), n),
        "casino_use_vs_win": casino_use_vs_win(agg),
        "bank_shortfall": pd.DataFrame([{"n_players": n, **agg.shortfalls()}]),
        "trades_by_turn": _with_n(agg.trades(by=("turn",)), n),
        "trade_value_distribution": _with_n(agg.trade_values("value"), n),
        "value_lost_distribution": _with_n(agg.trade_values("lost"), n),
        "purchases_by_turn": _with_n(agg.purchases_by_turn(), n),
        "card_effect": _with_n(agg.card_effect(), n),
        "player_means": _with_n(agg.player_means(), n),
    }
    return out


# ---- figures made for the counters -------------------------------------------
def price_by_port_turn(df: pd.DataFrame):
    """price_by_port_turn: mean winning price per port (rows, with slots) and
    turn of the win (columns); cells with fewer than 30 wins are blank."""
    d = df[df["n"] >= 30]
    piv = d.pivot_table(index="port", columns="win_turn", values="mean")
    slots = df.drop_duplicates("port").set_index("port")["slots"]
    piv = piv.reindex(sorted(piv.index, key=lambda p: (-slots.get(p, 0), p)))
    fig, ax = plots.new_figure("Mean winning price by port and turn (cells with >= 30 wins)",
                         figsize=(7.5, 0.5 * max(len(piv), 2) + 1.6))
    ax.grid(False)
    im = ax.imshow(piv.to_numpy(dtype=float), aspect="auto", cmap="viridis")
    ax.set_xticks(range(piv.shape[1]), [str(c) for c in piv.columns])
    ax.set_yticks(range(piv.shape[0]), [f"{p} ({slots.get(p, '?')})" for p in piv.index], fontsize=8)
    ax.set_xlabel("turn the cargo was taken")
    fig.colorbar(im, ax=ax, label="mean price (coins)")
    return fig


def card_copies_win_rate(df: pd.DataFrame):
    """card_effect: win rate by copies held at the end, one line per card
    (cells with >= 30 player-games), 95 % Wilson bands."""
    fig, ax = plots.new_figure("Win rate by copies of each card held at the end", figsize=(7.5, 4.6))
    for i, (card, d) in enumerate(df.groupby("card", sort=False)):
        d = plots.enough(d).sort_values("held")
        if len(d) < 2:
            continue
        c = plt_colour(i)
        ax.plot(d["held"], d["win_rate"], marker="o", ms=3, color=c, label=str(card))
        ax.fill_between(d["held"], d["ci_lo"], d["ci_hi"], color=c, alpha=0.12)
    ax.set_xlabel("copies held at the end")
    ax.set_ylabel("win rate (shared wins split)")
    plots.legend(fig, f"bands: 95% Wilson CI; observational\n{plots.SMALL_NOTE}")
    return fig


def plt_colour(i: int):
    return plots.plt.cm.tab20(i % 20)


def write_figures(agg, out_dir, tables: dict | None = None) -> list[Path]:
    """Save the figures (PNG + SVG, atomically) for one Aggregates; returns the files."""
    t = tables or run_all(agg)
    out = Path(out_dir)
    if not t:
        return []
    figs = [("win_rate_by_seat", figures.win_rate_by_seat, "win_rate_by_seat"),
            ("vp_distribution", figures.vp_distribution, "vp_distribution"),
            ("price_by_turn", figures.price_by_turn, "price_by_turn"),
            ("destinations_by_turn", figures.destinations_by_turn, "destinations_by_turn"),
            ("purchases_by_turn", figures.purchases_by_turn, "purchases_by_turn"),
            ("price_by_port_turn", price_by_port_turn, "price_by_port_turn"),
            ("card_copies_win_rate", card_copies_win_rate, "card_effect")]
    enough = {"price_by_port_turn": (t["price_by_port_turn"]["n"] >= 30).any(),
              "card_copies_win_rate": (t["card_effect"]["n"] >= 30).groupby(
                  t["card_effect"]["card"]).sum().max() >= 2}
    files = []
    for name, fn, table in figs:
        if len(t[table]) and enough.get(name, True):
            files += plots.save_figure(fn(t[table]), out / name)
    return files
