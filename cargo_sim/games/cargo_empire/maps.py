"""Cargo Empire's map as data: the cities in play, their rail segments and sea links,
a generator of plausible maps for the robustness study, and the routes a delivery
may pay for (computed once, when the rules are compiled; never per decision).

A map is a dict ``name -> {"port", "small", "land", "sea"}`` (the ``[city.*]``
table of the rules file): ``land`` lists rail segments, ``sea`` sea links to other
ports, each segment or link listed on either end (or both). ``Board`` is its
checked, symmetric form. ``pay_options`` gives, for a supply and a target city,
every hand of (trucks, trains, ships) that pays a legal route between them
(docs/rules_cargo_empire.md, "Paying for a route").
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

UNREACHABLE = 10**6


@dataclass(frozen=True)
class Board:
    names: tuple          # city names, in table order
    port: tuple           # bool per city
    land: tuple           # per city: sorted tuple of neighbours by rail (indices)
    sea: tuple            # per city: sorted tuple of ports linked by sea (indices)


def map_problems(cities: dict) -> list[str]:
    """Every problem of a map table, one message each naming the entry (empty = fine)."""
    p = []
    names = list(cities)
    for name, c in cities.items():
        for f in ("land", "sea"):
            for other in c[f]:
                if not isinstance(other, str) or other not in cities:
                    p.append(f"city.{name}.{f}: unknown city {other!r}")
                elif other == name:
                    p.append(f"city.{name}.{f}: a city is not linked to itself")
            if len(set(map(str, c[f]))) != len(c[f]):
                p.append(f"city.{name}.{f}: a city named twice")
        for other in c["sea"]:
            if other in cities and not (c["port"] and cities[other]["port"]):
                p.append(f"city.{name}.sea: a sea link joins two ports ({other if c['port'] else name} is not one)")
    if p:
        return p
    b = board(cities)
    for i, n in enumerate(names):
        if b.port[i] and not b.sea[i]:
            p.append(f"city.{n}: a port with no sea link")
    seen = reach(b, 0, land_only=False)
    lost = [names[i] for i in range(len(names)) if i not in seen]
    if lost:
        p.append(f"city.{lost[0]}: the map is not connected ({len(lost)} cities unreachable "
                 f"from {names[0]}: {', '.join(lost[:5])})")
    return p


def board(cities: dict) -> Board:
    names = tuple(cities)
    idx = {n: i for i, n in enumerate(names)}
    land = [set() for _ in names]
    sea = [set() for _ in names]
    for n, c in cities.items():
        for kind, links in ((land, c["land"]), (sea, c["sea"])):
            for o in links:
                kind[idx[n]].add(idx[o])
                kind[idx[o]].add(idx[n])
    return Board(names, tuple(bool(cities[n]["port"]) for n in names),
                 tuple(tuple(sorted(x)) for x in land), tuple(tuple(sorted(x)) for x in sea))


def reach(b: Board, start: int, land_only: bool) -> set:
    seen, todo = {start}, deque([start])
    while todo:
        x = todo.popleft()
        for y in b.land[x] + (() if land_only else b.sea[x]):
            if y not in seen:
                seen.add(y)
                todo.append(y)
    return seen


def select(cities: dict, small: bool) -> dict:
    """The cities in play: all, or only those marked ``small`` (their links among them)."""
    if not small:
        return cities
    keep = {n for n, c in cities.items() if c["small"]}
    return {n: {**c, "land": [x for x in c["land"] if x in keep], "sea": [x for x in c["sea"] if x in keep]}
            for n, c in cities.items() if n in keep}


# ---- generated maps (the robustness study) -----------------------------------------
def generate(seed: int, n: int, port_share: float, degree: float) -> dict:
    """A plausible map from a seed: n cities at random points of a square, joined by a
    Euclidean spanning tree (so connected by rail) plus the shortest other segments
    until the mean land degree reaches ``degree``; a ``port_share`` of the cities
    (at least two), those nearest the square's edge (the coast), are ports, every port
    linked by sea to every other (as on the Europe map: a ship goes port to port)."""
    rng = np.random.default_rng(seed)
    pts = rng.random((n, 2))
    d = np.sqrt(((pts[:, None, :] - pts[None, :, :]) ** 2).sum(-1))
    edges = set()
    inside = {0}
    while len(inside) < n:          # Prim's tree
        best = min((d[i, j], i, j) for i in inside for j in range(n) if j not in inside)
        edges.add((min(best[1], best[2]), max(best[1], best[2])))
        inside.add(best[2])
    want = max(n - 1, int(round(degree * n / 2)))
    for _, i, j in sorted((d[i, j], i, j) for i in range(n) for j in range(i + 1, n)):
        if len(edges) >= want:
            break
        edges.add((i, j))
    edge_dist = np.minimum(pts, 1 - pts).min(1)
    n_ports = max(2, int(round(port_share * n)))
    ports = set(np.argsort(edge_dist, kind="stable")[:n_ports].tolist())
    names = [f"C{i + 1:02d}" for i in range(n)]
    out = {}
    for i in range(n):
        out[names[i]] = {"port": i in ports, "small": True,
                         "land": [names[j] for a, j in sorted(edges) if a == i],
                         "sea": [names[j] for j in sorted(ports) if i in ports and j > i]}
    return out


# ---- routes and what pays them ------------------------------------------------------
def run_hands(length: int) -> set:
    """(trucks, trains) paying one run of ``length`` land segments with no card unused:
    trucks + 2 trains = length, or trains only covering length + 1 (one train goes a
    single segment). A truck with a train for 2 segments is refused (seed line 122)."""
    out = {(length - 2 * r, r) for r in range(length // 2 + 1)}
    if length % 2:
        out.add((0, (length + 1) // 2))
    return out


def shapes(b: Board, src: int, dst: int, sea_len: int) -> tuple[int, set]:
    """(length, shapes) of the shortest routes src -> dst: a shape is (sorted land runs,
    sea crossings); a land segment counts 1, a crossing ``sea_len``."""
    n = len(b.names)
    dist = [UNREACHABLE] * n
    dist[src] = 0
    todo = [(0, src)]
    import heapq
    while todo:
        dx, x = heapq.heappop(todo)
        if dx > dist[x]:
            continue
        for y, w in [(y, 1) for y in b.land[x]] + [(y, sea_len) for y in b.sea[x]]:
            if dx + w < dist[y]:
                dist[y] = dx + w
                heapq.heappush(todo, (dx + w, y))
    if dist[dst] >= UNREACHABLE:
        return UNREACHABLE, set()
    back = [UNREACHABLE] * n       # distance to dst, to walk the shortest-route graph forward
    back[dst] = 0
    todo = [(0, dst)]
    while todo:
        dx, x = heapq.heappop(todo)
        if dx > back[x]:
            continue
        for y, w in [(y, 1) for y in b.land[x]] + [(y, sea_len) for y in b.sea[x]]:
            if dx + w < back[y]:
                back[y] = dx + w
                heapq.heappush(todo, (dx + w, y))
    total = dist[dst]

    @lru_cache(maxsize=None)
    def walk(x, run):
        if x == dst:
            return frozenset({((run,) if run else (), 0)})
        out = set()
        for y in b.land[x]:
            if dist[x] + 1 + back[y] == total:
                out |= walk(y, run + 1)
        for y in b.sea[x]:
            if dist[x] + sea_len + back[y] == total:
                for runs, hops in walk(y, 0):
                    out.add((tuple(sorted(runs + ((run,) if run else ()))), hops + 1))
        return frozenset(out)
    return total, set(walk(src, 0))


def land_distance(b: Board, src: int, dst: int) -> int:
    dist = {src: 0}
    todo = deque([src])
    while todo:
        x = todo.popleft()
        for y in b.land[x]:
            if y not in dist:
                dist[y] = dist[x] + 1
                todo.append(y)
    return dist.get(dst, UNREACHABLE)


def shape_hands(runs: tuple, hops: int) -> set:
    """Every (trucks, trains, ships) paying one route shape."""
    hands = {(0, 0)}
    for length in runs:
        hands = {(t + a, r + c) for t, r in hands for a, c in run_hands(length)}
    return {(t, r, hops) for t, r in hands}


def pay_options(b: Board, sea_len: int, land_exception: bool) -> list:
    """[src][dst] -> sorted list of (trucks, trains, ships) that pay a legal route:
    a shortest route, or (land_exception) a shortest land-only route instead."""
    n = len(b.names)
    out = [[[] for _ in range(n)] for _ in range(n)]
    for i in range(n):
        for j in range(n):
            if i == j:
                continue
            _, found = shapes(b, i, j, sea_len)
            hands = set()
            for runs, hops in found:
                hands |= shape_hands(runs, hops)
            if land_exception and any(h for _, h in found):
                dl = land_distance(b, i, j)
                if dl < UNREACHABLE:
                    hands |= shape_hands((dl,), 0)
            out[i][j] = sorted(hands)
    return out
