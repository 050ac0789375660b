"""Checks every game's replay-page tests share (core.replay's ``Replay``): bad requests
are one-line errors, a page never replaces a file the library did not write and fetches
nothing, the CLI writes it, and in headless Chromium (tests/browser.py) it loads without
errors, shows the final scores at its last step and draws every step in turn. Each
game's test adds what its own boards must show."""
import re

import pytest

from cargo_sim.core.errors import BotError, ConfigError, RulesError
from tests.browser import chromium, dump, page_errors, score_rows, stepping_all


def check_bad_requests(replay, seed, players, too_many, tmp_path, more=()) -> None:
    """A negative seed, ``too_many`` seats, an unknown bot (and ``more`` (seed, players,
    error) cases) are each one line of their error; a folder is not a page."""
    cases = ((-1, players, ConfigError), (seed, too_many, RulesError),
             (seed, ["nobody", "random"], BotError)) + tuple(more)
    for s, p, kind in cases:
        with pytest.raises(kind) as e:
            replay.steps(s, p)
        assert "\n" not in str(e.value)
    with pytest.raises(ConfigError, match="folder"):
        replay.check(tmp_path)


def check_never_over_a_foreign_file(replay, data, tmp_path, title: str) -> str:
    """The page replaces its own file but neither writes over nor accepts a foreign
    one; it names ``title``, holds its data and code in two scripts and fetches
    nothing. Returns the page's HTML."""
    mine = tmp_path / "game.html"
    replay.write_page(mine, data)
    replay.write_page(mine, data)              # ours: replaced
    foreign = tmp_path / "notes.html"
    foreign.write_text("<html>my notes</html>")
    with pytest.raises(ConfigError, match="not written by cargo-sim"):
        replay.write_page(foreign, data)
    with pytest.raises(ConfigError, match="not written by cargo-sim"):
        replay.check(foreign)
    assert foreign.read_text() == "<html>my notes</html>"
    html = mine.read_text()
    assert html.count("</script>") == 2 and title in html
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", html)     # nothing fetched
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.html", "notes.html"]
    return html


def check_cli_html(game: str, seed: int, players, tmp_path, capsys) -> None:
    """``cargo-sim play --html`` writes the page and says where."""
    from cargo_sim.cli import main
    out = tmp_path / "page.html"
    assert main(["play", "--game", game, "--seed", str(seed), "--players", ",".join(players),
                 "--html", str(out)]) == 0
    assert f"wrote {out}" in capsys.readouterr().out
    assert '<meta name="generator" content="cargo-sim replay">' in out.read_text()[:4096]


def check_page_in_chromium(replay, data, tmp_path, last_heading: str, scores, words=()) -> str:
    """In headless Chromium the page opened at its last step shows ``last_heading``
    after "decision last of last", the score table's rows ``scores`` ((seat, points,
    won), tests/browser.score_rows) and ``words``; stepped through every step it
    reports no error and ends on the scores. Returns the last step's DOM."""
    browser = chromium()
    path = replay.write_page(tmp_path / "game.html", data)
    dom, log = dump(browser, path.resolve().as_uri() + "#step=last")
    assert page_errors(dom, log) == []
    last = len(data["steps"]) - 1
    assert f"decision {last} of {last} \u2014 {last_heading}" in dom
    assert score_rows(dom) == scores
    assert 'id="scores" class="wide shown"' in dom
    assert all(w in dom for w in words), [w for w in words if w not in dom]
    every = tmp_path / "every.html"
    every.write_text(stepping_all(path.read_text()))
    dom1, log1 = dump(browser, every.resolve().as_uri())
    assert page_errors(dom1, log1) == []
    assert f'<div id="stepped">stepped {last + 1}</div>' in dom1
    assert f"decision {last} of {last}" in dom1 and 'id="scores" class="wide shown"' in dom1
    return dom
