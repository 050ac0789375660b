"""Cargo Empire's replay page (`cargo-sim play --game cargo_empire --html`): the game
stepped through the forward model is play_one's game, every board follows the event log
(the hands of transport cards, the cities' levels, every city card somewhere at every
step, the final points the scores and their parts), the secrets stay hidden, the map's
layout is deterministic, the page never replaces a file the library did not write, and
in headless Chromium (tests/browser.py) it loads without errors, draws every step in
turn and, at its last step, shows the final scores."""
import re

import pytest

from cargo_sim.core.errors import BotError, ConfigError, RulesError
from cargo_sim.core.runner import play_one
from cargo_sim.games.cargo_empire import replay
from cargo_sim.games.cargo_empire.game import GAME
from tests.browser import chromium, dump, page_errors, score_rows, stepping_all

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
    for seed, players, kind in ((-1, PLAYERS, ConfigError), (SEED, ["greedy"] * 6, RulesError),
                                (SEED, ["nobody", "random"], BotError)):
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
    assert html.count("</script>") == 2 and "Cargo Empire: greedy, random" in html
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", html)     # nothing fetched
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.html", "notes.html"]


def test_cli_html(tmp_path, capsys):
    from cargo_sim.cli import main
    out = tmp_path / "page.html"
    assert main(["play", "--game", "cargo_empire", "--seed", str(SEED), "--players", ",".join(PLAYERS),
                 "--html", str(out)]) == 0
    assert f"wrote {out}" in capsys.readouterr().out
    assert '<meta name="generator" content="cargo-sim replay">' in out.read_text()[:4096]


@pytest.mark.slow               # two browser launches, ~5 s each on a busy machine
def test_page_in_headless_chromium(game, tmp_path):
    browser = chromium()
    data, events = game
    path = replay.REPLAY.write_page(tmp_path / "game.html", data)
    dom, log = dump(browser, path.resolve().as_uri() + "#step=last")
    assert page_errors(dom, log) == []
    last = len(data["steps"]) - 1
    assert f"decision {last} of {last} \u2014 round 3 of 3, game over" in dom
    scored = events[events.action == "score"].sort_values("seat")
    ranks = {s["seat"]: s["won"] for s in data["scores"]}
    assert score_rows(dom) == [(int(r.seat), int(r.a), ranks[r.seat]) for r in scored.itertuples()]
    assert 'id="scores" class="wide shown"' in dom
    # the map drawn: a node per city, a line per rail segment and sea link
    assert dom.count('<g class="city">') == len(data["cities"])
    assert dom.count("<line ") == len(data["land"]) + len(data["sea"])
    assert dom.count('class="city-row"') == len(data["cities"]) and "Development" in dom
    every = tmp_path / "every.html"
    every.write_text(stepping_all(path.read_text()))
    dom1, log1 = dump(browser, every.resolve().as_uri())
    assert page_errors(dom1, log1) == []
    assert f'<div id="stepped">stepped {last + 1}</div>' in dom1
    assert f"decision {last} of {last}" in dom1 and 'id="scores" class="wide shown"' in dom1
