"""`cargo-sim ladder`: run the strength ladder (``cargo_sim.ladder``) and write
its report: index.md (tables), ladder.png (figure), with cells.csv, rates.csv
and run.json beside them. ``write_report(results, out)`` redraws the report of
finished results; ``cargo-sim ladder --report-only --out DIR`` does it from
a folder.
"""
from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from cargo_sim.core.errors import ConfigError  # noqa: E402
from cargo_sim.core.fileio import atomic_write, atomic_write_text  # noqa: E402
from cargo_sim.runners.ladder import LadderResults  # noqa: E402



def plot_ladder(res: LadderResults):
    """One panel per seat count: each bot's win rate (per seat, shared wins
    split) against the yardstick's budget, with 95% intervals clustered by
    deal; the dashed line is the fair share 1/seats."""
    cells = res.cells
    seats = sorted(cells["seats"].unique())
    fig, axes = plt.subplots(1, len(seats), figsize=(5.2 * len(seats), 4.4), squeeze=False,
                             constrained_layout=True)
    bots = list(dict.fromkeys(cells["bot"]))
    budgets = sorted(cells["budget"].unique())
    pos = {b: i for i, b in enumerate(budgets)}
    width = 0.5 / max(len(bots), 1)          # bots side by side within a budget
    colors = plt.get_cmap("tab20").colors
    markers = "osD^v<>ph*"
    for ax, n in zip(axes[0], seats):
        c = cells[cells["seats"] == n]
        for j, bot in enumerate(bots):
            d = c[c["bot"] == bot]
            if d.empty:
                continue
            x = np.array([pos[b] for b in d["budget"]]) + (j - (len(bots) - 1) / 2) * width
            err = np.vstack([np.clip(d["win_rate"] - d["win_lo"], 0, None),
                             np.clip(d["win_hi"] - d["win_rate"], 0, None)])
            ax.errorbar(x, d["win_rate"], yerr=err, fmt="-", marker=markers[j % len(markers)],
                        color=colors[(2 * j) % 20 if j < 10 else (2 * j + 1) % 20], ms=4,
                        capsize=2, lw=1, label=bot)
        ax.axhline(1.0 / n, color="grey", ls="--", lw=1, label=f"fair share 1/{n}")
        ax.set_xticks(range(len(budgets)), [f"{b:g}" for b in budgets])
        ax.set_xlabel(f"{res.config['yardstick']} {res.config['budget_param']}")
        ax.set_ylabel("win rate per seat vs the yardstick (95% CI, by deal)")
        lo, hi = (int(c["games"].min()), int(c["games"].max())) if len(c) else (0, 0)
        ax.set_title(f"{n} players ({lo if lo == hi else f'{lo}-{hi}'} games per cell)")
        ax.set_ylim(-0.02, min(1.02, max(0.52, float(c["win_hi"].max()) + 0.02)))
        ax.grid(True, alpha=0.3)
    axes[0][-1].legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small")
    return fig


def _fmt(x: float) -> str:
    return "" if pd.isna(x) else f"{x:.2f}"


def report_markdown(res: LadderResults, command: str = "") -> str:
    cfg = res.config
    cells = res.cells
    lines = [f"# Strength ladder: every bot against `{cfg['yardstick']}`", ""]
    if not res.complete:
        lines += ["**Interrupted: only the finished cells are shown.**", ""]
    if cfg.get("half_width") is None:
        size = f"{cfg['games']} games (rounded up to whole deals), seed {cfg['seed']}"
    else:
        size = (f"played in rounds of {cfg['games']} games (rounded up to whole deals), seed "
                f"{cfg['seed']}, until the bot's 95% interval has half-width at most "
                f"{cfg['half_width']:g} or the cell has played {cfg['max_games']} games "
                f"(sequential design: docs/tournaments.md; each cell's games, deals and "
                f"half-width are listed below)")
    lines += [f"Each cell is a seat-rotated tournament (design `{cfg['design']}`) of one bot "
              f"against `{cfg['yardstick']}` with `{cfg['budget_param']}` set to the budget, "
              f"{size}; every cell of a seat count plays the same deals in the same order. "
              f"The win rate is per seat with shared wins "
              f"split (fair share 1/seats; at 4 seats each side holds 2 seats, so a side's "
              f"maximum is 0.5), with its 95% interval clustered by deal; `diff` is the bot's "
              f"rate minus the yardstick's, paired by deal (docs/tournaments.md).", "",
              "![ladder](ladder.png)", ""]
    if isinstance(cfg.get("note"), str) and cfg["note"].strip():
        lines += [f"**Note:** {' '.join(cfg['note'].split())}", ""]
    pruned = res.pruned
    if cfg.get("prune") is not None:
        lines += [f"Pruned (`prune` {cfg['prune']:g}): a bot whose win rate at a budget is at most "
                  f"{cfg['prune']:g} x its fair share (1/seats) is not placed at the larger "
                  f"budgets of that seat count, on the assumption that the yardstick is no "
                  f"weaker with budget; such cells read \"not played\".", ""]
    skipped = {(float(r.budget), int(r.seats), r.bot): r for r in pruned.itertuples()}
    for n in sorted(cells["seats"].unique()):
        c = cells[cells["seats"] == n]
        # the budgets played, and those where every bot was pruned ("not played")
        budgets = sorted(set(c["budget"]) | {b for (b, m, _) in skipped if m == n})
        lines += [f"## {n} players", "",
                  "| bot | " + " | ".join(f"{cfg['budget_param']} {b:g}" for b in budgets) + " |",
                  "|---|" + "---|" * len(budgets)]
        for bot in dict.fromkeys(c["bot"]):
            row = []
            for b in budgets:
                d = c[(c["bot"] == bot) & (c["budget"] == b)]
                p = skipped.get((float(b), int(n), bot))
                if d.empty:
                    row.append("" if p is None else
                               f"not played ({_fmt(p.by_rate)} at {p.by_budget:g})")
                else:
                    r = d.iloc[0]
                    diff = f"diff {_fmt(r['diff'])}"
                    if not pd.isna(r["diff_lo"]):          # no interval from a single deal
                        diff += f" [{_fmt(r['diff_lo'])}, {_fmt(r['diff_hi'])}]"
                    size = ""
                    if cfg.get("half_width") is not None:
                        size = (f"; {int(r['games'])} games" + (" (max)" if r.get("stop") ==
                                                               "max_games" else ""))
                    row.append(f"{_fmt(r['win_rate'])} [{_fmt(r['win_lo'])}, {_fmt(r['win_hi'])}]; "
                               + diff + size)
            lines.append(f"| `{bot}` | " + " | ".join(row) + " |")
        if cfg.get("half_width") is None:
            lines += ["", f"Deals per cell: {int(c['deals'].max())}; games per cell: "
                      f"{int(c['games'].max())}.", ""]
        else:
            wide = c[c["half_width"] > cfg["half_width"] + 1e-12] if "half_width" in c else c[:0]
            lines += ["", f"Games per cell: {int(c['games'].min())} to {int(c['games'].max())} "
                      f"({int(c['games'].sum())} in all); "
                      + (f"{len(wide)} cell(s) stopped at {cfg['max_games']} games with a "
                         f"half-width above {cfg['half_width']:g} (marked \"(max)\")."
                         if len(wide) else f"every cell reached half-width "
                         f"{cfg['half_width']:g} or less."), ""]
    if not cells.empty:
        stops = cells["stop"].value_counts() if "stop" in cells else pd.Series(dtype=int)
        lines += [f"Play time: {cells['seconds'].sum() / 60:.0f} min over {len(cells)} cells "
                  f"({int(cells['games'].sum())} games; the sum of the cells' wall-clock "
                  f"seconds, timing of the yardstick not included)"
                  + (f"; cells stopped by width: {int(stops.get('width', 0))}, at the most "
                     f"games: {int(stops.get('max_games', 0))}" if cfg.get("half_width") is not None
                     else "") + ".", ""]
    if not res.rates.empty:
        lines += ["## Speed of the yardstick", "",
                  "Decisions per second: its own decisions (every kind) from the start of a "
                  "game, timed one at a time through the forward model, at seat 0 against "
                  f"`{cfg.get('rate_opponent', 'greedy')}`, one thread. Seconds per game: the ladder's own games at that "
                  "budget (wall clock, all cores, the yardstick in half the seats).", "",
                  f"| {cfg['budget_param']} | seats | decisions timed | decisions per second "
                  f"| seconds per game |",
                  "|---|---|---|---|---|"]
        for _, r in res.rates.sort_values(["seats", "budget"]).iterrows():
            c = cells[(cells["budget"] == r["budget"]) & (cells["seats"] == r["seats"])]
            per_game = c["seconds"].sum() / c["games"].sum() if len(c) else float("nan")
            lines.append(f"| {r['budget']:g} | {int(r['seats'])} | {int(r['decisions'])} | "
                         f"{r['per_second']:.3g} | {per_game:.3g} |")
        lines.append("")
    lines += ["## Reproduce", "", "```sh", command or "cargo-sim ladder", "```", "",
              f"Source: {cfg.get('source', '')}; rules digest {cfg['rules_digest']}. "
              f"Data: cells.csv, rates.csv, run.json.", ""]
    return "\n".join(lines)


def write_report(res: LadderResults, out, command: str = "") -> Path:
    """index.md and ladder.png of ``res`` in ``out``; returns the index path."""
    out = Path(out)
    if res.cells.empty:
        raise ConfigError("the ladder has no finished cell to report")
    fig = plot_ladder(res)
    atomic_write(out / "ladder.png", lambda f: fig.savefig(f, dpi=100, format="png"))
    plt.close(fig)
    return atomic_write_text(out / "index.md", report_markdown(res, command))
