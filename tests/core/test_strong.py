"""core.strong: reading and checking a strong.toml, registering the bot, default mixes."""
import sys

import pytest

from cargo_sim.core.bots import BotRegistry, BotSpec
from cargo_sim.core.errors import ConfigError
from cargo_sim.core.strong import load_strong, parse_strong, register_strong

GOOD = """
[strong]
family = "fam"
[strong.params]
a = 1.5
b = 2
[provenance]
seed = 7
command = "cargo-sim train strong --game toy"
generations = 3
games_played = 1200
rules_digest = "abc"
"""


def registry():
    r = BotRegistry("toy", 4)
    r.register_builtin(BotSpec("random", "m:f", {}))
    r.register_builtin(BotSpec("fam", "m:heuristic", {"a": 1.0, "b": 0.0}, "the family",
                               ranges={"b": (0, 3, True)}))
    r.register_builtin(BotSpec("other", "m:heuristic", {"a": 2.0, "b": 1.0}))
    r.register_builtin(BotSpec("search", "m:s", {"iterations": 10.0}, search=1))
    return r


def test_a_good_file_reads_in_the_familys_order():
    d = parse_strong(GOOD.replace("a = 1.5\nb = 2", "b = 2\na = 1.5"), registry())
    assert d.family == "fam" and list(d.params) == ["a", "b"] and d.params == {"a": 1.5, "b": 2.0}
    assert d.provenance["seed"] == 7


@pytest.mark.parametrize("text, says", [
    ("[strong\n", "not valid TOML"),
    ("x = 1\n", "needs a [strong] table"),
    ('[strong]\nfamily = "fam"\n', "needs a [strong.params] table"),
    (GOOD.replace('"fam"', '"nope"'), "family 'nope' is not a built-in bot"),
    (GOOD.replace('"fam"', '"search"'), "family 'search' is not a built-in bot"),
    (GOOD.replace("b = 2", "b = 2\nc = 1"), "has no parameter 'c'"),
    (GOOD.replace("b = 2\n", ""), "parameter 'b' of 'fam' is missing"),
    (GOOD.replace("b = 2", "b = 5"), "must be a whole number from 0 to 3"),
    (GOOD.replace("b = 2", "b = 1.5"), "must be a whole number from 0 to 3"),
    (GOOD.replace("a = 1.5", 'a = "x"'), "parameter 'a' must be a number"),
    (GOOD.replace("a = 1.5", "a = true"), "parameter 'a' must be a number"),
    (GOOD.replace("a = 1.5", "a = inf"), "must be a number from"),
    ("provenance = 3\n" + GOOD.split("[provenance]")[0], "provenance must be a table"),
])
def test_a_broken_file_is_one_line(text, says):
    with pytest.raises(ConfigError, match=None) as e:
        parse_strong(text, registry(), "toy strong.toml")
    msg = str(e.value)
    assert says in msg and "\n" not in msg and msg.startswith("toy strong.toml"), msg


def package(tmp_path, monkeypatch, name, text=None):
    root = tmp_path / name
    (root / "bots").mkdir(parents=True)
    (root / "__init__.py").write_text("")
    if text is not None:
        (root / "bots" / "strong.toml").write_text(text)
    monkeypatch.syspath_prepend(str(tmp_path))
    sys.modules.pop(name, None)
    return name


def test_load_from_a_package_and_register(tmp_path, monkeypatch):
    name = package(tmp_path, monkeypatch, "strongpkg_good", GOOD)
    r = registry()
    assert load_strong(name, r).params == {"a": 1.5, "b": 2.0}
    spec = register_strong(r, name)
    assert r.builtin_order[-1] == "strong" and spec.decide == "m:heuristic"
    assert spec.params == {"a": 1.5, "b": 2.0} and spec.ranges == {"b": (0, 3, True)}
    assert "cargo-sim train strong --game toy" in spec.doc and "seed 7" in spec.doc
    assert "strong" in r.names(search=False)
    # the default mixes never seat it: they are those of the registry without it
    assert r.default_players(5) == ["fam", "other", "fam", "other", "fam"]
    assert r.parse("strong?a=3").values == (3.0, 2.0)


def test_missing_and_unreadable_files(tmp_path, monkeypatch):
    with pytest.raises(ConfigError, match="strongpkg_none bots/strong.toml is missing"):
        load_strong(package(tmp_path, monkeypatch, "strongpkg_none"), registry())
    name = package(tmp_path, monkeypatch, "strongpkg_bin")
    (tmp_path / name / "bots" / "strong.toml").write_bytes(b"\xff\xfe")
    with pytest.raises(ConfigError, match="not UTF-8"):
        load_strong(name, registry())
    with pytest.raises(ConfigError, match="no game package"):
        load_strong("strongpkg_absent_here", registry())


def test_cargo_noir_strong_is_out_of_the_default_mixes():
    from cargo_sim.core.contract import get_game
    bots = get_game("cargo_noir").bots
    for n in (2, 3, 4, 5):
        assert "strong" not in bots.default_players(n)
    assert bots.default_players(4) == ["greedy", "banker", "collector", "diversifier"]
