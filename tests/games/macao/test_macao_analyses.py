"""Macao's analyses, figures and report (cargo_sim/games/macao/analyses.py, figures.py,
report.py): numbers recomputed from the tables, designs respected, the report built
through the contract's report sections. One small simulation for the whole module."""
from __future__ import annotations

import re
import shlex
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import cargo_sim
from analyses.data import combine
from cargo_sim.cli import main
from cargo_sim.core.stats import clustered_diff, clustered_mean
from cargo_sim.games.macao import analyses as A
from cargo_sim.games.macao import figures as F

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def runs():
    """40 two-player games of random bots with their event log, 30 three-player games of
    mixed bots (two random, one expert) without."""
    two = cargo_sim.simulate(40, ["random", "random"], seed=3, events=True, game="macao", progress=False)
    three = cargo_sim.simulate(30, ["random", "random", "expert"], seed=4, game="macao", progress=False)
    return two, three


@pytest.fixture(scope="module")
def tables(runs):
    t = combine([runs[0], runs[1]], events_games=40)
    return t, A.run_all(t)


def test_clustered_intervals_by_hand():
    # clusters {1, 0}, {1, 1}, {0, 0}: mean 1/2, cluster residuals 0, 1, -1, se sqrt(3/2 * 2)/6
    r = clustered_mean([1, 0, 1, 1, 0, 0], [7, 7, 8, 8, 9, 9])
    assert r["mean"] == 0.5 and r["clusters"] == 3
    assert r["se"] == pytest.approx(np.sqrt(1.5 * 2) / 6)
    assert r["ci_hi"] - r["mean"] == pytest.approx(4.302652729911275 * r["se"])   # t(0.975, 2)
    # holders 1st of each cluster: means 2/3 and 1/3; linearised contributions 0, 1/3... by hand
    d = clustered_diff([1, 0, 1, 1, 0, 0], [True, False] * 3, [7, 7, 8, 8, 9, 9])
    assert d["diff"] == pytest.approx(1 / 3) and (d["n1"], d["n0"]) == (3, 3)
    infl = np.array([(1 - 2 / 3) / 3 - (0 - 1 / 3) / 3, (1 - 2 / 3) / 3 - (1 - 1 / 3) / 3,
                     (0 - 2 / 3) / 3 - (0 - 1 / 3) / 3])
    half = 4.302652729911275 * np.sqrt(1.5 * (infl ** 2).sum())
    assert d["ci_hi"] == pytest.approx(1 / 3 + half)


def test_score_sources_sum_to_the_final_score(tables):
    t, out = tables
    s = out["score_breakdown"]
    for (n, who), d in s.groupby(["n_players", "who"]):
        parts = d[d["source"] != "total"]["mean"].sum()
        assert parts == pytest.approx(d[d["source"] == "total"]["mean"].iloc[0]), (n, who)
    p = t.players[t.players["n_players"] == 2]
    total = s[(s["n_players"] == 2) & (s["source"] == "total")]
    assert (total["n"].sum(), total["mean"] @ total["n"]) == (len(p), pytest.approx(p["vp"].sum()))


def test_seat_table_only_where_one_bot_holds_every_seat(tables):
    t, out = tables
    seats = out["win_rate_by_seat"]
    assert set(seats["n_players"]) == {2}                  # the 3-player table mixes two bots
    assert list(seats["n"]) == [40, 40] and seats["win_rate"].sum() == pytest.approx(1.0)
    bots = out["win_rate_by_bot"]
    assert set(bots[bots["n_players"] == 3]["bot"]) == {"random", "expert"}


def test_event_tables_agree_with_the_log(tables):
    t, out = tables
    ev = t.events
    drafts = ev[(ev["action"] == "draft") & (ev["a"] >= 0)]
    cards = out["cards"]
    assert cards["drafted"].sum() == len(drafts)
    assert set(cards["n_holders"] + cards["n_others"]) == {80}      # 40 games x 2 players
    lots = ev[ev["action"] == "lot"]
    dice = out["dice_by_round"]
    assert dice["n"].sum() == len(lots) == 40 * 2 * 2 * 12        # two dice a player a round
    assert dice["mean"].between(1, 6).all()
    assert out["deliveries"]["count"].sum() == (ev["action"] == "deliver").sum()
    col = out["dice_colours"]
    assert col.groupby("who")["share"].sum().to_numpy() == pytest.approx([1, 1])
    assert set(out["turn_order_win"]["n"].groupby(out["turn_order_win"]["n_players"]).sum()) == {80}


def test_wall_and_rates_partition_the_players(tables):
    t, out = tables
    for name in ("wall_rank_win", "group_win", "tribute_win", "waste_vs_win"):
        d = out[name]
        assert d.groupby("n_players")["n"].sum().to_dict() == {2: 80, 3: 90}, name
        # the win shares of all players of a game sum to 1: so do the rows' weighted rates
        assert (d["win_rate"] * d["n"]).groupby(d["n_players"]).sum().to_numpy() == \
            pytest.approx([40, 30]), name


def test_figures_draw_and_name_their_games(tables):
    _, out = tables
    import matplotlib.pyplot as plt
    for name, (fn, source, _caption) in F.FIGURES.items():
        fig = fn(out[source])
        title = fig._suptitle.get_text()
        basis = "40 games at 2p" if name in F.EVENT_FIGURES else "40 games at 2p; 30 games at 3p"
        if name == "win_rate_by_seat":
            basis = "40 games at 2p"
        assert basis in title, (name, title)
        plt.close(fig)


def test_report_through_the_contract(runs, tmp_path):
    from analyses.report import build_report
    path = build_report(tmp_path / "r", results=list(runs), game="macao", formats=("png",))
    md = path.read_text(encoding="utf-8")
    assert md.startswith("# Macao simulation report")
    for heading in ("Cards", "Dice and the wind rose", "The wall and turn order", "The city",
                    "Ship, deliveries and tribute"):
        assert f"## {heading}" in md
    assert "Casino" not in md and "Smuggler" not in md         # none of Cargo Noir's words
    assert (tmp_path / "r" / "figures" / "dice_by_round.png").is_file()
    assert "From the event log of 40 games at 2 players." in md     # the figure's basis
    assert (tmp_path / "r" / "index.html").is_file()


def test_report_highlights_carry_macaos_own_robustness_marks(runs, tmp_path, monkeypatch):
    """The report reads the marks of the folder Macao's report module names (here a planted
    one in place of reports/macao_robustness) and matches Macao's highlight lines to them."""
    import json
    from analyses.report import build_report
    from cargo_sim.games.macao import report as macao_report
    study = tmp_path / "macao_robustness"
    study.mkdir()
    marks = {"seat.2": "robust", "source.2": "depends on tribute_points", "source.3": "robust"}
    rules = runs[0].rules
    (study / "verdicts.json").write_text(json.dumps({"kind": "x", "rules_digest": rules.digest, "marks": marks}))
    monkeypatch.setitem(macao_report.ROBUSTNESS_MARKS, "report", str(study))
    md = build_report(tmp_path / "r", results=list(runs), game="macao", formats=("png",)).read_text(encoding="utf-8")
    assert re.search(r"- 2 players \(random in every seat\): best seat .* \[robustness: seat\.2: robust\]\n", md)
    assert "[robustness: source.2: depends on tribute_points; source.3: robust]" in md
    assert "](../macao_robustness/index.md)" in md
    assert "not assessed for these rules" not in md


def test_report_refuses_a_player_count_the_rules_forbid(capsys, tmp_path):
    assert main(["report", "--game", "macao", "--seats", "5", "--out", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "2 to 4 players" in err
    assert not (tmp_path / "x").exists()


def test_makefile_target_writes_the_report(tmp_path, capsys):
    # the `reports-macao` recipe, run in-process with a tiny budget and another --out
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = re.search(r"^reports-macao:.*\n\t\$\(VENV\)/bin/cargo-sim (.+)$", text, re.M).group(1)
    argv = shlex.split(recipe.replace("$(MACAO_GAMES)", "20").replace("$(MACAO_EVENTS)", "20"))
    argv[argv.index("--out") + 1] = str(tmp_path / "m")
    while "--players" in argv:                     # its expert line-up: random bots here (cheaper)
        del argv[argv.index("--players"):argv.index("--players") + 2]
    argv[argv.index("--games") + 1] = "2=20"
    assert main(argv + ["--seats", "2", "--players", "2=random,random", "--no-progress"]) == 0
    assert (tmp_path / "m" / "index.md").is_file()
    assert "--game macao" in (tmp_path / "m" / "index.md").read_text(encoding="utf-8")


@pytest.mark.slow
def test_makefile_robustness_target_runs(tmp_path):
    # the `robustness-macao` recipe, in-process, its groups with one parameter alone, 20 games
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = re.search(r"^robustness-macao:.*\n\t\$\(VENV\)/bin/cargo-sim (.+)$", text, re.M).group(1)
    groups = re.search(r"^MACAO_ROBUST_GROUPS \?= ((?:.*\\\n)*.*)$", text, re.M).group(1).replace("\\\n", " ")
    for var, value in (("GAMES", "20"), ("MORRIS_GAMES", "20"), ("TRAJECTORIES", "0"), ("GROUPS", groups)):
        recipe = recipe.replace(f"$(MACAO_ROBUST_{var})", value)
    argv = shlex.split(recipe)
    argv[argv.index("--out") + 1] = str(tmp_path / "rob")
    assert main(argv + ["--seats", "2", "--param", "tie_break", "--no-progress"]) == 0
    v = pd.read_csv(tmp_path / "rob" / "verdicts.csv")
    assert set(v["headline"]) == {"seat.2", "source.2", "ranking", "leader"}
    oat = pd.read_csv(tmp_path / "rob" / "one_at_a_time.csv")
    assert {"card_costs", "tribute_points", "quarter_costs", "port_goods", "tie_break"} <= set(oat["parameter"])
    md = (tmp_path / "rob" / "index.md").read_text(encoding="utf-8")
    assert "## What the conclusions depend on" in md and "**The tribute's estimates**" in md


# ---- the runners with Macao (the toy game covers their machinery; these check Macao's side)
def test_sweep_reports_macaos_own_measures():
    from cargo_sim.runners.sweep import sweep
    res = sweep(grid={"group_points": [1, 3]}, players=["random", "random"], games=20, seed=2,
                progress=False, game="macao")
    assert list(res.table["variant"]) == ["base", "group_points=1", "group_points=3"]
    assert {"group", "delivery_vp"} <= set(res.measures)


def test_run_folder_resumes_and_reads_back_as_macao(tmp_path):
    from cargo_sim.runners import runs
    from pandas.testing import assert_frame_equal
    folder = tmp_path / "run"
    runs.run_to_dir(folder, 40, ["random", "random"], seed=5, chunk_games=20, progress=False, game="macao")
    again = runs.run_to_dir(folder, 40, ["random", "random"], seed=5, chunk_games=20, resume=True,
                            progress=False, game="macao")            # finished: nothing to play
    back = cargo_sim.load_results(folder)
    mem = cargo_sim.simulate(40, ["random", "random"], seed=5, game="macao", progress=False)
    assert back.config["game"] == "macao" and again is not None
    assert_frame_equal(back.players, mem.players, check_dtype=False, check_categorical=False)


def test_robustness_study_on_macaos_headlines(tmp_path):
    from analyses.robustness import Design, run
    from analyses.robustness_report import write_report
    design = Design(games=20, morris_games=20, morris_trajectories=0, player_counts=(2,), seed=1,
                    workers=1, params=("zero_cube_penalty",), game="macao")
    res = run(design=design, log=lambda m: None)
    assert set(res["base"]) == {"seat.2", "source.2", "ranking", "leader"}
    assert set(res["oat"]["value"]) == {"false"}                       # the one alternative
    assert res["base"]["ranking"][0].count(" > ") == 3
    md = write_report(res, tmp_path / "rob").read_text(encoding="utf-8")
    assert "`source.N`" in md and "`price.N`" not in md        # its own headlines
    # Cargo Noir's strong-play table does not judge Macao's headlines
    assert "Cargo Noir's headlines; a game with its own judges them in its report" in md
    assert "<!-- strong_play -->" not in md


def test_the_tuned_expert_is_registered_and_beats_random():
    from cargo_sim.core.contract import get_game
    bots = get_game("macao").bots
    spec = bots.get("expert")
    assert spec.params != bots.get("greedy").params and set(spec.params) == set(bots.get("greedy").params)
    r = cargo_sim.simulate(20, ["expert", "random"], seed=8, game="macao", progress=False)
    assert r.players[r.players["seat"] == 0]["win_share"].sum() >= 18


def test_the_wall_headline_says_how_many_share_the_furthest_place():
    import pandas as pd
    from cargo_sim.games.macao.report import highlights
    g = pd.DataFrame({"n_players": [2, 2], "wall_place": [1, 2], "n": [390, 10],
                      "win_rate": [0.49, 0.8], "ci_lo": [0.48, 0.5], "ci_hi": [0.5, 0.95]})
    line = [h for h in highlights({"wall_rank_win": g}) if "wall" in h]
    assert line == ["Win rate of the player furthest on the wall at the end: "
                    "2p 49.0% [48.0%, 50.0%] (n = 390; 97.5% of players share that place)"]


def test_highlights_say_how_much_of_the_score_the_estimated_tribute_carries():
    import pandas as pd
    from cargo_sim.games.macao.report import highlights
    rows = [dict(n_players=2, who=who, source=src, n=n, mean=m, ci_lo=m - 1, ci_hi=m + 1)
            for who, n, tri, tot in (("winners", 100, 30.0, 40.0), ("others", 100, 20.0, 24.0))
            for src, m in (("tribute", tri), ("deliveries", 5.0), ("total", tot))]
    lines = highlights({"score_breakdown": pd.DataFrame(rows)})
    line = next(x for x in lines if x.startswith("Points from the tribute"))
    assert "2p 25.0 of 32.0" in line and "estimates" in line


# ---- what the score rests on: the tribute's share, the penalties' causes ---------------------
def test_tribute_share_is_the_tribute_points_over_the_final_points(tables):
    t, out = tables
    ts = out["tribute_share"]
    p = t.players[(t.players["n_players"] == 3) & (t.players["bot"] == "expert")]
    row = ts[(ts["n_players"] == 3) & (ts["bot"] == "expert") & (ts["who"] == "all")].iloc[0]
    assert row["n"] == len(p) == 30
    assert row["share"] == pytest.approx(p["tribute_vp"].sum() / p["vp"].sum())
    assert row["ci_lo"] < row["share"] < row["ci_hi"]
    w = p[p["won"] > 0]
    win = ts[(ts["n_players"] == 3) & (ts["bot"] == "expert") & (ts["who"] == "winners")].iloc[0]
    assert win["n"] == len(w) and win["share"] == pytest.approx(w["tribute_vp"].sum() / w["vp"].sum())


def test_the_ratio_interval_by_hand():
    # games {x 1, 2 | y 2, 2}, {x 3 | y 4}: r = 6/8; residuals 3 - 3, 3 - 3 = 0: a zero width
    r = A._ratio([1, 2, 3], [2, 2, 4], [0, 0, 1])
    assert r["share"] == pytest.approx(0.75) and r["ci_lo"] == pytest.approx(0.75)
    r = A._ratio([1, 0, 3], [2, 2, 4], [0, 0, 1])    # residuals 1 - 2 = -1, 3 - 2 = 1
    half = float(A.t_quantile(2)) * np.sqrt(2 * 2) / 8
    assert r["share"] == pytest.approx(0.5) and r["ci_hi"] == pytest.approx(0.5 + half)


def test_penalty_causes_sum_to_the_penalty_points(tables):
    t, out = tables
    pen = out["penalties"]
    assert set(pen["sample"]) == {"report games"}                 # 70 games: no search sample
    assert "penalty_play" not in out
    for (n, bot), d in pen.groupby(["n_players", "bot"]):
        p = t.players[(t.players["n_players"] == n) & (t.players["bot"] == bot)]
        total = d[d["cause"] == "total"].iloc[0]
        assert total["mean"] == pytest.approx(p["penalty_vp"].mean())
        assert d[d["cause"] != "total"]["mean"].sum() == pytest.approx(total["mean"])
        zero = d[d["cause"] == "zero-cube rounds"].iloc[0]
        assert zero["per_game"] == pytest.approx(p["zero_cube"].mean())
        assert zero["mean"] == pytest.approx(3 * p["zero_cube"].mean())
        left = d[d["cause"] == "tableau cards left"].iloc[0]
        assert left["per_game"] == pytest.approx(p["tableau_left"].mean())
    assert (pen["mean"] > 0).any()                                 # random bots do take penalties


def test_penalties_read_as_weak_play_only_when_the_stronger_player_avoids_them():
    rows = []
    for g in range(20):                  # the searcher (won every game) never overflows, its opponent twice
        for bot, over, zero in (("s", 0, 1), ("e", 2, 1)):
            rows.append(dict(n_players=2, game=g, bot=bot, win_share=float(bot == "s"), zero_cube=zero,
                             overflow=over, markers=zero + over, tableau_left=0, penalty_vp=3 * (zero + over)))
    play = A.penalty_play(pd.DataFrame(rows), "s?iterations=9", 3).set_index("cause")   # players: "s"
    assert play.loc["6th tableau card", "reading"].startswith("weak play")
    assert play.loc["6th tableau card", "diff"] == pytest.approx(-6)
    assert play.loc["zero-cube rounds", "reading"].startswith("the rules")
    assert play.loc["tableau cards left", "reading"] == "rare"
    lost = pd.DataFrame(rows).assign(win_share=lambda d: (d["bot"] == "e").astype(float))
    assert A.penalty_play(lost, "s", 3)["reading"].str.startswith("no reading").all()


def test_the_report_plays_its_search_sample_and_says_where_penalties_come_from(runs, tmp_path, monkeypatch):
    from analyses.report import build_report
    monkeypatch.setitem(A.SEARCH_SAMPLE, "bot", "ismcts?iterations=10")
    monkeypatch.setitem(A.SEARCH_SAMPLE, "games", 2)
    monkeypatch.setitem(A.SEARCH_SAMPLE, "min_report_games", 0)
    md = build_report(tmp_path / "r", results=list(runs), game="macao", formats=("png",)).read_text(encoding="utf-8")
    assert "## What the score rests on: the tribute's estimates and the penalties" in md
    assert "search sample (2 games)" in md
    assert re.search(r"- Share of the score from the tribute, whose numbers are estimates .*2p random: "
                     r"winners n/a \(summed score <= 0\), all n/a .*3p expert: winners [\d.]+% \[", md)
    assert re.search(r"- Penalty points per player-game, 2p ismcts\?iterations=10 \(search sample \(2 games\)\)", md)
    line = re.search(r"- Where the penalties come from \(ismcts\?iterations=10 .* 2 games at 2 players, "
                     r"winning [\d.]+% of them.*", md).group(0)
    assert all(c in line for c in ("zero-cube rounds:", "6th tableau card:", "tableau cards left:"))
    tab = pd.read_csv(tmp_path / "r" / "tables" / "penalty_play.csv")
    assert set(tab["games"]) == {2} and set(tab["n"]) == {2}


def test_the_robustness_notes_say_what_depends_on_the_supply_and_the_tribute():
    oat = pd.DataFrame([
        dict(parameter="unlimited_cubes", value="true", headline=h, conclusion=c, base_conclusion=b,
             flipped=c != b, clear=c != b) for h, c, b in (("seat.2", "seat 1", "seat 0"), ("source.2", "tribute", "tribute"))
    ] + [dict(parameter="tribute_points", value=v, headline=h, conclusion=c, base_conclusion=b, flipped=c != b,
              clear=False) for v in ("low", "high") for h, c, b in (("seat.2", "seat 0", "seat 0"),
                                                                    ("source.2", "deliveries" if v == "low" else "tribute", "tribute"))])
    base = {"seat.2": ("seat 0", {}, {}), "source.2": ("tribute", {}, {})}
    lines = A.robustness_notes({"oat": oat, "base": base})
    assert lines[0].startswith("- **The cube supply**") and "depends: `seat.2` seat 0 -> seat 1 (unlimited_cubes = true)" in lines[0]
    assert "unchanged: `source.2`" in lines[0]
    assert "no headline flips beyond the noise; flips within the noise: `source.2`; unchanged: `seat.2`" in lines[1]
    assert lines[2].startswith("- `source.2`: at the defaults the winners' largest source of points is the tribute")
    none = A.robustness_notes({"oat": oat[oat["parameter"] == "tie_break"], "base": base})
    assert "not varied by this study" in none[0] and "not varied by this study" in none[1]
