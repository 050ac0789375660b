"""Shipwrights' report and robustness hooks (cargo_sim/games/shipwrights/analyses.py,
report.py, figures.py): every table has its columns, numbers recomputed from the result
tables and the event log, the highlights' numbers taken from the tables, the report built
through the contract, the Makefile's recipes, and a one-parameter robustness study. One
small simulation for the whole module."""
from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

import cargo_sim
from analyses.data import combine
from cargo_sim.cli import main
from cargo_sim.core.errors import ConfigError
from cargo_sim.games.shipwrights import analyses as A
from cargo_sim.games.shipwrights import figures as F
from cargo_sim.games.shipwrights import report as R

ROOT = Path(__file__).resolve().parents[3]
G2, G3 = 40, 30


@pytest.fixture(scope="module")
def runs():
    """40 two-player expert mirrors with their event log, 30 three-player games of mixed
    bots (expert, random, builder) without."""
    two = cargo_sim.simulate(G2, ["expert", "expert"], seed=3, events=True, game="shipwrights", progress=False)
    three = cargo_sim.simulate(G3, ["expert", "random", "builder"], seed=4, game="shipwrights", progress=False)
    return two, three


@pytest.fixture(scope="module")
def tables(runs):
    t = combine([runs[0], runs[1]], events_games=G2)
    return t, A.run_all(t)


def test_every_section_table_has_its_columns(tables):
    _, out = tables
    named = [(name, cols) for _, _, tabs, _ in R.SECTIONS for name, cols, _ in tabs]
    assert {name for name, _ in named} == set(out)          # every table laid out, none missing
    for name, cols in named:
        assert len(out[name]), name
        if cols is not None:
            assert set(cols) <= set(out[name].columns), (name, set(cols) - set(out[name].columns))
    for name in F.FIGURES.values():
        assert name[1] in out


def test_score_sources_sum_to_the_final_score(tables):
    t, out = tables
    s = out["score_breakdown"]
    for (n, who), d in s.groupby(["n_players", "who"]):
        parts = d[d["source"] != "total"]["mean"].sum()
        assert parts == pytest.approx(d[d["source"] == "total"]["mean"].iloc[0]), (n, who)
    p = t.players[t.players["n_players"] == 3]
    total = s[(s["n_players"] == 3) & (s["source"] == "total")]
    assert (total["n"].sum(), total["mean"] @ total["n"]) == (len(p), pytest.approx(p["vp"].sum()))


def test_seat_table_only_from_mirrors(tables):
    t, out = tables
    seats = out["win_rate_by_seat"]
    assert set(seats["n_players"]) == {2}                  # the 3-player table mixes three bots
    assert list(seats["n"]) == [G2, G2] and seats["win_rate"].sum() == pytest.approx(1.0)
    assert set(out["win_rate_by_bot"].query("n_players == 3")["bot"]) == {"expert", "random", "builder"}
    by_seat = out["attacks_by_seat"].set_index("seat")
    assert set(by_seat["n_players"]) == {2} and list(by_seat["n"]) == [G2, G2]
    assert by_seat["win_rate"].to_numpy() == pytest.approx(seats.set_index("seat")["win_rate"].to_numpy())
    p2 = t.players[t.players["n_players"] == 2]
    assert by_seat["attacked"].to_numpy() == pytest.approx(p2.groupby("seat")["attacked"].mean().to_numpy())


def test_event_tables_agree_with_the_log(tables):
    t, out = tables
    ev, rules = t.events, t.rules
    drafts = out["drafts"]
    assert drafts["drafted"].sum() == (ev["action"] == "draft").sum()
    assert set(drafts["n_holders"] + drafts["n_others"]) == {2 * G2}
    first = ev[(ev["action"] == "draft") & (ev["b"] == 0)]
    assert (drafts["first_round_share"] * drafts["drafted"]).sum() == pytest.approx(len(first))
    kinds = out["draft_kinds"]
    assert kinds.groupby("who")["share"].sum().to_numpy() == pytest.approx([1, 1])
    assert out["buildings"]["built"].sum() == (ev["action"] == "build").sum()
    attack_faces = [rules.card_names.index(n) for n in rules.names("townsfolk")
                    if rules[f"townsfolk.{n}.effect"] in A.ATTACKS]
    tf = ev[(ev["action"] == "townsfolk") & ev["a"].isin(attack_faces)]
    assert out["attacks"]["played"].sum() == len(tf) > 0
    assert set(out["attacks"]["townsfolk"]) <= {"Assassin", "Barbarian", "Conspirator", "Mercenary", "Raider",
                                                 "Berserker", "Thief"}
    # ships by day: day 1 counts every game; the last day's mean over all players is the
    # completions logged on the final days of the games still running
    sbd = out["ships_by_day"]
    day1 = sbd[sbd["day"] == 1]
    assert day1["n"].sum() == 2 * G2
    last = int(t.games["days"].max())
    end = sbd[sbd["day"] == last]
    longest = t.games[t.games["days"] == last]["game"]
    done = ev[(ev["action"] == "complete") & ev["game"].isin(longest)]
    assert (end["mean"] * end["n"]).sum() == pytest.approx(len(done))


def test_length_military_and_rates_from_every_game(tables):
    t, out = tables
    ls = out["length_summary"].set_index("n_players")
    for n, g in t.games.groupby("n_players"):
        assert ls.loc[n, "mean_days"] == pytest.approx(g["days"].mean())
        assert ls.loc[n, "n"] == len(g)
    gl = out["game_length"]
    assert gl.groupby("n_players")["share"].sum().to_numpy() == pytest.approx([1, 1])
    assert (gl["days"] * gl["games_ended"]).sum() == t.games["days"].sum()
    mil = out["military"].set_index("n_players")
    p2 = t.players[t.players["n_players"] == 2]
    assert mil.loc[2, "holders"] == pytest.approx((p2["military_vp"] > 0).mean())
    for name in ("ships_win", "attacked_win", "buildings_win"):
        d = out[name]
        assert d.groupby("n_players")["n"].sum().to_dict() == {2: 2 * G2, 3: 3 * G3}, name
        assert (d["win_rate"] * d["n"]).groupby(d["n_players"]).sum().to_numpy() == \
            pytest.approx([G2, G3]), name


def test_highlights_quote_the_tables(tables):
    _, out = tables
    lines = R.highlights(out)
    seat = out["win_rate_by_seat"].sort_values("win_rate").iloc[-1]
    assert any(f"best seat {int(seat['seat'])} wins {100 * seat['win_rate']:.1f}%" in x for x in lines)
    ls = out["length_summary"]
    days = next(x for x in lines if x.startswith("Days per game"))
    for r in ls.itertuples():
        assert f"{int(r.n_players)}p {r.mean_days:.1f} [{r.ci_lo:.1f}, {r.ci_hi:.1f}]" in days
    mil = next(x for x in lines if x.startswith("Win rate of the military token"))
    r = out["military"].iloc[0]
    assert f"{100 * r.holder_win_rate:.1f}% vs {100 * r.other_win_rate:.1f}%" in mil
    src = next(x for x in lines if x.startswith("Winners' largest source"))
    w = out["score_breakdown"].query("who == 'winners' and source != 'total' and n_players == 2")
    top = w.sort_values("mean").iloc[-1]
    assert f"2p {top['source']} {top['mean']:.1f}" in src


def test_figures_draw_and_name_their_games(tables):
    _, out = tables
    import matplotlib.pyplot as plt
    for name, (fn, source, _caption) in F.FIGURES.items():
        fig = fn(out[source])
        title = fig._suptitle.get_text()
        basis = f"{G2} games at 2p" if name in F.EVENT_FIGURES or name == "win_rate_by_seat" \
            else f"{G2} games at 2p; {G3} games at 3p"
        assert basis in title, (name, title)
        plt.close(fig)


def test_report_through_the_contract(runs, tmp_path):
    from analyses.report import build_report
    md = build_report(tmp_path / "r", results=list(runs), game="shipwrights",
                      formats=("png",)).read_text(encoding="utf-8")
    assert md.startswith("# Shipwrights of the North Sea simulation report")
    for heading, *_ in R.SECTIONS:
        assert f"## {heading}" in md
    assert "Casino" not in md and "tribute" not in md           # no other game's words
    assert (tmp_path / "r" / "figures" / "ships_by_day.png").is_file()
    assert f"From the event log of {G2} games at 2 players." in md
    assert "Problems while building" not in md


def test_highlights_carry_the_robustness_marks(runs, tmp_path, monkeypatch):
    """The report reads the marks of the folder Shipwrights' report module names (here a
    planted one) and puts each on the highlight line that states its headline."""
    import json
    from analyses.report import build_report
    study = tmp_path / "shipwrights_robustness"
    study.mkdir()
    marks = {"seat.2": "robust", "source.2": "depends on ship_points", "military.2": "robust",
             "military.3": "near-tie: flips within the noise with tie_break"}
    (study / "verdicts.json").write_text(json.dumps({"kind": "x", "rules_digest": runs[0].rules.digest,
                                                     "marks": marks}))
    monkeypatch.setitem(R.ROBUSTNESS_MARKS, "report", str(study))
    md = build_report(tmp_path / "r", results=list(runs), game="shipwrights",
                      formats=("png",)).read_text(encoding="utf-8")
    assert re.search(r"- 2 players \(expert in every seat\): best seat .* \[robustness: seat\.2: robust\]\n", md)
    assert "[robustness: source.2: depends on ship_points]" in md       # the 3-player line has none
    assert "[robustness: military.2: robust; military.3: near-tie: flips within the noise with tie_break]" in md
    assert "](../shipwrights_robustness/index.md)" in md


def test_report_refuses_a_player_count_the_rules_forbid(capsys, tmp_path):
    assert main(["report", "--game", "shipwrights", "--seats", "6", "--out", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "2 to 5 players" in err
    assert not (tmp_path / "x").exists()


def _recipe(name: str) -> str:
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    return re.search(rf"^{name}:.*\n\t\$\(VENV\)/bin/cargo-sim (.+)$", text, re.M).group(1)


def _make_var(name: str) -> str:
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    return re.search(rf"^{name} \?= ((?:.*\\\n)*.*)$", text, re.M).group(1).replace("\\\n", " ")


def test_makefile_report_target_writes_the_report(tmp_path):
    argv = shlex.split(_recipe("reports-shipwrights").replace("$(SHIP_GAMES)", "20")
                       .replace("$(SHIP_EVENTS)", "20"))
    argv[argv.index("--out") + 1] = str(tmp_path / "s")
    while "--players" in argv:                     # its 2-4 player line-up: 2 players here (cheaper)
        del argv[argv.index("--players"):argv.index("--players") + 2]
    assert main(argv + ["--seats", "2", "--players", "2=expert,expert", "--no-progress"]) == 0
    md = (tmp_path / "s" / "index.md").read_text(encoding="utf-8")
    assert "--game shipwrights" in md and "## The ship race and the game's length" in md


def test_makefile_robustness_groups_are_legal_factors():
    """Every group of the recipe matches, every level is legal rules, and the Morris design
    builds (a range of one value, such as a civil ship's 0 flags, would refuse it)."""
    from analyses.robustness import Design, group_variants, morris_design, oat_variants
    from cargo_sim.cli.analyses import parse_groups
    from cargo_sim.games.shipwrights.rules import Rules
    rules = Rules.default()
    groups = parse_groups(re.findall(r"--group '([^']+)'", _make_var("SHIP_ROBUST_GROUPS")))
    params = tuple(re.findall(r"--param (\S+)", _make_var("SHIP_ROBUST_PARAMS")))
    design = Design(games=20, morris_games=20, morris_trajectories=2, player_counts=(2,), params=params,
                    groups=groups, game="shipwrights")
    variants = group_variants(rules, design)
    assert {g for g, _, _ in variants} == {name for name, _ in groups}
    for _, level, over in variants:
        rules.replace(over)                                      # legal as a whole
        assert "kept at default" not in level
    assert {p for p, _ in oat_variants(rules, design)} == set(params)
    _, _, points, _ = morris_design(rules, design)
    assert len(points) == 2 * (len(groups) + len(params) + 1)


def test_robustness_refuses_a_copies_variant_and_a_bad_group():
    from analyses.robustness import Design, check_factors
    from cargo_sim.games.shipwrights.rules import Rules
    rules = Rules.default()
    with pytest.raises(ConfigError, match="matches no parameter"):
        check_factors(rules, Design(groups=(("x", ("ship.*.nothing",)),), params=(), game="shipwrights"))
    with pytest.raises(ConfigError, match="no plausible range"):
        check_factors(rules, Design(params=("ship.Karfi.goods",), game="shipwrights"))


def test_robustness_study_on_shipwrights_headlines(tmp_path):
    from analyses.robustness import Design, run
    from analyses.robustness_report import write_report
    design = Design(games=20, morris_games=20, morris_trajectories=0, player_counts=(2,), seed=1,
                    workers=1, params=("military_tie",), game="shipwrights")
    res = run(design=design, log=lambda m: None)
    assert set(res["base"]) == {"seat.2", "source.2", "military.2", "ranking", "leader"}
    assert set(res["oat"]["value"]) == {"none"}                        # the one alternative
    ranking = res["base"]["ranking"]
    assert ranking[0].count(" > ") == 3 and set(ranking[1]) == set(A.ROBUSTNESS["field"])
    assert sum(ranking[1].values()) == pytest.approx(1.0)              # the field's win shares
    assert res["base"]["source.2"][0] in {label for _, label in A.SOURCES}
    md = write_report(res, tmp_path / "rob").read_text(encoding="utf-8")
    assert "`military.N`" in md and "`price.N`" not in md
