"""The analyses take a game by name and find what it offers through its Game object:
a game without report sections or without the study's pipelines gets one ConfigError,
before any game is played (analyses/games.py)."""
import pytest

from ..core import toy_game
from cargo_sim.core.contract import get_game, register_game, unregister_game
from cargo_sim.core.errors import ConfigError


@pytest.fixture(scope="module", autouse=True)
def toy():
    register_game(toy_game.TOY)
    yield
    unregister_game(toy_game.TOY.name)


def test_report_of_a_game_without_sections_is_one_error(tmp_path):
    from analyses import report
    with pytest.raises(ConfigError, match=r"game toy_race offers no report \(Game.report_sections\)"):
        report.build_report(tmp_path / "r", n_games=10, game="toy_race")
    assert not (tmp_path / "r" / "index.md").exists()


def test_robustness_of_a_game_without_the_pipeline_is_one_error():
    from analyses import robustness
    with pytest.raises(ConfigError, match=r"game toy_race offers no robustness study \(Game.robustness\)"):
        robustness.run(design=robustness.Design(games=20, morris_games=20), game="toy_race")


def test_cargo_noir_offers_both():
    from analyses import games, report
    cn = get_game("cargo_noir")
    assert games.report_sections(cn) == report.SECTIONS           # from Game.report_sections
    own = "cargo_sim.games.cargo_noir.analyses."         # its pipelines live in its package
    assert [m.__name__ for m in games.pipelines(cn, "results")] == [
        own + "balance", own + "bidding", own + "casino", own + "trade"]
    assert [m.__name__ for m in games.pipelines(cn, "aggregates")] == [own + "aggregates"]
    from analyses.robustness import study_game, study_hooks
    assert study_game("cargo_noir") is cn and study_hooks(cn) is None     # the study's own headlines


def test_the_old_names_of_the_default_games_pipelines_still_import():
    import analyses
    import analyses.balance
    from analyses import aggregates
    from cargo_sim.games.cargo_noir.analyses import aggregates as own, balance
    assert analyses.balance is balance and aggregates is own
    with pytest.raises(ImportError):
        import analyses.no_such_pipeline  # noqa: F401
