"""The strength ladder, tested with a heuristic yardstick whose numeric
parameter plays the budget (the search bots are not needed for the plumbing)."""
import json

import pandas as pd
import pytest

import cargo_sim.ladder as lad
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
            "--no-progress"]
    assert cli_main(args) == 0
    text = (out / "index.md").read_text()
    assert "## 2 players" in text and "## 3 players" in text and "`sniper`" in text
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
