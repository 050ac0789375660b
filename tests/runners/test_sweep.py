"""Rule sweeps: base = plain simulate, common random numbers, validation, paired CI math."""
import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import cargo_sim
from cargo_sim.core.errors import RulesError
from cargo_sim.cli.sweep import parse_set_args, sweep_main
from cargo_sim.runners.sweep import paired_diff_ci, plot_heatmap, plot_measure, sweep

PLAYERS = ["greedy", "syndicate", "fleet"]
GAMES = 300


@pytest.fixture(scope="module")
def res():
    return sweep(grid={"start_coins": [6, 7], "casino_payout": [2, 3]}, players=PLAYERS,
                 games=GAMES, seed=5, progress=False)


def test_base_reproduces_plain_simulate(res):
    plain = cargo_sim.simulate(GAMES, PLAYERS, seed=5, progress=False)
    pd.testing.assert_frame_equal(res.runs["base"].players, plain.players)
    pd.testing.assert_frame_equal(res.runs["base"].games, plain.games)
    assert res.table["variant"].iloc[0] == "base"
    assert len(res.table) == 1 + 4


def test_common_random_numbers(res):
    seeds = [r.games["seed"].to_numpy() for r in res.runs.values()]
    for s in seeds[1:]:
        np.testing.assert_array_equal(s, seeds[0])
    # start_coins=7, casino_payout=2 is the base rules: every difference is exactly 0
    same = res.table[res.table["variant"] == "start_coins=7,casino_payout=2"].iloc[0]
    for m in res.measures:
        assert same[f"{m}_diff"] == 0 and same[f"{m}_diff_lo"] == 0 and same[f"{m}_diff_hi"] == 0, m
    # a real change moves something
    other = res.table[res.table["variant"] == "start_coins=6,casino_payout=3"].iloc[0]
    assert other["casino_share_diff"] != 0


def test_measures_are_consistent(res):
    base = res.runs["base"]
    p = base.players
    t = res.table.iloc[0]
    assert t["seat0_win"] == pytest.approx(p.loc[p.seat == 0, "win_share"].mean())
    assert t["win_price"] == pytest.approx(p["coins_paid"].sum() / p["ports_won"].sum())
    placed = p[["casino_visits", "bids", "bm_swaps", "bm_draws"]].to_numpy().sum()
    assert t["casino_share"] == pytest.approx(p["casino_visits"].sum() / placed)
    assert t["game_value"] == pytest.approx(p["vp"].sum() / GAMES)
    assert t["winner_vp"] == pytest.approx(p.groupby("game")["vp"].max().mean())
    rates = p.groupby("seat")["win_share"].mean()
    assert t["seat_spread"] == pytest.approx(rates.max() - rates.min())
    for m in res.measures:
        assert t[f"{m}_lo"] <= t[m] + 1e-12 and t[m] <= t[f"{m}_hi"] + 1e-12, m
    assert 0 <= t["seat_chi2_p"] <= 1


@pytest.mark.parametrize("grid, word", [({"start_coinz": [6]}, "start_coinz"),
                                        ({"start_coins": [-1]}, "start_coins"),
                                        ({"card.Villa.cost": [0]}, "card.Villa.cost"),
                                        ({"casino_payout": ["x"]}, "casino_payout")])
def test_invalid_override_before_simulating(monkeypatch, grid, word):
    import cargo_sim.runners.sweep as sw

    def boom(*a, **k):
        raise AssertionError("simulate called before validation")
    monkeypatch.setattr(sw, "simulate", boom)
    with pytest.raises(RulesError, match=word.replace(".", r"\.")):
        sweep(grid={"start_coins": [7], **grid}, players=PLAYERS, games=10, progress=False)


def test_paired_diff_ci_hand_example():
    a = [1, 2, 3, 4]
    b = [0, 2, 1, 1]                     # d = 1, 0, 2, 3: mean 1.5, sd sqrt(5/3)
    r = paired_diff_ci(a, b)
    half = stats.t.ppf(0.975, 3) * math.sqrt(5 / 3) / 2
    assert r["diff"] == pytest.approx(1.5)
    assert r["sd"] == pytest.approx(math.sqrt(5 / 3))
    assert r["lo"] == pytest.approx(1.5 - half) and r["hi"] == pytest.approx(1.5 + half)
    assert half == pytest.approx(2.0543, abs=1e-4)    # t(0.975, 3) = 3.1824
    z = paired_diff_ci([3, 1, 4], [3, 1, 4])
    assert (z["diff"], z["lo"], z["hi"]) == (0, 0, 0)
    with pytest.raises(ValueError):
        paired_diff_ci([1, 2], [1])


def test_parse_set_args():
    g = parse_set_args(["start_coins=6,7,8", "casino_payout=2,3", "turns.4=9..11",
                        "unlimited_coins=true,false", "port.Rio.players=[2, 3],[4]"])
    assert g == {"start_coins": [6, 7, 8], "casino_payout": [2, 3], "turns.4": [9, 10, 11],
                 "unlimited_coins": [True, False], "port.Rio.players": [[2, 3], [4]]}
    assert isinstance(g["start_coins"][0], int)
    with pytest.raises(RulesError):
        parse_set_args(["start_coins"])
    with pytest.raises(RulesError):
        parse_set_args(["start_coins="])


def test_plots_and_main(res, tmp_path, capsys):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    ax = plot_measure(res, "seat0_win", "start_coins")
    assert len(ax.lines) >= 2
    assert ax.get_title().startswith("win rate of seat 0 vs start_coins")   # words, not column names
    assert all(float(x).is_integer() for x in ax.get_xticks())              # whole coins only
    ax2 = plot_heatmap(res, "casino_share", "start_coins", "casino_payout")
    assert ax2.images and ax2.get_title().startswith("share of ship placements at the Casino")
    plt.close("all")
    assert sweep_main(["--set", "start_coins=7,8", "--players", "greedy,greedy", "--games", "40",
                       "--quiet", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "start_coins=8" in out
    assert (tmp_path / "sweep.csv").exists()
    assert (tmp_path / "seat0_win_vs_start_coins.png").exists()


def test_base_variant_is_played_once(monkeypatch):
    # start_coins=7 is the base rules: simulate runs for base and 6 only
    import cargo_sim.runners.sweep as sw
    calls = []
    real = sw.simulate

    def counting(game, games, players, **kw):
        calls.append(kw["rules"].digest)
        return real(game, games, players, **kw)
    monkeypatch.setattr(sw, "simulate", counting)
    r = sweep(grid={"start_coins": [6, 7]}, players=PLAYERS, games=20, seed=1, progress=False)
    assert len(calls) == 2 and len(set(calls)) == 2 and len(r.table) == 3
