"""What must hold of any Shipwrights state between decisions (the contract's invariants
hook) and helpers for explicit states in rule tests."""
from __future__ import annotations

import numpy as np

from ...core.layout import R_N_PLAYERS
from . import enums as E


def pb(q: int) -> int:
    return E.PL + q * E.PW


def invariants(s, rules) -> list[str]:
    """Every broken conservation law or bound of a state, one message each."""
    bad = []
    n = int(s[R_N_PLAYERS])
    gmax = int(s[E.K_GOLD_MAX])
    cards = int(s[E.G_DECK_N] + s[E.G_DISC_N] + s[E.G_PACKET_N] + s[E.G_FD_N])
    for q in range(n):
        b = pb(q)
        gold = int(s[b + E.P_GOLD])
        if not 0 <= gold <= gmax:
            bad.append(f"seat {q}: gold {gold} outside 0..{gmax}")
        if gold != s[b + E.P_GOLD_IN] - s[b + E.P_GOLD_OUT]:
            bad.append(f"seat {q}: gold {gold} is not gold gained - gold paid")
        if s[b + E.P_WORKERS] < 0 or (s[b + E.P_GOODS:b + E.P_GOODS + E.NG] < 0).any():
            bad.append(f"seat {q}: a negative count of workers or goods")
        if not 0 <= s[b + E.P_CRAFT_N] <= s[E.K_MAX_CRAFT]:
            bad.append(f"seat {q}: {s[b + E.P_CRAFT_N]} craftsmen under the board")
        if s[E.G_PHASE] != E.PH_AFTERNOON and s[b + E.P_HAND_N] > E.MAX_HAND:
            bad.append(f"seat {q}: hand overflow")
        if s[E.G_PHASE] == E.PH_EVENING and s[E.G_ASK] != E.D_RETURN and s[b + E.P_HAND_N] != 0:
            bad.append(f"seat {q}: cards in hand in the evening")
        yards = int((s[b + E.P_YARD:b + E.P_YARD + E.MAX_YARDS] >= 0).sum())
        blds = int((s[b + E.P_BLD:b + E.P_BLD + E.MAX_BLD] >= 0).sum())
        if blds != s[b + E.P_N_BLD]:
            bad.append(f"seat {q}: {blds} buildings owned, {s[b + E.P_N_BLD]} counted")
        done = int(s[b + E.P_DONE:b + E.P_DONE + E.MAX_SHIPS].sum())
        if done != s[b + E.P_N_DONE]:
            bad.append(f"seat {q}: completed ships do not add up")
        cards += (int(s[b + E.P_HAND_N] + s[b + E.P_CRAFT_N] + s[b + E.P_FRONT_N]) + yards + blds + done
                  + (1 if s[b + E.P_TOOL] >= 0 else 0))
    if cards != s[E.K_N_CARDS]:
        bad.append(f"cards: {cards} accounted for, the deck holds {int(s[E.K_N_CARDS])}")
    seen = np.zeros(int(s[E.K_N_CARDS]), np.int64)
    for c in copies_in_play(s):
        if 0 <= c < len(seen):
            seen[c] += 1
    if cards == s[E.K_N_CARDS] and (seen != 1).any():
        bad.append("cards: a copy is in two places or none")
    if s[E.G_DECK_N] > 0 and s[E.G_TOP_BACK] != s[E.K_BOX_BACK + s[E.G_DECK + s[E.G_DECK_N] - 1]]:
        bad.append("the top card's back is not the one shown")
    return bad


def copies_in_play(s) -> list[int]:
    """Every card copy where it lies (deck, discard pile, packet, face down, seats)."""
    out = list(s[E.G_DECK:E.G_DECK + s[E.G_DECK_N]]) + list(s[E.G_DISC:E.G_DISC + s[E.G_DISC_N]])
    out += list(s[E.G_PACKET:E.G_PACKET + s[E.G_PACKET_N]]) + list(s[E.G_FD:E.G_FD + s[E.G_FD_N]])
    for q in range(int(s[R_N_PLAYERS])):
        b = pb(q)
        out += list(s[b + E.P_HAND:b + E.P_HAND + s[b + E.P_HAND_N]])
        out += list(s[b + E.P_CRAFT:b + E.P_CRAFT + s[b + E.P_CRAFT_N]])
        out += list(s[b + E.P_FRONT:b + E.P_FRONT + s[b + E.P_FRONT_N]])
        out += [c for c in s[b + E.P_YARD:b + E.P_YARD + E.MAX_YARDS] if c >= 0]
        out += [c for c in s[b + E.P_BLD:b + E.P_BLD + E.MAX_BLD] if c >= 0]
        out += list(s[b + E.P_SHIPS:b + E.P_SHIPS + s[b + E.P_N_DONE]])
        if s[b + E.P_TOOL] >= 0:
            out.append(s[b + E.P_TOOL])
    return [int(c) for c in out]
