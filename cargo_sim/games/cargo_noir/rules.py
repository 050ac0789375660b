"""Cargo Noir rules data: load, override, validate, report provenance, compile.

The numbers of the game live in ``rules_default.toml`` beside this file. A
``Rules`` object is an immutable view of that data plus any overrides; it is
addressed by flat parameter names:

* scalars: ``start_coins``, ``casino_payout``, ``max_combo`` ...
* lists: ``cargo_types``, ``value_same``, ``value_different``
* per player count: ``turns.4``
* per port: ``port.Rio.slots``, ``port.Rio.players``
* per card: ``card.Villa.cost``, ``card.Villa.vp``, ``card.Villa.copies``,
  ``card.Villa.kind``, ``card.Syndicate.syndicate`` ...

``Rules.compile()`` turns the data into the flat arrays the compiled engine
reads (a template state array); nothing in the engine hard-codes a game number.
What every game shares (flat names, overrides, provenance, ranges, digest, TOML)
is ``core.rules.RulesBase``; this module adds Cargo Noir's schema and checks.
"""
from __future__ import annotations

import threading
import weakref

import numpy as np

from ...core.checks import whole
from ...core.rules import RulesBase, check_top_level, check_type as _check_type
from .enums import MAX_CARDS, MAX_PORTS, MAX_SEATS, MAX_TOK, WORK_W
from .rules_limits import limit_problems

CARD_KINDS = ("edge", "common", "unique")
CARD_FIELDS = {"kind": str, "copies": int, "cost": int, "vp": int,
               "ships": int, "warehouse": int, "syndicate": int}
CARD_DEFAULTS = {"ships": 0, "warehouse": 0, "syndicate": 0}
PORT_FIELDS = {"slots": int, "players": list}
SCALARS = {
    "game": str, "name": str,
    "min_players": int, "max_players": int,
    "tokens_per_type": int, "wilds_total": int, "wilds_per_player": int,
    "black_market_slots": int, "casino_payout": int,
    "start_coins": int, "start_ships": int, "start_warehouse": int,
    "total_coins": int, "ships_per_player": int, "unlimited_coins": bool,
    "edge_limit_per_type": int, "max_combo": int, "final_coin_value": int,
    "final_turn_phase3": bool, "trade_without_card": bool, "tie_break": str,
    "cargo_types": list, "value_same": list, "value_different": list,
}
SECTIONS = ("turns", "port", "card", "provenance", "range", "constraint")
TIE_BREAKS = ("vp", "cost")     # the tied player's single highest card, by VP or by cost


# the tables' shared arrays by content (Rules.shared_data), alive while a state holds one
_SHARED: "weakref.WeakValueDictionary" = weakref.WeakValueDictionary()
_SHARED_LOCK = threading.Lock()
# the bots' workspace of the states stepped from Python (they hold the GIL; the chunk
# kernels, which run in threads, use their own: engine_nb.own_workspace_nb)
_WORK = np.zeros(WORK_W, np.int64)

class Rules(RulesBase):
    """The rules of one Cargo Noir variant (immutable).

    >>> r = Rules.default().replace(start_coins=8, **{"card.Villa.cost": 22})
    >>> r["start_coins"], r["card.Villa.cost"]
    (8, 22)
    """

    SCALARS = SCALARS
    KEYED = {"turns": int}
    TABLES = {"port": (PORT_FIELDS, {}), "card": (CARD_FIELDS, CARD_DEFAULTS)}

    @classmethod
    def validate(cls, data: dict) -> list[str]:
        return validate_data(data)

    @classmethod
    def default_data(cls) -> dict:
        return cls.complete(super().default_data())

    @classmethod
    def complete(cls, data: dict) -> dict:
        """Card fields left out take their defaults (no ships, warehouse or
        syndicate effect); turn counts are keyed by strings."""
        for card in data.get("card", {}).values():
            if isinstance(card, dict):
                for k, v in CARD_DEFAULTS.items():
                    card.setdefault(k, v)
        if isinstance(data.get("turns"), dict):
            data["turns"] = {str(k): v for k, v in data["turns"].items()}
        return data

    # ---- Cargo Noir's own views ------------------------------------------
    @property
    def cargo_types(self) -> list[str]:
        return list(self._data["cargo_types"])

    @property
    def port_names(self) -> list[str]:
        return list(self._data["port"].keys())

    @property
    def card_names(self) -> list[str]:
        return list(self._data["card"].keys())

    def open_ports(self, n_players: int) -> list[str]:
        return [p for p, d in self._data["port"].items() if n_players in d["players"]]

    def turns(self, n_players: int) -> int:
        return self._data["turns"][str(n_players)]

    # ---- compiled arrays --------------------------------------------------
    def compile(self, n_players: int) -> np.ndarray:
        """The engine's template state for an n-player game: the rules' numbers in
        the header of an int64 array laid out as in ``enums`` (memoised, read-only)."""
        self.check_players(n_players)
        cache = self.__dict__.setdefault("_compiled", {})
        if n_players not in cache:
            cache[n_players] = _compile(self._data, n_players)
        return cache[n_players]

    def state_template(self, n_players: int, models: np.ndarray | None = None,
                       private: bool = False) -> np.ndarray:
        """A new n-player state array before setup (``enums.STATE_LEN`` words): the
        rules header (``compile``), pointing at the table's shared array (the packed
        trade tables, then ``models``, the search models' rows, when given:
        ``shared_data``) and at the bots' workspace (``enums.R_WORK``: one per
        process for the states stepped from Python; each chunk kernel uses its own).
        The array's memory keeps both alive (``core.shared_nb.attach``). ``private``:
        a shared array of this table's own (the checked mode's tables: a user bot that
        writes there spoils no other table of the process)."""
        from ...core.shared_nb import attach
        from .enums import R_WORK, R_WORK_LEN, STATE_LEN, STATE_SIZE, WORK_W
        state = np.zeros(STATE_LEN, np.int64)
        state[:STATE_SIZE] = self.compile(n_players)
        state[R_WORK], state[R_WORK_LEN] = _WORK.ctypes.data, WORK_W
        shared = self.shared_data(models)
        return attach(state, shared.copy() if private else shared, _WORK)

    def shared_data(self, models: np.ndarray | None = None) -> np.ndarray:
        """The table's read-only shared array: the packed trade tables, then the
        search models' rows if given. One array per content (rules digest, models)
        while any state of it lives, so states of equal tables point at the same one."""
        key = (self.digest, None if models is None else models.tobytes())
        with _SHARED_LOCK:
            shared = _SHARED.get(key)
            if shared is None:
                packed = self.packed_trade_tables()
                shared = packed if models is None else np.concatenate([packed, models])
                _SHARED[key] = shared
        return shared

    def packed_trade_tables(self) -> np.ndarray:
        """The trade tables packed into one int64 array (trade.packed_nb.pack_trade_tables)."""
        if "_packed" not in self.__dict__:
            from .trade.packed_nb import pack_trade_tables
            self.__dict__["_packed"] = pack_trade_tables(self.trade_tables())
        return self.__dict__["_packed"]

    def trade_tables(self):
        """Precomputed exact trade-value tables for these rules (memoised)."""
        if "_tables" not in self.__dict__:
            from .trade.tables import build_trade_tables
            d = self._data
            self.__dict__["_tables"] = build_trade_tables(
                np.asarray(d["value_same"], dtype=np.int64),
                np.asarray(d["value_different"], dtype=np.int64),
                len(d["cargo_types"]), d["wilds_total"])
        return self.__dict__["_tables"]


# ---------------------------------------------------------------------------

def _item_fields(table: str, name: str, item: dict, fields: dict, p: list) -> dict:
    """One item of a [port] or [card] table: unknown, missing and mistyped fields
    go to ``p``; returns the fields present with the right type (name -> type)."""
    for f in item:
        if f not in fields:
            p.append(f"unknown rules parameter '{table}.{name}.{f}'")
    ok = {}
    for f, t in fields.items():
        if f not in item:
            p.append(f"{table}.{name}.{f}: missing")
        elif _check_type(f"{table}.{name}.{f}", item[f], t, p):
            ok[f] = t
    return ok

def validate_data(d: dict) -> list[str]:
    """Every problem with a rules data dict, one message each (empty list = valid)."""
    p = check_top_level(d, SCALARS, SECTIONS)
    if p:
        return p

    def positive(name, allow_zero=False):
        v = d[name]
        if v < 0 or (v == 0 and not allow_zero):
            p.append(f"{name}: must be {'>= 0' if allow_zero else '> 0'}, got {v}")

    for k in ("tokens_per_type", "black_market_slots", "start_ships", "start_warehouse",
              "ships_per_player", "edge_limit_per_type", "max_combo", "max_players", "min_players"):
        positive(k)
    for k in ("wilds_total", "wilds_per_player", "casino_payout", "start_coins",
              "total_coins", "final_coin_value"):
        positive(k, allow_zero=True)
    if d["tie_break"] not in TIE_BREAKS:
        p.append(f"tie_break: must be one of {', '.join(TIE_BREAKS)}, got {d['tie_break']!r}")
    types = d["cargo_types"]
    if not types or not all(isinstance(t, str) and t for t in types):
        p.append("cargo_types: must be a non-empty list of names")
    elif len(set(types)) != len(types):
        p.append("cargo_types: names must be unique")
    elif len(types) > MAX_TOK - 1:
        p.append(f"cargo_types: at most {MAX_TOK - 1} cargo types are supported, got {len(types)}")
    if d["start_ships"] > d["ships_per_player"]:
        p.append(f"start_ships ({d['start_ships']}) exceeds ships_per_player ({d['ships_per_player']})")
    if d["max_players"] > MAX_SEATS:
        p.append(f"max_players: at most {MAX_SEATS} seats are supported, got {d['max_players']}")
    if d["min_players"] > d["max_players"]:
        p.append("min_players exceeds max_players")
    m = d["max_combo"]
    for k in ("value_same", "value_different"):
        v = d[k]
        if len(v) != m + 1:
            p.append(f"{k}: needs max_combo + 1 = {m + 1} entries (k = 0..{m}), got {len(v)}")
        elif not all(whole(x, numpy=False) for x in v):
            p.append(f"{k}: entries must be integers")
        elif v[0] != 0 or any(b < a for a, b in zip(v, v[1:])) or any(x < 0 for x in v):
            p.append(f"{k}: must start at 0 and never decrease, got {v}")
    if not d["unlimited_coins"] and d["total_coins"] < d["start_coins"] * d["max_players"]:
        p.append(f"total_coins ({d['total_coins']}) cannot pay start_coins to {d['max_players']} players")

    turns = d.get("turns", {})
    for n in turns:
        if not str(n).isdigit():
            p.append(f"turns.{n}: player counts must be numbers")
    ports = d.get("port", {})
    for name, port in ports.items():
        if not isinstance(port, dict):
            p.append(f"port.{name}: must be a table with slots and players")
            continue
        _item_fields("port", name, port, PORT_FIELDS, p)
        if isinstance(port.get("slots"), int) and port["slots"] <= 0:
            p.append(f"port.{name}.slots: must be > 0, got {port['slots']}")
        if isinstance(port.get("players"), list) and not all(whole(x, numpy=False) for x in port["players"]):
            p.append(f"port.{name}.players: must be a list of player counts")
    for n in range(d["min_players"], d["max_players"] + 1):
        t = turns.get(str(n))
        if t is None:
            p.append(f"turns.{n}: no turn count for {n} players")
        elif not whole(t, numpy=False) or t < 2:
            p.append(f"turns.{n}: must be an integer >= 2, got {t!r}")
        n_open = sum(1 for port in ports.values()
                     if isinstance(port, dict) and isinstance(port.get("players"), list) and n in port["players"])
        if n_open < 1:
            p.append(f"port.*.players: no port is open for {n} players")
        elif n_open > MAX_PORTS:
            p.append(f"port.*.players: at most {MAX_PORTS} ports can be open, {n_open} are for {n} players")
    cards = d.get("card", {})
    if not cards:
        p.append("card: at least one victory card is needed")
    elif len(cards) > MAX_CARDS:
        p.append(f"card: at most {MAX_CARDS} victory card types are supported, got {len(cards)}")
    for name, card in cards.items():
        if not isinstance(card, dict):
            p.append(f"card.{name}: must be a table")
            continue
        for f, t in _item_fields("card", name, card, CARD_FIELDS, p).items():
            lo = 1 if f in ("copies", "cost") else 0
            if t is int and card[f] < lo:
                p.append(f"card.{name}.{f}: must be >= {lo}, got {card[f]}")
        if card.get("kind") not in CARD_KINDS:
            p.append(f"card.{name}.kind: must be one of {', '.join(CARD_KINDS)}, got {card.get('kind')!r}")
    p += Rules.provenance_problems(d)
    p += Rules.range_problems(d)
    p += Rules.constraint_problems(d)
    return p or limit_problems(d)


def _compile(d: dict, n: int) -> np.ndarray:
    """The template state array: the rules header (enums.R_*, PORT_SLOTS, CARD)."""
    from . import enums as e
    s = np.zeros(e.STATE_SIZE, dtype=np.int64)
    slots = [port["slots"] for port in d["port"].values() if n in port["players"]]
    cards = list(d["card"].values())
    s[e.R_N_PLAYERS] = n
    s[e.R_N_TYPES] = len(d["cargo_types"])
    s[e.R_N_PORTS] = len(slots)
    s[e.R_N_CARDS] = len(cards)
    s[e.R_TOKENS_PER_TYPE] = d["tokens_per_type"]
    s[e.R_WILDS_IN_BAG] = min(d["wilds_total"], d["wilds_per_player"] * n)
    s[e.R_BM_SLOTS] = d["black_market_slots"]
    s[e.R_CASINO_PAYOUT] = d["casino_payout"]
    s[e.R_START_COINS] = d["start_coins"]
    s[e.R_START_SHIPS] = d["start_ships"]
    s[e.R_START_WAREHOUSE] = d["start_warehouse"]
    s[e.R_TOTAL_COINS] = d["total_coins"]
    s[e.R_MAX_SHIPS] = d["ships_per_player"]
    s[e.R_UNLIMITED_COINS] = int(d["unlimited_coins"])
    s[e.R_EDGE_LIMIT] = d["edge_limit_per_type"]
    s[e.R_FINAL_COIN_VALUE] = d["final_coin_value"]
    s[e.R_N_TURNS] = d["turns"][str(n)]
    s[e.R_FINAL_PHASE3] = int(d["final_turn_phase3"])
    s[e.R_TRADE_NO_CARD] = int(d["trade_without_card"])
    s[e.R_TIE_BY_COST] = int(d["tie_break"] == "cost")
    s[e.PORT_SLOTS:e.PORT_SLOTS + len(slots)] = slots
    for c, card in enumerate(cards):
        row = e.CARD + c * e.CARD_W
        s[row + e.C_COPIES] = card["copies"]
        s[row + e.C_COST] = card["cost"]
        s[row + e.C_VP] = card["vp"]
        s[row + e.C_EDGE] = card["kind"] == "edge"
        s[row + e.C_SHIPS] = card["ships"]
        s[row + e.C_WAREHOUSE] = card["warehouse"]
        s[row + e.C_SYNDICATE] = card["syndicate"]
    s.flags.writeable = False
    return s
