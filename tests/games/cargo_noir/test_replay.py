"""The replay page (`cargo-sim play --html`) and the plain-English play log.

The page's data is checked against the event log and the engine's own tables;
the page itself is loaded in headless Chromium (tests/browser.py; installed by
`make test` when missing): it must load without errors and, opened at its last step, show the
final scores of the event log."""
import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import cargo_sim
from cargo_sim.core.errors import ConfigError
from cargo_sim.core.rng_nb import game_seed_nb
from cargo_sim.games.cargo_noir import narrate, replay
from tests.browser import chromium, dump, page_errors, score_rows, stepping_all

PLAYERS = ["random", "greedy", "expert"]
SEED = 12345
README = Path(__file__).resolve().parents[3] / "README.md"


@pytest.fixture(scope="module")
def game():
    data, events = replay.replay_steps(SEED, PLAYERS)
    return data, events


def test_the_stepped_game_is_play_ones_game(game):
    data, events = game
    ref, _ = cargo_sim.play_one(SEED, PLAYERS)
    pd.testing.assert_frame_equal(events, ref)
    # every event appears once, in order, across the steps (the stepped state's event
    # counter splits them), and the stepped game's scores are the log's
    lines = [line for st in data["steps"] for line in st["events"]]
    assert len(lines) == len(ref)
    assert data["scores"] == [{"seat": int(r.seat), "bot": PLAYERS[r.seat], "vp": int(r.value),
                               "won": bool(r.count)} for r in ref[ref.action == "score"].itertuples()]


def test_boards_follow_the_events(game):
    """Coins after each step equal the coins the log records for the seat's last
    event; the last board's card VP equals the final scores (default rules: VP
    come only from cards); the game's tokens are conserved at every step."""
    data, events = game
    n_tok = None
    for st in data["steps"]:
        total = sum(st["bag"]) + sum(st["discard"]) + sum(st["bm"]) \
            + sum(sum(p["cargo"]) for p in st["ports"]) + sum(sum(p["tokens"]) for p in st["players"])
        n_tok = n_tok or total
        # sold tokens go to the discard pile: every token is somewhere
        assert total == n_tok
    seat_ev = events[events.seat >= 0]
    last_coins = seat_ev.groupby("seat")["coins"].last()
    final = data["steps"][-1]
    for seat, coins in last_coins.items():
        assert final["players"][seat]["coins"] == coins
    assert [p["vp"] for p in final["players"]] == [s["vp"] for s in data["scores"]]
    assert final["turn"] == data["turns"]


def test_page_is_self_contained_and_escapes_labels(game, tmp_path):
    data, _ = game
    evil = dict(data, players=["</script><script>alert(1)</script>"] + data["players"][1:])
    html = replay.page(evil)
    assert html.count("</script>") == 2          # only the page's own two script elements
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", html)   # nothing fetched
    blob = re.search(r'id="game-data">(.*?)</script>', html, re.S).group(1)
    assert json.loads(blob)["players"][0] == evil["players"][0]


def test_write_page_never_overwrites_a_foreign_file(game, tmp_path):
    data, _ = game
    mine = tmp_path / "game.html"
    replay.write_page(mine, data)
    replay.write_page(mine, data)                 # ours: replaced
    foreign = tmp_path / "notes.html"
    foreign.write_text("<html>my notes</html>")
    with pytest.raises(ConfigError, match="not written by cargo-sim"):
        replay.write_page(foreign, data)
    assert foreign.read_text() == "<html>my notes</html>"
    with pytest.raises(ConfigError, match="folder"):
        replay.write_page(tmp_path, data)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.html", "notes.html"]  # no temp left


def test_cli_html(tmp_path, capsys):
    from cargo_sim.cli import main
    out = tmp_path / "g.html"
    assert main(["play", "--seed", str(SEED), "-p", ",".join(PLAYERS), "--html", str(out)]) == 0
    text = capsys.readouterr().out
    assert text.count("Final scores:") == 1       # once, at the end of the log
    assert f"wrote {out}" in text and replay.MARKER in out.read_text()[:4096]
    foreign = tmp_path / "f.html"
    foreign.write_text("x")
    assert main(["play", "--seed", "1", "--html", str(foreign)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("cargo-sim: error: ") and foreign.read_text() == "x"


# ---- plain English --------------------------------------------------------
def test_plural_and_cargo_phrases():
    assert narrate.plural(1, "coin") == "1 coin" and narrate.plural(0, "coin") == "0 coins"
    assert narrate.plural(2, "VP", "VP") == "2 VP"
    assert narrate.cargo_phrase({"art": 1, "gold": 2, "wild": 1}) == "art, 2 gold and a Wild"
    assert narrate.cargo_phrase({"art": 0}) == "nothing"


def test_play_log_is_plain_english(game):
    _, events = game
    text = narrate.render(events, cargo_sim.Rules.default().cargo_types + ["wild"])
    assert not re.search(r"\b1 coins\b|\(s\)|\b1 ships\b|: -\d", text)
    assert text.count("Final scores:") == 1 and text.count("WINNER") >= 1
    swaps = [line for line in text.splitlines() if "Black Market" in line and "swaps" in line]
    assert all(re.search(r"swaps \w[\w ]* for \w", line) for line in swaps)
    assert "nothing for nothing" not in text


def test_a_swap_for_the_same_kind_is_said_so():
    """A Black Market swap of a token for one of its own kind nets
    to zero in the event row; game 17 of seed 1 printed "swaps nothing for nothing"."""
    names = ["art", "gold"]
    row = {"action": "black market swap", "loc": "Black Market", "amount": 0, "value": 0,
           "count": 1, "art": 0, "gold": 0}
    assert narrate.event_sentence(row, names) == \
        "swaps a token for one of the same kind at the Black Market (no change)"
    row.update(art=-1, gold=1)
    assert narrate.event_sentence(row, names) == "swaps art for gold at the Black Market"


def test_readme_quotes_lines_the_example_prints():
    """README's `print(text[:400])` comment quotes what game 17 of run seed 1 prints."""
    line = next(l for l in README.read_text().splitlines() if l.startswith("print(text[:400])"))
    quoted = re.findall(r'"([^"]+)"', line.split("#", 1)[1])
    assert quoted
    seed = int(game_seed_nb(np.uint64(1), 17))
    _, text = cargo_sim.play_one(seed, ["random"] * 3)
    for q in quoted:
        assert q in text[:400], q


# ---- the page in a browser ------------------------------------------------
@pytest.mark.slow               # two browser launches, ~5 s each on a busy machine
def test_page_in_headless_chromium(game, tmp_path):
    browser = chromium()
    data, events = game
    path = replay.write_page(tmp_path / "game.html", data)
    dom, log = dump(browser, path.resolve().as_uri() + "#step=last")
    # the page reports script errors into #errors; the console must be clean too
    assert page_errors(dom, log) == []
    last = len(data["steps"]) - 1
    assert f"decision {last} of {last}" in dom
    expect = events[events.action == "score"]
    assert score_rows(dom) == [(int(r.seat), int(r.value), bool(r.count)) for r in expect.itertuples()]
    assert 'id="scores" class="wide shown"' in dom
    assert "Black Market" in dom and "Ports" in dom          # the game's board is drawn
    # opened at the start, the scores are hidden and the set-up is shown
    dom0, _ = dump(browser, path.resolve().as_uri())
    assert "decision 0 of" in dom0 and 'class="wide shown"' not in dom0
    # every step drawn in turn, from the set-up to the end, without an error
    every = tmp_path / "every.html"
    every.write_text(stepping_all(path.read_text()))
    dom1, log1 = dump(browser, every.resolve().as_uri())
    assert page_errors(dom1, log1) == [] and f'<div id="stepped">stepped {last + 1}</div>' in dom1
