"""Macao's replay page (`cargo-sim play --game macao --html`): the game stepped through
the forward model is play_one's game, every board follows the event log (points and
coins step by step, the cubes of a finite supply conserved), the page never replaces
a file the library did not write, and in headless Chromium (tests/browser.py) it
loads without errors, draws every step in turn and, at its last step, shows the final
scores."""
import dataclasses
import re

import numpy as np
import pytest

from cargo_sim.core.errors import BotError, ConfigError, RulesError
from cargo_sim.core.runner import play_one
from cargo_sim.games.macao import replay
from cargo_sim.games.macao.game import GAME
from tests.browser import chromium, dump, page_errors, score_rows, stepping_all

PLAYERS = ["expert", "random"]
SEED = 5


@pytest.fixture(scope="module")
def game():
    data, events = replay.REPLAY.steps(SEED, PLAYERS)
    return data, events


def test_the_stepped_game_is_play_ones_game(game):
    data, events = game
    ref = play_one("macao", SEED, PLAYERS)[0]
    assert events.equals(ref)
    # every event once, in order, split among the decisions by the stepped state's counter
    lines = [line for st in data["steps"] for line in st["events"]]
    assert len(lines) == len(ref) and len(data["steps"]) > 50
    assert lines[-1].startswith("seat 1 (random) finishes with")
    ranks = ref[ref.action == "rank"].sort_values("seat")
    assert [(s["seat"], s["vp"]) for s in data["scores"]] == list(zip(ranks.seat, ranks.b))
    assert [s["won"] for s in data["scores"]] == list(ranks.a == 1)
    assert [d["did"][1] for d in data["steps"][1:3]] == ["start colour", "start colour"]


def test_boards_follow_the_events(game):
    """After each decision a seat's points and coins are the start's plus every event's
    change so far; the last board's points are the final scores; a finite cube supply
    and the seats' wind roses hold every cube of each colour at every step."""
    data, events = game
    start_coins = GAME.Rules.default()["start_coins"]
    per_colour = data["cubes_per_colour"]
    rows = iter(events.itertuples())
    so_far = {q: [0, 0] for q in range(len(PLAYERS))}
    for st in data["steps"]:
        for _ in st["events"]:
            r = next(rows)
            if r.seat >= 0:
                so_far[r.seat][0] += r.points
                so_far[r.seat][1] += r.coins
        for q, pl in enumerate(st["players"]):
            assert (pl["points"], pl["coins"]) == (so_far[q][0], start_coins + so_far[q][1])
        assert st["supply"] is not None          # the default rules' supply is finite
        held = np.array(st["supply"]) + sum(np.array(pl["rose"]).sum(axis=0) for pl in st["players"])
        assert (held == per_colour).all(), (st["turn"], held)
    final = data["steps"][-1]
    assert [pl["points"] for pl in final["players"]] == [s["vp"] for s in data["scores"]]
    assert final["turn"] == data["turns"] == 12
    # the city: every quarter a seat owns is on its count; the map has the rules' quarters
    assert len(data["quarters"]) == len(final["owner"]) == len(GAME.Rules.default().quarters)
    assert [final["owner"].count(q) for q in range(len(PLAYERS))] == \
        [pl["quarters"] for pl in final["players"]]


def test_a_game_not_stepped_as_play_ones_is_refused():
    broken = dataclasses.replace(replay.REPLAY, events_done=lambda s: 0)
    with pytest.raises(RuntimeError, match="not the same game"):
        broken.steps(SEED, PLAYERS)


def test_bad_requests_are_one_line_errors(tmp_path):
    for seed, players, kind in ((-1, PLAYERS, ConfigError), ("x", PLAYERS, ConfigError),
                                (SEED, ["expert"] * 5, RulesError), (SEED, ["nobody", "random"], BotError)):
        with pytest.raises(kind) as e:
            replay.REPLAY.steps(seed, players)
        assert "\n" not in str(e.value)
    with pytest.raises(ConfigError, match="folder"):
        replay.REPLAY.check(tmp_path)


def test_the_page_is_never_written_over_a_foreign_file(game, tmp_path):
    data, _ = game
    mine = tmp_path / "game.html"
    replay.REPLAY.write_page(mine, data)
    replay.REPLAY.write_page(mine, data)              # ours: replaced
    foreign = tmp_path / "notes.html"
    foreign.write_text("<html>my notes</html>")
    with pytest.raises(ConfigError, match="not written by cargo-sim"):
        replay.REPLAY.write_page(foreign, data)
    with pytest.raises(ConfigError, match="not written by cargo-sim"):
        replay.REPLAY.check(foreign)
    assert foreign.read_text() == "<html>my notes</html>"
    html = mine.read_text()
    assert html.count("</script>") == 2 and "BOARD" in html and "Macao: expert, random" in html
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", html)     # nothing fetched
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.html", "notes.html"]


def test_cli_html(tmp_path, capsys):
    from cargo_sim.cli import main
    out = tmp_path / "page.html"
    assert main(["play", "--game", "macao", "--seed", str(SEED), "--players", ",".join(PLAYERS),
                 "--html", str(out)]) == 0
    text = capsys.readouterr().out
    assert f"wrote {out}" in text
    assert '<meta name="generator" content="cargo-sim replay">' in out.read_text()[:4096]


@pytest.mark.slow               # two browser launches, ~5 s each on a busy machine
def test_page_in_headless_chromium(game, tmp_path):
    browser = chromium()
    data, events = game
    path = replay.REPLAY.write_page(tmp_path / "game.html", data)
    dom, log = dump(browser, path.resolve().as_uri() + "#step=last")
    assert page_errors(dom, log) == []
    last = len(data["steps"]) - 1
    assert f"decision {last} of {last} \u2014 round 12 of 12, game over" in dom
    ranks = events[events.action == "rank"].sort_values("seat")
    assert score_rows(dom) == [(int(r.seat), int(r.b), int(r.a) == 1) for r in ranks.itertuples()]
    assert 'id="scores" class="wide shown"' in dom
    assert "The city" in dom and "wind rose" in dom and "The wall" in dom
    # every step drawn in turn, from the set-up to the end: no error, the scores at the end
    every = tmp_path / "every.html"
    every.write_text(stepping_all(path.read_text()))
    dom1, log1 = dump(browser, every.resolve().as_uri())
    assert page_errors(dom1, log1) == []
    assert f'<div id="stepped">stepped {last + 1}</div>' in dom1
    assert f"decision {last} of {last}" in dom1 and 'id="scores" class="wide shown"' in dom1
