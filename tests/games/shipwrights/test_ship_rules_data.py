"""Shipwrights' rules data: what the seed and the sources give holds, every other value is
marked estimated with a range, and bad input is one RulesError line."""
import pytest

from cargo_sim.core.errors import RulesError
from cargo_sim.games.shipwrights.rules import Rules


def test_defaults_hold_what_is_known():
    r = Rules.default()
    assert r["deck_size"] == 128 and r["faces"] == 46 and len(r.card_names) == 46
    assert [len(r.names(k)) for k in ("craftsman", "building", "tool", "townsfolk")] == [7, 7, 4, 18]
    a = r.arrays()
    assert a["copies"].sum() == 128 and len(a["box"]) == 128 and len(a["box_back"]) == 128
    assert (r["gold_max"], r["mill_capacity"], r["village_capacity"], r["start_gold"],
            r["start_workers"], r["start_goods"], r["max_craftsmen"], r["shipyards"]) == (12, 8, 8, 5, 3, 2, 4, 2)
    civil = [n for n in r.names("ship") if r[f"ship.{n}.military"] == 0]
    assert civil == ["Ferje", "Byrding", "Knarr"]           # the Boat House's list (seed line 7)
    assert {"Assassin", "Barbarian", "Conspirator", "Pioneer", "Watchman", "Mercenary", "Raider",
            "Berserker", "Thief", "Chieftain", "Sage", "Beggar", "Labourer", "Merchant", "Trader",
            "King", "Queen", "Navigator"} == set(r.names("townsfolk"))
    assert set(r.names("building")) == {"Long House", "Mining Camp", "Church", "Fortress", "Treasury",
                                        "Boat House", "Market Hall"}
    assert set(r.names("tool")) >= {"Bow Saw", "Spindle Whorl", "Smelting Furnace"}


def test_every_value_has_a_source_and_every_estimate_a_range():
    r = Rules.default()
    rows = r.provenance_rows()
    assert all(row["status"] in ("rulebook", "review", "estimated", "decision") for row in rows)
    assert not [row["parameter"] for row in rows if row["status"] == "unknown"]
    ranges = r._data["range"]
    for name in r.estimated:
        if isinstance(r[name], int) and not isinstance(r[name], bool):
            assert name in ranges, name
    assert r["back.A.goods"] == [2, 3, 1] and r.source_of("back.A.goods").startswith("rulebook")
    assert r.source_of("gold_max").startswith("rulebook")
    assert r.source_of("tie_break").startswith("decision")


def test_ships_cost_more_the_more_points_they_give():
    r = Rules.default()
    ships = r.names("ship")
    cost = {n: r[f"ship.{n}.gold"] + r[f"ship.{n}.workers"] + sum(r[f"ship.{n}.goods"])
            + r[f"ship.{n}.craftsmen"] for n in ships}
    for a in ships:
        for b in ships:
            if r[f"ship.{a}.points"] > r[f"ship.{b}.points"]:
                assert cost[a] >= cost[b]


def test_toml_round_trip():
    r = Rules.default().replace(**{"ship.Knarr.points": 5, "ship.Drakkar.points": 8})
    back = Rules.from_toml(r.to_toml())
    assert back == r and back.digest == r.digest


@pytest.mark.parametrize("change, message", [
    ({"craftsman.Carpenter.builds": ["Dragon"]}, "craftsman.Carpenter.builds: must name ships"),
    ({"ship.Karfi.gold": 0, "ship.Karfi.workers": 0, "ship.Karfi.goods": [0, 0, 0]},
     "ship.Karfi: a ship costs something"),
    ({"ship.Karfi.copies": 4}, "deck_size: the deck holds 128 cards, the copies add up to 129"),
    ({"tool.Bow Saw.price": -1}, "tool.Bow Saw.price: must be from 0 to 50, got -1"),
    ({"building.Church.gold": -2}, "building.Church.gold: must be from 0 to 50"),
    ({"townsfolk.King.effect": "fly"}, "townsfolk.King.effect: must be one of"),
    ({"townsfolk.King.args": [1, 2]}, "townsfolk.King.args: effect gain_gold takes 1 numbers"),
    ({"tie_break": "coin_flip"}, "tie_break: must be one of gold, shared"),
    ({"ship.Drakkar.points": 1}, "gives more points than"),
    ({"back.A.copies": 41}, "back.*.copies: one back per card (128), got 129"),
    ({"faces": 45}, "faces: the deck has 45 distinct cards, the tables name 46"),
    ({"n_townsfolk": 17}, "townsfolk: 17 kinds (n_townsfolk), got 18"),
])
def test_bad_rules_are_one_line(change, message):
    with pytest.raises(RulesError) as info:
        Rules.default().replace(change)
    assert message in str(info.value) and "\n" not in str(info.value)


def test_an_unknown_card_name_in_a_rules_file_is_refused():
    text = '[craftsman.Carpenter]\nbuilds = ["Karfi", "Longboat"]\n'
    with pytest.raises(RulesError, match="unknown \\['Longboat'\\]"):
        Rules.from_toml(text)
    with pytest.raises(RulesError, match="unknown rules parameter 'ship.Karfi.sails'"):
        Rules.from_toml("[ship.Karfi]\nsails = 2\n")


@pytest.mark.parametrize("text, message", [
    ("[ship.Longboat]\npoints = 3\n", "ship.Longboat.copies: missing"),           # a card the box lacks
    ("[townsfolk.Jester]\neffect = \"gain_gold\"\n", "townsfolk.Jester.copies: missing"),
    ("deck_size = 127\n", "deck_size: the deck holds 127 cards, the copies add up to 128"),
    ("deck_size = 300\n", "deck_size: the kernels hold at most 256 cards, got 300"),
    ("[ship.Knarr]\ngold = -1\n", "ship.Knarr.gold: must be from 0 to 50, got -1"),
    ("[building.Church]\ngold = -2\n", "building.Church.gold: must be from 0 to 50, got -2"),
])
def test_bad_rules_files_are_one_line(text, message):
    with pytest.raises(RulesError) as info:
        Rules.from_toml(text)
    assert message in str(info.value) and "\n" not in str(info.value)
