"""The replay page of any game: one game as a self-contained HTML page that steps
through it decision by decision (``cargo-sim play --html``; docs/replay.md).

The event log alone cannot draw a board (what chance brings is not always logged),
so the game is played again through the game's forward model (its member
``forward``: the same kernels, the same game as ``play_one``), the table's own
bots answering, and the public board is read from the state after every decision.
The events come from ``play_one`` and are split among the decisions by the
state's event counter; the stepped game must log exactly as many.

A game writes three things, held by a ``ReplayPage`` (its member ``replay``): the
snapshot (state -> a small dict: the board after a decision), the static page
data (what a whole game shares: names, sizes) and the board-drawing JavaScript
(``replay_template.html`` inlines it). The page's chrome (step buttons, slider,
keyboard, the event list, the final scores) is this module's template.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from types import SimpleNamespace
from typing import Callable

import numpy as np

from .checks import check_seed
from .errors import ConfigError
from .fileio import atomic_write_owned, check_owned

# the page says who made it: a file without this line is never overwritten
GENERATOR = "cargo-sim replay"
MARKER = f'<meta name="generator" content="{GENERATOR}">'
MAX_STEPS = 100_000          # a game has a few hundred decisions; a runaway bot stops here
CORE_TEMPLATE = resources.files(__package__).joinpath("replay_template.html")   # the page's chrome


@dataclass(frozen=True)
class ReplayPage:
    """A game's replay page (docs/replay.md). The game writes:

    * ``snapshot(s, rules, n_players) -> dict``: the public board after a decision,
      as small lists and numbers (the page's JSON); its ``turn`` and ``seat`` (the
      seat to decide) drive the status line and the turn buttons;
    * ``static(s, rules, labels) -> dict``: the page data of the whole game (names,
      sizes; ``turns``: the game's length), read from the finished state;
    * ``board``: ``(package, file name)`` of the board-drawing JavaScript, which
      defines ``BOARD`` (``draw(G, s, at) -> [section elements]``; optional
      ``turnWord``, ``status(G, s)``);

    and two facts of its engine: ``events_done(s)``, the events logged so far (the
    state's counter), and ``sentences(events, rules, labels)``, one plain-English line per
    row of its events table (its narrate).
    """
    game: str
    snapshot: Callable
    static: Callable
    board: tuple
    events_done: Callable
    sentences: Callable

    # ---- the game's contract member ``replay`` ------------------------------------------
    def check(self, path) -> None:
        """ConfigError unless ``path`` is free or a page this library wrote (checked
        before a game is played; ``write`` checks again)."""
        check_owned(path, MARKER)

    def write(self, path, seed, players, rules=None, check_bots: bool = True):
        """Write the page of the game of seed ``seed``: (its path, its decisions)."""
        data, _ = self.steps(seed, players, rules, check_bots)
        return self.write_page(path, data), len(data["steps"]) - 1

    # ---- the parts ---------------------------------------------------------------------
    def steps(self, seed, players, rules=None, check_bots: bool = True):
        """Play the game of seed ``seed`` decision by decision with the table's bots.
        Returns (the page's data: one board per decision with the events that led to
        it, in plain English; the events table, as ``play_one`` gives it)."""
        from .contract import get_game, require
        from .runner import play_one, seat_players
        game = get_game(self.game)
        require(game, "forward")                  # the page steps the game through it
        fw = game.forward
        seated, rules = seat_players(game, 1, players, rules)
        seed = check_seed(seed, "a game seed") % 2**64
        events, _, rules, labels = play_one(game, seed, players, rules=rules, check_bots=check_bots)
        n = len(seated)
        # a fresh template of the table: stepped itself (its memory keeps the table's
        # shared data alive, core.shared_nb)
        s, decide = game.table_template(rules, seated, bool(check_bots))
        # room for every event (a game whose forward model writes its log counts only
        # the rows it can write; the others count without one)
        log = np.zeros((len(events) + 1, fw.log_width), dtype=np.int64)
        fw.begin(s, log, seed, 0)
        scratch = s.copy()
        # what a stopped kernel's error names (the forward model's ``error``)
        where = SimpleNamespace(players=seated, rules=rules, seed=seed, game=0, game_seed=seed)
        done = int(self.events_done(s))            # the setup's events
        steps = [dict(self.snapshot(s, rules, n), did=None, events=list(range(done)))]
        while not fw.is_over(s):
            if len(steps) > MAX_STEPS:
                raise ConfigError(f"the game did not end within {MAX_STEPS:,} decisions")
            kind, seat = fw.pending(s)
            fw.clone_into(scratch, s)              # the game before this decision
            for attempt in range(2):
                ans = fw.bot_answer(s, decide)
                if not fw.stopped(s):
                    fw.step(s, log, ans)
                if not fw.stopped(s):
                    break
                if attempt == 0 and fw.retry(s):   # what the stop needed is loaded: again
                    fw.clone_into(s, scratch)
                    continue
                raise fw.error(where, s, False)
            n_ev = int(self.events_done(s))
            steps.append(dict(self.snapshot(s, rules, n), did=[int(seat), fw.decision_names[kind]],
                              events=list(range(done, n_ev))))
            done = n_ev
        if done != len(events):
            raise RuntimeError(f"the stepped game logged {done} events, play_one's {len(events)}: "
                               f"not the same game")
        sentences = list(self.sentences(events, rules, labels))
        if len(sentences) != len(events):
            raise RuntimeError(f"{len(sentences)} sentences for {len(events)} events")
        for st in steps:
            st["events"] = [sentences[i] for i in st["events"]]
        vp, won = fw.scores(s, n)
        scores = [{"seat": q, "bot": labels[q], "vp": int(vp[q]), "won": bool(won[q])} for q in range(n)]
        data = {"generator": GENERATOR, "seed": str(seed), "rules": rules.digest, "players": labels,
                **self.static(s, rules, labels), "decisions": list(fw.decision_names),
                "steps": steps, "scores": scores}
        return data, events

    def page(self, data: dict, title: str | None = None) -> str:
        """The self-contained HTML page of ``steps``' data."""
        from .contract import get_game
        name = get_game(self.game).title
        template = CORE_TEMPLATE.read_text("utf-8")
        package, file = self.board
        board = resources.files(package).joinpath(file).read_text("utf-8")
        title = title or f"{name} replay: {', '.join(data['players'])} (seed {data['seed']})"
        heading = f"{name}: {', '.join(data['players'])}"
        # the board's script is ours, but no "</" may close the script element early
        board = board.replace("</", "<\\/")
        parts = {"TITLE": html_text(title), "HEADING": html_text(heading), "GENERATOR": GENERATOR,
                 "BOARD": board, "DATA": script_json(data)}
        # one pass: nothing a part holds is read as a slot
        return re.sub(r"\{\{([A-Z]+)\}\}", lambda m: parts[m.group(1)], template)

    def write_page(self, path, data: dict) -> Path:
        """Write the page atomically; an existing file is replaced only if it is a
        page this library wrote (its generator line), never anything else."""
        return atomic_write_owned(path, self.page(data), MARKER)


def script_json(data) -> str:
    """``data`` as JSON to inline in a <script> element: no "</" may close the
    element early, whatever a bot's label holds."""
    blob = json.dumps(data, separators=(",", ":"))
    return blob.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def html_text(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
