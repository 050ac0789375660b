"""Macao's rules data obeys the rules text and its own stated estimation rules;
overrides, TOML round trip and bad input (docs/rules_macao.md)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from cargo_sim.core.errors import RulesError
from cargo_sim.games.macao import gen_defaults
from cargo_sim.games.macao.effects import EFFECTS, KINDS, cost_from_worth, describe, worth
from cargo_sim.games.macao.rules import Rules, components, effective_adjacency

ROOT = Path(__file__).resolve().parents[3]
R = Rules.default()
D = R.to_dict()
SEED = ROOT.parent.parent / "shared" / "seeds" / "003_3dbb7e0967e27831.txt"


# ---- the rules text -------------------------------------------------------------

def test_counts_match_the_rulebook():
    # macao_data.md: 120 cards = 24 office + 44 building + 52 person; 96 distinct others
    assert R.cards_of_kind("office") == 24
    assert R.cards_of_kind("building") == 44
    assert R.cards_of_kind("person") == 52
    others = [n for n, c in D["card"].items() if c["kind"] != "office"]
    assert len(others) == 96 and all(D["card"][n]["copies"] == 1 for n in others)
    offices = {n: c for n, c in D["card"].items() if c["kind"] == "office"}
    assert sorted(offices) == sorted(["Bau", "Finanzen", "Justiz", "Militärwesen", "Verwaltung", "Zoll"])
    # each office pays 1 cube of its own colour for 1 coin (seed 003), in colour order
    for i, name in enumerate(["Bau", "Finanzen", "Justiz", "Militärwesen", "Verwaltung", "Zoll"]):
        assert offices[name]["effect"] == "PAY_CUBE_FOR_COINS" and offices[name]["args"] == [i, 1, 1]
    assert D["colours"] == ["green", "grey", "blue", "black", "purple", "red"]
    assert len(D["goods"]) == 8 and D["tiles_per_good"] == 3 and D["jokers"] == 6
    assert D["rounds"] == 12 and D["start_coins"] == 5 and D["tableau_spaces"] == 5
    assert D["delivery_points"] == [5, 3, 2] and D["wall_step_costs"] == [1, 2]
    assert D["removed_cards"] == {"2": 2, "3": 1, "4": 0}
    assert len(D["port"]) == 8 and D["wall_spaces"] == 16


def test_player_counts():
    assert R.player_counts == [2, 3, 4]
    for n in (2, 3, 4):
        R.check_players(n)
        # players + 2 cards are offered each round (seed 003 lines 93-97)
        assert D["office_per_round"] + D["deck_per_round"] - R.removed_cards(n) == n + 2
    for bad in (1, 5, 2.0, True, "3"):
        with pytest.raises(RulesError, match="impossible player count"):
            R.check_players(bad)


def test_the_city_map():
    qs = R.quarters
    assert qs == list(range(1, 31))
    assert len(D["dark_quarters"]) == 6 and len(set(D["dark_quarters"])) == 6
    for diagonals in (True, False):
        r = R.replace(city_diagonals=diagonals)
        adj = effective_adjacency(r.to_dict())
        assert len(components(adj)) == 1                         # connected
        for q, ms in adj.items():
            assert 2 <= len(ms) <= 6, (q, ms)                    # a plausible quarter
            assert q not in ms and len(set(ms)) == len(ms)
            for m in ms:
                assert q in adj[m]                               # symmetric
        # planar: Euler's bound for a simple planar graph, E <= 3V - 6
        edges = sum(len(ms) for ms in adj.values()) // 2
        assert edges <= 3 * len(qs) - 6
    # the plain grid is the diagonal-free part of the default map
    grid = effective_adjacency(R.replace(city_diagonals=False).to_dict())
    assert sum(len(ms) for ms in grid.values()) // 2 == 5 * 5 + 6 * 4
    a = R.arrays()["adjacency"]
    assert (a == a.T).all() and a.trace() == 0 and a.sum() // 2 == edges_of(R)


def edges_of(r):
    return sum(len(r.neighbours(q)) for q in r.quarters) // 2


def test_dark_quarters_default_and_alternatives_do_not_touch_in_default():
    adj = effective_adjacency(D)
    dark = set(D["dark_quarters"])
    assert all(not (set(adj[q]) & dark) for q in dark)           # spread out (our choice)
    for alt in R.ranges["dark_quarters"]:
        R.replace(dark_quarters=alt)                             # every alternative is valid


def test_ports_and_goods():
    goods = D["goods"]
    assert R.port_names == ["Lisboa", "Barcelona", "Marseille", "Genova", "London", "Antwerpen",
                            "Amsterdam", "Hamburg"]
    count = {g: 0 for g in goods}
    for p in D["port"].values():
        assert len(p["goods"]) == 3
        for g in p["goods"]:
            count[g] += 1
    assert set(count.values()) == {3}                           # each good at 3 ports
    # per port: 8 ports x 3 scoring places = the 24 goods tiles
    assert len(D["port"]) * len(D["delivery_points"]) == len(goods) * D["tiles_per_good"]


def test_every_effect_code_known_and_args_fit():
    for name, c in D["card"].items():
        assert c["effect"] in EFFECTS, name
        assert len(c["args"]) == len(EFFECTS[c["effect"]].args), name
    used = {c["effect"] for c in D["card"].values()}
    assert used == set(EFFECTS)                                  # no code without a card
    arr = R.arrays()
    assert arr["card_effect"].shape == (102,) and arr["card_args"].shape == (102, 4)
    assert set(arr["card_kind"].tolist()) == {0, 1, 2} and len(KINDS) == 3


def test_effect_words_singular_and_plural():
    assert describe("GAIN_COINS", [1]) == "gain 1 coin"
    assert describe("GAIN_COINS", [2]) == "gain 2 coins"
    assert describe("PAY_CUBE_FOR_COINS", [1, 2, 1], D["colours"]) == \
        f"pay 2 cubes of {D['colours'][1]}, gain 1 coin"
    # the count before "[s]" decides, not a kind in between; "an office"
    assert describe("COINS_IF_COMPLETED", [0, 1, 3]) == \
        "if you have at least 1 completed office card: gain 3 coins"
    assert describe("COMPLETE_DISCOUNT", [0, 2]) == "completing an office card costs 2 cubes less"
    nouns = r"(coin|cube|point|space|time|side|card|tile)"
    for name, c in D["card"].items():
        text = describe(c["effect"], c["args"], D["colours"], D["goods"])
        assert not re.search(r"\[s\]|\(s\)|[{}]", text), (name, text)
        assert not re.search(rf"\b1 (more )?{nouns}s\b", text), (name, text)
        assert not re.search(rf"\b([02-9]|\d\d+) (more )?{nouns}\b(?!s)", text), (name, text)


def test_card_args_follow_the_seed_text():
    """Spot checks of effect arguments against the seed's card texts."""
    text = SEED.read_text(encoding="utf-8") if SEED.exists() else None
    checks = {"Bank": [2], "Gouverneur": [7], "Vizegouverneur": [4], "Bischof": [1, 2],
              "Edler": [2, 1], "Goldsucher": [3, 1, 1], "Graf": [4], "Steuermann": [1, 4],
              "Segelmacherei": [2], "Baumeister": [1, 2], "Statue": [3], "Sitzungssaal": [2],
              "Ratsherr": [3, 6], "Soldat": [4, 1], "Herold": [3], "Totengräber": [2],
              "Baronesa Um": [3, 4, 5, 1], "Wirt": [1, 3, 1], "Wirtshaus": [1, 3, 1]}
    for name, args in checks.items():
        assert D["card"][name]["args"] == args, name
    if text:
        lines = text.splitlines()
        for name, (_, _, _, line) in gen_defaults.CARDS.items():
            # the cited line is the card's effect, right after its German and Chinese names
            plain = name.upper().replace("Ä", "A").replace("Ö", "O").replace("Ü", "U") \
                .replace("ß", "SS").replace("Ñ", "N").replace("ZIMMERMANN", "ZIMMERMAN")
            assert lines[line - 3].strip() == plain, (name, line, lines[line - 3])


def test_costs_follow_the_stated_rule():
    """Estimated cube cost = 1 + ceil(worth / 2) within 2..6 (effects.cost_from_worth),
    so a card worth more never costs fewer cubes."""
    rows = []
    for name, c in D["card"].items():
        w = worth(c["effect"], c["args"])
        assert sum(c["cost"]) == cost_from_worth(w), name
        rows.append((w, sum(c["cost"]), name))
    rows.sort()
    for (w1, c1, n1), (w2, c2, n2) in zip(rows, rows[1:]):
        assert c1 <= c2, (n1, n2)
    assert min(c for _, c, _ in rows) >= 2 and max(c for _, c, _ in rows) <= 6
    # offices cost cubes of their own colour
    for name in ("Bau", "Zoll"):
        c = D["card"][name]
        assert c["cost"][c["args"][0]] == sum(c["cost"])


def test_generated_file_is_committed():
    path = ROOT / "cargo_sim" / "games" / "macao" / "rules_default.toml"
    assert path.read_text(encoding="utf-8") == gen_defaults.main(), \
        "rules_default.toml differs from gen_defaults.py: run python -m cargo_sim.games.macao.gen_defaults"


# ---- provenance and ranges ---------------------------------------------------------

MAP_AS_A_WHOLE = re.compile(r"quarter\.\d+\.(adjacent|row|col)$")


def test_every_value_has_a_source():
    for row in R.provenance_rows():
        assert row["status"] in ("rulebook", "review", "estimated", "decision"), row
        if row["status"] in ("rulebook", "review"):
            assert ":" in row["source"] and len(row["source"].split(":", 1)[1].strip()) > 5, row


def test_every_estimate_and_decision_has_a_range_with_its_default():
    ranges = R.ranges
    flat = R.flat()
    for name in flat:
        status = R.source_of(name).split(":")[0]
        if status not in ("estimated", "decision"):
            continue
        if MAP_AS_A_WHOLE.match(name):
            # the map varies as a whole (city_diagonals): one quarter's list cannot vary alone
            assert "city_diagonals" in ranges
            continue
        assert name in ranges, name
        assert flat[name] in ranges[name] and len(ranges[name]) >= 2, name


def test_every_range_value_is_valid_rules():
    """Each value of each range, one at a time, is a game the rules accept (replace
    raises otherwise); the default values are the default rules, valid already."""
    tried = 0
    for name, values in R.ranges.items():
        for value in values:
            if value != R[name]:
                assert R.replace({name: value})[name] == value
                tried += 1
    assert tried > len(R.ranges)


def test_rulings_are_options_with_both_sides():
    for name, alt in [("delivery_scoring", "per_good"), ("zero_cube_penalty", False),
                      ("tie_break", "coins"), ("tie_break", "shared"), ("set_scoring", "per_set"),
                      ("refund_scope", "every_card"), ("deliver_passing", False)]:
        assert R.source_of(name).startswith("decision")
        assert alt in R.ranges[name]
        assert R.replace({name: alt})[name] == alt


# ---- overrides and round trip ----------------------------------------------------------

def test_overrides_of_lists():
    r = R.replace({"quarter.1.adjacent": "2,7", "quarter.8.adjacent": [2, 7, 9, 14, 15],
                   "card.Bank.args": (3,), "start_cubes": "[2, 2]"})
    assert r["quarter.1.adjacent"] == [2, 7] and r["card.Bank.args"] == [3]
    assert r["start_cubes"] == [2, 2]
    assert r.source_of("quarter.1.adjacent") == "override"
    assert 1 not in r.neighbours(8) and r.digest != R.digest


def test_toml_round_trip():
    assert Rules.from_toml(R.to_toml()) == R
    r = R.replace({"delivery_scoring": "per_good", "card.Bank.cost": [0, 2, 0, 0, 0, 2],
                   "dark_quarters": [6, 12, 18, 23, 24, 30], "port.Lisboa.goods": ["tea"]})
    back = Rules.from_toml(r.to_toml())
    assert back == r and back.digest == r.digest
    assert Rules.default().digest == R.digest                   # deterministic


def test_from_file(tmp_path):
    f = tmp_path / "variant.toml"
    f.write_text('start_coins = 7\n[quarter.1]\nadjacent = [2, 7, 8]\n[quarter.8]\n'
                 'adjacent = [1, 2, 7, 9, 14, 15]\n', encoding="utf-8")
    r = Rules.from_file(f)
    assert r["start_coins"] == 7 and r["quarter.1.adjacent"] == [2, 7, 8]


# ---- bad input: one clear error each ------------------------------------------------------

def one_error(changes, *words):
    with pytest.raises(RulesError) as e:
        R.replace(changes)
    msg = str(e.value)
    assert "\n" not in msg and len(msg) < 400, msg
    for w in words:
        assert w in msg, msg
    return msg


def test_quarter_adjacent_to_itself():
    one_error({"quarter.8.adjacent": [2, 7, 8, 9, 14, 15]}, "quarter.8.adjacent", "cannot touch itself")


def test_asymmetric_override():
    msg = one_error({"quarter.1.adjacent": [2, 7, 8, 3]}, "quarter.1.adjacent", "lists 3",
                    "quarter.3.adjacent does not list 1")
    assert msg.count("quarter.") <= 3


def test_far_or_crossing_links():
    one_error({"quarter.1.adjacent": [2, 7, 8, 30], "quarter.30.adjacent": [23, 24, 29, 1]},
              "not next to")
    # quarter 3's grid cell (3, 4, 9, 10) has no diagonal: adding both would cross
    def plus(q, m):
        return sorted(R[f"quarter.{q}.adjacent"] + [m])
    one_error({"quarter.3.adjacent": plus(3, 10), "quarter.10.adjacent": plus(10, 3),
               "quarter.4.adjacent": plus(4, 9), "quarter.9.adjacent": plus(9, 4)},
              "would cross")


def test_unknown_effect_code():
    one_error({"card.Bank.effect": "GAIN_COIN"}, "card.Bank.effect", "unknown effect code 'GAIN_COIN'",
              "GAIN_COINS")


def test_wrong_args():
    one_error({"card.Bank.args": [2, 1]}, "card.Bank.args", "GAIN_COINS takes 1 argument")
    one_error({"card.Donna Blu.args": [6, 1]}, "colour", "0..5")
    one_error({"card.Bank.args": "2,x"}, "card.Bank.args", "not integers")
    one_error({"card.Bank.args": [[2]]}, "nested")


@pytest.mark.parametrize("changes, words", [
    ({"dark_quarters": [2, 5, 15, 18, 26]}, "one per joker tile"),
    ({"dark_quarters": [2, 5, 15, 18, 26, 26]}, "distinct"),
    ({"dark_quarters": [2, 5, 15, 18, 26, 31]}, "dark_quarters"),
    ({"quarter.3.cost": [1, 2, 3]}, "a list of 6 integers"),
    ({"card.Bank.kind": "shop"}, "card.Bank.kind"),
    ({"card.Bank.tribute_coins": 13}, "tribute_track_max"),
    ({"port.Lisboa.goods": ["gold"]}, "port.Lisboa.goods"),
    ({"port.Lisboa.space": 6}, "Barcelona"),
    ({"removed_cards.2": 5}, "removed_cards.2"),
    ({"delivery_scoring": "per_ship"}, "per_port, per_good"),
    ({"card.Bau.copies": 1, "card.Zoll.copies": 1}, "office cards"),
    ({"wall_step_costs": [1]}, "wall_step_costs"),
    ({"quarter.31.row": 9}, "quarter.31"),
    ({"card.Bank.colour": 1}, "unknown rules parameter"),
])
def test_bad_values(changes, words):
    one_error(changes, words)
