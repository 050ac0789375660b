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


# ---- explicit states for rule tests ----------------------------------------------------------
def new_state(n_players: int = 2, seed: int = 0, rules=None, players=None):
    """A game of ``n_players`` random bots at its first decision (the start goods) and
    its table's decide function: (state, decide)."""
    from .forward_nb import begin_nb
    from .rules import Rules
    from .simulate import table_template
    from ...core.contract import get_game
    rules = rules or Rules.default()
    bots = get_game("shipwrights").bots
    template, decide = table_template(rules, [bots.parse(p) for p in (players or ["random"] * n_players)])
    s = template.copy()
    begin_nb(s, np.uint64(seed), 0)
    return s, decide


def face_id(rules, name: str) -> int:
    return rules.card_names.index(name)


def take_copy(s, rules, name: str) -> int:
    """A copy of card ``name`` taken out of the deck (or the discard pile)."""
    f = face_id(rules, name)
    for top, base in ((E.G_DECK_N, E.G_DECK), (E.G_DISC_N, E.G_DISC)):
        for i in range(int(s[top])):
            c = int(s[base + i])
            if s[E.K_BOX + c] == f:
                s[base + i:base + s[top] - 1] = s[base + i + 1:base + s[top]].copy()
                s[top] -= 1
                s[E.G_TOP_BACK] = s[E.K_BOX_BACK + s[E.G_DECK + s[E.G_DECK_N] - 1]] if s[E.G_DECK_N] else -1
                return c
    raise ValueError(f"no copy of {name} left in the deck or the discard pile")


def give_back(s, c: int) -> None:
    """A copy back onto the discard pile (cards stay conserved)."""
    s[E.G_DISC + s[E.G_DISC_N]] = c
    s[E.G_DISC_N] += 1


def afternoon(s, rules, seat: int, hand=(), gold=None, workers=None, goods=None, craftsmen=(),
              yards=(), tool=None, buildings=(), ships=()):
    """Set the state to ``seat``'s afternoon (its action decision) with the cards named
    (taken from the deck) and the resources given; other seats' hands emptied."""
    n = int(s[R_N_PLAYERS])
    for q in range(n):                                   # empty every hand, packet, face-down card
        b = pb(q)
        for i in range(int(s[b + E.P_HAND_N])):
            give_back(s, int(s[b + E.P_HAND + i]))
        s[b + E.P_HAND_N] = 0
    for i in range(int(s[E.G_PACKET_N])):
        give_back(s, int(s[E.G_PACKET + i]))
    for i in range(int(s[E.G_FD_N])):
        give_back(s, int(s[E.G_FD + i]))
    s[E.G_PACKET_N], s[E.G_FD_N] = 0, 0
    dress(s, rules, seat, hand, gold, workers, goods, craftsmen, yards, tool, buildings, ships)
    s[E.G_PHASE], s[E.G_ASK], s[E.G_SEAT] = E.PH_AFTERNOON, E.D_ACTION, seat
    s[E.G_IDX] = (seat - s[E.G_FIRST]) % n
    s[E.G_ROUND] = s[E.K_ROUNDS]
    return s


def set_gold(s, q: int, gold: int) -> None:
    """Gold set through the ledger (gained - paid stays the gold held)."""
    b = pb(q)
    s[b + E.P_GOLD_IN] += gold - s[b + E.P_GOLD]
    s[b + E.P_GOLD] = gold


def complete_for_test(s, rules, q: int, c: int) -> None:
    """A completed ship put in front of seat q (its icons and flags counted)."""
    b = pb(q)
    x = rules.names("ship").index(rules.card_names[int(s[E.K_BOX + c])])
    row = rules.arrays()["ship"][x]
    s[b + E.P_SHIPS + s[b + E.P_N_DONE]] = c
    s[b + E.P_N_DONE] += 1
    s[b + E.P_DONE + x] += 1
    s[b + E.P_MIL] += row[E.S_MIL]
    s[b + E.P_CIVIL] += 1 if row[E.S_MIL] == 0 else 0
    s[b + E.P_GICON] += row[E.S_GICON]
    s[b + E.P_WICON] += row[E.S_WICON]
    s[b + E.P_MICON] += row[E.S_MICON]


def complete_code(yard: int, i: int, j: int = E.NO_REF, tool: int = 0) -> int:
    """The action completing the ship in ``yard`` with craftsmen refs i (and j): 0..7
    the board's, E.HAND_REF + slot a hand card."""
    return E.A_COMPLETE + ((yard * 2 + tool) * 32 + i) * 32 + j


def town_code(slot: int, arg: int = 0) -> int:
    return E.A_TOWN + slot * 256 + arg


def step(s, answer: int) -> None:
    """Apply a legal answer (AssertionError if the engine refuses it)."""
    from .forward_nb import step_nb
    step_nb(s, answer)
    assert not s[E.G_STOP], f"answer {answer} refused"


def legal(s) -> list[int]:
    from .forward_nb import legal_nb
    out = np.zeros(E.MAX_LEGAL, np.int64)
    return [int(a) for a in out[:legal_nb(s, out)]]


def seat_word(s, q: int, word: int) -> int:
    return int(s[pb(q) + word])


def dress(s, rules, q: int, hand=(), gold=None, workers=None, goods=None, craftsmen=(), yards=(),
          tool=None, buildings=(), ships=()):
    """Give seat q the cards named (taken from the deck) and the resources given."""
    seat = q
    b = pb(seat)
    for name in hand:
        c = take_copy(s, rules, name)
        s[b + E.P_HAND + s[b + E.P_HAND_N]] = c
        s[b + E.P_SRC + s[b + E.P_HAND_N]] = E.ROUND_DRAWN
        s[b + E.P_HAND_N] += 1
    if gold is not None:
        set_gold(s, seat, gold)
    if workers is not None:
        s[b + E.P_WORKERS] = workers
    if goods is not None:
        s[b + E.P_GOODS:b + E.P_GOODS + E.NG] = goods
    for name in craftsmen:
        s[b + E.P_CRAFT + s[b + E.P_CRAFT_N]] = take_copy(s, rules, name)
        s[b + E.P_CRAFT_N] += 1
    for y, name in enumerate(yards):
        if name:
            s[b + E.P_YARD + y] = take_copy(s, rules, name)
    if tool is not None:
        c = take_copy(s, rules, tool)
        s[b + E.P_TOOL] = c
        t = rules.arrays()["tool"][rules.names("tool").index(tool)]
        s[b + E.P_CART:b + E.P_CART + E.NG] = t[2:5] if t[1] == 1 else 0
    for name in buildings:
        s[b + E.P_BLD + rules.names("building").index(name)] = take_copy(s, rules, name)
        s[b + E.P_N_BLD] += 1
    for name in ships:
        complete_for_test(s, rules, seat, take_copy(s, rules, name))
