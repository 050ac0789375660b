"""The core's replay page (core.replay) for a game it knows nothing of: the tests' toy
game, whose whole page is the few lines below (its snapshot, its static data, its board
script tests/core/toy_board.js, its event counter and its sentences)."""
import json
import re

import numpy as np
import pytest

from cargo_sim.core.contract import register_game, unregister_game
from cargo_sim.core.errors import ConfigError, IllegalDecisionError
from cargo_sim.core.layout import M_DECISIONS
from cargo_sim.core.replay import CORE_TEMPLATE, MARKER, ReplayPage
from cargo_sim.core.runner import play_one
from tests.browser import chromium, dump, page_errors, score_rows, stepping_all
from tests.core import toy_game as T
from tests.core.test_contract import GAME_WORDS

PLAYERS = ["random", "cautious"]
SEED = 11


def snapshot(s, rules, n):
    return {"turn": int(s[T.TURN]), "seat": int(s[T.SEAT]), "pos": [int(s[T.POS + q]) for q in range(n)]}


TOY_PAGE = ReplayPage(
    game="toy_race", snapshot=snapshot, static=lambda s, rules, labels: {"target": rules["target"]},
    board=("tests.core", "toy_board.js"), events_done=lambda s: s[M_DECISIONS],
    sentences=lambda events, rules, labels: T.TOY.render_events(events, rules).splitlines())


@pytest.fixture(scope="module", autouse=True)
def toy():
    register_game(T.TOY)
    yield
    unregister_game(T.TOY.name)


@pytest.fixture(scope="module")
def game(toy):
    return TOY_PAGE.steps(SEED, PLAYERS)


def test_the_core_steps_a_game_it_knows_nothing_of(game):
    data, events = game
    ref = play_one("toy_race", SEED, PLAYERS)[0]
    assert events.equals(ref) and len(ref) > 5
    steps = data["steps"]
    # the set-up, then one decision per event row (the toy logs one row a pick)
    assert len(steps) == len(ref) + 1 and steps[0]["events"] == [] and steps[0]["did"] is None
    for st, r in zip(steps[1:], ref.itertuples()):
        assert st["did"] == [int(r.seat), "pick"]
        assert st["events"] == [f"turn {r.turn}: seat {r.seat} picks {r.pick}, rolls {r.roll} -> {r.pos}"]
        assert st["pos"][r.seat] == r.pos          # the board follows the log
    last = steps[-1]["pos"]
    assert [s["vp"] for s in data["scores"]] == last
    assert [s["won"] for s in data["scores"]] == [p >= 30 for p in last]
    assert data["players"] == PLAYERS and data["target"] == 30 and data["decisions"] == ["pick"]
    assert list(data)[:4] == ["generator", "seed", "rules", "players"]


def test_the_page_inlines_its_parts_once_and_safely(game):
    data, _ = game
    evil = dict(data, players=["{{BOARD}}</script><b>&amp;", "cautious"])
    html = TOY_PAGE.page(evil)
    assert html.count("</script>") == 2 and html.count("const BOARD") == 1
    assert MARKER in html[:4096] and "{{" not in html.replace("{{BOARD}}", "")
    blob = re.search(r'id="game-data">(.*?)</script>', html, re.S).group(1)
    assert json.loads(blob)["players"][0] == evil["players"][0]
    assert "<title>Race to N (test game) replay: {{BOARD}}&lt;/script&gt;&lt;b&gt;&amp;amp;" in html
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", html)


def test_the_core_template_names_no_piece_of_a_game():
    assert GAME_WORDS.findall(CORE_TEMPLATE.read_text("utf-8")) == []


def test_only_its_own_pages_are_replaced(game, tmp_path):
    data, _ = game
    mine = TOY_PAGE.write_page(tmp_path / "game.html", data)
    assert TOY_PAGE.write(mine, SEED, PLAYERS) == (mine, len(data["steps"]) - 1)   # ours: replaced
    foreign = tmp_path / "notes.html"
    foreign.write_text("notes")
    for call in (lambda: TOY_PAGE.check(foreign), lambda: TOY_PAGE.write_page(foreign, data),
                 lambda: TOY_PAGE.write(foreign, SEED, PLAYERS)):
        with pytest.raises(ConfigError, match="not written by cargo-sim"):
            call()
    with pytest.raises(ConfigError, match="folder"):
        TOY_PAGE.check(tmp_path)
    assert foreign.read_text() == "notes"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.html", "notes.html"]


def test_a_bot_that_stops_the_game_is_the_games_error(toy):
    with pytest.raises(IllegalDecisionError, match="illegal pick") as e:
        TOY_PAGE.steps(SEED, ["cheat", "random"])
    assert "\n" not in str(e.value)


@pytest.mark.slow               # two browser launches
def test_the_page_in_headless_chromium(game, tmp_path):
    browser = chromium()
    data, _ = game
    path = TOY_PAGE.write_page(tmp_path / "game.html", data)
    last = len(data["steps"]) - 1
    dom, log = dump(browser, path.resolve().as_uri() + "#step=last")
    assert page_errors(dom, log) == []
    assert f"decision {last} of {last} \u2014 turn {data['steps'][-1]['turn']}, game over" in dom
    assert score_rows(dom) == [(s["seat"], s["vp"], s["won"]) for s in data["scores"]]
    assert "The race to 30" in dom
    every = tmp_path / "every.html"
    every.write_text(stepping_all(path.read_text()))
    dom1, log1 = dump(browser, every.resolve().as_uri())
    assert page_errors(dom1, log1) == [] and f'<div id="stepped">stepped {last + 1}</div>' in dom1


def test_a_game_without_a_forward_model_says_so(toy):
    bare = type(T.TOY)()
    bare.name, bare.forward, bare.GameState = "toy_bare_page", None, None
    register_game(bare)
    try:
        with pytest.raises(ConfigError, match="game toy_bare_page offers no forward model"):
            ReplayPage("toy_bare_page", snapshot, dict, ("tests.core", "toy_board.js"),
                       lambda s: 0, lambda *a: []).steps(SEED, PLAYERS)
    finally:
        unregister_game("toy_bare_page")
