"""The strength ladder, tested with a heuristic yardstick whose numeric
parameter plays the budget (the search bots are not needed for the plumbing)."""
import json

import pandas as pd
import pytest

import cargo_sim.runners.ladder as lad
from cargo_sim import ConfigError
from cargo_sim.cli import main as cli_main

YARD = dict(yardstick="greedy", budget_param="bid_margin", budgets=[0, 2], seats=[2],
            games=4, seed=1, progress=False, rate_decisions=3)


def test_cells_intervals_and_resume(tmp_path, monkeypatch):
    r = lad.ladder(["random", "expert_v1"], out=tmp_path, **YARD)
    c = r.cells
    assert r.complete and len(c) == 4 and list(c["bot"]) == ["random", "expert_v1"] * 2
    assert (c["games"] == 4).all() and (c["deals"] == 2).all()
    assert (c["win_lo"] <= c["win_rate"]).all() and (c["win_rate"] <= c["win_hi"]).all()
    # at 2 seats the two win rates share each game and diff is their paired difference
    assert (c["win_rate"] + c["yardstick_win_rate"]).round(9).eq(1).all()
    assert (c["diff"] - (c["win_rate"] - c["yardstick_win_rate"])).abs().max() < 1e-9
    assert c.loc[c["bot"] == "random", "win_rate"].max() < c.loc[c["bot"] == "expert_v1", "win_rate"].min()
    assert set(r.rates["budget"]) == {0.0, 2.0} and (r.rates["decisions"] == 3).all()
    # a rerun in the same folder plays nothing and gives the same cells
    monkeypatch.setattr(lad, "tournament", lambda *a, **k: pytest.fail("replayed a finished cell"))
    again = lad.ladder(["random", "expert_v1"], out=tmp_path, **YARD)
    pd.testing.assert_frame_equal(again.cells, c)


def test_ctrl_c_keeps_finished_cells(tmp_path, monkeypatch, interrupt_on):
    real = lad.tournament
    monkeypatch.setattr(lad, "tournament", interrupt_on(real, 2))
    with pytest.warns(RuntimeWarning, match="interrupted: 1 of 4 cells kept"):
        r = lad.ladder(["random", "expert_v1"], out=tmp_path, **YARD)
    assert not r.complete and len(r.cells) == 1
    assert json.loads((tmp_path / "run.json").read_text())["complete"] is False
    monkeypatch.setattr(lad, "tournament", real)
    done = lad.ladder(["random", "expert_v1"], out=tmp_path, **YARD)
    assert done.complete and len(done.cells) == 4
    assert lad.load_ladder(tmp_path).complete


def test_bad_settings_are_one_line_errors():
    with pytest.raises(ConfigError, match="no budget parameter"):
        lad.ladder(["random"], yardstick="greedy", progress=False)
    with pytest.raises(ConfigError, match="no parameter 'nope'"):
        lad.ladder(["random"], yardstick="greedy", budget_param="nope", progress=False)
    with pytest.raises(ConfigError, match="distinct"):
        lad.ladder(["random", "random"], **dict(YARD))
    assert "greedy" not in lad.default_ladder_bots("greedy?bid_margin=1")
    assert lad.yardstick_at("ismcts?c=1", "iterations", 100) == "ismcts?c=1&iterations=100"


@pytest.mark.slow
def test_cli_writes_report(tmp_path, capsys):
    out = tmp_path / "lad"
    args = ["ladder", "--yardstick", "greedy", "--budget-param", "bid_margin", "--budgets", "0,1",
            "--seats", "2,3", "--bots", "random,sniper", "--games", "6", "--out", str(out),
            "--no-progress", "--half-width", "0.5", "--max-games", "6", "--note", "budget 9 left out"]
    assert cli_main(args) == 0
    text = (out / "index.md").read_text()
    assert "## 2 players" in text and "## 3 players" in text and "`sniper`" in text
    assert "**Note:** budget 9 left out" in text and "half-width at most 0.5" in text
    assert json.loads((out / "run.json").read_text())["max_games"] == 6
    assert (out / "ladder.png").stat().st_size > 1000
    assert cli_main(["ladder", "--report-only", "--out", str(out)]) == 0
    assert cli_main(["ladder", "--yardstick", "greedy", "--budgets", "x"]) == 2
    assert "error:" in capsys.readouterr().err


def test_prune_skips_a_beaten_bot_at_larger_budgets(tmp_path):
    from analyses.ladder import report_markdown
    r = lad.ladder(["random", "expert_v1"], out=tmp_path, prune=0.5, **YARD)
    c = r.cells.set_index(["budget", "bot"])
    # random wins nothing against greedy: at most 0.5 x 1/2, so it stops at budget 0
    assert c.loc[(0.0, "random"), "win_rate"] <= 0.25 < c.loc[(0.0, "expert_v1"), "win_rate"]
    assert len(r.cells) == 3 and (2.0, "random") not in c.index
    assert r.pruned.to_dict("records") == [
        {"budget": 2.0, "seats": 2, "bot": "random", "by_budget": 0.0,
         "by_rate": c.loc[(0.0, "random"), "win_rate"]}]
    assert "not played (0.00 at 0)" in report_markdown(r)
    # without pruning the same folder plays just the missing cell
    full = lad.ladder(["random", "expert_v1"], out=tmp_path, **YARD)
    assert len(full.cells) == 4 and full.pruned.empty
    with pytest.raises(ConfigError, match="prune"):
        lad.ladder(["random"], prune=1.5, **YARD)


# ---- the sequential design (half_width, max_games) ----------------------------------------
SEQ = dict(YARD, budgets=[0], half_width=0.15, max_games=12)


def test_sequential_cells_stop_on_width_and_continue_after_ctrl_c(tmp_path, monkeypatch, interrupt_on):
    r = lad.ladder(["random", "expert_v1"], workers=2, **SEQ)
    c = r.cells.set_index("bot")
    assert r.config["half_width"] == 0.15 and r.config["max_games"] == 12
    # rounds of 4 games (2 deals at 2 seats) until half-width <= 0.15, at most 12 games
    assert (c["games"] == 4 * c["rounds"]).all() and (c["games"] <= 12).all()
    for bot, row in c.iterrows():
        assert row["half_width"] == pytest.approx((row["win_hi"] - row["win_lo"]) / 2)
        assert (row["stop"] == "width") == (row["half_width"] <= 0.15), bot
        assert row["stop"] in ("width", "max_games") and (row["stop"] == "width" or row["games"] == 12)
        # round k plays the next deals of the cell's sequence: the same numbers as one
        # round of all its games, and one round fewer was still too wide
        one = lad.ladder([bot], **dict(YARD, budgets=[0], games=int(row["games"]))).cells.iloc[0]
        for col in ("games", "deals", "win_rate", "win_lo", "win_hi", "diff", "diff_lo", "mean_vp"):
            assert one[col] == pytest.approx(row[col], nan_ok=True), (bot, col)
        if row["rounds"] > 1 and row["stop"] == "width":
            fewer = lad.ladder([bot], **dict(YARD, budgets=[0], games=int(row["games"]) - 4)).cells
            assert fewer["half_width"].iloc[0] > 0.15
    assert set(c["stop"]) == {"width", "max_games"}       # this design exercises both stops
    # Ctrl-C in the second round of the first cell keeps its first round in partial.csv; the
    # rerun (one worker) continues it and ends with the same cells as the run in one go
    real = lad.tournament
    monkeypatch.setattr(lad, "tournament", interrupt_on(real, 2))
    with pytest.warns(RuntimeWarning, match=r"0 of 2 cells kept \(and 1 rounds of the next\)"):
        lad.ladder(["random", "expert_v1"], out=tmp_path, workers=1, **SEQ)
    assert (tmp_path / "partial.csv").exists()
    calls = interrupt_on(real, 0)
    monkeypatch.setattr(lad, "tournament", calls)
    again = lad.ladder(["random", "expert_v1"], out=tmp_path, workers=1, **SEQ)
    assert calls.calls == int(r.cells["rounds"].sum()) - 1 and not (tmp_path / "partial.csv").exists()
    cols = [k for k in r.cells.columns if k != "seconds"]
    pd.testing.assert_frame_equal(again.cells[cols], r.cells[cols], check_dtype=False)


@pytest.mark.parametrize("kw, match", [
    (dict(half_width=0), "half_width must be in (0, 0.5]"),
    (dict(half_width=0.6), "got 0.6"), (dict(half_width="wide"), "half_width must be a number"),
    (dict(half_width=0.1, max_games=3), "max_games must be a whole number >= games (4)"),
    (dict(half_width=0.1, max_games=7.5), "got 7.5"),
    (dict(max_games=40), "max_games (--max-games) needs half_width"),
])
def test_bad_sequential_settings_are_one_line_errors(kw, match):
    import re
    with pytest.raises(ConfigError, match=re.escape(match)):
        lad.ladder(["random"], **dict(YARD, **kw))


def test_cli_sequential_options_are_checked(capsys, tmp_path):
    base = ["ladder", "--yardstick", "greedy", "--budget-param", "bid_margin", "--budgets", "0",
            "--seats", "2", "--players", "random", "--games", "4", "--no-progress",
            "--out", str(tmp_path / "o")]
    for extra, says in ((["--half-width", "-0.1"], "half_width must be in (0, 0.5]"),
                        (["--max-games", "8"], "needs half_width"),
                        (["--half-width", "0.1", "--max-games", "2"], "max_games must be")):
        assert cli_main(base + extra) == 2
        err = capsys.readouterr().err
        assert err.startswith("cargo-sim: error: ") and err.count("\n") == 1 and says in err, err
    assert not (tmp_path / "o").exists()


def test_macao_ladder_takes_its_defaults_from_the_game():
    # Macao's ismcts comes from the core's search kit: a tiny budget, 2 bots, 1 deal
    assert lad.default_ladder_bots("ismcts", "macao")[:2] == ["random", "greedy"]
    r = lad.ladder(["random", "expert"], budgets=[5], seats=[2], games=2, seed=3, progress=False,
                   rate_decisions=2, game="macao", workers=1)
    c = r.cells
    assert r.config["game"] == "macao" and r.config["rate_opponent"] == "greedy"
    assert list(c["bot"]) == ["random", "expert"] and (c["games"] == 2).all()
    assert ((c["win_rate"] + c["yardstick_win_rate"]).round(9) == 1).all()
    assert (r.rates["decisions"] == 2).all() and (r.rates["per_second"] > 0).all()


def test_tournament_first_deal_is_checked():
    from cargo_sim.runners.tournament import tournament
    for bad in (-1, 1.5, "2"):
        with pytest.raises(ConfigError, match="first_deal must be a whole number >= 0"):
            tournament(["random", "greedy"], 2, games=2, first_deal=bad, progress=False)
