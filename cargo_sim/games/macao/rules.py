"""Macao rules data: load, override, validate, report provenance, compile.

The numbers of the game live in ``rules_default.toml`` beside this file (written
by ``gen_defaults.py``, which makes every estimate by a stated rule). A
``Rules`` object is an immutable view of that data plus overrides, addressed by
flat parameter names (core.rules.RulesBase):

* scalars: ``rounds``, ``start_coins``, ``wall_spaces``, ``tie_break`` ...
* array-valued scalars: ``start_cubes``, ``wall_step_costs``,
  ``delivery_points``, ``dark_quarters``; lists of names: ``colours``, ``goods``
* per player count: ``removed_cards.3``
* per port: ``port.Lisboa.space``, ``port.Lisboa.goods``
* per quarter: ``quarter.17.row``, ``quarter.17.col``, ``quarter.17.cost``
  (cubes per colour), ``quarter.17.adjacent`` (the quarters it touches)
* per card: ``card.Bank.kind``, ``.copies``, ``.cost`` (cubes per colour),
  ``.tribute_coins``, ``.tribute_points``, ``.effect`` (a code of
  ``effects.EFFECTS``), ``.args`` (its integer arguments)

Overrides of a list take a list or text: ``replace({"quarter.17.adjacent": "11,16,18"})``.
``Rules.arrays()`` gives the data as numpy arrays for the (later) kernels. The
rules in words, every estimate and ruling with its reason: docs/rules_macao.md.
"""
from __future__ import annotations

from collections import deque
from math import comb

import numpy as np

from ...core.checks import whole
from ...core.rules import IntList, RulesBase, check_items, check_top_level
from .effects import EFFECTS, KINDS, arg_problems
from .enums import ACT_BLOCK

MAX_SEATS = 4
MAX_QUARTERS = 64
MAX_ADJACENT = 8            # a quarter of a grid touches at most 8 others
MAX_CARDS = 256
MAX_ARGS = 4
MAX_NUMBER = 10_000         # any count or score of the rules (far beyond the game's own)
N_COLOURS = 6               # cost lists have one entry per colour

COST = IntList(min_len=N_COLOURS, max_len=N_COLOURS, lo=0, hi=20)
SCALARS = {
    "game": str, "name": str,
    "min_players": int, "max_players": int, "rounds": int,
    "colours": list, "goods": list, "tiles_per_good": int, "jokers": int,
    "joker_cubes": int, "joker_coins": int,
    "start_coins": int, "start_cubes": IntList(min_len=1, max_len=6, lo=0, hi=20),
    "start_extra_cards": int, "total_coins": int, "unlimited_coins": bool,
    "cubes_per_colour": int, "unlimited_cubes": bool, "markers_per_player": int,
    "rose_sides": int, "dice_sides": int, "dice_chosen": int, "late_die_value": int,
    "tableau_spaces": int, "office_per_round": int, "deck_per_round": int,
    "tribute_track_max": int, "wall_spaces": int,
    "wall_step_costs": IntList(min_len=2, max_len=2, lo=0, hi=20),
    "delivery_points": IntList(min_len=1, max_len=12, lo=0, hi=100),
    "group_points": int, "tableau_penalty": int, "marker_penalty": int,
    "delivery_scoring": str, "zero_cube_penalty": bool, "tie_break": str,
    "set_scoring": str, "refund_scope": str, "deliver_passing": bool,
    "ship_can_return": bool, "penalty_without_marker": bool, "city_diagonals": bool,
    "ones_counted": str, "palace_counts": str, "wall_rank": str, "deliveries": str,
    "discount_colour": str, "any_cubes": str,
    "dark_quarters": IntList(max_len=MAX_QUARTERS, lo=1, hi=MAX_QUARTERS),
}
PORT_FIELDS = {"space": int, "goods": list}
QUARTER_FIELDS = {"row": int, "col": int, "cost": COST,
                  "adjacent": IntList(min_len=1, max_len=MAX_ADJACENT, lo=1, hi=MAX_QUARTERS)}
CARD_FIELDS = {"kind": str, "copies": int, "cost": COST, "tribute_coins": int, "tribute_points": int,
               "effect": str, "args": IntList(max_len=MAX_ARGS, lo=0, hi=100)}
SECTIONS = ("removed_cards", "port", "quarter", "card", "provenance", "range")
OPTIONS = {                 # the rulings' alternatives (docs/rules_macao.md)
    "delivery_scoring": ("per_port", "per_good"),
    "tie_break": ("wall", "coins", "shared"),
    "set_scoring": ("each_card", "per_set"),
    "refund_scope": ("one_card", "every_card"),
    "ones_counted": ("as_shown", "as_rolled"),
    "palace_counts": ("scoring_cards", "end_cards"),
    "wall_rank": ("order", "space"),
    "deliveries": ("chosen", "all"),
    "discount_colour": ("chosen", "largest"),
    "any_cubes": ("mixed", "one_colour"),
}
TIMING_CODE = {"activate": 0, "trigger": 1, "end": 2}
EFFECT_CODES = {code: i for i, code in enumerate(EFFECTS)}   # effect code -> integer id (arrays)


class Rules(RulesBase):
    """The rules of one Macao variant (immutable).

    >>> r = Rules.default().replace(start_coins=6, **{"card.Bank.args": [3]})
    >>> r["start_coins"], r["card.Bank.args"]
    (6, [3])
    """

    SCALARS = SCALARS
    KEYED = {"removed_cards": int}
    TABLES = {"port": (PORT_FIELDS, {}), "quarter": (QUARTER_FIELDS, {}), "card": (CARD_FIELDS, {})}

    @classmethod
    def validate(cls, data: dict) -> list[str]:
        return validate_data(data)

    @classmethod
    def default_data(cls) -> dict:
        data = super().default_data()
        data["removed_cards"] = {str(k): v for k, v in data["removed_cards"].items()}
        return data

    # ---- Macao's own views ---------------------------------------------------
    @property
    def colours(self) -> list[str]:
        return list(self._data["colours"])

    @property
    def goods(self) -> list[str]:
        return list(self._data["goods"])

    @property
    def port_names(self) -> list[str]:
        """Ports in route order (by space)."""
        return sorted(self._data["port"], key=lambda p: self._data["port"][p]["space"])

    @property
    def card_names(self) -> list[str]:
        return list(self._data["card"])

    @property
    def quarters(self) -> list[int]:
        return sorted(int(q) for q in self._data["quarter"])

    def cards_of_kind(self, kind: str) -> int:
        """How many cards of a kind the box holds (copies counted)."""
        return sum(c["copies"] for c in self._data["card"].values() if c["kind"] == kind)

    def removed_cards(self, n_players: int) -> int:
        self.check_players(n_players)
        return self._data["removed_cards"][str(n_players)]

    def neighbours(self, quarter: int) -> list[int]:
        """The quarters that count as touching ``quarter`` under these rules
        (``city_diagonals`` false: only those in the same row or column)."""
        return effective_adjacency(self._data)[quarter]

    # ---- arrays for the kernels -----------------------------------------------
    def arrays(self) -> dict:
        """The rules as numpy int64 arrays (memoised, read-only): quarter costs and
        adjacency matrix, dark flags, port spaces and goods, card table (kind,
        copies, cost per colour, tribute numbers, effect id, timing, args)."""
        if "_arrays" not in self.__dict__:
            self.__dict__["_arrays"] = _arrays(self._data)
        return self.__dict__["_arrays"]


# ---------------------------------------------------------------------------

def effective_adjacency(d: dict) -> dict[int, list[int]]:
    """quarter -> the quarters it touches, under ``city_diagonals``."""
    qs = d["quarter"]
    out = {}
    for name, qd in qs.items():
        adj = qd["adjacent"]
        if not d["city_diagonals"]:
            adj = [m for m in adj if qs[str(m)]["row"] == qd["row"] or qs[str(m)]["col"] == qd["col"]]
        out[int(name)] = sorted(adj)
    return out


def components(adj: dict[int, list[int]], members=None) -> list[set[int]]:
    """Connected groups of the quarters ``members`` (default: all) under ``adj``."""
    left = set(adj if members is None else members)
    groups = []
    while left:
        start = left.pop()
        group, todo = {start}, deque([start])
        while todo:
            for m in adj[todo.popleft()]:
                if m in left:
                    left.discard(m)
                    group.add(m)
                    todo.append(m)
        groups.append(group)
    return groups


def _names(d: dict, key: str, p: list) -> None:
    v = d[key]
    if not v or not all(isinstance(x, str) and x for x in v):
        p.append(f"{key}: must be a non-empty list of names")
    elif len(set(v)) != len(v):
        p.append(f"{key}: names must be unique")


def _mixed_payment_problems(d: dict, name: str, c: dict) -> list[str]:
    """any_cubes "mixed": a card paying "any cubes" names its payment (a multiset of
    colours, times the colour gained for Laden's code) in one activation's answers."""
    code = c["effect"]
    if d.get("any_cubes") != "mixed" or code not in ("PAY_CUBES_FOR_COINS", "PAY_CUBES_FOR_ANY_CUBE") \
            or not c["args"]:
        return []
    n, k = c["args"][0], len(d["colours"])
    ways = comb(n + k - 1, n) * (k if code == "PAY_CUBES_FOR_ANY_CUBE" else 1)
    if ways <= ACT_BLOCK:
        return []
    most = max(m for m in range(n) if comb(m + k - 1, m) * (k if code == "PAY_CUBES_FOR_ANY_CUBE" else 1)
               <= ACT_BLOCK)
    return [f"card.{name}.args: {code} pays {n} cubes of any colours, {ways} ways: at most {ACT_BLOCK} "
            f"(at most {most} cubes; or any_cubes = \"one_colour\")"]


def validate_data(d: dict) -> list[str]:
    """Every problem with a Macao rules data dict, one message each (empty = valid)."""
    p = check_top_level(d, SCALARS, SECTIONS)
    if p:
        return p
    for k, t in SCALARS.items():
        if t is int and not 0 <= d[k] <= MAX_NUMBER:
            p.append(f"{k}: must be from 0 to {MAX_NUMBER}, got {d[k]}")
    for k in ("min_players", "rounds", "rose_sides", "dice_sides", "dice_chosen", "tableau_spaces",
              "wall_spaces", "late_die_value", "tiles_per_good"):
        if d[k] < 1:
            p.append(f"{k}: must be >= 1, got {d[k]}")
    _names(d, "colours", p)
    _names(d, "goods", p)
    for k, allowed in OPTIONS.items():
        if d[k] not in allowed:
            p.append(f"{k}: must be one of {', '.join(allowed)}, got {d[k]!r}")
    if p:
        return p
    if len(d["colours"]) != N_COLOURS:
        p.append(f"colours: cube costs are lists of {N_COLOURS} (one per colour), got {len(d['colours'])} colours")
    if not 1 <= d["min_players"] <= d["max_players"] <= MAX_SEATS:
        p.append(f"min_players, max_players: must satisfy 1 <= min <= max <= {MAX_SEATS}, got "
                 f"{d['min_players']} and {d['max_players']}")
    if d["dice_chosen"] > len(d["colours"]):
        p.append(f"dice_chosen: at most one die per colour ({len(d['colours'])}), got {d['dice_chosen']}")
    if len(d["start_cubes"]) > d["rose_sides"]:
        p.append(f"start_cubes: one entry per rose side at most ({d['rose_sides']}), got {len(d['start_cubes'])}")
    if d["late_die_value"] > d["dice_sides"]:
        p.append(f"late_die_value: must be a die face (1..{d['dice_sides']}), got {d['late_die_value']}")

    removed = d.get("removed_cards", {})
    if not isinstance(removed, dict):
        p.append("removed_cards: must be a table (player count -> cards)")
        removed = {}
    for n in removed:
        if not str(n).isdigit():
            p.append(f"removed_cards.{n}: player counts must be numbers")
    shown = d["office_per_round"] + d["deck_per_round"]
    for n in range(d["min_players"], d["max_players"] + 1):
        r = removed.get(str(n))
        if not whole(r, numpy=False):
            p.append(f"removed_cards.{n}: no whole number of removed cards for {n} players")
        elif not 0 <= r <= shown - n:
            p.append(f"removed_cards.{n}: {shown} cards are shown and {n} players each take one, so "
                     f"0 to {shown - n} can be removed, got {r}")

    # ---- the sea route ---------------------------------------------------------------
    ports = check_items(d, "port", PORT_FIELDS, p)
    spaces = {}
    for name, port in ports.items():
        if port["space"] < 1:
            p.append(f"port.{name}.space: must be >= 1 (space 0 is the start), got {port['space']}")
        elif port["space"] > MAX_NUMBER:
            p.append(f"port.{name}.space: at most {MAX_NUMBER}, got {port['space']}")
        elif port["space"] in spaces:
            p.append(f"port.{name}.space: {port['space']} is also port {spaces[port['space']]}'s space")
        spaces.setdefault(port["space"], name)
        g = port["goods"]
        unknown = [x for x in g if x not in d["goods"]]
        if not g or unknown:
            p.append(f"port.{name}.goods: must be a non-empty list of goods ({', '.join(d['goods'])}), "
                     f"got {g}")
        elif len(set(g)) != len(g):
            p.append(f"port.{name}.goods: a good is listed twice: {g}")

    # ---- the city -------------------------------------------------------------------
    qs = check_items(d, "quarter", QUARTER_FIELDS, p)
    names = list(d.get("quarter", {})) if isinstance(d.get("quarter"), dict) else []
    if names and sorted(names, key=lambda x: (len(x), x)) != [str(i) for i in range(1, len(names) + 1)]:
        p.append(f"quarter: quarters must be numbered 1 to {len(names)}, got {sorted(names)[:5]}...")
        return p
    if len(names) > MAX_QUARTERS:
        p.append(f"quarter: at most {MAX_QUARTERS} quarters, got {len(names)}")
        return p
    light = len(d["goods"]) * d["tiles_per_good"]
    if names and len(names) != light + d["jokers"]:
        p.append(f"quarter: {len(names)} quarters, but the goods tiles ({len(d['goods'])} goods x "
                 f"{d['tiles_per_good']}) and the jokers ({d['jokers']}) need {light + d['jokers']}")
    dark = d["dark_quarters"]
    if len(dark) != d["jokers"]:
        p.append(f"dark_quarters: one per joker tile ({d['jokers']}), got {len(dark)}: {dark}")
    elif len(set(dark)) != len(dark) or any(str(x) not in d.get("quarter", {}) for x in dark):
        p.append(f"dark_quarters: must be distinct quarter numbers (1 to {len(names)}), got {dark}")
    if p or len(qs) != len(names):
        return p
    pos = {}
    for name, q in qs.items():
        at = (q["row"], q["col"])
        if at in pos:
            p.append(f"quarter.{name}: at row {at[0]}, col {at[1]} like quarter {pos[at]}")
        pos.setdefault(at, name)
        if sum(q["cost"]) < 1:
            p.append(f"quarter.{name}.cost: a quarter costs at least 1 cube, got {q['cost']}")
    for name, q in qs.items():
        n = int(name)
        adj = q["adjacent"]
        for m in adj:
            if m == n:
                p.append(f"quarter.{name}.adjacent: quarter {n} cannot touch itself")
            elif str(m) not in qs:
                p.append(f"quarter.{name}.adjacent: there is no quarter {m} (1 to {len(qs)})")
            elif n not in qs[str(m)]["adjacent"]:
                p.append(f"quarter.{name}.adjacent: lists {m}, but quarter.{m}.adjacent does not list {n} "
                         f"(touching is mutual: change both)")
            elif max(abs(qs[str(m)]["row"] - q["row"]), abs(qs[str(m)]["col"] - q["col"])) > 1:
                p.append(f"quarter.{name}.adjacent: {m} is not next to {n} on the map's grid "
                         f"(row, col), so they cannot touch")
        if len(set(adj)) != len(adj):
            p.append(f"quarter.{name}.adjacent: a quarter is listed twice: {adj}")
    if p:
        return p
    # two diagonals of one grid cell would cross: the map would not be planar
    for name, q in qs.items():
        r, c = q["row"], q["col"]
        a, b = pos.get((r, c + 1)), pos.get((r + 1, c))
        e = pos.get((r + 1, c + 1))
        if a and b and e and e in map(str, q["adjacent"]) and int(b) in qs[a]["adjacent"]:
            p.append(f"quarter.{name}.adjacent: touches {e} and quarter {a} touches {b}: the two links "
                     f"would cross (a map on a plane has at most one diagonal per grid cell)")
    # ---- cards -------------------------------------------------------------------------
    cards = check_items(d, "card", CARD_FIELDS, p)
    if len(d.get("card", {})) > MAX_CARDS:
        p.append(f"card: at most {MAX_CARDS} cards, got {len(d['card'])}")
    for name, c in cards.items():
        if c["kind"] not in KINDS:
            p.append(f"card.{name}.kind: must be one of {', '.join(KINDS)}, got {c['kind']!r}")
        if not 0 <= c["copies"] <= 24:
            p.append(f"card.{name}.copies: must be from 0 to 24, got {c['copies']}")
        for f in ("tribute_coins", "tribute_points"):
            if not 0 <= c[f] <= d["tribute_track_max"]:
                p.append(f"card.{name}.{f}: must be from 0 to tribute_track_max ({d['tribute_track_max']}), "
                         f"got {c[f]}")
        p += arg_problems(name, c["effect"], c["args"], len(d["colours"]), len(d["goods"]))
        p += _mixed_payment_problems(d, name, c)
    if p:
        return p
    n_office = sum(c["copies"] for c in cards.values() if c["kind"] == "office")
    n_deck = sum(c["copies"] for c in cards.values() if c["kind"] != "office")
    if n_office < d["rounds"] * d["office_per_round"]:
        p.append(f"card.*.copies: {n_office} office cards, {d['rounds']} rounds need "
                 f"{d['rounds'] * d['office_per_round']} (office_per_round a round)")
    need = d["max_players"] + d["start_extra_cards"] + d["rounds"] * d["deck_per_round"]
    if n_deck < need:
        p.append(f"card.*.copies: {n_deck} building and person cards, a game needs {need} "
                 f"(setup: players + start_extra_cards; deck_per_round a round)")
    p += Rules.provenance_problems(d)
    p += Rules.range_problems(d)
    p += Rules.list_problems(d)
    return p


def _arrays(d: dict) -> dict:
    qn = len(d["quarter"])
    adj = effective_adjacency(d)
    A = np.zeros((qn, qn), np.int64)
    for q, ms in adj.items():
        for m in ms:
            A[q - 1, m - 1] = 1
    dark = np.zeros(qn, np.int64)
    dark[[x - 1 for x in d["dark_quarters"]]] = 1
    ports = sorted(d["port"].values(), key=lambda x: x["space"])
    port_goods = np.zeros((len(ports), len(d["goods"])), np.int64)
    for i, port in enumerate(ports):
        for g in port["goods"]:
            port_goods[i, d["goods"].index(g)] = 1
    cards = list(d["card"].values())
    args = np.full((len(cards), MAX_ARGS), -1, np.int64)
    for i, c in enumerate(cards):
        args[i, :len(c["args"])] = c["args"]
    out = {
        "quarter_cost": np.array([d["quarter"][str(i)]["cost"] for i in range(1, qn + 1)], np.int64),
        "adjacency": A,
        "dark": dark,
        "port_space": np.array([x["space"] for x in ports], np.int64),
        "port_goods": port_goods,
        "card_kind": np.array([KINDS.index(c["kind"]) for c in cards], np.int64),
        "card_copies": np.array([c["copies"] for c in cards], np.int64),
        "card_cost": np.array([c["cost"] for c in cards], np.int64).reshape(len(cards), N_COLOURS),
        "card_tribute": np.array([[c["tribute_coins"], c["tribute_points"]] for c in cards], np.int64),
        "card_effect": np.array([EFFECT_CODES[c["effect"]] for c in cards], np.int64),
        "card_timing": np.array([TIMING_CODE[EFFECTS[c["effect"]].timing] for c in cards], np.int64),
        "card_args": args,
    }
    for a in out.values():
        a.flags.writeable = False
    return out
