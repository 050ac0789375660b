"""A game owner's data sheet (``cargo-sim rules --estimated --toml``) for every
registered game: it holds the estimated values only, reads back to the default
rules, a value the owner changes is marked as theirs ('user: FILE') and leaves
the estimates; bad sheets are one-line errors; reports count the estimates."""
from __future__ import annotations

import tomllib

import pytest
import tomli_w

from cargo_sim.cli import main
from cargo_sim.core.contract import game_names, get_game
from cargo_sim.core.errors import RulesError
from cargo_sim.core.provenance import rules_census, rules_census_line
from cargo_sim.core.sheet import estimates_sheet

GAMES = game_names()


def sheet_of(game, capsys) -> str:
    assert main(["rules", "--game", game, "--estimated", "--toml"]) == 0
    return capsys.readouterr().out


def set_in(d: dict, rules, name: str, value) -> None:
    """``name = value`` in a parsed sheet (the owner's edit), by the schema's split."""
    head, _, rest = name.partition(".")
    if head in rules.TABLES and rest:
        item, _, field = rest.rpartition(".")
        d.setdefault(head, {}).setdefault(item, {})[field] = value
    elif head in rules.KEYED and rest:
        d.setdefault(head, {})[rest] = value
    else:
        d[name] = value


def a_change(rules, names):
    """(name, value): the first of ``names`` with another value in its range that the
    rules accept alone (constraints and the game's checks, e.g. a deck's total)."""
    ranges = rules.ranges                   # computed once (a property)
    for name in names:
        cur = rules[name]
        for v in ranges.get(name, []):
            if v != cur and rules.allows(name, v):
                try:
                    rules.replace({name: v})
                except RulesError:
                    continue
                return name, v
    raise AssertionError("no parameter of these can change")


def one_error_line(err: str, says: str) -> None:
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("cargo-sim: error: ") and says in lines[0], err


@pytest.mark.parametrize("game", GAMES)
def test_sheet_holds_the_estimates_only_and_reads_back_to_the_defaults(game, capsys, tmp_path):
    Rules = get_game(game).Rules
    default = Rules.default()
    text = sheet_of(game, capsys)
    assert text == estimates_sheet(default, get_game(game).title)
    given = Rules.flatten(tomllib.loads(text), drop_provenance=True)
    assert given.pop("game") == game
    # every estimate but the tied ones (they follow their leader), nothing else, at its value
    assert set(given) == set(default.estimated) - set(default.tied)
    assert all(given[n] == default[n] for n in given)
    path = tmp_path / "box.toml"
    path.write_text(text)
    back = Rules.from_file(path)
    assert back.digest == default.digest and back == default and back.overrides == {}
    assert back.estimated == default.estimated


@pytest.mark.parametrize("game", GAMES)
def test_a_value_the_owner_fills_in_is_theirs_and_leaves_the_estimates(game, capsys, tmp_path):
    Rules = get_game(game).Rules
    default = Rules.default()
    sheet = tomllib.loads(sheet_of(game, capsys))
    name, value = a_change(default, [n for n in default.estimated if n not in default.tied])
    set_in(sheet, default, name, value)
    path = tmp_path / "my_box.toml"
    path.write_text(tomli_w.dumps(sheet))
    mine = Rules.from_file(path)
    assert mine[name] == value and mine.source_of(name) == "user: my_box.toml"
    assert mine.overrides.get(name) == value
    assert name not in mine.estimated and len(mine.estimated) == len(default.estimated) - 1
    # the same rules as the same value set by hand: the owner's mark is not in the digest
    assert mine.digest == default.replace({name: value}).digest
    c = rules_census(mine)
    assert c["user"] == 1 and c["user_files"] == ["my_box.toml"] and c["override"] == 0
    assert c["estimated"] == len(default.estimated) - 1
    assert "supplied by the owner (my_box.toml)" in rules_census_line(mine)
    # the CLI: --estimated no longer lists it, lists the rest
    assert main(["rules", "--game", game, "--rules", str(path), "--estimated"]) == 0
    out = capsys.readouterr().out
    rows = [ln for ln in out.splitlines()[3:] if ln.strip()]
    assert f"{len(mine.estimated)} estimated values" in out and len(rows) == len(mine.estimated)
    assert not any(ln.startswith(name + "  ") for ln in rows)
    # the sheet of these rules leaves it out too
    again = Rules.flatten(tomllib.loads(estimates_sheet(mine)), drop_provenance=True)
    assert name not in again and len(again) == len(given_names(default))
    # a value set again on top of the file is no longer the file's
    later = mine.replace({name: default[name]})
    assert later.source_of(name) == "override" and later.user_rows() == {}


def given_names(rules) -> list:
    """What a sheet of ``rules`` gives: 'game', the untied estimates but one (the changed)."""
    return [n for n in rules.estimated if n not in rules.tied]


def test_the_owner_confirms_a_printed_value_equal_to_the_estimate(tmp_path):
    Rules = get_game("cargo_noir").Rules
    default = Rules.default()
    text = estimates_sheet(default).replace("2 = 11   #", "2 = 12   #")
    assert text != estimates_sheet(default)            # the owner's edit, as typed
    path = tmp_path / "box.toml"
    path.write_text(text + '\n[provenance]\n"turns.3" = "user: printed under the turn track"\n')
    mine = Rules.from_file(path)
    assert mine.source_of("turns.2") == "user: box.toml"
    assert mine.source_of("turns.3") == "user: printed under the turn track"
    assert mine.source_of("turns.4").startswith("estimated")
    assert mine.overrides == {"turns.2": 12}
    assert mine.digest == default.replace({"turns.2": 12}).digest
    assert len(mine.estimated) == len(default.estimated) - 2


@pytest.mark.parametrize("game", GAMES)
def test_a_non_estimated_value_in_a_sheet_is_the_owners_too(game, tmp_path):
    """Allowed, not refused: a box may print a value differing from the texts (another
    edition), and a sheet is an ordinary rules file; the value is marked as the user's."""
    Rules = get_game(game).Rules
    default = Rules.default()
    sheet = tomllib.loads(estimates_sheet(default))
    estimated = set(default.estimated)
    name, value = a_change(default, [n for n in default.ranges if n not in estimated])
    set_in(sheet, default, name, value)
    path = tmp_path / "box.toml"
    path.write_text(tomli_w.dumps(sheet))
    mine = Rules.from_file(path)
    assert mine.source_of(name) == "user: box.toml" and mine.estimated == default.estimated


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("bad,says", [
    ("unknown", "unknown rules parameter"),
    ("type", "must be"),
    ("game", "holds rules of the game"),
])
def test_a_bad_sheet_is_one_line(game, bad, says, capsys, tmp_path):
    Rules = get_game(game).Rules
    default = Rules.default()
    sheet = tomllib.loads(estimates_sheet(default))
    if bad == "unknown":
        sheet["no_such_parameter"] = 3
    elif bad == "type":
        name = next(n for n in default.estimated if n not in default.tied)
        set_in(sheet, default, name, 3 if isinstance(default[name], str) else "three")
    else:
        sheet["game"] = next(g for g in GAMES + ["another_game"] if g != game)
    path = tmp_path / "box.toml"
    path.write_text(tomli_w.dumps(sheet))
    with pytest.raises(RulesError):
        Rules.from_file(path)
    assert main(["rules", "--game", game, "--rules", str(path), "--estimated"]) == 2
    one_error_line(capsys.readouterr().err, says)


def test_a_tiny_report_says_how_many_values_are_still_estimates(tmp_path, monkeypatch):
    from analyses import plots
    monkeypatch.setattr(plots, "FIGURES", {"win_rate_by_seat": plots.FIGURES["win_rate_by_seat"]})
    Rules = get_game("cargo_noir").Rules
    box = tmp_path / "my_box.toml"
    box.write_text(estimates_sheet(Rules.default()).replace("2 = 11   #", "2 = 12   #"))
    out = tmp_path / "rep"
    assert main(["report", "-o", str(out), "--games", "20", "--events-games", "5", "--seats", "2",
                 "-p", "2=random,random", "--rules", str(box), "--no-svg", "--no-progress"]) == 0
    md = (out / "index.md").read_text()
    mine = Rules.from_file(box)
    line = rules_census_line(mine)
    assert line in md and "38 still estimated, 1 supplied by the owner (my_box.toml)" in line
    assert "| turns.2 | 12 | USER |" in md


def test_the_robustness_study_leaves_the_owners_values_alone(tmp_path):
    """A printed value is not uncertain: it leaves ``Rules.ranges``, so no study varies it;
    a group whose members the owner all supplied is not studied, one with some left keeps
    those (and a pattern matching nothing at all is still an error)."""
    from analyses.robustness import Design, group_members
    from cargo_sim.core.errors import ConfigError
    default = get_game("cargo_noir").Rules.default()
    assert {"turns.2", "turns.3"} <= set(default.ranges)
    path = tmp_path / "box.toml"
    path.write_text(estimates_sheet(default).replace("2 = 11   #", "2 = 12   #")
                    + '\n[provenance]\n"turns.3" = "user: printed under the turn track"\n')
    mine = get_game("cargo_noir").Rules.from_file(path)
    assert "turns.2" not in mine.ranges and "turns.3" not in mine.ranges
    assert set(default.ranges) - set(mine.ranges) == {"turns.2", "turns.3"}
    both = Design(groups=(("early", ("turns.2", "turns.3")),))
    assert group_members(default, both) == {"early": ["turns.2", "turns.3"]}
    assert group_members(mine, both) == {}
    some = Design(groups=(("turns", ("turns.*",)),))
    assert "turns.2" not in group_members(mine, some)["turns"]
    with pytest.raises(ConfigError, match="matches no parameter"):
        group_members(mine, Design(groups=(("none", ("nothing.*",)),)))
