"""Shipwrights of the North Sea rules data: load, override, validate, compile.

The numbers live in ``rules_default.toml`` beside this module; a ``Rules`` object
is that data plus overrides, addressed by flat names (core.rules.RulesBase):

* scalars: ``start_gold``, ``gold_max``, ``ship_goal``, ``tie_break`` ...
* per ship: ``ship.Knarr.points``, ``.gold``, ``.workers``, ``.goods`` (oak, wool,
  iron), ``.craftsmen`` (cards needed), ``.military`` (flags), the board icons
  ``.gold_icon``, ``.worker_icon``, ``.mill_icon`` (signed: up minus down arrows),
  ``.copies``
* per craftsman: ``craftsman.Carpenter.builds`` (ship names), ``.copies``
* per tool: ``tool."Bow Saw".price``, ``.effect`` (``ignore`` / ``cart``), ``.goods``
* per building: ``building.Treasury.gold``, ``.workers``, ``.effect``, ``.arg``
* per townsfolk: ``townsfolk.King.effect``, ``.args``
* per card back: ``back.A.goods`` (goods bought for 2 gold + 2 workers), ``.copies``

Every problem is one ``RulesError`` line. ``Rules.arrays()`` gives the cards as the
kernels' numbers. The rules in words: docs/rules_shipwrights.md.
"""
from __future__ import annotations

import numpy as np

from ...core.rules import IntList, RulesBase, check_items, check_top_level

KINDS = ("ship", "craftsman", "tool", "building", "townsfolk")
N_GOODS = 3
MAX_NUMBER = 1000
MAX_SEATS = 5
GOODS3 = IntList(min_len=N_GOODS, max_len=N_GOODS, lo=0, hi=20)

SCALARS = {
    "game": str, "name": str, "min_players": int, "max_players": int, "goods": list,
    "deck_size": int, "faces": int, "n_craftsmen": int, "n_buildings": int, "n_tools": int,
    "n_townsfolk": int, "start_gold": int, "start_workers": int, "start_goods": int,
    "gold_max": int, "mill_capacity": int, "village_capacity": int, "evening_workers": int,
    "min_evening_workers": int, "max_craftsmen": int, "shipyards": int, "draft_rounds": int,
    "ship_goal": int, "military_points": int, "goods_gold": int, "goods_workers": int,
    "max_days": int, "tie_break": str, "military_tie": str, "take_cart": bool,
}
SHIP_FIELDS = {"copies": int, "military": int, "points": int, "gold": int, "workers": int,
               "goods": GOODS3, "craftsmen": int, "gold_icon": int, "worker_icon": int, "mill_icon": int}
CRAFTSMAN_FIELDS = {"copies": int, "builds": list}
TOOL_FIELDS = {"copies": int, "price": int, "effect": str, "goods": GOODS3}
BUILDING_FIELDS = {"copies": int, "gold": int, "workers": int, "effect": str, "arg": int}
TOWNSFOLK_FIELDS = {"copies": int, "effect": str, "args": IntList(max_len=4, lo=0, hi=100)}
BACK_FIELDS = {"copies": int, "goods": GOODS3}
TABLE_FIELDS = {"ship": SHIP_FIELDS, "craftsman": CRAFTSMAN_FIELDS, "tool": TOOL_FIELDS,
                "building": BUILDING_FIELDS, "townsfolk": TOWNSFOLK_FIELDS, "back": BACK_FIELDS}

OPTIONS = {"tie_break": ("gold", "shared"), "military_tie": ("all", "none")}
TOOL_EFFECTS = ("ignore", "cart")
BUILDING_EFFECTS = ("points", "per_gold", "per_civil_ship", "mill_over")
# townsfolk effect -> number of integer args (docs/rules_shipwrights.md has each one)
TOWNSFOLK_EFFECTS = {
    "remove_craftsman": 0, "remove_ship": 0, "steal_craftsman": 0, "first_player": 0,
    "protect": 0, "gold_all": 2, "raid": 1, "destroy_tool": 1, "steal_goods": 1, "draw": 1,
    "discard_draw": 3, "gain_workers": 1, "gain_goods": 1, "swap_goods": 2,
    "goods_for_workers": 2, "gain_gold": 1, "navigate": 2,
}
# the numbers the kernels hold at most (enums)
MAX_SHIPS, MAX_CRAFTSMEN, MAX_TOOLS, MAX_BUILDINGS, MAX_TOWNSFOLK, MAX_BACKS = 16, 16, 8, 8, 24, 8
MAX_DECK = 256


class Rules(RulesBase):
    """The rules of one Shipwrights variant (immutable).

    >>> r = Rules.default().replace(**{"ship.Knarr.points": 5})
    >>> r["ship.Knarr.points"]
    5
    """
    SCALARS = SCALARS
    TABLES = {k: (v, {}) for k, v in TABLE_FIELDS.items()}

    @classmethod
    def validate(cls, data: dict) -> list[str]:
        return validate_data(data)

    def names(self, kind: str) -> list[str]:
        """The card names of one kind (ship, craftsman, tool, building, townsfolk), in
        the file's order (the kernels' numbering)."""
        return list(self._data[kind])

    @property
    def card_names(self) -> list[str]:
        """Every card face, numbered as the kernels number them (kind by kind)."""
        return [n for k in KINDS for n in self._data[k]]

    def arrays(self) -> dict:
        """The cards as int64 arrays (memoised, read-only), see ``_arrays``."""
        if "_arrays" not in self.__dict__:
            self.__dict__["_arrays"] = _arrays(self._data)
        return self.__dict__["_arrays"]


def _bounded(p: list, name: str, v: int, lo: int, hi: int) -> None:
    if not lo <= v <= hi:
        p.append(f"{name}: must be from {lo} to {hi}, got {v}")


def validate_data(d: dict) -> list[str]:
    """Every problem with a rules data dict, one message each (empty: valid)."""
    p = check_top_level(d, SCALARS, (*TABLE_FIELDS, "provenance", "range", "constraint"))
    if p:
        return p
    for k, t in SCALARS.items():
        if t is int:
            _bounded(p, k, d[k], 0, MAX_NUMBER)
    for k in ("min_players", "gold_max", "shipyards", "draft_rounds", "ship_goal", "max_days",
              "deck_size", "max_craftsmen"):
        if d[k] < 1:
            p.append(f"{k}: must be >= 1, got {d[k]}")
    for k, allowed in OPTIONS.items():
        if d[k] not in allowed:
            p.append(f"{k}: must be one of {', '.join(allowed)}, got {d[k]!r}")
    if d["goods"] != ["oak", "wool", "iron"]:
        p.append(f"goods: the kernels know oak, wool and iron in that order, got {d['goods']}")
    if not 2 <= d["min_players"] <= d["max_players"] <= MAX_SEATS:
        p.append(f"min_players, max_players: 2 <= min <= max <= {MAX_SEATS}, got {d['min_players']}, {d['max_players']}")
    if d["start_gold"] > d["gold_max"]:
        p.append(f"start_gold: at most gold_max ({d['gold_max']}), got {d['start_gold']}")
    _bounded(p, "shipyards", d["shipyards"], 1, 4)
    _bounded(p, "max_craftsmen", d["max_craftsmen"], 1, 8)
    _bounded(p, "draft_rounds", d["draft_rounds"], 1, 6)
    if p:
        return p
    tables = {t: check_items(d, t, TABLE_FIELDS[t], p) for t in TABLE_FIELDS}
    if p:
        return p
    seen = {}
    for kind in KINDS:
        for name in tables[kind]:
            if name in seen:
                p.append(f"{kind}.{name}: the name is also a {seen[name]}'s (card names are unique)")
            seen.setdefault(name, kind)
    limits = {"ship": MAX_SHIPS, "craftsman": MAX_CRAFTSMEN, "tool": MAX_TOOLS,
              "building": MAX_BUILDINGS, "townsfolk": MAX_TOWNSFOLK, "back": MAX_BACKS}
    for t, hi in limits.items():
        if len(tables[t]) > hi:
            p.append(f"{t}: at most {hi} kinds, got {len(tables[t])}")
    for t, items in tables.items():
        for name, item in items.items():
            _bounded(p, f"{t}.{name}.copies", item["copies"], 0, 64)
    for name, s in tables["ship"].items():
        for f in ("military", "points", "gold", "workers"):
            _bounded(p, f"ship.{name}.{f}", s[f], 0, 50)
        _bounded(p, f"ship.{name}.craftsmen", s["craftsmen"], 1, 2)
        _bounded(p, f"ship.{name}.gold_icon", s["gold_icon"], 0, 5)
        for f in ("worker_icon", "mill_icon"):
            _bounded(p, f"ship.{name}.{f}", s[f], -5, 5)
        if s["gold"] + s["workers"] + sum(s["goods"]) == 0:
            p.append(f"ship.{name}: a ship costs something (gold, workers or goods), got nothing")
        if not any(name in c["builds"] for c in tables["craftsman"].values()):
            p.append(f"ship.{name}: no craftsman builds it (craftsman.*.builds)")
    ships = tables["ship"]
    total = {n: s["gold"] + s["workers"] + sum(s["goods"]) + s["craftsmen"] for n, s in ships.items()}
    for a in ships:
        for b in ships:
            if ships[a]["points"] > ships[b]["points"] and total[a] < total[b]:
                p.append(f"ship.{a}: gives more points than {b} ({ships[a]['points']} > {ships[b]['points']}) "
                         f"but costs less in all (gold + workers + goods + craftsmen: {total[a]} < {total[b]})")
    for name, c in tables["craftsman"].items():
        b = c["builds"]
        unknown = [x for x in b if not isinstance(x, str) or x not in ships]
        if not b or unknown:
            p.append(f"craftsman.{name}.builds: must name ships ({', '.join(ships)}), got unknown {unknown or b}")
    for name, t in tables["tool"].items():
        _bounded(p, f"tool.{name}.price", t["price"], 0, 50)
        if t["effect"] not in TOOL_EFFECTS:
            p.append(f"tool.{name}.effect: must be one of {', '.join(TOOL_EFFECTS)}, got {t['effect']!r}")
        elif t["effect"] == "ignore" and sum(t["goods"]) != 1:
            p.append(f"tool.{name}.goods: an 'ignore' tool marks exactly one goods with 1, got {t['goods']}")
    for name, b in tables["building"].items():
        _bounded(p, f"building.{name}.gold", b["gold"], 0, 50)
        _bounded(p, f"building.{name}.workers", b["workers"], 0, 50)
        _bounded(p, f"building.{name}.arg", b["arg"], 0 if b["effect"] != "per_gold" else 1, 50)
        if b["effect"] not in BUILDING_EFFECTS:
            p.append(f"building.{name}.effect: must be one of {', '.join(BUILDING_EFFECTS)}, got {b['effect']!r}")
    for name, t in tables["townsfolk"].items():
        n_args = TOWNSFOLK_EFFECTS.get(t["effect"])
        if n_args is None:
            p.append(f"townsfolk.{name}.effect: must be one of {', '.join(TOWNSFOLK_EFFECTS)}, got {t['effect']!r}")
        elif len(t["args"]) != n_args:
            p.append(f"townsfolk.{name}.args: effect {t['effect']} takes {n_args} numbers, got {t['args']}")
        elif t["effect"] == "discard_draw" and not 1 <= t["args"][0] <= t["args"][1] <= 2:
            p.append(f"townsfolk.{name}.args: discard_draw is [least, most discarded (at most 2), more drawn], got {t['args']}")
    if p:
        return p
    counts = {"n_craftsmen": "craftsman", "n_buildings": "building", "n_tools": "tool", "n_townsfolk": "townsfolk"}
    for k, t in counts.items():
        if len(tables[t]) != d[k]:
            p.append(f"{t}: {d[k]} kinds ({k}), got {len(tables[t])}")
    faces = sum(len(tables[k]) for k in KINDS)
    if faces != d["faces"]:
        p.append(f"faces: the deck has {d['faces']} distinct cards, the tables name {faces}")
    cards = sum(c["copies"] for k in KINDS for c in tables[k].values())
    if cards != d["deck_size"]:
        p.append(f"deck_size: the deck holds {d['deck_size']} cards, the copies add up to {cards}")
    backs = sum(b["copies"] for b in tables["back"].values())
    if backs != d["deck_size"]:
        p.append(f"back.*.copies: one back per card ({d['deck_size']}), got {backs}")
    if d["deck_size"] > MAX_DECK:
        p.append(f"deck_size: the kernels hold at most {MAX_DECK} cards, got {d['deck_size']}")
    if d["deck_size"] < d["max_players"] + 1:
        p.append(f"deck_size: a morning draws players + 1 cards, so at least {d['max_players'] + 1}")
    p += Rules.provenance_problems(d)
    p += Rules.range_problems(d)
    p += Rules.list_problems(d)
    return p


def _arrays(d: dict) -> dict:
    """Card faces numbered kind by kind (ships first); per face its kind, copies and
    fields; per copy in the box its face and its back (backs dealt to the box's
    copies in turn: which card has which back is unknown, so spread evenly)."""
    faces = [(k, n, d[k][n]) for k in KINDS for n in d[k]]
    ship_names = list(d["ship"])
    craft = list(d["craftsman"])
    builds = np.zeros((len(craft), len(ship_names)), np.int64)
    for i, c in enumerate(craft):
        for s in d["craftsman"][c]["builds"]:
            builds[i, ship_names.index(s)] = 1
    box = [i for i, (_, _, c) in enumerate(faces) for _ in range(c["copies"])]
    backs = [b for b, v in enumerate(d["back"].values()) for _ in range(v["copies"])]
    # interleave the backs over the box (every face gets a spread of backs)
    order = sorted(range(len(backs)), key=lambda i: (i * 37) % len(backs))
    out = {
        "kind": np.array([KINDS.index(k) for k, _, _ in faces], np.int64),
        "copies": np.array([c["copies"] for _, _, c in faces], np.int64),
        "ship": np.array([[s["military"], s["points"], s["gold"], s["workers"], *s["goods"], s["craftsmen"],
                           s["gold_icon"], s["worker_icon"], s["mill_icon"]] for s in d["ship"].values()], np.int64),
        "builds": builds,
        "tool": np.array([[t["price"], TOOL_EFFECTS.index(t["effect"]), *t["goods"]]
                          for t in d["tool"].values()], np.int64),
        "building": np.array([[b["gold"], b["workers"], BUILDING_EFFECTS.index(b["effect"]), b["arg"]]
                              for b in d["building"].values()], np.int64),
        "townsfolk": np.array([[list(TOWNSFOLK_EFFECTS).index(t["effect"]), *(t["args"] + [0] * (4 - len(t["args"])))]
                               for t in d["townsfolk"].values()], np.int64),
        "back": np.array([b["goods"] for b in d["back"].values()], np.int64),
        "box": np.array(box, np.int64),
        "box_back": np.array([backs[order[i]] for i in range(len(box))], np.int64),
    }
    for a in out.values():
        a.flags.writeable = False
    return out
