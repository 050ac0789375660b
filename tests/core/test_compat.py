"""Old module paths still import, as the same module objects, with a DeprecationWarning."""
import importlib
import warnings

import cargo_sim


def test_old_game_path_is_the_same_module():
    new = importlib.import_module("cargo_sim.games.cargo_noir.bots.registry")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        old = importlib.import_module("cargo_sim.cargo_noir.bots.registry")
    assert old is new
    assert any(issubclass(w.category, DeprecationWarning) and "games.cargo_noir" in str(w.message)
               for w in caught)


def test_moved_package_keeps_its_resources():
    # the alias must not replace the package's spec (importlib.resources reads the rules file)
    importlib.import_module("cargo_sim.cargo_noir")
    assert cargo_sim.Rules.default().digest   # reads rules_default.toml through importlib.resources
    assert importlib.import_module("cargo_sim.games.cargo_noir").__spec__.name == \
        "cargo_sim.games.cargo_noir"
