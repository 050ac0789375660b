"""Array-valued rules parameters (core.rules.IntList) on a small synthetic game:
flat names, overrides (lists, tuples, arrays, "12,16,18" text), provenance,
ranges, digest, TOML round trip, and one clear error per malformed value."""
from __future__ import annotations

import tomllib

import numpy as np
import pytest

from cargo_sim.core.errors import RulesError
from cargo_sim.core.rules import IntList, RulesBase

TOML = """
game = "toy"
name = "toy (default)"
min_players = 2
max_players = 4
start = [1, 2]

[bonus]
2 = [3]
3 = [3, 2]

[node.1]
weight = 2
adjacent = [2]

[node.2]
weight = 3
adjacent = [1, 3]

[node.3]
weight = 1
adjacent = [2]

[provenance]
"min_players" = "rulebook"
"max_players" = "rulebook"
"start" = "rulebook: page 1"
"bonus.*" = "estimated: a guess"
"node.*.weight" = "rulebook"
"node.*.adjacent" = "estimated: a drawn map"

[range]
"bonus.2" = [[2], [4]]
"start" = [[1, 1], [2, 2]]
"""


class ToyRules(RulesBase):
    SCALARS = {"game": str, "name": str, "min_players": int, "max_players": int,
               "start": IntList(min_len=2, max_len=2, lo=0, hi=9)}
    KEYED = {"bonus": IntList(max_len=3)}
    TABLES = {"node": ({"weight": int, "adjacent": IntList(min_len=1, max_len=4, lo=1, hi=9)},
                       {"weight": 1})}

    @classmethod
    def default_data(cls):
        return tomllib.loads(TOML)

    @classmethod
    def validate(cls, data):
        p = cls.list_problems(data) + cls.provenance_problems(data) + cls.range_problems(data)
        if p:
            return p
        nodes = data["node"]
        for n, node in nodes.items():
            for m in node["adjacent"]:
                if str(m) == n:
                    p.append(f"node.{n}.adjacent: node {n} cannot touch itself")
                elif str(m) not in nodes or int(n) not in nodes[str(m)]["adjacent"]:
                    p.append(f"node.{n}.adjacent: {m} is listed but node.{m}.adjacent does not list {n}")
        return p


def test_flat_names_provenance_and_ranges():
    r = ToyRules.default()
    flat = r.flat()
    assert flat["start"] == [1, 2] and flat["bonus.3"] == [3, 2] and flat["node.2.adjacent"] == [1, 3]
    assert r["node.2.adjacent"] == [1, 3]
    assert r.source_of("node.2.adjacent").startswith("estimated")
    assert "node.2.adjacent" in r.estimated and "bonus.2" in r.estimated
    rows = {row["parameter"]: row for row in r.provenance_rows()}
    assert rows["start"]["value"] == [1, 2] and rows["start"]["status"] == "rulebook"
    assert r.ranges["bonus.2"] == [[3], [2], [4]]
    assert r.ranges["start"] == [[1, 2], [1, 1], [2, 2]]


@pytest.mark.parametrize("value", [[1, 3], (1, 3), np.array([1, 3]), np.array([1, 3], np.int32),
                                   [np.int64(1), np.int64(3)], "1,3", " [1, 3] ", "1, +3"])
def test_override_forms(value):
    r = ToyRules.default().replace({"start": value})
    assert r["start"] == [1, 3] and type(r["start"][0]) is int
    assert r.source_of("start") == "override"


def test_override_empty_list_and_table_field():
    r = ToyRules.default().replace({"bonus.2": "", "bonus.3": "[]"})
    assert r["bonus.2"] == [] and r["bonus.3"] == []
    r = ToyRules.default().replace({"node.1.adjacent": "2,3", "node.3.adjacent": [2, 1]})
    assert r["node.1.adjacent"] == [2, 3]
    assert r.source_of("node.1.adjacent") == "override"


def test_digest_changes_with_a_list_and_is_stable():
    r = ToyRules.default()
    assert r.digest == ToyRules.default().digest
    assert r.replace(start=[1, 3]).digest != r.digest
    assert r.replace(start="1,2").digest == r.digest       # the same list: the same rules
    assert r.replace(start="1,2").overrides == {}


def test_toml_round_trip():
    r = ToyRules.default().replace({"start": [4, 5], "bonus.2": [], "node.1.adjacent": [2, 3],
                                    "node.3.adjacent": [2, 1]})
    text = r.to_toml()
    back = ToyRules.from_toml(text)
    assert back == r and back.digest == r.digest
    assert back["node.1.adjacent"] == [2, 3] and back["bonus.2"] == []
    assert ToyRules.from_toml(ToyRules.default().to_toml()) == ToyRules.default()


@pytest.mark.parametrize("name, value, words", [
    ("start", [1, "a"], "entry 1 is 'a', not an integer"),
    ("start", [1, 2.5], "entry 1 is 2.5, not an integer"),
    ("start", [1, True], "entry 1 is True, not an integer"),
    ("start", [[1], [2]], "entry 0 is nested"),
    ("start", [1, 2, 3], "3 entries, at most 2"),
    ("start", [1], "1 entries, at least 2"),
    ("start", [1, 10], "entry 1 is 10, outside 0..9"),
    ("start", 7, "not a list"),
    ("start", "1;2", "text, not integers separated by commas"),
    ("start", "1,,2", "text, not integers separated by commas"),
    ("start", "1,x", "text, not integers separated by commas"),
    ("start", np.array([[1, 2]]), "not a list"),
    ("start", np.array([1.0, 2.0]), "not a list"),
    ("bonus.2", list(range(4)), "4 entries, at most 3"),
    ("node.1.adjacent", [], "0 entries, at least 1"),
])
def test_malformed_value_one_line_error(name, value, words):
    with pytest.raises(RulesError) as e:
        ToyRules.default().replace({name: value})
    msg = str(e.value)
    assert words in msg and name in msg and "\n" not in msg and len(msg) < 300
    assert msg.count(": must be") == 1          # one problem, one message


def test_game_checks_see_the_lists():
    with pytest.raises(RulesError, match="node.1.adjacent: node 1 cannot touch itself"):
        ToyRules.default().replace({"node.1.adjacent": [1, 2]})
    with pytest.raises(RulesError, match="node.1.adjacent: 3 is listed but node.3.adjacent does not list 1"):
        ToyRules.default().replace({"node.1.adjacent": "2,3"})


def test_bad_lists_in_toml_and_ranges():
    with pytest.raises(RulesError, match=r"start: must be a list of 2 integers from 0 to 9, got \[1, 'x'\]"):
        ToyRules.from_toml('start = [1, "x"]')
    with pytest.raises(RulesError, match="entry 0 is nested"):
        ToyRules.from_toml("start = [[1, 2], [3, 4]]")
    with pytest.raises(RulesError, match=r"range.start\[1\]: must be a list of 2 integers"):
        ToyRules.default().with_meta({"range": {"start": [[1, 1], [1, 2, 3]]}})
    with pytest.raises(RulesError, match="alternatives must be of the parameter's type"):
        ToyRules.default().with_meta({"range": {"start": [3]}})


def test_long_and_huge_values_stay_one_short_line():
    with pytest.raises(RulesError) as e:
        ToyRules.default().replace({"bonus.2": list(range(10**5))})
    assert len(str(e.value)) < 300 and "100000 entries, at most 3" in str(e.value)
    with pytest.raises(RulesError) as e:
        ToyRules.default().replace({"start": "1," + "9" * 100})
    assert len(str(e.value)) < 300 and "text, not integers" in str(e.value)


def test_describe():
    assert IntList().describe() == "a list of at most 1000 integers"
    assert IntList(1, 8, lo=1, hi=30).describe() == "a list of 1 to 8 integers from 1 to 30"
    assert IntList.parse("[ -1, 2 ]") == [-1, 2] and IntList.parse(" ") == []
