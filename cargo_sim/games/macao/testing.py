"""What must hold of any Macao state between decisions (the contract's invariants hook)
and small helpers for scripted states in tests."""
from __future__ import annotations

from ...core.layout import R_N_PLAYERS
from . import enums as E
from .engine_nb import pb


def invariants(s, rules) -> list[str]:
    """Every broken conservation law or bound of a state, one message each."""
    bad = []
    n = int(s[R_N_PLAYERS])
    limited_coins = bool(s[E.K_LIMIT_COINS])
    coins_held = 0
    for q in range(n):
        b = pb(q)
        coins = int(s[b + E.P_COINS])
        coins_held += coins
        if coins != s[b + E.P_COINS_IN] - s[b + E.P_COINS_OUT] or coins < 0:
            bad.append(f"seat {q}: coins {coins} are not coins gained - coins paid")
        cubes = int(s[b + E.P_ROSE:b + E.P_ROSE + (E.MAX_ROSE + 1) * E.NC].sum())
        if cubes != s[b + E.P_CUBES_IN] - s[b + E.P_CUBES_OUT] - s[b + E.P_WASTED]:
            bad.append(f"seat {q}: cubes {cubes} are not cubes gained - spent - lost")
        if (s[b + E.P_ROSE:b + E.P_ROSE + (E.MAX_ROSE + 1) * E.NC] < 0).any():
            bad.append(f"seat {q}: a negative cube count")
        owned = int((s[E.G_Q_OWNER:E.G_Q_OWNER + s[E.K_NQ]] == q).sum())
        if owned != s[b + E.P_CITY]:
            bad.append(f"seat {q}: {owned} quarters marked, {s[b + E.P_CITY]} counted")
        if s[b + E.P_CITY] + s[b + E.P_PEN_MARKERS] > s[E.K_MARKERS]:
            bad.append(f"seat {q}: more markers used than it has")
        if not 0 <= s[b + E.P_WALL] < s[E.K_WALL_SPACES]:
            bad.append(f"seat {q}: wall disc off the wall")
        if not 0 <= s[b + E.P_SHIP] <= s[E.K_ROUTE_END]:
            bad.append(f"seat {q}: ship off the route")
        if s[b + E.P_N_TAB] > s[E.K_TAB_SPACES] + (1 if s[E.G_ASK] == E.D_DISCARD and s[E.G_SEAT] == q else 0):
            bad.append(f"seat {q}: too many cards on the tableau")
    if coins_held + s[E.G_BANK] != s[E.K_TOTAL_COINS]:
        bad.append("coins: the bank (a balance when unlimited) and the seats do not add up to the box's")
    if limited_coins and s[E.G_BANK] < 0:
        bad.append("coins: the bank is overdrawn")
    for c in range(E.NC):
        held = sum(int(s[pb(q) + E.P_ROSE + side * E.NC + c]) for q in range(n) for side in range(E.MAX_ROSE + 1))
        if held + s[E.G_SUPPLY + c] != s[E.K_CUBES_PER]:
            bad.append(f"cubes of colour {c}: supply and seats do not add up")
    # cards: in the deck, offered, on tableaux, completed or discarded
    where = (s[E.K_N_DECK] - s[E.G_DECK_TOP]) + (s[E.K_N_OFFICE] - s[E.G_OFF_TOP])
    where += int((s[E.G_OFFER:E.G_OFFER + s[E.G_N_OFFER]] >= 0).sum()) + s[E.G_DISCARDED]
    where += sum(int(s[pb(q) + E.P_N_TAB] + s[pb(q) + E.P_N_DONE]) for q in range(n))
    if where != s[E.K_N_DECK] + s[E.K_N_OFFICE]:
        bad.append(f"cards: {where} accounted for, the box holds {s[E.K_N_DECK] + s[E.K_N_OFFICE]}")
    # goods tiles: on free quarters, held or delivered
    nq = int(s[E.K_NQ])
    free_tiles = sum(1 for x in range(nq) if s[E.G_Q_OWNER + x] < 0 and s[E.G_Q_TILE + x] >= 0)
    held = sum(int(s[pb(q) + E.P_GOODS:pb(q) + E.P_GOODS + E.MAX_GOODS].sum()) for q in range(n))
    delivered = sum(int(s[pb(q) + E.P_DELIVERED_TILES]) for q in range(n))
    if free_tiles + held + delivered != nq - s[E.K_N_JOKERS]:
        bad.append("goods tiles: free, held and delivered do not add up")
    order = [int(x) for x in s[E.G_ORDER:E.G_ORDER + n]]
    if sorted(order) != list(range(n)):
        bad.append(f"turn order {order} is not a permutation of the seats")
    return bad
