"""Macao's replay page (`cargo-sim play --game macao --html`): the game stepped through
the forward model is play_one's game, every board follows the event log (points and
coins step by step, the cubes of a finite supply conserved), the page never replaces
a file the library did not write, and in headless Chromium (tests/browser.py) it
loads without errors, draws every step in turn and, at its last step, shows the final
scores."""
import dataclasses

import numpy as np
import pytest

from cargo_sim.core.errors import ConfigError
from cargo_sim.core.runner import play_one
from cargo_sim.games.macao import replay
from cargo_sim.games.macao.game import GAME
from tests.replay_checks import (
    check_bad_requests,
    check_cli_html,
    check_never_over_a_foreign_file,
    check_page_in_chromium,
)

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
    check_bad_requests(replay.REPLAY, SEED, PLAYERS, ["expert"] * 5, tmp_path,
                       more=[("x", PLAYERS, ConfigError)])


def test_the_page_is_never_written_over_a_foreign_file(game, tmp_path):
    html = check_never_over_a_foreign_file(replay.REPLAY, game[0], tmp_path, "Macao: expert, random")
    assert "BOARD" in html


def test_cli_html(tmp_path, capsys):
    check_cli_html("macao", SEED, PLAYERS, tmp_path, capsys)


@pytest.mark.slow               # two browser launches, ~5 s each on a busy machine
def test_page_in_headless_chromium(game, tmp_path):
    data, events = game
    ranks = events[events.action == "rank"].sort_values("seat")
    scores = [(int(r.seat), int(r.b), int(r.a) == 1) for r in ranks.itertuples()]
    check_page_in_chromium(replay.REPLAY, data, tmp_path, "round 12 of 12, game over", scores, ["The city", "wind rose", "The wall"])
