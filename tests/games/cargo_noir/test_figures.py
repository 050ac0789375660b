"""The report's figures and tables as a reader meets them, checked on the
figures' artists (legend boxes, bars, tick labels), not pixels."""
from __future__ import annotations

import matplotlib.pyplot as plt
import pandas as pd
import pytest
from matplotlib.container import BarContainer

from analyses import data, plots, present, report
from analyses.stats import MIN_N
from cargo_sim import Rules


@pytest.fixture(scope="module")
def tables():
    runs = report.simulate_counts({2: ["random"] * 2, 4: ["random"] * 4}, 300, seed=11,
                                  rules=Rules.default(), events_games=150, workers=1)
    return report.run_pipelines(data.combine(runs, 150), seed=11)


def _inside(inner, outer, tol=1.0):
    return (inner.x0 >= outer.x0 - tol and inner.y0 >= outer.y0 - tol
            and inner.x1 <= outer.x1 + tol and inner.y1 <= outer.y1 + tol)


@pytest.mark.slow
def test_every_figure_keeps_legends_and_labels_off_the_data_and_on_the_canvas(tables):
    drawn = 0
    for name, (fn, source, _) in plots.FIGURES.items():
        df = tables.get(source)
        if df is None or len(df) == 0:
            continue
        fig = fn(df)
        fig.canvas.draw()
        r = fig.canvas.get_renderer()
        legends = list(fig.legends) + [ax.get_legend() for ax in fig.axes if ax.get_legend()]
        for leg in legends:
            box = leg.get_window_extent(r)
            assert _inside(box, fig.bbox), f"{name}: legend cut off"
            for ax in fig.axes:
                assert not box.overlaps(ax.get_window_extent(r)), f"{name}: legend over the axes"
        for ax in fig.axes:
            assert not ax.texts, f"{name}: a note drawn inside the axes"
            for label in (ax.xaxis.label, ax.yaxis.label, ax.title):
                if label.get_text():
                    assert _inside(label.get_window_extent(r), fig.bbox), f"{name}: {label.get_text()} cut"
        plt.close(fig)
        drawn += 1
    assert drawn >= 15


@pytest.mark.parametrize("fn,x", [(plots.margin_distribution, "margin"),
                                  (plots.trade_value_distribution, "value")])
def test_discrete_distributions_are_bars_at_their_values(fn, x):
    df = pd.DataFrame({"n_players": [2, 2, 2, 4, 4], x: [0, 3, 7, 1, 2],
                       "n": 100, "share": [0.2, 0.5, 0.3, 0.6, 0.4]})
    df["ci_lo"], df["ci_hi"] = df["share"] - 0.05, df["share"] + 0.05
    fig = fn(df)
    for ax, n in zip(fig.axes, (2, 4)):
        bars = [c for c in ax.containers if isinstance(c, BarContainer)]
        assert len(bars) == 1
        d = df[df["n_players"] == n]
        assert [p.get_x() + p.get_width() / 2 for p in bars[0]] == pytest.approx(list(d[x]))
        assert [p.get_height() for p in bars[0]] == pytest.approx(list(d["share"]))
        assert not [ln for ln in ax.lines if len(ln.get_xdata()) > 1]     # no connecting line
    plt.close(fig)


def test_points_with_too_small_n_are_left_out():
    df = pd.DataFrame({"n_players": [3] * 3, "seat": [0, 1, 2], "n": [500, 500, MIN_N - 1],
                       "mean": [20.0, 21, 160], "ci_lo": [19.0, 20, -44.8], "ci_hi": [21.0, 22, 367.5]})
    fig = plots.vp_by_seat(df)
    line = next(ln for ln in fig.axes[0].lines if len(ln.get_xdata()) > 1)
    assert list(line.get_ydata()) == [20.0, 21.0]
    assert f"n < {MIN_N}" in fig.legends[0].get_title().get_text()
    plt.close(fig)


def test_port_slots_print_as_whole_numbers():
    df = pd.DataFrame({"n_players": [2, 2], "port": ["Rio", "Tanger"], "slots": [3.0, 1.0],
                       "sends_per_game": [4.0, 1.0]})
    fig = plots.port_popularity(df)
    assert [t.get_text() for t in fig.axes[0].get_xticklabels()] == ["Rio\n(3 slots)", "Tanger\n(1 slot)"]
    plt.close(fig)


def test_report_tables_have_readable_headers_and_hide_small_sample_intervals(tables):
    for _, _, tabs, _ in report.SECTIONS:
        for name, cols, _ in tabs:
            df = tables.get(name)
            if df is None:
                continue
            shown = present.readable(df[[c for c in cols if c in df.columns]] if cols else df, name)
            assert not [h for h in shown.columns if "_" in h], name
            assert shown.columns.is_unique, name
    bank = pd.DataFrame({"n_players": [2, 3], "n": [3, 400], "successes": [1, 40],
                         "shortfall_rate": [1 / 3, 0.1], "ci_lo": [0.06, 0.074], "ci_hi": [0.79, 0.133]})
    shown = present.readable(bank, "bank_shortfall")
    assert list(shown.columns) == ["players", "n", "games short", "shortfall rate", "95% CI"]
    assert list(shown["95% CI"]) == [present.TOO_SMALL, "[0.074, 0.133]"]
    # an interval whose sample is not the table's n: the holders' interval uses n_holders
    hold = pd.DataFrame({"n_holders": [5, 100], "n_others": [300, 300], "holder_ci_lo": [0.1, 0.2],
                         "holder_ci_hi": [0.9, 0.3], "diff_ci_lo": [-0.1, 0.0], "diff_ci_hi": [0.5, 0.1]})
    shown = present.readable(hold, "holder_win_rates")
    assert list(shown["holders' win rate 95% CI"]) == [present.TOO_SMALL, "[0.2, 0.3]"]
    assert list(shown["difference 95% CI"]) == [present.TOO_SMALL, "[0, 0.1]"]
