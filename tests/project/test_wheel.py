"""The wheel installs every game: a built wheel holds exactly the tracked data files
under cargo_sim/ (pyproject.toml's package-data: every game package's rules, tables
and templates). ``make wheel-check`` (.ci/wheel_check.py, run by CI) also installs it
and plays every registered game from outside the source tree."""
import importlib.util
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def wheel_check():
    spec = importlib.util.spec_from_file_location("wheel_check", ROOT / ".ci" / "wheel_check.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_data_files_compared_both_ways():
    wc = wheel_check()
    tracked = ["cargo_sim/games/a/rules_default.toml", "cargo_sim/games/b/rules_default.toml",
               "cargo_sim/core/rules.py", "README.md", "tests/runners/data/x.json"]
    wheel = ["cargo_sim/games/a/rules_default.toml", "cargo_sim/games/b/rules_default.toml",
             "cargo_sim/core/rules.py", "cargo_sim/core/__pycache__/rules.cpython-311.pyc",
             "cargo_sim-0.1.0.dist-info/METADATA"]
    assert wc.data_problem(tracked, wheel) == ""
    missing = wc.data_problem(tracked, wheel[1:])
    assert "missing ['cargo_sim/games/a/rules_default.toml']" in missing
    extra = wc.data_problem(tracked, wheel + ["cargo_sim/games/b/notes.json"])
    assert "extra ['cargo_sim/games/b/notes.json']" in extra


def test_a_failing_step_stops_loudly(capsys):
    with pytest.raises(SystemExit) as e:
        wheel_check().run([sys.executable, "-c", "import sys; print('boom', file=sys.stderr); sys.exit(3)"])
    assert e.value.code == 1
    assert "FAILED (3)" in capsys.readouterr().err


@pytest.mark.slow
def test_built_wheel_holds_every_tracked_data_file(tmp_path):
    wc = wheel_check()
    before = sorted(p.name for p in ROOT.iterdir())
    wheel = wc.build_wheel(tmp_path)
    assert sorted(p.name for p in ROOT.iterdir()) == before   # built from a copy: no build/ here
    tracked = wc.tracked_files()
    assert wc.data_problem(tracked, wc.wheel_names(wheel)) == ""
    # the strong bot's parameters are package data, read through importlib.resources
    assert "cargo_sim/games/cargo_noir/bots/strong.toml" in wc.wheel_names(wheel)
    games = {n.split("/")[2] for n in wc.data_files(tracked) if n.startswith("cargo_sim/games/")}
    assert {"cargo_noir", "macao"} <= games            # each game's data, not only the first's
    with zipfile.ZipFile(wheel) as z:
        meta = z.read(next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))).decode()
    assert "Summary: Monte Carlo strategy analysis of Cargo Noir and its sibling" in meta
