"""Cargo Noir's replay page (``cargo-sim play --html game.html``; docs/replay.md): the
core (``core.replay``) plays the game decision by decision and writes the page; this
module gives what is Cargo Noir's own: the board after a decision (``snapshot``), the
page data of the whole game (``static``), the board's drawing (``replay_board.js``),
the event counter and the events in plain English (narrate).

The event log alone cannot draw the board: a won port is refilled from the bag and
the Black Market's setup is never logged, hence the board read from the state.
"""
from __future__ import annotations

import numpy as np

from ...core.replay import GENERATOR, MARKER, ReplayPage  # noqa: F401  (the page's marker)
from . import enums as e
from . import narrate


def snapshot(s: np.ndarray, rules, n: int) -> dict:
    """The public board after a decision, as small lists (the page's JSON)."""
    nt, n_ports, n_cards = len(rules.cargo_types) + 1, len(rules.open_ports(n)), len(rules.card_names)

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


def static(s: np.ndarray, rules, labels) -> dict:
    """The page data of the whole game: the open ports and their slots, names, turns."""
    ports = rules.open_ports(len(labels))
    return {"ports": ports, "slots": [int(x) for x in s[e.PORT_SLOTS:e.PORT_SLOTS + len(ports)]],
            "tokens": rules.cargo_types + ["wild"], "cards": list(rules.card_names),
            "turns": int(s[e.R_N_TURNS])}


def sentences(events, rules, labels) -> list[str]:
    """One line per event row: who did it and what, in plain English."""
    tok_names = rules.cargo_types + ["wild"]
    out = []
    for row in events.to_dict("records"):
        seat = int(row["seat"])
        sentence = narrate.event_sentence(row, tok_names)
        out.append(f"seat {seat} ({row['bot']}) {sentence}" if seat >= 0
                   else sentence[0].upper() + sentence[1:])
    return out


REPLAY = ReplayPage(game="cargo_noir", snapshot=snapshot, static=static,
                    board=(__package__, "replay_board.js"),
                    events_done=lambda s: s[e.M_N_EVENTS], sentences=sentences)


def replay_steps(seed: int, players, rules=None, check_bots: bool = True):
    """(the page's data, the events table) of the game of seed ``seed`` (core.replay)."""
    return REPLAY.steps(seed, players, rules, check_bots)


page, write_page, check_page_path = REPLAY.page, REPLAY.write_page, REPLAY.check
