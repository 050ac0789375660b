"""Cargo Empire's rules data and map machinery: the default data is valid and flagged,
payments follow the rulebook (no overpaying, the land-route exception), bad maps are
one-line RulesErrors naming the entry, a printed map in a file replaces the default
one, generated maps are connected and reproducible."""
import textwrap

import pytest

from cargo_sim.core.errors import RulesError
from cargo_sim.games.cargo_empire import maps
from cargo_sim.games.cargo_empire.rules import Rules

SMALL_MAP = textwrap.dedent("""
    # a printed map, entered whole: 4 cities, 2 ports
    [city.Alpha]
    port = true
    small = true
    land = ["Beta"]
    sea = ["Delta"]

    [city.Beta]
    port = false
    small = true
    land = ["Gamma"]
    sea = []

    [city.Gamma]
    port = false
    small = true
    land = []
    sea = []

    [city.Delta]
    port = true
    small = true
    land = ["Gamma"]
    sea = []
""")


def small():
    return Rules.from_toml("map_cities = 4\n" + SMALL_MAP)


def opts(rules, a, b):
    c = rules.compiled()
    names = list(c["names"])
    i, j = names.index(a), names.index(b)
    at, n = c["pay_start"][i, j], c["pay_count"][i, j]
    return sorted((w & 255, (w >> 8) & 255, w >> 16) for w in c["pay"][at:at + n])


def test_the_default_rules_are_valid_and_every_unpublished_value_is_flagged_estimated():
    r = Rules.default()
    assert len(r.cities()) == 24 and sum(c["port"] for c in r.cities().values()) == 11
    est = r.estimated
    for name in ("city.Paris.land", "tile.T01.lv1", "dev.a01A.upper", "mission.M01.vp", "score_track"):
        assert name in est, name
    assert r.source_of("rounds").startswith("rulebook")


def test_a_run_of_land_segments_is_paid_without_an_unused_card():
    assert maps.run_hands(1) == {(1, 0), (0, 1)}          # a train may go one segment
    assert maps.run_hands(2) == {(2, 0), (0, 1)}          # not a truck and a train (line 122)
    assert maps.run_hands(3) == {(3, 0), (1, 1), (0, 2)}


def test_routes_are_shortest_with_the_land_exception():
    r = Rules.default()
    assert opts(r, "Lisbon", "Madrid") == [(0, 1, 0), (1, 0, 0)]
    # London has no rail: a ship to Amsterdam, then one segment (truck or train)
    assert opts(r, "London", "Paris") == [(0, 1, 1), (1, 0, 1)]
    # Lisbon -> Hamburg: one crossing, or the 7 land segments instead (line 124)
    o = opts(r, "Lisbon", "Hamburg")
    assert (0, 0, 1) in o and (7, 0, 0) in o and (1, 3, 0) in o and (0, 4, 0) in o
    assert all(s == 0 for t, tr, s in o if (t, tr, s) != (0, 0, 1))
    no_exception = r.replace(land_exception=False)
    assert opts(no_exception, "Lisbon", "Hamburg") == [(0, 0, 1)]
    # a crossing worth two segments: Lisbon -> Barcelona by land (2) ties the ship
    assert (0, 0, 1) in opts(r.replace(sea_hop_length=2), "Lisbon", "Barcelona")


def test_the_12_city_map_is_the_small_cities():
    r = Rules.default().replace(map_cities=12)
    assert len(r.cities()) == 12 and "Lisbon" not in r.cities()
    with pytest.raises(RulesError, match="map_cities: the map has 24 cities"):
        Rules.default().replace(map_cities=13)


def test_a_printed_map_in_a_file_replaces_the_default_map(tmp_path):
    r = small()
    assert list(r.cities()) == ["Alpha", "Beta", "Gamma", "Delta"]
    assert opts(r, "Alpha", "Delta") == [(0, 0, 1), (0, 2, 0), (1, 1, 0), (3, 0, 0)]
    path = tmp_path / "map.toml"
    path.write_text("map_cities = 4\n" + SMALL_MAP)
    assert Rules.from_file(path).cities() == r.cities()


@pytest.mark.parametrize("change, message", [
    ('[city.Gamma]\nport = false\nsmall = true\nland = []\nsea = []\n[city.Epsilon]\nport = false\n'
     'small = true\nland = []\nsea = []', "city.Epsilon: the map is not connected"),
    ("", "city.Delta: a port with no sea link"),
    ('[city.Beta]\nport = false\nsmall = true\nland = ["Gamma"]\nsea = []', "Cannot declare.*Beta.*twice"),
    ('[city.Zeta]\nport = false\nsmall = true\nland = ["Omega"]\nsea = []', "city.Zeta.land: unknown city 'Omega'"),
    ('[city.Zeta]\nport = false\nsmall = true\nland = ["Beta", "Beta"]\nsea = []', "city.Zeta.land: a city named twice"),
])
def test_a_bad_map_is_one_line_naming_the_entry(change, message):
    text = "map_cities = 4\n" + SMALL_MAP + change
    if message.startswith("city.Delta"):
        text = text.replace('sea = ["Delta"]', "sea = []")
    if "Epsilon" in message:
        text = text.replace("map_cities = 4", "map_cities = 5").replace(
            "[city.Gamma]\nport = false\nsmall = true\nland = []\nsea = []\n[city.Epsilon]", "[city.Epsilon]")
    if "Zeta" in message:
        text = text.replace("map_cities = 4", "map_cities = 5")
    with pytest.raises(RulesError, match=message) as info:
        Rules.from_toml(text)
    assert "\n" not in str(info.value)


def test_a_tile_of_an_unknown_colour_is_one_line_naming_the_tile():
    with pytest.raises(RulesError, match=r"tile.T03.lv2: unknown colour 'purple'") as info:
        Rules.default().replace({"tile.T03.lv2": ["purple", "white", "grey"]})
    assert "\n" not in str(info.value)


def test_generated_maps_are_reproducible_connected_and_sized():
    a = maps.generate(7, 18, 0.4, 2.5)
    assert a == maps.generate(7, 18, 0.4, 2.5) and a != maps.generate(8, 18, 0.4, 2.5)
    assert maps.map_problems(a) == [] and len(a) == 18
    assert sum(c["port"] for c in a.values()) == 7
    b = maps.board(a)
    assert sum(len(x) for x in b.land) / 18 == pytest.approx(2.5, abs=0.15)
    r = Rules.default().replace(map_seed=3, gen_cities=16)
    assert len(r.compiled()["names"]) == 16
