"""Cargo Empire rules data: load, override, validate, compile.

The numbers and tables live in ``rules_default.toml`` beside this file, addressed
by flat names (core.rules.RulesBase):

* scalars: ``rounds``, ``production``, ``truck_icons``, ``score_track`` ...
* per player count: ``turns_per_round.5``
* the map: ``city.Paris.port``, ``.small`` (in the 12-city map), ``.land`` and
  ``.sea`` (names of the cities linked by rail / by sea)
* city tiles: ``tile.T01.lv1`` = [produced colour, demand, demand], ``.lv2``
* development tiles: ``dev.a01A.upper``, ``.lower`` (rewards along each path),
  ``.fork`` (the branch space's reward)
* missions: ``mission.M01.kind``, ``.n``, ``.arg``, ``.vp``

A rules file with a ``[city.*]`` table replaces the whole map (a printed map is
entered whole: docs/rules_cargo_empire.md, "Entering the printed map"). Every
problem is one line naming its entry (``RulesError``).
"""
from __future__ import annotations

import numpy as np

from ...core.errors import RulesError
from ...core.rules import IntList, RulesBase, check_top_level, check_type, parse_rules_toml
from . import maps

MAX_SEATS = 5
REWARDS = ("none", "truck", "train", "ship", "city", "mission")
MISSION_KINDS = ("ports", "cities", "colour", "lv3", "cards", "track", "perfect")
ORDER_BONUS = ("truck", "train", "ship", "any")

SCALARS = {
    "game": str, "name": str, "min_players": int, "max_players": int, "rounds": int,
    "colours": list, "production": int, "start_trucks": int, "start_trains": int, "start_ships": int,
    "truck_icons": int, "train_icons": int, "ship_icons": int, "lv3_post_vp": int,
    "city_card_vp": int, "public_cards": int, "mission_draw": int, "dev_tiles_used": int,
    "score_track": IntList(min_len=1, max_len=32, lo=0, hi=1000), "order_bonus": list,
    "map_cities": int, "map_seed": int, "gen_cities": int, "gen_port_share": int, "gen_degree": int,
    "sea_hop_length": int, "land_exception": bool,
}
CITY_FIELDS = {"port": bool, "small": bool, "land": list, "sea": list}
TILE_FIELDS = {"lv1": list, "lv2": list}
DEV_FIELDS = {"upper": list, "lower": list, "fork": str}
MISSION_FIELDS = {"kind": str, "n": int, "arg": str, "vp": int}
SECTIONS = ("turns_per_round", "city", "tile", "dev", "mission", "provenance", "range", "constraint")
LIMITS = {"production": (1, 4), "rounds": (1, 10), "public_cards": (1, 8), "mission_draw": (1, 4),
          "dev_tiles_used": (1, 4), "truck_icons": (0, 4), "train_icons": (0, 4), "ship_icons": (0, 4),
          "start_trucks": (0, 10), "start_trains": (0, 10), "start_ships": (0, 10),
          "lv3_post_vp": (0, 100), "city_card_vp": (0, 100), "sea_hop_length": (1, 4),
          "map_seed": (0, 2**31 - 1), "gen_cities": (4, 32), "gen_port_share": (0, 100),
          "gen_degree": (10, 60), "map_cities": (2, 32)}


class Rules(RulesBase):
    """The rules of one Cargo Empire variant (immutable).

    >>> Rules.default().replace(truck_icons=2)["truck_icons"]
    2
    """
    SCALARS = SCALARS
    KEYED = {"turns_per_round": int}
    TABLES = {"city": (CITY_FIELDS, {}), "tile": (TILE_FIELDS, {}), "dev": (DEV_FIELDS, {}),
              "mission": (MISSION_FIELDS, {})}

    @classmethod
    def validate(cls, data: dict) -> list[str]:
        return validate_data(data)

    @classmethod
    def from_toml(cls, text: str, what: str = "rules TOML"):
        """A file with a map (``[city.*]``) replaces the default map whole; everything
        else is read over the defaults as for any game."""
        user = parse_rules_toml(text, what)
        if "city" not in user:
            return super().from_toml(text, what)
        data = cls.default_data()
        data["city"] = user["city"]
        rest = {k: v for k, v in user.items() if k not in ("city", "provenance", "range", "constraint")}
        problems = []
        for name, value in cls.flatten(rest, drop_provenance=True).items():
            cls.set_flat(data, name, value, problems)
        problems = problems or cls.validate(data)
        if problems:
            raise RulesError(f"invalid rules in {what}: " + "; ".join(problems))
        base = cls(data, cls.flatten({k: v for k, v in user.items() if k not in ("provenance", "range",
                                                                                  "constraint")},
                                     drop_provenance=True))
        meta = {k: user[k] for k in ("provenance", "range", "constraint") if k in user}
        return base.with_meta(meta, what) if meta else base

    # ---- views ------------------------------------------------------------------
    def cities(self) -> dict:
        """The map in play (the table's cities, the `small` ones, or a generated map)."""
        return cities_in_play(self._data)

    def board(self) -> maps.Board:
        return maps.board(self.cities())

    def turns(self, n_players: int) -> int:
        self.check_players(n_players)
        return self._data["turns_per_round"][str(n_players)]

    def compiled(self) -> dict:
        """The kernels' arrays (memoised): the map, the payment options of every pair of
        cities, the tiles, the development tiles and the missions."""
        if "_compiled" not in self.__dict__:
            self.__dict__["_compiled"] = compile_data(self._data)
        return self.__dict__["_compiled"]


def cities_in_play(d: dict) -> dict:
    if d["map_seed"]:
        return maps.generate(d["map_seed"], d["gen_cities"], d["gen_port_share"] / 100,
                             d["gen_degree"] / 10)
    small = d["map_cities"] != len(d["city"])
    return maps.select(d["city"], small)


def _items(d, table, fields, p) -> dict:
    ok = {}
    items = d.get(table, {})
    if not isinstance(items, dict) or not items:
        p.append(f"{table}: must be a non-empty table")
        return ok
    for name, item in items.items():
        if not isinstance(item, dict):
            p.append(f"{table}.{name}: must be a table of {', '.join(fields)}")
            continue
        good = True
        for f in item:
            if f not in fields:
                p.append(f"unknown rules parameter '{table}.{name}.{f}' ({table} fields: {', '.join(fields)})")
                good = False
        for f, t in fields.items():
            if f not in item:
                p.append(f"{table}.{name}.{f}: missing")
                good = False
            elif not check_type(f"{table}.{name}.{f}", item[f], t, p):
                good = False
        if good:
            ok[name] = item
    return ok


def validate_data(d: dict) -> list[str]:
    """Every problem with a rules data dict, one message each naming the entry."""
    p = check_top_level(d, SCALARS, SECTIONS)
    if p:
        return p
    for k, (lo, hi) in LIMITS.items():
        if not lo <= d[k] <= hi:
            p.append(f"{k}: must be from {lo} to {hi}, got {d[k]}")
    if not 2 <= d["min_players"] <= d["max_players"] <= MAX_SEATS:
        p.append(f"min_players, max_players: 2 <= min <= max <= {MAX_SEATS}, got "
                 f"{d['min_players']} and {d['max_players']}")
    cols = d["colours"]
    if len(cols) < 3 or len(set(cols)) != len(cols) or not all(isinstance(c, str) and c for c in cols):
        p.append("colours: at least three different colour names")
    bonus = d["order_bonus"]
    if len(bonus) < d["max_players"] or any(b not in ORDER_BONUS for b in bonus):
        p.append(f"order_bonus: one of {', '.join(ORDER_BONUS)} per order space, at least max_players spaces")
    tp = d.get("turns_per_round", {})
    for n in range(d["min_players"], d["max_players"] + 1):
        v = tp.get(str(n)) if isinstance(tp, dict) else None
        if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= 12:
            p.append(f"turns_per_round.{n}: 1 to 12 turns a round for {n} players, got {v!r}")
    if p:
        return p
    cities = _items(d, "city", CITY_FIELDS, p)
    tiles = _items(d, "tile", TILE_FIELDS, p)
    devs = _items(d, "dev", DEV_FIELDS, p)
    missions = _items(d, "mission", MISSION_FIELDS, p)
    if p:
        return p
    p += maps.map_problems(cities)
    small = [n for n, c in cities.items() if c["small"]]
    if d["map_cities"] not in (len(cities), len(small)):
        p.append(f"map_cities: the map has {len(cities)} cities ({len(small)} marked small), got {d['map_cities']}")
    elif d["map_cities"] != len(cities) and not p:
        p += [m.replace("city.", "city (small map) ", 1) for m in maps.map_problems(maps.select(cities, True))]
    for name, t in tiles.items():
        for side in ("lv1", "lv2"):
            v = t[side]
            unknown = [c for c in v if c not in cols]
            if unknown:
                p.append(f"tile.{name}.{side}: unknown colour {unknown[0]!r} (colours: {', '.join(cols)})")
            elif len(v) != 3 or len(set(v)) != 3:
                p.append(f"tile.{name}.{side}: [produced colour, demand, demand], three different colours")
    n_play = len(cities) if d["map_seed"] == 0 else d["gen_cities"]
    if d["map_seed"] == 0:
        n_play = d["map_cities"]
    if len(tiles) < n_play:
        p.append(f"tile: {len(tiles)} city tiles for {n_play} cities")
    for name, t in devs.items():
        for f in ("upper", "lower"):
            if not 1 <= len(t[f]) <= 8 or any(r not in REWARDS for r in t[f]):
                p.append(f"dev.{name}.{f}: 1 to 8 spaces, each one of {', '.join(REWARDS)}")
        if t["fork"] not in REWARDS:
            p.append(f"dev.{name}.fork: one of {', '.join(REWARDS)}, got {t['fork']!r}")
    sides = {}
    for name in devs:
        sides.setdefault(name[:-1], []).append(name)
    if len(sides) < d["dev_tiles_used"] or any(len(v) != 2 for v in sides.values()):
        p.append(f"dev: tiles of two sides each (a01A, a01B ...), at least dev_tiles_used = {d['dev_tiles_used']} tiles")
    for name, m in missions.items():
        if m["kind"] not in MISSION_KINDS:
            p.append(f"mission.{name}.kind: one of {', '.join(MISSION_KINDS)}, got {m['kind']!r}")
        if m["kind"] == "colour" and m["arg"] not in cols:
            p.append(f"mission.{name}.arg: a colour ({', '.join(cols)}), got {m['arg']!r}")
        if not 0 <= m["n"] <= 100 or not 0 <= m["vp"] <= 100:
            p.append(f"mission.{name}: n and vp from 0 to 100")
    return p


def compile_data(d: dict) -> dict:
    """The arrays the kernels read (enums.K_*), from valid data."""
    cities = cities_in_play(d)
    problems = maps.map_problems(cities)
    if problems:
        raise RulesError("invalid map: " + problems[0])
    b = maps.board(cities)
    n = len(b.names)
    opts = maps.pay_options(b, d["sea_hop_length"], d["land_exception"])
    start = np.zeros((n, n), np.int64)
    count = np.zeros((n, n), np.int64)
    flat = []
    for i in range(n):
        for j in range(n):
            start[i, j], count[i, j] = len(flat), len(opts[i][j])
            flat += [t | (r << 8) | (s << 16) for t, r, s in opts[i][j]]
    cols = d["colours"]
    tiles = np.array([[cols.index(c) for c in t["lv1"] + t["lv2"]] for t in d["tile"].values()], np.int64)
    devs = list(d["dev"].values())
    dev = [([REWARDS.index(r) for r in x["upper"]], [REWARDS.index(r) for r in x["lower"]],
            REWARDS.index(x["fork"])) for x in devs]
    missions = np.array([[MISSION_KINDS.index(m["kind"]), m["n"],
                          cols.index(m["arg"]) if m["kind"] == "colour" else -1, m["vp"]]
                         for m in d["mission"].values()], np.int64)
    return {"names": b.names, "port": np.array(b.port, np.int64), "board": b,
            "pay_start": start, "pay_count": count, "pay": np.array(flat, np.int64),
            "tiles": tiles, "dev": dev, "missions": missions}
