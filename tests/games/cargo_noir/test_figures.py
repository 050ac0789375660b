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
    assert list(shown["holders' win rate 95% CI"]) == [present.TOO_SMALL, "[0.200, 0.300]"]
    assert list(shown["difference 95% CI"]) == [present.TOO_SMALL, "[0.000, 0.100]"]


# ---- figure defects, each checked on the data behind the figure ----------
@pytest.mark.parametrize("fn,x", [(plots.margin_distribution, "margin"),
                                  (plots.trade_value_distribution, "value")])
def test_wide_distributions_are_binned_edge_to_edge_without_whiskers(fn, x):
    """~300 values: equal bins drawn edge to edge, positions and widths in value
    units, every value's share in its bin, no whisker over a bar's top."""
    values = list(range(0, 301))
    share = [1 / len(values)] * len(values)
    df = pd.DataFrame({"n_players": 3, x: values, "n": 1000, "share": share})
    df["ci_lo"], df["ci_hi"] = df["share"] * 0.5, df["share"] * 1.5
    fig = fn(df)
    ax = fig.axes[0]
    bars = [c for c in ax.containers if isinstance(c, BarContainer)]
    assert len(bars) == 1 and bars[0].errorbar is None
    xs = [p.get_x() for p in bars[0]]
    widths = {round(p.get_width(), 9) for p in bars[0]}
    assert len(xs) <= plots.MAX_BARS and len(widths) == 1
    w = widths.pop()
    assert w == 10 and xs[0] == 0 and all(b - a == pytest.approx(w) for a, b in zip(xs, xs[1:]))
    assert [p.get_height() for p in bars[0]][:-1] == pytest.approx([10 / 301] * (len(xs) - 1))
    assert sum(p.get_height() for p in bars[0]) == pytest.approx(1)
    assert "bins of 10" in ax.get_title()
    plt.close(fig)


def test_value_bins():
    assert plots.value_bins([0, 39])[0] == 1
    w, edges = plots.value_bins([3, 87])
    assert w == 5 and edges[0] == 0 and edges[-1] == 85


SEATS = pd.DataFrame({"n_players": [2, 2, 3, 3, 3], "seat": [0, 1, 0, 1, 2],
                      "bot": ["expert", "random", "greedy", "greedy", "greedy"], "n": 500,
                      "win_rate": [0.9, 0.1, 0.4, 0.3, 0.3], "mean": [60.0, 20, 40, 38, 37]})
SEATS["ci_lo"], SEATS["ci_hi"] = SEATS["win_rate"] - 0.02, SEATS["win_rate"] + 0.02


@pytest.mark.parametrize("fn", [plots.win_rate_by_seat, plots.vp_by_seat])
def test_seat_figures_name_the_bot_in_each_seat(fn):
    df = SEATS.copy()
    if fn is plots.vp_by_seat:
        df["ci_lo"], df["ci_hi"] = df["mean"] - 2, df["mean"] + 2
    fig = fn(df)
    ticks = [[t.get_text() for t in ax.get_xticklabels()] for ax in fig.axes]
    assert ticks == [["seat 0\nexpert", "seat 1\nrandom"], ["seat 0\ngreedy", "seat 1\ngreedy",
                                                          "seat 2\ngreedy"]]
    fig.canvas.draw()
    w2, w3 = (ax.get_position().width for ax in fig.axes)
    assert w3 / w2 == pytest.approx(1.5, rel=0.1)      # panels as wide as their seats: names fit
    plt.close(fig)


def test_vp_by_seat_joins_only_seats_of_one_bot():
    df = SEATS.assign(ci_lo=SEATS["mean"] - 2, ci_hi=SEATS["mean"] + 2)
    fig = plots.vp_by_seat(df)
    styles = [[ln.get_linestyle() for ln in ax.lines if ln.get_marker() == "o"] for ax in fig.axes]
    assert styles == [["None"], ["-"]]        # expert vs random: points; greedy x3: a seat trend
    plt.close(fig)


def test_thirteen_cards_get_thirteen_distinct_colours():
    from matplotlib.colors import to_rgb
    cards = Rules.default().card_names
    assert len(cards) == 13
    df = pd.DataFrame([(4, t, c, 0.1) for t in (5, 11) for c in cards],
                      columns=["n_players", "turn", "card", "per_game"])
    fig = plots.purchases_by_turn(df)
    bars = {c.get_label(): to_rgb(c.patches[0].get_facecolor()) for c in fig.axes[0].containers}
    assert set(bars) == set(cards)
    cols = list(bars.values())
    dist = min(sum((a - b) ** 2 for a, b in zip(p, q)) ** 0.5
               for i, p in enumerate(cols) for q in cols[i + 1:])
    assert dist > 0.25            # tab20 had pairs 0.2 apart (light/dark of one hue)
    plt.close(fig)


# ---- tables: numbers, titles, notes ------------------------------------------
def test_a_column_of_numbers_shares_its_decimals():
    assert present.format_column(pd.Series([0.9996, 4.26e-4, 0.5])) == ["1.000", "< 0.001", "0.500"]
    assert present.format_column(pd.Series([12.345, 3.0])) == ["12.3", "3.0"]
    assert present.format_column(pd.Series([12000, 3])) == ["12,000", "3"]
    df = pd.DataFrame({"n": [500, 500], "win_rate": [0.9996, 0.0004],
                       "ci_lo": [0.998, 0.0001], "ci_hi": [1.0, 0.002]})
    shown = present.readable(df)
    assert list(shown["95% CI"]) == ["[0.998, 1.000]", "[< 0.001, 0.002]"]


def test_every_report_table_has_a_title():
    for _, _, tabs, _ in report.SECTIONS:
        for name, _, _ in tabs:
            assert name in present.TABLE_TITLES
            t = present.title(name)
            assert "_" not in t and t[0].isupper() and "Vp" not in t and "chi2" not in t


def test_notes_explain_the_odd_features_from_the_data():
    from analyses import explain
    from cargo_sim.games.cargo_noir import report as own      # its own notes
    syn = pd.DataFrame({"n_players": [3, 3], "held": [0, 1], "n": [998, 2], "mean": [0.0, 0.0]})
    assert "All zero" in own.table_note("syndicate_income", syn)
    assert "All zero" not in own.table_note("syndicate_income", syn.assign(mean=[0.0, 2.0]))
    assert "only 2 player-games held" in own.table_note("syndicate_income", syn)
    assert "only 1 player-game held" in own.table_note("syndicate_income", syn.assign(n=[999, 1]))
    val = pd.DataFrame({"n_players": [3, 3], "value": [0, 12], "share": [0.07, 0.93]})
    assert "7.0% of trades at 3 players" in own.figure_note("trade_value_distribution", val)
    assert own.figure_note("trade_value_distribution", val[val.value > 0]) == ""
    # the last turn is per player count (11 at 3 players, 10 at 4)
    buys = pd.DataFrame({"n_players": [3, 3, 4, 4], "turn": [5, 11, 5, 10], "card": "Villa",
                         "per_game": [0.25, 0.75, 0.4, 0.6]})
    note = own.figure_note("purchases_by_turn", buys)
    assert "turn 11 at 3 players: 75.0%" in note and "turn 10 at 4 players: 60.0%" in note
    assert own.figure_note("purchases_by_turn", buys.assign(per_game=[0.75, 0.25, 0.6, 0.4])) == ""
    coins = pd.DataFrame({"n_players": [3, 3, 3], "turn": [9, 10, 11], "mean": [16.7, 17.3, 1.7]})
    assert "17.3 to 1.7 at 3 players" in own.figure_note("coins_by_turn", coins)
    assert own.figure_note("coins_by_turn", coins.assign(mean=[5.0, 6.0, 7.0])) == ""
    w = SEATS.assign(win_rate=[1.0, 0.0, 0.4, 0.3, 0.3])
    note = explain.table_note("win_rate_by_seat", w)
    assert "compares bots" in note and "expert won 100.0% at 2 players" in note
    assert own.table_note("win_rate_by_seat", w) == "" and explain.table_note("syndicate_income", syn) == ""


def test_each_figure_says_how_many_games_it_rests_on():
    from analyses import explain
    games, events = {3: 12000, 4: 400}, {3: 2000, 4: 200}
    assert explain.figure_basis("margin_distribution", games, events) == \
        "From 12,000 games at 3 players, 400 at 4 players."
    assert explain.figure_basis("purchases_by_turn", games, events) == \
        "From the event log of 2,000 games at 3 players, 200 at 4 players."
    assert explain.figure_basis("purchases_by_turn", games, {}) == ""
    for name in explain.EVENT_FIGURES:
        assert name in plots.FIGURES


def test_report_html_comes_from_its_markdown():
    md = ("## A b\n\nSee [the robustness report](../robustness/index.md).\n\n"
          "| players | name | 95% CI |\n|---:|---|---:|\n| 3 | Rio | [0.1, 0.2] |\n")
    page = report.to_html(md, "t")
    assert '<a href="../robustness/index.md">the robustness report</a>' in page
    assert 'id="a-b"' in page and "](" not in page
    assert '<td style="text-align: right;">3</td><td>Rio</td>' in page.replace("\n", "")
    # figures keep their pixel size (a wide one scrolls): not squeezed to the column
    assert "img { max-width: none; }" in page and "p:has(> img) { overflow-x: auto; }" in page


def test_robustness_link_works_wherever_the_report_is(tmp_path):
    from analyses import robustness
    target = robustness.REPORT_DIR / "index.md"
    inside = robustness.REPORT_DIR.parents[1] / "reports" / "somewhere"
    link = robustness.robustness_link(target, inside)
    assert "](../robustness/index.md)" in link
    outside = robustness.robustness_link(target, tmp_path)
    assert "](" not in outside and "reports/robustness/index.md" in outside


def test_highlights_borrow_no_verdicts_of_absent_player_counts(tmp_path):
    """A planted verdicts file (not the committed report, whose rules may lag)."""
    import json
    from analyses import robustness
    from analyses.report import ROBUSTNESS_MARKS
    from analyses.robustness_marks import VERDICTS_FILE
    rules = Rules.default()
    study = tmp_path / "robustness"
    study.mkdir()
    marks = {f"bank.{n}": f"mark{n}" for n in (2, 3, 4, 5)}
    (study / VERDICTS_FILE).write_text(json.dumps({"kind": "x", "rules_digest": rules.digest,
                                                  "marks": marks}))
    line = "Games with a bank shortfall: 3p 97.0% [96.5%, 97.4%], 4p 82.1% [81.0%, 83.2%]"
    marked, _ = robustness.mark_highlights([line], rules, tmp_path, ROBUSTNESS_MARKS, folder=study)
    assert "bank.3: mark3" in marked[0] and "bank.4: mark4" in marked[0]
    assert "bank.2" not in marked[0] and "bank.5" not in marked[0]
    # other rules: the study's marks do not apply
    other, link = robustness.mark_highlights([line], rules.replace(start_coins=8), tmp_path,
                                             ROBUSTNESS_MARKS, folder=study)
    assert "not assessed for these rules" in other[0] and "mark" not in other[0] and link is None
