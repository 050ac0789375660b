"""analyses.robustness: sweeps with common random numbers, Morris screening,
verdicts, the written report and the marks the demo report carries."""
import json

import pytest

from analyses import robustness as R
from analyses.robustness_report import write_report
from cargo_sim import Rules
from cargo_sim.core.errors import ConfigError

RULES = Rules.default()
TINY = R.Design(games=40, morris_games=20, morris_trajectories=1, player_counts=(2,), seed=3,
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


@pytest.mark.slow
def test_written_report_and_marks(result, tmp_path):
    out = tmp_path / "robustness"
    path = write_report(result, out, command="test")
    text = path.read_text()
    assert "## Verdicts" in text and "common random numbers" in text
    assert "## Under stronger play\n\n<!-- strong_play -->\n" in text    # analyses.strong_play's block
    assert (out / "figures" / "tornado_seat.2.png").exists()
    marks = R.load_marks(out)
    assert set(marks) == set(result["base"])
    lines, link = R.mark_highlights(["2 players: best seat 1 wins", "Games with a bank shortfall: 2p",
                                     "something else"], RULES, tmp_path / "demo", folder=out)
    assert lines[0].endswith(f"[robustness: seat.2: {marks['seat.2']}]")
    assert f"bank.2: {marks['bank.2']}" in lines[1] and lines[2].endswith("[robustness: not assessed]")
    assert "](../robustness/index.md)" in link           # both in tmp_path: a relative link
    other, none = R.mark_highlights(["2 players: best seat 1"], RULES.replace(start_coins=8),
                                    tmp_path, folder=out)
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
