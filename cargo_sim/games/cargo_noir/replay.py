"""One game as a self-contained HTML page that steps through it decision by
decision (``cargo-sim play --html game.html``; docs/cli.md).

The event log alone cannot draw the board: a won port is refilled from the bag
and the Black Market's setup is never logged. So the game is played again
through the forward model (``forward_nb``: the same kernels, the same game as
``play_one``, tested), with the table's own bots answering, and the board is
read from the state after every decision. The page is ``replay_template.html``
(vanilla JavaScript, no network) with the steps inlined as JSON.
"""
from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import numpy as np
import pandas as pd

from ...core.checks import check_seed
from ...core.errors import ConfigError
from ...core.fileio import atomic_write_owned, check_owned
from . import enums as e
from . import narrate
from .forward_nb import begin_nb, bot_answer_nb, clone_into_nb, is_over_nb, step_nb, stopped_nb
from .simulate import (check_request, events_frame, illegal_error, load_solver, solver_address,
                       table_template)

# the page says who made it: a file without this line is never overwritten
GENERATOR = "cargo-sim replay"
MAX_STEPS = 100_000          # a game has a few hundred decisions; a runaway bot stops here


def _snapshot(s: np.ndarray, n: int, nt: int, n_ports: int, n_cards: int) -> dict:
    """The public board after a decision, as small lists (the page's JSON)."""
    def row(at, width):
        return [int(x) for x in s[at:at + width]]
    card_vp = [int(s[e.CARD + c * e.CARD_W + e.C_VP]) for c in range(n_cards)]
    players = []
    for seat in range(n):
        pl = e.PLAYER + seat * e.PLAYER_W
        cards = row(e.CARDS + seat * e.MAX_CARDS, n_cards)
        players.append({
            "coins": int(s[pl + e.PL_COINS]), "ships": int(s[pl + e.PL_SHIPS]),
            "home": int(s[pl + e.PL_HAND_SHIPS]), "casino": int(s[pl + e.PL_CASINO_SHIPS]),
            "bm": int(s[pl + e.PL_BM_SHIPS]), "warehouse": int(s[pl + e.PL_WAREHOUSE]),
            "tokens": row(e.HAND + seat * e.MAX_TOK, nt), "cards": cards,
            "vp": sum(k * v for k, v in zip(cards, card_vp)),
        })
    return {
        "turn": int(s[e.M_TURN]), "seat": int(s[e.M_SEAT]), "phase": int(s[e.M_PHASE]),
        "bank": int(s[e.M_BANK]), "bag": row(e.BAG, nt), "discard": row(e.DISCARD, nt),
        "bm": row(e.BLACK_MARKET, nt), "supply": row(e.SUPPLY, n_cards),
        "ports": [{"cargo": row(e.PORT_TOK + p * e.MAX_TOK, nt),
                   "bids": row(e.PORT_BID + p * e.MAX_SEATS, n)} for p in range(n_ports)],
        "players": players,
    }


def replay_steps(seed: int, players, rules=None, max_events: int = 20000,
                 check_bots: bool = True) -> tuple[dict, pd.DataFrame]:
    """Play the game of seed ``seed`` decision by decision with the table's bots.
    Returns (the page's data: one board per decision with the events that led
    to it, in plain English; the event log, as ``play_one`` gives it)."""
    seated, rules = check_request(1, players, rules)
    seed = check_seed(seed, "a game seed")
    n, nt = len(seated), len(rules.cargo_types) + 1
    ports, cards = rules.open_ports(n), list(rules.card_names)
    labels = [pl.label for pl in seated]
    tok_names = rules.cargo_types + ["wild"]
    s, decide = table_template(rules, seated, check_bots)       # a fresh state of this table
    log = np.full((max_events, e.N_EVENT_FIELDS), -1, dtype=np.int64)
    begin_nb(s, log, np.uint64(seed % 2**64), 0, solver_address())
    scratch = s.copy()
    snap = lambda: _snapshot(s, n, nt, len(ports), len(cards))   # noqa: E731
    done = int(s[e.M_N_EVENTS])                   # the setup's events
    steps = [dict(snap(), did=None, events=list(range(done)))]
    while not is_over_nb(s):
        if len(steps) > MAX_STEPS:
            raise ConfigError(f"the game did not end within {MAX_STEPS:,} decisions")
        clone_into_nb(scratch, s)                 # the game before this decision
        kind, seat = int(s[e.M_ASK]), int(s[e.M_SEAT])
        ans = int(bot_answer_nb(s, decide))
        step_nb(s, log, ans, solver_address())
        if stopped_nb(s):
            if s[e.M_ERR_KIND] < 0 and solver_address() == 0:
                load_solver()                     # a holding beyond the tables: step again
                clone_into_nb(s, scratch)
                continue
            raise illegal_error(seated, int(s[e.M_ERR_KIND]), int(s[e.M_ERR_SEAT]),
                                int(s[e.M_ERR_VALUE]), int(s[e.M_ERR_AUX]), int(s[e.M_TURN]),
                                0, seed, rules)
        n_ev = int(s[e.M_N_EVENTS])
        steps.append(dict(snap(), did=[seat, e.DECISION_NAMES[kind]],
                          events=list(range(done, n_ev))))
        done = n_ev
    events = events_frame(log[:done].copy(), rules, n, labels)
    rows = events.to_dict("records")
    sentences = [_line(r, tok_names) for r in rows]
    for st in steps:
        st["events"] = [sentences[i] for i in st["events"]]
    scores = [{"seat": int(r["seat"]), "bot": labels[int(r["seat"])], "vp": int(r["value"]),
               "won": bool(r["count"])} for r in rows if r["action"] == "score"]
    slots = [int(x) for x in s[e.PORT_SLOTS:e.PORT_SLOTS + len(ports)]]
    data = {"generator": GENERATOR, "seed": str(seed), "rules": rules.digest,
            "players": labels, "ports": ports, "slots": slots, "tokens": tok_names, "cards": cards, "turns": int(s[e.R_N_TURNS]),
            "decisions": list(e.DECISION_NAMES), "steps": steps, "scores": scores}
    return data, events


def _line(row: dict, tok_names) -> str:
    seat = int(row["seat"])
    sentence = narrate.event_sentence(row, tok_names)
    return f"seat {seat} ({row['bot']}) {sentence}" if seat >= 0 else sentence[0].upper() + sentence[1:]


def page(data: dict, title: str | None = None) -> str:
    """The self-contained HTML page for ``replay_steps``'s data."""
    template = resources.files(__package__).joinpath("replay_template.html").read_text("utf-8")
    blob = json.dumps(data, separators=(",", ":"))
    # inside <script>: no "</" may close the element early, whatever a bot's label holds
    blob = blob.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    title = title or f"Cargo Noir replay: {', '.join(data['players'])} (seed {data['seed']})"
    esc = title.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return (template.replace("{{TITLE}}", esc).replace("{{GENERATOR}}", GENERATOR)
            .replace("{{DATA}}", blob))


MARKER = f'<meta name="generator" content="{GENERATOR}">'


def check_page_path(path) -> None:
    """ConfigError unless ``path`` is free or a page this library wrote (checked
    before a game is played; ``write_page`` checks again)."""
    check_owned(path, MARKER)


def write_page(path, data: dict) -> Path:
    """Write the page atomically; an existing file is replaced only if it is a
    page this library wrote (its generator line), never anything else."""
    return atomic_write_owned(path, page(data), MARKER)
