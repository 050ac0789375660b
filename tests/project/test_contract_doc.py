"""docs/contract.md's member table is the contract in code, both ways: every documented
member exists, every member is documented, and each is marked as the code has it
(required, required with GameBase's default, or optional in its capability)."""
import re
from pathlib import Path

from cargo_sim.core.contract import CAPABILITIES, GAME_MEMBERS, GameBase

DOC = Path(__file__).resolve().parents[2] / "docs" / "contract.md"
ROW = re.compile(r"^\| `(\w+)` \| (required|required \(default\)|optional \((\w+)\)) \|", re.M)


def documented() -> dict:
    """member -> its mark in the table of section 2."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## 2. The Game protocol", 1)[1].split("\n## ", 1)[0]
    rows = ROW.findall(section)
    assert rows, "no member table in docs/contract.md section 2"
    names = [r[0] for r in rows]
    assert len(names) == len(set(names)), "a member documented twice"
    return {name: mark for name, mark, _ in rows}


def in_code() -> dict:
    marks = {m: "required (default)" if m in vars(GameBase) else "required" for m in GAME_MEMBERS}
    for cap, (members, _, _) in CAPABILITIES.items():
        marks.update({m: f"optional ({cap})" for m in members})
    return marks


def test_every_member_is_documented_and_every_documented_member_exists():
    doc, code = documented(), in_code()
    assert set(doc) - set(code) == set(), "documented but not in core.contract"
    assert set(code) - set(doc) == set(), "in core.contract but not documented"


def test_required_and_optional_are_marked_alike():
    doc, code = documented(), in_code()
    assert {m: doc[m] for m in code} == code


def test_the_table_parser_sees_a_wrong_mark():
    bad = "| `title` | optional (replay) | x | y |\n"
    assert ROW.findall(bad) == [("title", "optional (replay)", "replay")]
    assert ROW.findall("| `title` | sometimes | x |") == []
