"""analyses.robustness: sweeps with common random numbers, Morris screening,
verdicts, the written report and the marks the demo report carries."""
import json

import pytest

from analyses import robustness as R
from analyses.report import ROBUSTNESS_MARKS as CN_MARKS
from analyses.robustness_report import write_report
from cargo_sim import Rules
from cargo_sim.core.errors import ConfigError
from cargo_sim.core.provenance import rules_census_line

RULES = Rules.default()
TINY = R.Design(games=40, morris_games=20, morris_trajectories=2, player_counts=(2,), seed=3,
                workers=1, params=("turns.2", "tie_break"))


@pytest.fixture(scope="module")
def result():
    return R.run(RULES, TINY, log=lambda m: None)


def test_values_swept_are_the_range_ends_or_the_alternatives():
    assert R._oat_values([10, 11, 12], 11) == [10, 12]
    assert R._oat_values([9, 10, 11], 11) == [9]
    assert R._oat_values(["vp", "cost"], "vp") == ["cost"]
    assert R._morris_value([[2, 3], [4, 5], [5]], 0.99) == [5]
    assert R._morris_value([10, 12], 11.4) == 11


def test_bank_bands():
    assert R._band(0.0) == R.BANK_BANDS[0][1] and R._band(0.7) == R.BANK_BANDS[2][1]


def test_a_flip_is_clear_only_beyond_the_noise():
    base = ("seat 0", {"seat 0": 0.55, "seat 1": 0.45}, {"seat 0": 0.03, "seat 1": 0.03})
    near = ("seat 1", {"seat 0": 0.49, "seat 1": 0.51}, {"seat 0": 0.03, "seat 1": 0.03})
    far = ("seat 1", {"seat 0": 0.40, "seat 1": 0.60}, {"seat 0": 0.03, "seat 1": 0.03})
    assert not R.clear_flip("seat.2", base, base)
    assert not R.clear_flip("seat.2", base, near) and R.clear_flip("seat.2", base, far)
    gone = ("Rio", {"Rio": 2.0}, {"Rio": 0.1})                 # the old winner's port closed
    assert R.clear_flip("price.2", ("Tanger", {}, {}), gone)
    bank = ("most (> 50 %)", {"share": 0.6}, {"share": 0.02})
    assert R.clear_flip("bank.5", bank, ("some (5-50 %)", {"share": 0.40}, {"share": 0.03}))
    assert not R.clear_flip("bank.5", bank, ("some (5-50 %)", {"share": 0.49}, {"share": 0.03}))
    rank = ("a > b > c", {"a": 0.4, "b": 0.3, "c": 0.3}, dict.fromkeys("abc", 0.01))
    assert R.clear_flip("ranking", rank, ("b > a > c", {"a": 0.3, "b": 0.4, "c": 0.3}, dict.fromkeys("abc", 0.01)))
    assert not R.clear_flip("ranking", rank, ("a > c > b", {"a": 0.4, "b": 0.3, "c": 0.301},
                                               dict.fromkeys("abc", 0.01)))


@pytest.mark.slow
def test_run_measures_each_variant_and_a_variant_equal_to_the_defaults_flips_nothing(result):
    oat, base = result["oat"], result["base"]
    assert set(base) == {"seat.2", "bank.2", "card.2", "price.2", "ranking", "leader"}
    assert base["ranking"][0].startswith(base["leader"][0] + " > ")
    assert set(oat["value"]) == {"10", "12", "cost"}
    assert len(oat) == 3 * len(base)
    # common random numbers: the same rules played again give the same measures
    again = R.measure(RULES.replace({"turns.2": 11}), TINY.games, TINY)
    assert json.dumps(again, sort_keys=True) == json.dumps(base, sort_keys=True)
    # the verdict is 'robust' exactly when no variant flipped the headline
    v = result["verdicts"].set_index("headline")
    for h in base:
        flipped = oat[(oat["headline"] == h) & oat["flipped"]]
        assert v.loc[h, "robust"] == (~flipped["clear"]).all()
        assert (v.loc[h, "mark"] == "robust") == flipped.empty
        assert not (oat["clear"] & ~oat["flipped"]).any()
    # a shorter game changes the numbers (the sweep is not a no-op)
    short = oat[(oat["parameter"] == "turns.2") & (oat["value"] == "10") & (oat["headline"] == "price.2")]
    assert short["measure"].iloc[0] != short["base_measure"].iloc[0]
    m = result["morris"]
    assert set(m["parameter"]) == {"turns.2", "tie_break"} and (m["mu_star"] >= 0).all()
    assert m["sigma"].notna().all()                      # two trajectories: a spread per factor


@pytest.mark.slow
def test_written_report_and_marks(result, tmp_path):
    out = tmp_path / "robustness"
    path = write_report(result, out, command="test")
    text = path.read_text()
    assert "## Verdicts" in text and "common random numbers" in text
    assert rules_census_line(RULES) in text             # how many values are still estimates
    assert "## Under stronger play\n\n<!-- strong_play -->\n" in text    # analyses.strong_play's block
    assert (out / "figures" / "tornado_seat.2.png").exists()
    marks = R.load_marks(out)
    assert set(marks) == set(result["base"])
    lines, link = R.mark_highlights(["2 players: best seat 1 wins", "Games with a bank shortfall: 2p",
                                     "something else"], RULES, tmp_path / "demo", CN_MARKS, folder=out)
    assert lines[0].endswith(f"[robustness: seat.2: {marks['seat.2']}]")
    assert f"bank.2: {marks['bank.2']}" in lines[1] and lines[2].endswith("[robustness: not assessed]")
    assert "](../robustness/index.md)" in link           # both in tmp_path: a relative link
    other, none = R.mark_highlights(["2 players: best seat 1"], RULES.replace(start_coins=8),
                                    tmp_path, CN_MARKS, folder=out)
    assert none is None and "not assessed for these rules" in other[0]
    # written whole: a second write replaces the folder
    write_report(result, out, command="again")
    assert "again" in (out / "index.md").read_text()
    assert not list(tmp_path.glob(".robustness-*")) and not list(tmp_path.glob(".robustness.old-*"))
    # a user's file in it: the folder is not only the report any more, so it is refused whole
    (out / "notes.txt").write_text("mine")
    with pytest.raises(ConfigError, match="not a cargo_sim robustness report"):
        write_report(result, out, command="third")
    assert (out / "notes.txt").read_text() == "mine" and "again" in (out / "index.md").read_text()


def test_bad_design_and_unknown_parameter_are_clear_errors():
    with pytest.raises(ConfigError, match="games"):
        R.run(RULES, R.Design(games=5))
    with pytest.raises(ConfigError, match="no plausible range"):
        R._params(RULES, R.Design(params=("start_coins",)))


def test_verdict_changes_lists_what_moved_against_the_previous_report(tmp_path):
    import pandas as pd
    prev = pd.DataFrame({"headline": ["seat.2", "card.2", "bank.2"],
                         "conclusion": ["seat 0", "Bank", "rare"],
                         "mark": ["robust", "robust", "robust"]})
    now = pd.DataFrame({"headline": ["seat.2", "card.2", "bank.2", "leader"],
                        "conclusion": ["seat 1", "Bank", "rare", "expert"],
                        "mark": ["robust", "depends on card.Bank.vp", "robust", "robust"]})
    ch = R.verdict_changes(prev, now)
    assert list(ch["headline"]) == ["seat.2", "card.2", "leader"]
    assert ch.set_index("headline").loc["leader", "conclusion before"] == "(not assessed)"
    assert R.verdict_changes(None, now).empty
    assert R.load_previous(tmp_path) is None                     # no report there
    (tmp_path / "verdicts.csv").write_text("headline,conclusion,mark\nseat.2,seat 0,robust\n")
    (tmp_path / R.VERDICTS_FILE).write_text(json.dumps({"rules_digest": "abc", "marks": {"seat.2": "robust"}}))
    old = R.load_previous(tmp_path)
    assert old.attrs["rules_digest"] == "abc" and list(old["conclusion"]) == ["seat 0"]


# ---- groups: a family of parameters studied as one factor ------------------------------
GROUPED = R.Design(params=("tie_break",), groups=(("costs", ("card.*.cost",)),))


def test_a_group_moves_its_members_together_to_the_ends_of_their_ranges():
    costs = [p for p in RULES.ranges if p.startswith("card.") and p.endswith(".cost")]
    assert R.group_members(RULES, GROUPED) == {"costs": costs}
    assert R.oat_variants(RULES, GROUPED) == [("tie_break", "cost")]     # members only as the group
    variants = {level: over for g, level, over in R.group_variants(RULES, GROUPED)}
    assert set(variants) == {"low", "high"}
    flat = RULES.flat()
    for level, end in (("low", 0), ("high", -1)):
        for p in costs:
            legal = [v for v in RULES.ranges[p] if RULES.allows(p, v)]
            assert variants[level].get(p, flat[p]) == legal[end]
        r = RULES.replace(variants[level])                    # legal as a whole
        assert r["card.Dive Bar.vp"] == r["card.Dive Bar.cost"]      # a tie's follower moved too
    assert variants["low"]["card.Dive Bar.cost"] < flat["card.Dive Bar.cost"] < variants["high"]["card.Dive Bar.cost"]


def test_a_group_of_alternatives_moves_every_member_to_its_ith_alternative():
    d = R.Design(params=(), groups=(("open", ("port.*.players",)),))
    members = R.group_members(RULES, d)["open"]
    levels = R.group_levels(RULES, members)
    flat = RULES.flat()
    assert list(levels) == [f"alternative {i + 1}" for i in range(len(levels))]
    for p in members:
        alts = [v for v in RULES.ranges[p] if v != flat[p] and RULES.allows(p, v)]
        assert levels["alternative 1"][p] == alts[0]


def test_grouped_morris_reports_one_effect_per_factor(monkeypatch):
    design = R.Design(morris_trajectories=2, params=("tie_break", "turns.2"),
                      groups=(("costs", ("card.*.cost",)),))
    problem, X, points, _ = R.morris_design(RULES, design)
    assert len(X) == 2 * (3 + 1)                   # (factors + 1) points a trajectory
    assert set(problem["groups"]) == {"tie_break", "turns.2", "costs"}
    # a measure that only reads the rules (no games): the study's Morris table per factor
    fake = lambda rules, games, d: {"x": ("a", {"a": float(rules["card.Dive Bar.cost"])}, {"a": 0.0})}  # noqa: E731
    monkeypatch.setattr(R, "measure", fake)
    m = R.morris(RULES, design, fake(RULES, 0, design))
    assert set(m["parameter"]) == {"tie_break", "turns.2", "costs"}
    eff, sigma = m.set_index("parameter")["mu_star"], m.set_index("parameter")["sigma"]
    assert eff["costs"] > 0 and eff["tie_break"] == 0
    # SALib gives a single parameter's sigma, none for a group of several (docs/robustness.md)
    assert sigma[["tie_break", "turns.2"]].notna().all() and sigma.isna()["costs"]


@pytest.mark.parametrize("groups, params, says", [
    ((("g", ("card.*.nothing",)),), None, "matches no parameter"),
    ((("a", ("card.Dive Bar.cost",)), ("b", ("card.*.cost",))), None, "in two groups"),
    ((("tie_break", ("card.*.cost",)),), None, "the name is taken"),
    ((("g", ("card.*.cost",)),), ("card.Dive Bar.cost",), "named alone and in a group"),
    ((("g", ("card.*.cost", "tie_break")),), None, "mixes whole-number ranges and lists"),
])
def test_bad_groups_are_one_error_each(groups, params, says):
    with pytest.raises(ConfigError, match=says):
        R.check_factors(RULES, R.Design(params=params, groups=groups))


def test_one_morris_trajectory_is_refused():
    with pytest.raises(ConfigError, match="at least 2"):
        R.Design(morris_trajectories=1).check()


@pytest.mark.parametrize("spec", ["costs", "=card.*.cost", "costs=", "costs= , "])
def test_a_bad_group_option_is_one_line(spec):
    from cargo_sim.cli.analyses import parse_groups
    with pytest.raises(ConfigError, match="--group takes NAME=PATTERN"):
        parse_groups([spec])
    assert parse_groups(["c=card.*.cost, card.*.vp"]) == (("c", ("card.*.cost", "card.*.vp")),)
