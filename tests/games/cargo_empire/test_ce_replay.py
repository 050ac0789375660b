"""Cargo Empire's replay page (`cargo-sim play --game cargo_empire --html`): the game
stepped through the forward model is play_one's game, every board follows the event log
(the hands of transport cards, the cities' levels, every city card somewhere at every
step, the final points the scores and their parts), the secrets stay hidden, the map's
layout is deterministic, the page never replaces a file the library did not write, and
in headless Chromium (tests/browser.py) it loads without errors, draws every step in
turn and, at its last step, shows the final scores."""
import re

import pytest

from cargo_sim.core.runner import play_one
from cargo_sim.games.cargo_empire import replay
from cargo_sim.games.cargo_empire.game import GAME
from tests.replay_checks import (
    check_bad_requests,
    check_cli_html,
    check_never_over_a_foreign_file,
    check_page_in_chromium,
)

PLAYERS = ["greedy", "random"]
SEED = 2


@pytest.fixture(scope="module")
def game():
    return replay.REPLAY.steps(SEED, PLAYERS)


def test_the_stepped_game_is_play_ones_game(game):
    data, events = game
    ref = play_one("cargo_empire", SEED, PLAYERS)[0]
    assert events.equals(ref)
    lines = [line for st in data["steps"] for line in st["events"]]
    assert len(lines) == len(ref) and len(data["steps"]) > 40
    assert lines[-1].startswith("seat 1 (random) scores")
    scored = ref[ref.action == "score"].sort_values("seat")
    assert [(s["seat"], s["vp"]) for s in data["scores"]] == list(zip(scored.seat, scored.a))
    assert sum(s["won"] for s in data["scores"]) == 1


def test_boards_follow_the_events(game):
    """After each decision a seat's hand is the start's plus the cards gained minus the
    cards paid, a city's level is 1 plus its upgrades, and every city card is in the deck,
    on the table or with a seat; the last board's points are the final scores, part by
    part."""
    data, events = game
    rules = GAME.Rules.default()
    n = len(PLAYERS)
    hand = [[rules["start_trucks"], rules["start_trains"], rules["start_ships"]] for _ in range(n)]
    level = [1] * len(data["cities"])
    rows = iter(events.itertuples())
    for st in data["steps"]:
        for _ in st["events"]:
            r = next(rows)
            if r.action == "card":
                hand[r.seat][r.a] += r.b
            elif r.action == "deliver":
                for v in range(3):
                    hand[r.seat][v] -= (r.c >> (8 * v)) & 255
            elif r.action == "upgrade":
                level[r.a] = r.b
        assert [pl["hand"] for pl in st["players"]] == hand, st["turn"]
        assert [c["lv"] for c in st["cities"]] == level
        cards = st["deck"] + sum(c >= 0 for c in st["public"]) + sum(
            len(pl["cards"]) + pl["secret"] for pl in st["players"])
        assert cards == data["city_cards"] == len(data["cities"])
        for c in st["cities"]:         # posts: 2 a level done, plus those on demand spaces
            assert sum(c["posts"]) == 2 * (c["lv"] - 1) + sum(d >= 0 for d in c["demand"])
            assert 0 <= c["cubes"] <= data["production"] and (c["lv"] == 3) == (c["side"] == [])
        assert sorted(st["order"]) == list(range(n))
    assert max(level) >= 2
    final = data["steps"][-1]
    assert final["turn"] == data["turns"] == rules["rounds"]
    assert [pl["points"] for pl in final["players"]] == [s["vp"] for s in data["scores"]]
    scored = events[events.action == "score"].sort_values("seat")
    for pl, r in zip(final["players"], scored.itertuples()):
        p = pl["public"]
        assert (p["dev"], p["lv3"], p["cards"]) == (r.b, r.c, r.a - r.b - r.c - r.d)
        assert p["cards"] == (len(pl["cards"]) + pl["blanks"]) * rules["city_card_vp"]


def test_the_secrets_stay_hidden(game):
    """A seat's secret city card is a flag until setup reveals it; its missions are a
    count until the final scoring; no sentence names a kept mission."""
    data, _ = game
    names = [m["name"] for m in data["missions"]]
    assert data["open_hands"] is False
    assert all(pl["secret"] for pl in data["steps"][0]["players"])
    for st in data["steps"][:-1]:
        assert all(pl["kept"] is None for pl in st["players"])
        for line in st["events"]:
            assert not any(re.search(rf"\b{m}\b", line) for m in names), line
    assert any("keeps a mission (secret)" in line for st in data["steps"] for line in st["events"])
    final = data["steps"][-1]
    assert not any(pl["secret"] for pl in final["players"])
    assert [len(pl["kept"]) for pl in final["players"]] == [pl["missions"] for pl in final["players"]]


def test_the_map_layout_is_the_graphs():
    """The cities' places come from the graph alone: the same every time, inside the unit
    square, no two on one spot, and rail neighbours nearer than the average pair."""
    board = GAME.Rules.default().compiled()["board"]
    pos = replay.layout(board.names, board.land, board.sea)
    assert pos == replay.layout(board.names, board.land, board.sea)
    assert all(0 <= x <= 1 and 0 <= y <= 1 for x, y in pos)
    assert len({(round(x, 3), round(y, 3)) for x, y in pos}) == len(pos)

    def gap(a, b):
        return ((pos[a][0] - pos[b][0]) ** 2 + (pos[a][1] - pos[b][1]) ** 2) ** 0.5
    n = len(pos)
    rail = [gap(a, b) for a in range(n) for b in board.land[a] if a < b]
    every = [gap(a, b) for a in range(n) for b in range(a + 1, n)]
    assert sum(rail) / len(rail) < 0.6 * sum(every) / len(every)


def test_bad_requests_are_one_line_errors(tmp_path):
    check_bad_requests(replay.REPLAY, SEED, PLAYERS, ["greedy"] * 6, tmp_path)


def test_the_page_is_never_written_over_a_foreign_file(game, tmp_path):
    check_never_over_a_foreign_file(replay.REPLAY, game[0], tmp_path, "Cargo Empire: greedy, random")


def test_cli_html(tmp_path, capsys):
    check_cli_html("cargo_empire", SEED, PLAYERS, tmp_path, capsys)


@pytest.mark.slow               # two browser launches, ~5 s each on a busy machine
def test_page_in_headless_chromium(game, tmp_path):
    data, events = game
    scored = events[events.action == "score"].sort_values("seat")
    ranks = {s["seat"]: s["won"] for s in data["scores"]}
    scores = [(int(r.seat), int(r.a), ranks[r.seat]) for r in scored.itertuples()]
    dom = check_page_in_chromium(replay.REPLAY, data, tmp_path, "round 3 of 3, game over", scores)
    # the map drawn: a node per city, a line per rail segment and sea link
    assert dom.count('<g class="city">') == len(data["cities"])
    assert dom.count("<line ") == len(data["land"]) + len(data["sea"])
    assert dom.count('class="city-row"') == len(data["cities"]) and "Development" in dom
