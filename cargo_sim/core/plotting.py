"""What every game's figures share (docs/figures.md): one legend per figure."""


def legend(fig, note=None, handles=None, labels=None):
    """One legend for the figure, outside the axes on the right, so it never
    covers data; ``note`` (what bars and bands mean) is its title. Without
    ``handles``, every labelled artist of the figure's axes, once per label."""
    if handles is None:
        handles, labels = [], []
        for ax in fig.axes:
            for h, lab in zip(*ax.get_legend_handles_labels()):
                if lab not in labels:
                    handles.append(h)
                    labels.append(lab)
    return fig.legend(handles, labels, loc="outside right upper", fontsize=8, title=note,
                      title_fontsize=8, alignment="left")


# ---- the panel figures of the games' reports: one panel per player count --------------
MIN_N = 30                 # no interval (or point) from fewer observations (analyses.stats.MIN_N)
SMALL = f"points with n < {MIN_N} not shown"


def panels(df, title, width=3.0, height=3.6, sharey=True):
    """A figure with one panel per player count of ``df`` (its ``n_players``) and the
    title, the games it rests on ("... (basis)") on a line of their own."""
    import matplotlib.pyplot as plt
    counts = sorted(int(n) for n in df["n_players"].unique())
    fig, axes = plt.subplots(1, len(counts), figsize=(width * len(counts) + 3.4, height), sharey=sharey,
                             constrained_layout=True, squeeze=False)
    for ax, n in zip(axes[0], counts):
        ax.set_title(f"{n} players")
        ax.grid(True, alpha=0.3)
    head, _, basis = title.partition(" (")
    fig.suptitle(head + (f"\n({basis}" if basis else ""), fontsize=10)
    return fig, dict(zip(counts, axes[0]))


def games_basis(df, col="games") -> str:
    """"1,000 games at 2p; ..." from a table's per-count game counts."""
    if col not in df.columns:
        return ""
    per = df.groupby("n_players")[col].max()
    return "; ".join(f"{int(v):,} games at {int(n)}p" for n, v in per.items())


def err(d, y):
    """The error bars of column ``y`` from ``ci_lo`` / ``ci_hi`` (never negative)."""
    import numpy as np
    return np.vstack([np.clip(d[y] - d["ci_lo"], 0, None), np.clip(d["ci_hi"] - d[y], 0, None)])


def enough(d):
    return d[d["n"] >= MIN_N]


def rate_bars(df, x, title, xlabel, y="win_rate", ylabel="win rate", equal=True):
    """Bars of ``y`` by ``x`` per player count, 95 % intervals clustered by game, the
    equal share 1/n dashed (``equal``)."""
    import matplotlib.pyplot as plt
    import numpy as np
    fig, ps = panels(df, f"{title} ({games_basis(df)})")
    for n, ax in ps.items():
        d = enough(df[df["n_players"] == n])
        pos = np.arange(len(d))
        ax.bar(pos, d[y], 0.7, yerr=err(d, y), capsize=3, color="C0", ecolor="0.2")
        ax.set_xticks(pos, [str(v) for v in d[x]], fontsize=8)
        ax.set_xlabel(xlabel)
        if equal:
            ax.axhline(1 / n, color="k", ls="--", lw=1)
    next(iter(ps.values())).set_ylabel(ylabel)
    legend(fig, f"bars: 95% CI clustered by game\n{SMALL}",
           [plt.Line2D([], [], color="k", ls="--")] if equal else [], ["equal share 1/n"] if equal else [])
    return fig


def seat_bars(df):
    """Win rate by seat where one bot holds every seat (a ``win_rate_by_seat`` table)."""
    import matplotlib.pyplot as plt
    fig, ps = panels(df, f"Win rate by seat, one bot in every seat ({games_basis(df)})")
    for n, ax in ps.items():
        d = enough(df[df["n_players"] == n]).sort_values("seat")
        ax.bar(d["seat"], d["win_rate"], 0.7, yerr=err(d, "win_rate"), capsize=3,
               color=[f"C{int(s)}" for s in d["seat"]], ecolor="0.2")
        ax.set_xticks(d["seat"], [f"seat {int(s)}\n{b}" for s, b in zip(d["seat"], d["bot"])], fontsize=8)
        ax.axhline(1 / n, color="k", ls="--", lw=1)
    next(iter(ps.values())).set_ylabel("win rate (shared wins split)")
    legend(fig, f"bars: 95% Wilson CI\n{SMALL}", [plt.Line2D([], [], color="k", ls="--")], ["equal share 1/n"])
    return fig


def diff_bars(df, label, title, top=8, xlabel="win-rate difference", basis="event log: "):
    """Horizontal bars of ``diff`` (holders' win rate minus the others', interval
    ``diff_ci_lo``/``diff_ci_hi``) per ``label``: the ``top`` highest and lowest of each
    player count, rows with fewer than MIN_N holders or others left out; ``basis`` leads
    the games named in the title."""
    import numpy as np
    d0 = df[(df["n_holders"] >= MIN_N) & (df["n_others"] >= MIN_N)]
    fig, ps = panels(d0 if len(d0) else df, f"{title} ({basis}{games_basis(df)})", width=4.2, height=5.0,
                     sharey=False)
    for n, ax in ps.items():
        d = d0[d0["n_players"] == n].sort_values("diff")
        d = d if len(d) <= 2 * top else d.iloc[np.r_[0:top, len(d) - top:len(d)]]
        pos = np.arange(len(d))
        ax.barh(pos, d["diff"], 0.7, xerr=np.vstack([np.clip(d["diff"] - d["diff_ci_lo"], 0, None),
                                                     np.clip(d["diff_ci_hi"] - d["diff"], 0, None)]),
                color=np.where(d["diff"] > 0, "#2ca02c", "#d62728"), ecolor="0.2", capsize=2)
        ax.set_yticks(pos, d[label], fontsize=7)
        ax.axvline(0, color="k", lw=0.8)
        ax.set_xlabel(xlabel)
    legend(fig, f"bars: 95% CI clustered by game\nat most the {top} highest and lowest\n"
                f"rows with < {MIN_N} holders not shown", [], [])
    return fig


WHO = {"winners": "#d62728", "others": "#1f77b4"}     # the colours of winners and the others


def score_breakdown(df, height=3.6, zero_line=False):
    """Points by source, winners beside the others (core.seat_stats.score_breakdown's
    table), a panel per player count; ``zero_line`` for sources that may be negative."""
    import numpy as np
    d0 = df[df["source"] != "total"]
    fig, ps = panels(d0, f"Points by source, winners and the others ({games_basis(df)})",
                     width=3.6, height=height)
    sources = list(dict.fromkeys(d0["source"]))
    for n, ax in ps.items():
        d = d0[d0["n_players"] == n]
        for k, who in enumerate(("winners", "others")):
            w = d[d["who"] == who].set_index("source").reindex(sources)
            pos = np.arange(len(sources)) + (k - 0.5) * 0.38
            ax.barh(pos, w["mean"], 0.36, xerr=err(w, "mean"), color=WHO[who], ecolor="0.2", capsize=2,
                    label=who)
        ax.set_yticks(np.arange(len(sources)), sources, fontsize=8)
        if zero_line:
            ax.axvline(0, color="k", lw=0.8)
        ax.set_xlabel("mean points per player-game")
    legend(fig, "bars: 95% CI clustered by game")
    return fig
