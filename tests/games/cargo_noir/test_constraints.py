"""Issue 27, part 2: the rulebook's constraints between parameters ([constraint]
in the rules data): a common card's VP is tied to its cost, a unique card's VP
is above its cost, a Smuggler's Edge card's below. Every variant the robustness
study generates obeys them; an override that breaks one is a one-line error;
malformed declarations and contradictory ranges are refused."""
import json
import operator
from pathlib import Path

import pytest

from analyses import robustness as R
from cargo_sim import Rules, RulesError
from cargo_sim.cli import main

RULES = Rules.default()
OPS = {"=": operator.eq, "<": operator.lt, ">": operator.gt, "<=": operator.le, ">=": operator.ge}
KINDS = {"common": "=", "unique": ">", "edge": "<"}


def assert_legal(rules):
    """Every constraint of the default rules holds in ``rules``."""
    for a, (op, b) in RULES.constraints.items():
        assert OPS[op](rules[a], rules[b]), (a, op, b, rules[a], rules[b])


def esc(s):
    return s.replace("[", r"\[").replace("]", r"\]").replace("*", r"\*").replace(".", r"\.")


# ---- the rulebook's constraints, as data ------------------------------------------
def test_every_card_has_its_kinds_rulebook_constraint():
    for c in RULES.card_names:
        op = KINDS[RULES[f"card.{c}.kind"]]
        assert RULES.constraints[f"card.{c}.vp"] == (op, f"card.{c}.cost")
    assert set(RULES.tied) == {f"card.{c}.vp" for c in ("Dive Bar", "Night Club", "Yacht", "Villa")}
    assert_legal(RULES)


def test_a_tied_vp_moves_with_its_cost_and_is_recorded_as_an_override():
    r = RULES.replace({"card.Dive Bar.cost": 12})
    assert r["card.Dive Bar.vp"] == 12 and r["card.Dive Bar.cost"] == 12
    assert r.overrides == {"card.Dive Bar.cost": 12, "card.Dive Bar.vp": 12}
    assert r.source_of("card.Dive Bar.vp") == "override"
    assert r.replace({"card.Dive Bar.cost": 9})["card.Dive Bar.vp"] == 9    # and again
    both = RULES.replace({"card.Villa.cost": 27, "card.Villa.vp": 27})     # both, equal: fine
    assert both["card.Villa.vp"] == 27
    assert RULES.replace({"card.Villa.cost": 25}) == RULES                 # no change, no override


def test_the_checker_refuses_dive_bar_vp_8_at_cost_10():
    assert not RULES.allows("card.Dive Bar.vp", 8) and not RULES.allows("card.Dive Bar.vp", 12)
    assert RULES.allows("card.Dive Bar.vp", 10) and RULES.allows("card.Dive Bar.cost", 8)
    with pytest.raises(RulesError) as e:
        RULES.replace({"card.Dive Bar.vp": 8})
    msg = str(e.value)
    assert "\n" not in msg
    assert "card.Dive Bar.vp = 8 breaks the constraint card.Dive Bar.vp = card.Dive Bar.cost" in msg
    assert "(card.Dive Bar.cost is 10)" in msg and "change card.Dive Bar.cost instead" in msg


@pytest.mark.parametrize("over", [
    {"card.Show Business.cost": 32, "card.Show Business.vp": 31},     # the audit's Morris draw
    {"card.Show Business.vp": 30},                                     # equal is not above
    {"card.Cargo Ship.vp": 15},                                        # edge: below the cost
    {"card.Warehouses.cost": 3},
    {"card.Villa.cost": 27, "card.Villa.vp": 25},
])
def test_overrides_that_break_the_rulebook_are_refused(over):
    with pytest.raises(RulesError, match="breaks the constraint"):
        RULES.replace(over)


def test_overrides_where_the_rulebook_is_silent_are_free():
    # nothing relates two cards: a Dive Bar dearer than a Villa is a strange board, not a
    # contradiction of the texts
    r = RULES.replace({"card.Dive Bar.cost": 30, "card.Show Business.cost": 20,
                       "card.Show Business.vp": 21})
    assert r["card.Dive Bar.vp"] == 30
    assert_legal(r)


def test_cli_set_that_breaks_a_constraint_is_one_line(capsys):
    rc = main(["rules", "--set", "card.Dive Bar.vp=8"])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and "Traceback" not in err
    assert "breaks the constraint card.Dive Bar.vp = card.Dive Bar.cost" in err


# ---- rules files ----------------------------------------------------------------
def test_a_rules_file_may_lift_a_constraint_explicitly(tmp_path):
    f = tmp_path / "r.toml"
    f.write_text('[card."Dive Bar"]\nvp = 12\n[constraint]\n"card.Dive Bar.vp" = "none"\n')
    r = Rules.from_file(f)
    assert r["card.Dive Bar.vp"] == 12 and r["card.Dive Bar.cost"] == 10
    assert "card.Dive Bar.vp" not in r.constraints and r.digest != RULES.digest
    assert Rules.from_toml(r.to_toml()) == r                             # saved and read back
    g = tmp_path / "g.toml"                                              # without the lift: refused
    g.write_text('[card."Dive Bar"]\nvp = 12\n')
    with pytest.raises(RulesError, match="breaks the constraint"):
        Rules.from_file(g)


def test_a_rules_file_changing_a_common_cost_moves_its_vp(tmp_path):
    f = tmp_path / "r.toml"
    f.write_text('[card.Yacht]\ncost = 21\n')
    assert Rules.from_file(f)["card.Yacht.vp"] == 21


def test_full_rules_text_round_trips_with_its_constraints():
    text = RULES.to_toml()
    assert "[constraint]" in text
    assert Rules.from_toml(text) == RULES


def test_a_saved_run_from_before_the_constraints_still_loads():
    # its rules file has a range row for each common VP (the same as its cost's) and no
    # [constraint]: read over today's defaults it gives its own values back
    data = Path(__file__).parents[2] / "runners" / "data" / "run_folder_v1" / "manifest.json"
    text = json.loads(data.read_text())["rules_toml"]
    r = Rules.from_toml(text)
    assert r["card.Cargo Ship.cost"] == 12 and r["card.Dive Bar.vp"] == 10
    assert "card.Dive Bar.vp" not in r.ranges
    assert_legal(r)
    # read as saved (a run folder's manifest): exactly its data, so its digest, with no
    # constraint it did not have; the overrides are what differs from today's defaults
    manifest = json.loads(data.read_text())
    saved = Rules.from_saved(text)
    assert saved.digest == manifest["rules_digest"] and saved.constraints == {}
    assert saved.overrides == {"card.Cargo Ship.cost": 12}
    assert Rules.from_saved('start_coins = 9\n') == RULES.replace(start_coins=9)    # a partial file


@pytest.mark.parametrize("rows, match", [
    ('"card.Dive Bar.vp" = "card.Dive Bar.cost"', "must be '= NAME'"),
    ('"card.Dive Bar.vp" = "== card.Dive Bar.cost"', "must be '= NAME'"),
    ('"card.Dive Bar.vp" = "="', "must be '= NAME'"),
    ('"card.Dive Bar.vp" = 3', "must be '= NAME'"),
    ('"card.Dive Bar.vp" = "= card.Nope.cost"', "unknown rules parameter 'card.Nope.cost'"),
    ('"card.Nope.vp" = "= card.Dive Bar.cost"', "unknown rules parameter 'card.Nope.vp'"),
    ('"card.Nope.vp" = "none"', "unknown rules parameter 'card.Nope.vp'"),
    ('"card.Dive Bar.vp" = "= card.Dive Bar.vp"', "constrained by itself"),
    ('"card.Dive Bar.kind" = "= card.Dive Bar.cost"', "whole-number parameters"),
    ('"card.Dive Bar.cost" = "< card.Yacht.cost"', "chains are not supported"),
    ('"card.Yacht.vp" = "= card.Villa.cost"', "card.Yacht.vp = 20 breaks the constraint"),
    ('"start_coins" = "> casino_payout"\n"casino_payout" = ">= start_coins"', "chains"),
])
def test_malformed_constraint_declarations_are_refused(tmp_path, rows, match):
    f = tmp_path / "r.toml"
    f.write_text("[constraint]\n" + rows + "\n")
    with pytest.raises(RulesError, match=esc(match)):
        Rules.from_file(f)


def test_constraint_must_be_a_table(tmp_path):
    f = tmp_path / "r.toml"
    f.write_text("constraint = 3\n")
    with pytest.raises(RulesError, match="constraint: must be a table"):
        Rules.from_file(f)


@pytest.mark.parametrize("rows, match", [
    ('"card.Dive Bar.vp" = [5, 15]', "range.card.Dive Bar.vp: card.Dive Bar.vp is tied to card.Dive Bar.cost"),
    ('"card.Show Business.vp" = [20, 29]', "contradict the constraint card.Show Business.vp > card.Show Business.cost"),
    ('"card.Show Business.cost" = [28, 40]', "card.Show Business.cost = 40 leaves the other no legal value"),
    ('"card.Cargo Ship.vp" = [3, 20]', "card.Cargo Ship.vp = 20 leaves the other no legal value"),
])
def test_contradictory_ranges_are_refused(tmp_path, rows, match):
    f = tmp_path / "r.toml"
    f.write_text("[range]\n" + rows + "\n")
    with pytest.raises(RulesError, match=esc(match)):
        Rules.from_file(f)


def test_a_range_that_repeats_the_leaders_is_redundant_not_contradictory(tmp_path):
    f = tmp_path / "r.toml"
    f.write_text('[range]\n"card.Dive Bar.vp" = [8, 12]\n')
    r = Rules.from_file(f)
    assert "card.Dive Bar.vp" not in r.ranges and r.ranges["card.Dive Bar.cost"] == [8, 9, 10, 11, 12]


# ---- the ranges the issue fixed --------------------------------------------------
def test_ranges_follow_the_provenance_and_the_new_evidence():
    rg = RULES.ranges
    assert rg["card.Principality.cost"] == list(range(58, 63))           # +-2
    assert rg["card.Principality.vp"] == list(range(67, 74))             # +-3
    assert RULES["card.Cargo Ship.cost"] == 15                           # the play report's 10 or 15
    for c in ("Cargo Ship", "Warehouses", "Syndicate"):
        assert {10, 15} <= set(rg[f"card.{c}.cost"]), c
    assert rg["start_warehouse"] == [6, 7]
    for p in ("Hong Kong", "Rio", "Bombay", "Tanger"):
        assert len(rg[f"port.{p}.players"]) >= 2, p
    assert "gamersalliance.com" in RULES.source_of("black_market_slots")
    assert "countermagazineonline" in RULES.source_of("start_warehouse")
    assert "katz2019" in RULES.source_of("start_warehouse")
    assert "2 of its 9 entries" in RULES.source_of("value_same")
    assert "2 of its 9 entries" in RULES.source_of("value_different")


# ---- the robustness study generates legal rules only ------------------------------
def test_every_one_at_a_time_variant_is_legal():
    variants = R.oat_variants(RULES, R.Design())
    names = {p for p, _ in variants}
    assert not names & set(RULES.tied)                   # a tied VP is never varied alone
    assert {"card.Dive Bar.cost", "card.Show Business.vp", "start_warehouse"} <= names
    for p, v in variants:
        r = RULES.replace({p: v})
        assert_legal(r)
        if p in RULES.tied.values():                     # the pair moved together
            follower = next(a for a, b in RULES.tied.items() if b == p)
            assert r[follower] == v


@pytest.mark.parametrize("trajectories, seed", [(4, 1), (10, 7)])
def test_every_morris_point_is_legal(trajectories, seed):
    design = R.Design(morris_trajectories=trajectories, seed=seed)
    problem, X, points, resets = R.morris_design(RULES, design)
    assert len(points) == len(X) == len(resets) and not set(problem["names"]) & set(RULES.tied)
    for over, reset in zip(points, resets):
        assert_legal(RULES.replace(over))
        assert all(p.endswith(".players") for p in reset)     # only whole-board repairs
    # the audit's draw (Show Business VP 31 at cost 32) cannot happen: VP is drawn above the cost
    sb = {(o["card.Show Business.cost"], o["card.Show Business.vp"]) for o in points}
    assert all(vp > cost for cost, vp in sb)


def test_morris_rescales_a_bound_vp_onto_its_legal_part():
    ranges = {"card.Show Business.cost": list(range(28, 33)), "card.Show Business.vp": list(range(31, 38))}
    lo = R.morris_overrides(RULES, ranges, [32.0, 31.0])
    hi = R.morris_overrides(RULES, ranges, [32.0, 37.0])
    mid = R.morris_overrides(RULES, ranges, [28.0, 33.0])
    assert lo["card.Show Business.vp"] == 33 and hi["card.Show Business.vp"] == 37
    assert mid["card.Show Business.vp"] == 33          # no constraint bites: the value itself


def test_repair_keeps_the_fewest_draws_at_their_defaults():
    closed = {f"port.{p}.players": [3, 4, 5] for p in ("Hong Kong", "Rio", "Bombay", "Panama")}
    with pytest.raises(RulesError, match="no port is open for 2 players"):
        RULES.replace(closed)
    over, reset = R.repair(RULES, {**closed, "turns.2": 12})
    assert len(reset) == 1 and over[reset[0]] == RULES[reset[0]] and over["turns.2"] == 12
    RULES.replace(over)
    fine = {"turns.2": 12}
    assert R.repair(RULES, fine) == (fine, [])
