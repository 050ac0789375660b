"""What must hold of any Cargo Empire state between decisions (the contract's invariants
hook) and helpers for explicit states in tests."""
from __future__ import annotations

import numpy as np

from ...core.layout import R_N_PLAYERS
from . import enums as E
from .engine_nb import pb


def invariants(s, rules) -> list[str]:
    """Every broken conservation law or bound of a state, one message each."""
    bad = []
    n = int(s[R_N_PLAYERS])
    nc = int(s[E.K_NC])
    for c in range(nc):
        lv, tile = int(s[E.G_LV + c]), int(s[E.G_TILE + c])
        if lv not in (1, 2, 3) or (lv == 3) != (tile < 0):
            bad.append(f"city {c}: level {lv} with tile {tile}")
        if not 0 <= s[E.G_CUBES + c] <= s[E.K_PROD] or (lv == 3 and s[E.G_CUBES + c]):
            bad.append(f"city {c}: {int(s[E.G_CUBES + c])} cubes")
        posts = int(s[E.G_PRESENT + c * E.MAX_SEATS:E.G_PRESENT + c * E.MAX_SEATS + n].sum())
        on_demand = int((s[E.G_DEMAND + 2 * c:E.G_DEMAND + 2 * c + 2] > 0).sum())
        done = {1: 0, 2: 2, 3: 4}.get(lv, 0)
        if posts != done + on_demand:
            bad.append(f"city {c}: {posts} posts at level {lv} with {on_demand} on demand spaces")
    in_deck = int(s[E.G_DECK_N])
    public = [int(x) for x in s[E.G_PUBLIC:E.G_PUBLIC + s[E.K_NPUB]] if x >= 0]
    owned = sum(bin(int(s[pb(q) + E.P_CARDS])).count("1") for q in range(n))
    secret = sum(1 for q in range(n) if s[pb(q) + E.P_SECRET] >= 0)
    if in_deck + len(public) + owned + secret != nc:
        bad.append(f"city cards: deck {in_deck} + public {len(public)} + owned {owned} + secret {secret} != {nc}")
    held = sum(int(s[pb(q) + E.P_NMISS]) for q in range(n)) + int(s[E.G_MN]) + int(s[E.G_MOFFER_N])
    if held != s[E.K_NMISS]:
        bad.append(f"missions: {held} accounted for, {int(s[E.K_NMISS])} in the box")
    for q in range(n):
        b = pb(q)
        if (s[b + E.P_HAND:b + E.P_HAND + 3] < 0).any():
            bad.append(f"seat {q}: a negative hand")
        posts = int(s[E.G_PRESENT + q:E.G_PRESENT + nc * E.MAX_SEATS:E.MAX_SEATS].sum())
        if s[E.G_ROUND] > 0 and posts != s[b + E.P_DELIV] + 2:      # two start posts, one a delivery
            bad.append(f"seat {q}: {posts} posts on the map for {int(s[b + E.P_DELIV])} deliveries")
        for v in range(3):
            if s[b + E.P_TILE + v] > s[E.K_NSLOTS] or s[b + E.P_DIST + v] < 0:
                bad.append(f"seat {q}: vehicle {v} off the board")
    order = sorted(int(x) for x in s[E.G_ORDER:E.G_ORDER + n])
    if order != list(range(n)):
        bad.append(f"turn order {order} is not a permutation of the seats")
    return bad


def new_state(rules, n_players, seed=0, bots=None):
    """A game state at its first decision (the table: random bots unless named)."""
    from ...core.bots import Player
    from .bots.registry import REGISTRY
    from .forward_nb import begin_nb
    from .simulate import table_template
    players = [REGISTRY.parse(b) if isinstance(b, str) else b for b in (bots or ["random"] * n_players)]
    s, _ = table_template(rules, players)
    begin_nb(s, np.uint64(seed), 0)
    return s


# ---- explicit states for scenario tests -----------------------------------------------
def city(rules, name) -> int:
    return list(rules.compiled()["names"]).index(name)


def play_until(s, want, answer=None, limit=10_000):
    """Answer the pending decisions (``answer(s)``, default the first legal answer) until
    a decision of kind ``want`` waits for seat any; the state at it."""
    from .forward_nb import legal_nb, step_nb
    out = np.zeros(E.MAX_LEGAL, np.int64)
    for _ in range(limit):
        if s[E.G_ASK] == want or s[E.G_ASK] < 0:
            return s
        a = answer(s) if answer else int(out[0]) if legal_nb(s, out) else -1
        step_nb(s, np.int64(a))
    raise AssertionError("no such decision")


def legal(s) -> list[int]:
    from .forward_nb import legal_nb
    out = np.zeros(E.MAX_LEGAL, np.int64)
    return [int(a) for a in out[:legal_nb(s, out)]]


def step(s, a):
    from .forward_nb import step_nb
    step_nb(s, np.int64(a))
    if s[E.G_STOP]:
        raise AssertionError(f"answer {a} refused")


def set_city(s, c, lv=1, cubes=None, demand=(0, 0), posts=()):
    """City c at level lv (3: tile removed) with cubes, its demand spaces' owners (seat+1,
    0 free) and the seats' posts on its post spaces."""
    s[E.G_LV + c] = lv
    if lv == 3:
        s[E.G_TILE + c] = -1
    s[E.G_CUBES + c] = s[E.K_PROD] if cubes is None else cubes
    s[E.G_PRESENT + c * E.MAX_SEATS:E.G_PRESENT + (c + 1) * E.MAX_SEATS] = 0
    for k, d in enumerate(demand):
        s[E.G_DEMAND + 2 * c + k] = d
        if d:
            s[E.G_PRESENT + c * E.MAX_SEATS + d - 1] += 1
    for q in posts:
        s[E.G_PRESENT + c * E.MAX_SEATS + q] += 1


def set_hand(s, q, trucks, trains, ships):
    s[pb(q) + E.P_HAND:pb(q) + E.P_HAND + 3] = trucks, trains, ships


def deliver_code(rules, src, dst, hand):
    """The answer delivering src -> dst paid with hand (trucks, trains, ships)."""
    c = rules.compiled()
    i, j = city(rules, src), city(rules, dst)
    at, n = int(c["pay_start"][i, j]), int(c["pay_count"][i, j])
    word = hand[0] | (hand[1] << 8) | (hand[2] << 16)
    opts = [int(w) for w in c["pay"][at:at + n]]
    return (i * E.MAXC + j) * E.MAX_OPT + opts.index(word)


def tile_of(s, c) -> list[int]:
    """The city's tile now: [produced colour, demand, demand] at its level."""
    t, lv = int(s[E.G_TILE + c]), int(s[E.G_LV + c])
    return [int(x) for x in s[E.K_TILE + 6 * t + (0 if lv == 1 else 3):][:3]]


def clean_board(s):
    """Every city LV1 with its production full and no post: a blank map for a scenario."""
    for c in range(int(s[E.K_NC])):
        set_city(s, c)
        s[E.G_TILE + c] = s[E.G_BAG + c]


def match(s, src, dst):
    """Give dst (LV1) a tile demanding what src produces (first such tile of the box);
    the demand space of that colour."""
    col = tile_of(s, src)[0]
    for t in range(int(s[E.K_NTILES])):
        row = [int(x) for x in s[E.K_TILE + 6 * t:][:3]]
        if col in row[1:] and row[0] != col:
            s[E.G_TILE + dst] = t
            return row[1:].index(col)
    raise AssertionError("no tile demands that colour")
