"""What every game's figures share: one function per figure, each taking a pipeline's
DataFrame and returning a matplotlib Figure (Agg backend; nothing is computed here beyond
selecting columns); ``save_figure`` writes PNG and SVG atomically. A game's own figures
live in its package (its report module's ``FIGURES``); ``plots.FIGURES`` and the figure
functions by name are the default game's (loaded on first use).
"""
from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from cargo_sim.core.fileio import atomic_write  # noqa: E402
from cargo_sim.core.plotting import legend  # noqa: E402,F401 (public here too)

from .stats import MIN_N  # noqa: E402

DPI = 90
FIGSIZE = (7.0, 4.2)
# 16 colours told apart at a glance (tab10, then black, light blue, yellow, teal,
# dark green, navy): for many categories such as the 13 victory cards, where
# tab20's paired light/dark shades look like 6 colours
CATEGORY_COLOURS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
                    "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#000000", "#a6cee3",
                    "#ffd92f", "#66c2a5", "#00441b", "#08306b"]


def new_figure(title: str, figsize=FIGSIZE):
    fig, ax = plt.subplots(figsize=figsize, constrained_layout=True)
    ax.set_title(title)
    ax.grid(True, alpha=0.3)
    return fig, ax


def yerr(df, y, lo="ci_lo", hi="ci_hi"):
    return np.vstack([np.clip(df[y] - df[lo], 0, None), np.clip(df[hi] - df[y], 0, None)])


def enough(df: pd.DataFrame, col: str = "n") -> pd.DataFrame:
    """The rows whose sample size supports an interval (``MIN_N``); the others
    are left out of the figure (the legend note says so)."""
    return df[df[col] >= MIN_N] if col in df.columns else df


SMALL_NOTE = f"points with n < {MIN_N} not shown"


MAX_BARS = 40      # more distinct values than this are grouped into equal bins


def value_bins(values, max_bars: int = MAX_BARS):
    """(bin width, left edges) for a discrete distribution over whole-number
    ``values``: width 1 (a bar per value) while the range fits ``max_bars``,
    else the smallest width of 2, 5, 10, 20, 50... that does. Edges start at a
    multiple of the width, so a bar's position and width are in value units."""
    lo, hi = int(np.floor(np.min(values))), int(np.floor(np.max(values)))
    width = 1
    steps = iter([2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000])
    while (hi - lo) // width + 1 > max_bars:
        width = next(steps)
    start = lo - lo % width
    return width, np.arange(start, hi + 1, width)


def bars_by_count(df, x, y, title, xlabel, ylabel, note=None):
    """A discrete distribution: one panel per player count. Up to MAX_BARS
    values, one bar per value of ``x`` with its CI (when the table has one);
    a wider range is grouped into equal bins drawn edge to edge (a bar per
    value would be a pixel wide, its whisker hiding its top), without whiskers:
    the per-value intervals are in the table."""
    counts = sorted(df["n_players"].unique())
    fig, axes = plt.subplots(1, len(counts), figsize=(3.4 * len(counts) + 1.6, 3.6), sharey=True,
                             constrained_layout=True, squeeze=False)
    binned = []
    for i, (ax, n) in enumerate(zip(axes[0], counts)):
        d = df[df["n_players"] == n].sort_values(x)
        width, edges = value_bins(d[x].to_numpy())
        if width == 1:
            err = yerr(d, y) if "ci_lo" in d.columns else None
            ax.bar(d[x], d[y], 0.9, yerr=err, capsize=0, color=f"C{i}", ecolor="0.3",
                   error_kw={"lw": 0.8}, label=f"{n} players")
        else:
            binned.append(n)
            idx = (d[x].to_numpy() - edges[0]) // width
            heights = np.bincount(idx.astype(int), weights=d[y].to_numpy(), minlength=len(edges))
            ax.bar(edges, heights[:len(edges)], width, align="edge", color=f"C{i}",
                   edgecolor="white", linewidth=0.3, label=f"{n} players")
            ax.set_title(f"{n} players (bins of {width})")
        if width == 1:
            ax.set_title(f"{n} players")
        ax.set_xlabel(xlabel)
        ax.grid(True, axis="y", alpha=0.3)
    axes[0][0].set_ylabel(ylabel)
    fig.suptitle(title)
    if binned:           # binned panels have no whiskers: the note says where the intervals are
        whiskers = f"\n{note} (panels not binned)" if note and len(binned) < len(counts) else ""
        note = "wide ranges grouped in equal bins\n(their intervals: see the table)" + whiskers
    if note:
        legend(fig, note)
    return fig


def save_figure(fig, path_without_ext, formats=("png", "svg"), dpi: int = DPI) -> list[Path]:
    """Write ``fig`` as <path>.png and <path>.svg, each through a temp file in
    the same folder renamed over the target (os.replace): a figure file is
    complete or absent. Closes the figure."""
    base = Path(path_without_ext)
    base.parent.mkdir(parents=True, exist_ok=True)
    out = []
    try:
        for fmt in formats:
            target = base.with_name(base.name + "." + fmt)
            atomic_write(target, lambda tmp, fmt=fmt: fig.savefig(
                tmp, format=fmt, dpi=dpi, metadata={"Date": None} if fmt == "svg" else None))
            out.append(target)
    finally:
        plt.close(fig)
    return out


def whole_label(v):
    """A count read from a float column (slots) printed without '.0'."""
    return "?" if v is None or v != v else f"{v:g}"


def mean_band_by_players(df: pd.DataFrame, x: str, title: str, xlabel: str, ylabel: str):
    """One line per player count: the mean against ``x`` with its t CI band
    (columns mean, ci_lo, ci_hi)."""
    fig, ax = new_figure(title)
    for n, d in enough(df).groupby("n_players"):
        d = d.sort_values(x)
        ax.plot(d[x], d["mean"], marker="o", label=f"{n} players")
        ax.fill_between(d[x], d["ci_lo"], d["ci_hi"], alpha=0.2)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    legend(fig, f"bands: 95% t CI\n{SMALL_NOTE}")
    return fig


def __getattr__(name):
    # the default game's figures under their old names here, found through its Game object
    if name.startswith("__"):            # the import system's questions (__path__...)
        raise AttributeError(name)
    from .games import DEFAULT_GAME, report_parts
    from cargo_sim.core.contract import get_game
    figures = report_parts(get_game(DEFAULT_GAME))["FIGURES"]
    if name == "FIGURES":
        return figures
    if name in figures:
        return figures[name][0]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
