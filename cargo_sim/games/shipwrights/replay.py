"""Shipwrights' replay page (``cargo-sim play --game shipwrights --html game.html``;
docs/replay.md): the core (``core.replay``) plays the game decision by decision and
writes the page; this module gives what is Shipwrights' own: the board after a decision
(``snapshot``), the page data of the whole game (``static``), the board's drawing
(``replay_board.js``), the event counter and the events in plain English (narrate).

The page is an **open-hand** replay, for the designer: the event log it narrates
names every card a seat keeps in the draft, so hiding the hands would hide nothing.
What a seat at the table could see is marked instead: each card in a hand says
which seats saw it (in the draft, the seats that passed it on; a drawn card, only
its owner), the draft packet and the face-down discards are marked as hidden
cards. Everything else on the page is public. The state is read through ``enums``'
names only.
"""
from __future__ import annotations

import numpy as np

from ...core.replay import ReplayPage
from . import enums as E
from . import narrate

PHASES = ("set-up", "draft", "afternoon", "evening", "over")


def _pb(q: int) -> int:
    return E.PL + q * E.PW


def _face(s, copy: int) -> int:
    """The card face of a copy (-1: none)."""
    return int(s[E.K_BOX + copy]) if copy >= 0 else -1


def _faces(s, at: int, n: int) -> list[int]:
    return [_face(s, int(c)) for c in s[at:at + n]]


def _ship_points(s, copies) -> int:
    """What completed ships score (their faces' points): the running points of a seat."""
    return sum(int(s[E.K_SHIP + int(s[E.K_IDX + _face(s, int(c))]) * E.SHIP_W + E.S_PTS]) for c in copies)


def snapshot(s: np.ndarray, rules, n: int) -> dict:
    """The board after a decision, as small lists (the page's JSON): card faces by
    number (``static``'s ``cards``), -1 an empty place."""
    pos = [int(s[E.G_POS + q]) for q in range(n)]
    players = []
    for q in range(n):
        b = _pb(q)
        hand_n = int(s[b + E.P_HAND_N])
        hand = []
        for i in range(hand_n):
            src = int(s[b + E.P_SRC + i])
            # a card kept in a draft round was seen by the seats that passed it on
            seen = [] if src >= E.ROUND_DRAWN else [o for o in range(n) if pos[o] < pos[q]]
            hand.append({"face": _face(s, int(s[b + E.P_HAND + i])), "round": src, "seen_by": seen})
        ships = [int(c) for c in s[b + E.P_SHIPS:b + E.P_SHIPS + int(s[b + E.P_N_DONE])]]
        over = s[E.G_PHASE] == E.PH_OVER
        players.append({
            "gold": int(s[b + E.P_GOLD]), "workers": int(s[b + E.P_WORKERS]),
            "goods": [int(x) for x in s[b + E.P_GOODS:b + E.P_GOODS + E.NG]],
            "hand": hand,
            "craftsmen": _faces(s, b + E.P_CRAFT, int(s[b + E.P_CRAFT_N])),
            "yards": _faces(s, b + E.P_YARD, int(s[E.K_YARDS])),
            "tool": _face(s, int(s[b + E.P_TOOL])),
            "cart": [int(x) for x in s[b + E.P_CART:b + E.P_CART + E.NG]],
            "buildings": [f for f in _faces(s, b + E.P_BLD, E.MAX_BLD) if f >= 0],
            "ships": [_face(s, c) for c in ships],
            "front": _faces(s, b + E.P_FRONT, int(s[b + E.P_FRONT_N])),
            "protected": bool(s[b + E.P_PROTECTED]),
            "military": int(s[b + E.P_MIL]),
            "icons": [int(s[b + E.P_GICON]), int(s[b + E.P_WICON]), int(s[b + E.P_MICON])],
            # during the game the ships' points (buildings and the military token score
            # at the end); at the end the final score
            "points": int(s[b + E.P_VP]) if over else _ship_points(s, ships),
        })
    deck_n, disc_n = int(s[E.G_DECK_N]), int(s[E.G_DISC_N])
    return {
        "turn": int(s[E.G_DAY]), "seat": int(s[E.G_SEAT]), "phase": int(s[E.G_PHASE]),
        "round": int(s[E.G_ROUND]), "first": int(s[E.G_FIRST]),
        "order": sorted(range(n), key=lambda q: pos[q]),
        "deck": deck_n, "top_back": int(s[E.G_TOP_BACK]),
        # the face-up pile: its size and its top card (the page stays small)
        "discard": disc_n, "discard_top": _face(s, int(s[E.G_DISC + disc_n - 1])) if disc_n else -1,
        "packet": _faces(s, E.G_PACKET, int(s[E.G_PACKET_N])),
        "facedown": _faces(s, E.G_FD, int(s[E.G_FD_N])),
        "players": players,
    }


def static(s: np.ndarray, rules, labels) -> dict:
    """The page data of the whole game: the card faces (name, kind and what a ship or
    building is), the goods bought at each card back's price, the sizes."""
    arr = rules.arrays()
    kinds = ("ship", "craftsman", "tool", "building", "townsfolk")
    cards = []
    for f, name in enumerate(rules.card_names):
        kind = kinds[int(s[E.K_KIND + f])]
        card = {"name": name, "kind": kind}
        if kind == "ship":
            at = E.K_SHIP + int(s[E.K_IDX + f]) * E.SHIP_W
            card.update(points=int(s[at + E.S_PTS]), military=int(s[at + E.S_MIL]))
        cards.append(card)
    return {
        "goods": list(rules["goods"]), "cards": cards,
        "backs": [{"name": name, "goods": [int(x) for x in arr["back"][i]]}
                  for i, name in enumerate(rules.names("back"))],
        "deck_size": int(s[E.K_N_CARDS]), "shipyards": int(s[E.K_YARDS]),
        "ship_goal": int(s[E.K_GOAL]), "gold_max": int(s[E.K_GOLD_MAX]),
        "draft_rounds": int(s[E.K_ROUNDS]), "buy_price": [int(s[E.K_GOODS_GOLD]), int(s[E.K_GOODS_WORK])],
        "open_hands": True,
    }


def sentences(events, rules, labels) -> list[str]:
    """One line per event row (narrate's lines without its day headings), each seat
    named with its bot."""
    lines = [line for line in narrate.render(events, rules).splitlines() if not line.startswith("-- ")]
    if len(lines) != len(events):
        raise RuntimeError(f"narrate gave {len(lines)} lines for {len(events)} events")
    out = []
    for line, seat in zip(lines, events["seat"]):
        seat = int(seat)
        if 0 <= seat < len(labels) and line.startswith(f"seat {seat} "):
            line = f"seat {seat} ({labels[seat]}) " + line[len(f"seat {seat} "):]
        elif line.startswith("table "):
            line = "The table: " + line[len("table "):]
        out.append(line)
    return out


REPLAY = ReplayPage(game="shipwrights", snapshot=snapshot, static=static,
                    board=(__package__, "replay_board.js"),
                    events_done=lambda s: s[E.G_NEV], sentences=sentences)
