"""Macao's replay page (``cargo-sim play --game macao --html game.html``; docs/replay.md):
the core (``core.replay``) plays the game decision by decision and writes the page; this
module gives what is Macao's own: the board after a decision (``snapshot``), the page
data of the whole game (``static``), the board's drawing (``replay_board.js``), the
event counter and the events in plain English (narrate). The state is read through
``enums``' names only.
"""
from __future__ import annotations

import re

import numpy as np

from ...core.replay import ReplayPage
from . import enums as E
from . import narrate


def _row(s, at, width):
    return [int(x) for x in s[at:at + width]]


def snapshot(s: np.ndarray, rules, n: int) -> dict:
    """The public board after a decision, as small lists (the page's JSON)."""
    sides = int(s[E.K_ROSE_SIDES]) + 1                  # side 0: this round's cubes
    players = []
    for q in range(n):
        b = E.PL + q * E.PW
        players.append({
            "coins": int(s[b + E.P_COINS]), "points": int(s[b + E.P_VP]),
            "penalties": int(s[b + E.P_PEN_MARKERS]), "quarters": int(s[b + E.P_CITY]),
            "wall": int(s[b + E.P_WALL]), "stamp": int(s[b + E.P_STAMP]), "ship": int(s[b + E.P_SHIP]),
            "rose": [_row(s, b + E.P_ROSE + side * E.NC, E.NC) for side in range(sides)],
            "goods": _row(s, b + E.P_GOODS, int(s[E.K_N_GOODS])), "jokers": int(s[b + E.P_JOKERS]),
            "tableau": _row(s, b + E.P_TAB, int(s[b + E.P_N_TAB])),
            "completed": _row(s, b + E.P_DONE, int(s[b + E.P_N_DONE])),
            "used": _row(s, b + E.P_USED, int(s[b + E.P_N_DONE])),
        })
    return {
        "turn": int(s[E.G_ROUND]), "seat": int(s[E.G_SEAT]), "phase": int(s[E.G_PHASE]),
        "order": _row(s, E.G_ORDER, n), "dice": _row(s, E.G_DICE, E.NC),
        "offer": _row(s, E.G_OFFER, int(s[E.G_N_OFFER])),
        "tribute": [int(s[E.G_TRIB_PRICE]), int(s[E.G_TRIB_REWARD])],
        "supply": _row(s, E.G_SUPPLY, E.NC) if s[E.K_LIMIT_CUBES] else None,
        "bank": int(s[E.G_BANK]) if s[E.K_LIMIT_COINS] else None,
        "owner": _row(s, E.G_Q_OWNER, int(s[E.K_NQ])),
        "delivered": _row(s, E.G_PORT_DELIV, int(s[E.K_N_PORTS])),
        "players": players,
    }


def static(s: np.ndarray, rules, labels) -> dict:
    """The page data of the whole game: names, the city's map with its goods tiles (laid
    at setup), the route's ports, the cards' kinds, the sizes."""
    nq, n_goods, n_ports, n_ct = (int(s[E.K_NQ]), int(s[E.K_N_GOODS]), int(s[E.K_N_PORTS]),
                                  int(s[E.K_N_CT]))
    names = [str(q) for q in rules.quarters]
    kinds = {E.K_OFFICE_KIND: "office", E.K_BUILDING_KIND: "building", E.K_PERSON_KIND: "person"}
    return {
        "colours": rules.colours, "goods": rules.goods, "turns": int(s[E.K_ROUNDS]),
        "quarters": [{"name": names[i], "row": rules[f"quarter.{names[i]}.row"],
                      "col": rules[f"quarter.{names[i]}.col"], "dark": bool(s[E.K_Q_DARK + i]),
                      "cost": _row(s, E.K_Q_COST + i * E.NC, E.NC), "tile": int(s[E.G_Q_TILE + i])}
                     for i in range(nq)],
        "ports": [{"name": name, "space": int(s[E.K_PORT_SPACE + p]),
                   "goods": [g for g in range(n_goods) if s[E.K_PORT_GOODS + p * E.MAX_GOODS + g]]}
                  for p, name in enumerate(rules.port_names[:n_ports])],
        "route_end": int(s[E.K_ROUTE_END]), "wall_spaces": int(s[E.K_WALL_SPACES]),
        "markers": int(s[E.K_MARKERS]), "cubes_per_colour": int(s[E.K_CUBES_PER]),
        "cards": [{"name": name, "kind": kinds.get(int(s[E.K_C_KIND + c]), "card"),
                   "activated": bool(s[E.K_C_TIMING + c] == E.T_ACTIVATE)}
                  for c, name in enumerate(rules.card_names[:n_ct])],
    }


SEAT = re.compile(r"^seat (\d+) ")


def sentences(events, rules, labels) -> list[str]:
    """One line per event row (narrate's lines without its round headings), each seat
    named with its bot."""
    lines = [line for line in narrate.render(events, rules).splitlines() if not line.startswith("-- ")]
    if len(lines) != len(events):
        raise RuntimeError(f"narrate gave {len(lines)} lines for {len(events)} events")
    out = []
    for line in lines:
        m = SEAT.match(line)
        if m and int(m.group(1)) < len(labels):
            line = f"seat {m.group(1)} ({labels[int(m.group(1))]}) " + line[m.end():]
        elif line.startswith("table "):
            line = "The table " + line[len("table "):]
        out.append(line)
    return out


REPLAY = ReplayPage(game="macao", snapshot=snapshot, static=static,
                    board=(__package__, "replay_board.js"),
                    events_done=lambda s: s[E.G_NEV], sentences=sentences)
