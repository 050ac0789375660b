"""Cargo Empire's replay page (``cargo-sim play --game cargo_empire --html game.html``;
docs/replay.md): the core (``core.replay``) plays the game decision by decision and
writes the page; this module gives what is Cargo Empire's own: the board after a
decision (``snapshot``), the page data of the whole game with the map laid out
(``static``, ``layout``), the board's drawing (``replay_board.js``), the event counter
and the events in plain English (narrate).

The page is **public**: what a spectator at the table sees. Each seat's secret city
card stays hidden until it is revealed at setup, its missions are a count until the
final scoring reveals them, and a mission kept is narrated without its name. The map
has no coordinates, so the cities are placed from the graph (``layout``). The state is
read through ``enums``' names only.
"""
from __future__ import annotations

import numpy as np

from ...core.layout import R_N_PLAYERS
from ...core.replay import ReplayPage
from . import enums as E
from . import narrate
from .rules import ORDER_BONUS, REWARDS

SEA_WEIGHT = 2.0        # a sea link drawn twice as long as a rail segment
LAYOUT_ROUNDS = 300


def _pb(q: int) -> int:
    return E.PL + q * E.PW


def _row(s, at: int, n: int) -> list[int]:
    return [int(x) for x in s[at:at + n]]


def _cities(mask: int, nc: int) -> list[int]:
    return [c for c in range(nc) if (mask >> c) & 1]


def _dev_vp(s, q: int) -> int:
    """The score spaces the seat's vehicles stand on (seed line 160)."""
    b = _pb(q)
    return sum(int(s[E.K_SCORE + s[b + E.P_IDX + v]]) for v in range(E.N_VEH)
               if s[b + E.P_TILE + v] >= s[E.K_NSLOTS] and s[b + E.P_PATH + v] >= 0)


def snapshot(s: np.ndarray, rules, n: int) -> dict:
    """The public board after a decision, as small lists (the page's JSON)."""
    nc = int(s[E.K_NC])
    over = bool(s[E.G_PHASE] == E.PH_OVER)
    cities = []
    for c in range(nc):
        lv, tile = int(s[E.G_LV + c]), int(s[E.G_TILE + c])
        # the tile's side up: [produced colour, demand, demand] (none once LV3)
        side = _row(s, E.K_TILE + tile * 6 + (lv - 1) * 3, 3) if tile >= 0 else []
        cities.append({"lv": lv, "side": side, "cubes": int(s[E.G_CUBES + c]),
                       "demand": [int(x) - 1 for x in s[E.G_DEMAND + 2 * c:E.G_DEMAND + 2 * c + 2]],
                       "posts": _row(s, E.G_PRESENT + c * E.MAX_SEATS, n)})
    players = []
    for q in range(n):
        b = _pb(q)
        lv3 = sum(cities[c]["posts"][q] for c in range(nc) if cities[c]["lv"] == 3)
        owned = _cities(int(s[b + E.P_CARDS]), nc)
        blanks = int(s[b + E.P_BLANKS])
        public = {"dev": _dev_vp(s, q), "lv3": lv3 * int(s[E.K_LV3_VP]),
                  "cards": (len(owned) + blanks) * int(s[E.K_CARD_VP])}
        players.append({
            "hand": _row(s, b + E.P_HAND, E.N_VEH),
            "track": [[int(s[b + f + v]) for f in (E.P_TILE, E.P_PATH, E.P_IDX)] for v in range(E.N_VEH)],
            "cards": owned, "blanks": blanks, "secret": bool(s[b + E.P_SECRET] >= 0),
            "missions": int(s[b + E.P_NMISS]),
            # the missions are secret until the final scoring
            "kept": _row(s, b + E.P_MISS, int(s[b + E.P_NMISS])) if over else None,
            "deliveries": int(s[b + E.P_DELIV]), "passes": int(s[b + E.P_PASSES]),
            "public": public,
            "points": int(s[b + E.P_VP]) if over else sum(public.values()),
        })
    return {
        "turn": int(s[E.G_ROUND]), "seat": int(s[E.G_SEAT]), "phase": int(s[E.G_PHASE]),
        "turn_in_round": int(s[E.G_TURN]), "order": _row(s, E.G_ORDER, n),
        "public": _row(s, E.G_PUBLIC, int(s[E.K_NPUB])), "deck": int(s[E.G_DECK_N]),
        "missions_left": int(s[E.G_MN]), "cities": cities, "players": players,
    }


def layout(names, land, sea) -> list[list[float]]:
    """Positions (0..1, 0..1) of the cities, from the graph alone: stress majorization
    on the route lengths (a rail segment 1, a sea link ``SEA_WEIGHT``), started from
    classical scaling. Deterministic: no random start, the axes' signs fixed."""
    n = len(names)
    if n == 1:
        return [[0.5, 0.5]]
    d = np.full((n, n), np.inf)
    np.fill_diagonal(d, 0.0)
    for i in range(n):
        for j in land[i]:
            d[i, j] = min(d[i, j], 1.0)
        for j in sea[i]:
            d[i, j] = min(d[i, j], SEA_WEIGHT)
    for k in range(n):                              # Floyd-Warshall: n is at most 32
        d = np.minimum(d, d[:, k:k + 1] + d[k:k + 1, :])
    d[~np.isfinite(d)] = d[np.isfinite(d)].max() + 1
    # classical scaling: the two leading axes of the double-centred squared distances
    j = np.eye(n) - 1.0 / n
    w, v = np.linalg.eigh(-0.5 * j @ (d ** 2) @ j)
    x = v[:, ::-1][:, :2] * np.sqrt(np.maximum(w[::-1][:2], 1e-9))
    x *= np.where(x[np.abs(x).argmax(axis=0), [0, 1]] < 0, -1.0, 1.0)
    # stress majorization (Gansner, Koren, North 2004), weights 1/d^2
    wt = np.where(d > 0, 1.0 / np.maximum(d, 1e-9) ** 2, 0.0)
    lap = -wt.copy()
    np.fill_diagonal(lap, wt.sum(axis=1))
    pinv = np.linalg.pinv(lap)
    for _ in range(LAYOUT_ROUNDS):
        gap = np.sqrt(((x[:, None, :] - x[None, :, :]) ** 2).sum(-1))
        b = np.where(gap > 1e-9, -wt * d / np.maximum(gap, 1e-9), 0.0)
        np.fill_diagonal(b, 0.0)
        np.fill_diagonal(b, -b.sum(axis=1))
        x = pinv @ (b @ x)
    x -= x.min(axis=0)
    x /= max(float(x.max()), 1e-9)
    return [[round(float(a), 4), round(float(b), 4)] for a, b in x]


def static(s: np.ndarray, rules, labels) -> dict:
    """The page data of the whole game: the map (cities with positions, ports, rail
    segments, sea links), colours, the development tiles drawn at setup (their paths'
    rewards), the score spaces, the missions' names and the sizes."""
    board = rules.compiled()["board"]
    n = int(s[R_N_PLAYERS])
    nc = len(board.names)
    pos = layout(board.names, board.land, board.sea)
    tables = rules.to_dict()
    sides = list(tables["dev"])
    dev = []
    for k in range(int(s[E.K_NSLOTS])):
        side = int(s[E.G_DEVSIDE + k])
        paths = [[REWARDS[int(s[E.K_DEV + (side * 2 + p) * E.MAX_PATH + i])]
                  for i in range(int(s[E.K_DEV_N + side * 2 + p]))] for p in (0, 1)]
        dev.append({"side": sides[side], "paths": paths,
                    "fork": REWARDS[int(s[E.K_DEV_FORK + side])]})
    return {
        "turns": int(s[E.K_ROUNDS]), "turns_per_round": int(s[E.K_TURNS]),
        "colours": list(rules["colours"]), "vehicles": list(E.VEHICLES),
        "cities": [{"name": name, "port": bool(board.port[c]), "x": pos[c][0], "y": pos[c][1]}
                   for c, name in enumerate(board.names)],
        "land": [[a, b] for a in range(nc) for b in board.land[a] if a < b],
        "sea": [[a, b] for a in range(nc) for b in board.sea[a] if a < b],
        "production": int(s[E.K_PROD]), "dev": dev, "score": _row(s, E.K_SCORE, int(s[E.K_NSCORE])),
        "missions": [{"name": name, "kind": m["kind"], "n": m["n"], "arg": m["arg"], "vp": m["vp"]}
                     for name, m in tables["mission"].items()],
        "order_bonus": [ORDER_BONUS[int(s[E.K_ORDER_BONUS + i])] for i in range(n)],
        "city_cards": nc, "open_hands": False,
    }


def sentences(events, rules, labels) -> list[str]:
    """One line per event row (narrate's), each seat named with its bot; a mission
    kept is not named (it is secret until the final scoring)."""
    lines = narrate.render(events, rules).splitlines()
    if len(lines) != len(events):
        raise RuntimeError(f"narrate gave {len(lines)} lines for {len(events)} events")
    out = []
    for line, r in zip(lines, events.itertuples()):
        seat = int(r.seat)
        head = f"round {r.round} seat {seat}: "
        if line.startswith(head):
            text = line[len(head):]
            act = str(r.action)
            who = f"seat {seat} ({labels[seat]})" if 0 <= seat < len(labels) else f"seat {seat}"
            if act == "mission":
                line = f"{who} keeps a mission (secret)"
            elif act == "step":                     # "truck steps on ..."
                line = f"{who}'s {text}"
            elif act == "upgrade":                  # "Paris upgrades to LV2"
                line = f"{text}, by {who}'s delivery"
            else:
                line = f"{who} {text}"
        out.append(line)
    return out


REPLAY = ReplayPage(game="cargo_empire", snapshot=snapshot, static=static,
                    board=(__package__, "replay_board.js"),
                    events_done=lambda s: s[E.G_NEV], sentences=sentences)
