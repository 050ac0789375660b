"""Shipwrights' replay page (`cargo-sim play --game shipwrights --html`): the game stepped
through the forward model is play_one's game, every board follows the event log (gold
and completed ships step by step, every card of the deck somewhere at every step, the
final points the scores), the open hands say who saw each card, the page never replaces
a file the library did not write, and in headless Chromium (tests/browser.py) it loads
without errors, draws every step in turn and, at its last step, shows the final scores."""

import pytest

from cargo_sim.core.runner import play_one
from cargo_sim.games.shipwrights import replay
from cargo_sim.games.shipwrights.game import GAME
from tests.replay_checks import (
    check_bad_requests,
    check_cli_html,
    check_never_over_a_foreign_file,
    check_page_in_chromium,
)

PLAYERS = ["builder", "random"]
SEED = 3


@pytest.fixture(scope="module")
def game():
    return replay.REPLAY.steps(SEED, PLAYERS)


def test_the_stepped_game_is_play_ones_game(game):
    data, events = game
    ref = play_one("shipwrights", SEED, PLAYERS)[0]
    assert events.equals(ref)
    lines = [line for st in data["steps"] for line in st["events"]]
    assert len(lines) == len(ref) and len(data["steps"]) > 100
    assert lines[-1].startswith("seat 1 (random) finishes with")
    ranks = ref[ref.action == "rank"].sort_values("seat")
    assert [(s["seat"], s["vp"]) for s in data["scores"]] == list(zip(ranks.seat, ranks.b))
    assert [s["won"] for s in data["scores"]] == list(ranks.a == 1)
    assert [d["did"][1] for d in data["steps"][1:5]] == ["start goods"] * 4


def test_boards_follow_the_events(game):
    """After each decision a seat's gold is the start's plus every event's change so far
    and its completed ships are its 'complete' events; every card of the deck is in one
    place at every step; the last board's points are the final scores."""
    data, events = game
    rules = GAME.Rules.default()
    rows = iter(events.itertuples())
    gold = [rules["start_gold"]] * len(PLAYERS)
    completed = [0] * len(PLAYERS)
    days = set()
    for st in data["steps"]:
        for _ in st["events"]:
            r = next(rows)
            if r.seat >= 0:
                gold[r.seat] += r.gold
                completed[r.seat] += r.action == "complete"
        assert [pl["gold"] for pl in st["players"]] == gold, st["turn"]
        assert [len(pl["ships"]) for pl in st["players"]] == completed
        cards = st["deck"] + st["discard"] + len(st["packet"]) + len(st["facedown"]) + sum(
            len(pl["hand"]) + len(pl["craftsmen"]) + len(pl["front"]) + len(pl["buildings"])
            + len(pl["ships"]) + sum(f >= 0 for f in pl["yards"]) + (pl["tool"] >= 0)
            for pl in st["players"])
        assert cards == data["deck_size"] == rules["deck_size"], st["turn"]
        assert sorted(st["order"]) == list(range(len(PLAYERS)))
        days.add(st["turn"])
    final = data["steps"][-1]
    assert [pl["points"] for pl in final["players"]] == [s["vp"] for s in data["scores"]]
    assert max(len(pl["ships"]) for pl in final["players"]) >= rules["ship_goal"]
    assert days == set(range(max(days) + 1))
    # during the game a seat's points are its completed ships'
    names = rules.card_names
    mid = data["steps"][len(data["steps"]) // 2]
    for pl in mid["players"]:
        assert pl["points"] == sum(rules[f"ship.{names[f]}.points"] for f in pl["ships"])


def test_open_hands_say_who_saw_each_card(game):
    """A card kept in the draft was seen by the seats before its keeper in the day's order
    (they passed it on); a card drawn in the afternoon by no other seat."""
    data, _ = game
    assert data["open_hands"] is True
    kept = 0
    for st in data["steps"]:
        for q, pl in enumerate(st["players"]):
            for h in pl["hand"]:
                if h["round"] >= data["draft_rounds"]:
                    assert h["seen_by"] == []
                else:
                    assert h["seen_by"] == st["order"][:st["order"].index(q)]
                    kept += 1
    assert kept > 100


def test_bad_requests_are_one_line_errors(tmp_path):
    check_bad_requests(replay.REPLAY, SEED, PLAYERS, ["builder"] * 6, tmp_path)


def test_the_page_is_never_written_over_a_foreign_file(game, tmp_path):
    check_never_over_a_foreign_file(replay.REPLAY, game[0], tmp_path, "Shipwrights of the North Sea: builder, random")


def test_cli_html(tmp_path, capsys):
    check_cli_html("shipwrights", SEED, PLAYERS, tmp_path, capsys)


@pytest.mark.slow               # two browser launches, ~5 s each on a busy machine
def test_page_in_headless_chromium(game, tmp_path):
    data, events = game
    ranks = events[events.action == "rank"].sort_values("seat")
    scores = [(int(r.seat), int(r.b), int(r.a) == 1) for r in ranks.itertuples()]
    check_page_in_chromium(replay.REPLAY, data, tmp_path, f"day {data['steps'][-1]['turn']}, game over", scores, ["Open hands", "The day", "completed ships"])
