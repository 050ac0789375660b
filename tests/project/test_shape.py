"""One shape for every game package (docs/add_a_game.md): the same file for the same role,
and no game named outside its package and the catalogue line.

The roles are data here: a file every game has, and the files of an optional capability a
game offers (core.contract.CAPABILITIES). A registered game lacking one fails with the
role it misses."""
import re
import subprocess
from pathlib import Path

import pytest

from cargo_sim.core.contract import get_game, offers
from cargo_sim.games import BUILTIN

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "cargo_sim" / "games"

# file (or folder) -> its role; every game has these
REQUIRED = {
    "__init__.py": "the package",
    "game.py": "the Game object (registered on import)",
    "rules.py": "Rules(RulesBase): schema, checks, compiled state template",
    "rules_default.toml": "the rules data with provenance and ranges",
    "enums.py": "offsets of the state array, decisions, event fields",
    "engine_nb.py": "the rules as numba kernels (resumable engine)",
    "chunk_nb.py": "the chunk kernel(s): a chunk of games into the result buffers",
    "simulate.py": "table_template, chunk_kernel, describe_error, table_columns, results",
    "measures.py": "what the game adds to run summaries and sweeps",
    "narrate.py": "the event log in words (render_events)",
    "testing.py": "invariants(state, rules) and explicit states for rule tests",
    "bots/registry.py": "the game's BotRegistry",
    "bots/dispatch_nb.py": "the compiled table of built-in bots",
    "bots/random_nb.py": "the random bot",
}
# capability -> files a game offering it has
BY_CAPABILITY = {
    "forward": ("forward.py", "forward_nb.py", "bots/searchkit_nb.py", "bots/search_nb.py"),
    "bench": ("bench.py",),
    "report": (("analyses.py", "analyses/__init__.py"), "report.py", "figures.py"),
}


def files_for(name: str) -> list:
    game = get_game(name)
    want = list(REQUIRED)
    for cap, files in BY_CAPABILITY.items():
        if offers(game, cap):
            want += files
    return want


def missing(folder: Path, want) -> list:
    """The roles (a path, or a tuple of alternatives) with no file in ``folder``."""
    return [w for w in want
            if not any((folder / f).exists() for f in (w if isinstance(w, tuple) else (w,)))]


def test_every_game_folder_is_in_the_catalogue():
    folders = {p.name for p in GAMES.iterdir() if (p / "game.py").exists()}
    assert folders == set(BUILTIN)


@pytest.mark.parametrize("name", sorted(BUILTIN))
def test_every_game_package_has_the_files_of_its_roles(name):
    assert missing(GAMES / name, files_for(name)) == []


def test_a_missing_role_is_seen(tmp_path):
    (tmp_path / "bots").mkdir()
    for f in REQUIRED:
        (tmp_path / f).write_text("")
    assert missing(tmp_path, list(REQUIRED)) == []
    (tmp_path / "chunk_nb.py").unlink()
    assert missing(tmp_path, list(REQUIRED) + [("analyses.py", "analyses/__init__.py")]) == [
        "chunk_nb.py", ("analyses.py", "analyses/__init__.py")]


# ---------------------------------------------------------------------------
# no game named outside its package (and the public faces that re-export the default)
PUBLIC_FACES = {"cargo_sim/__init__.py", "cargo_sim/botkit.py"}


def game_names_pattern() -> re.Pattern:
    names = "|".join(sorted(p.name for p in GAMES.iterdir() if (p / "game.py").exists()))
    return re.compile(rf"games(\.|/)({names})\b|games import ({names})\b")


def naming_files(pattern: re.Pattern) -> list:
    out = []
    for path in sorted((ROOT / "cargo_sim").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith("cargo_sim/games/") or rel in PUBLIC_FACES:
            continue
        if pattern.search(path.read_text(encoding="utf-8")):
            out.append(rel)
    return out


def test_no_game_is_named_outside_its_package():
    assert naming_files(game_names_pattern()) == []


def test_the_grep_sees_a_game_named(tmp_path):
    pattern = game_names_pattern()
    assert pattern.search("from cargo_sim.games.macao import enums")
    assert pattern.search("from ..games import cargo_noir")
    assert pattern.search("see cargo_sim/games/cargo_noir/rules.py")
    assert not pattern.search("from ..games import DEFAULT")
    assert not pattern.search("games.cargo_noirish")


def test_the_grep_agrees_with_the_shell():
    r = subprocess.run(["grep", "-rlE", game_names_pattern().pattern.replace(r"\b", r"\b"),
                        "cargo_sim", "--include=*.py"], cwd=ROOT, capture_output=True, text=True)
    found = {f for f in r.stdout.split() if not f.startswith("cargo_sim/games/")} - PUBLIC_FACES
    assert found == set(naming_files(game_names_pattern()))
