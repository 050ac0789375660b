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

``Rules.compile()`` turns the data into the flat numpy arrays the numba engine
reads (a template state array); nothing in the engine hard-codes a game number.
"""
from __future__ import annotations

import copy
import fnmatch
import hashlib
import json
import tomllib
from functools import cached_property
from importlib import resources
from pathlib import Path

import numpy as np

from ...core.errors import RulesError
from ...core.checks import whole
from .enums import MAX_CARDS, MAX_PORTS, MAX_SEATS, MAX_TOK
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
SECTIONS = ("turns", "port", "card", "provenance", "range")
TIE_BREAKS = ("vp", "cost")     # the tied player's single highest card, by VP or by cost

def _type_name(t) -> str:
    return {int: "an integer", str: "a string", bool: "true/false", list: "a list"}[t]


def _check_type(name, value, t, problems):
    if t is int:
        ok = whole(value, numpy=False)
    elif t is bool:
        ok = isinstance(value, bool)
    else:
        ok = isinstance(value, t)
    if not ok:
        problems.append(f"{name}: must be {_type_name(t)}, got {value!r}")
    return ok


class Rules:
    """The rules of one Cargo Noir variant (immutable).

    >>> r = Rules.default().replace(start_coins=8, **{"card.Villa.cost": 22})
    >>> r["start_coins"], r["card.Villa.cost"]
    (8, 22)
    """

    def __init__(self, data: dict, overrides: dict | None = None):
        self._data = data
        self.overrides = dict(overrides or {})
        problems = validate_data(data)
        if problems:
            raise RulesError("invalid rules: " + "; ".join(problems))

    # ---- construction -------------------------------------------------
    @classmethod
    def default(cls) -> "Rules":
        return cls(_default_data())

    @classmethod
    def from_file(cls, path) -> "Rules":
        """Default rules with the overrides of a TOML file (same layout as the default file)."""
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as e:
            raise RulesError(f"cannot read rules file {path}: {e.strerror}") from None
        return cls.from_toml(text, f"rules file {path}")

    @classmethod
    def from_toml(cls, text: str, what: str = "rules TOML") -> "Rules":
        """Default rules with the overrides of TOML text (``to_toml`` gives it back)."""
        try:
            user = tomllib.loads(text)
        except tomllib.TOMLDecodeError as e:
            raise RulesError(f"{what} is not valid TOML: {e}") from None
        except RecursionError:
            raise RulesError(f"{what} is nested too deeply to be a rules file") from None
        return cls.default().replace(_flatten(user, drop_provenance=True))

    def replace(self, overrides: dict | None = None, **kw) -> "Rules":
        """A new Rules with some parameters changed, by flat name.

        ``replace(start_coins=8)`` or ``replace({"card.Villa.cost": 22, "turns.4": 11})``.
        A new port or card can be added with all its fields (``port.Macau2.slots``...).
        """
        changes = dict(overrides or {})
        changes.update(kw)
        data = copy.deepcopy(self._data)
        problems = []
        for name, value in changes.items():
            _set_flat(data, name, value, problems)
        if problems:
            raise RulesError("invalid rules override: " + "; ".join(problems))
        # record what differs from the current value only: a full rules file
        # (e.g. a saved run's) read back over the defaults changes nothing
        before = self.flat()
        merged = dict(self.overrides)
        merged.update({k: v for k, v in changes.items() if k not in before or before[k] != v
                       or k in merged})
        return Rules(data, merged)

    # ---- reading --------------------------------------------------------
    def __getitem__(self, name: str):
        flat = self.flat()
        if name not in flat:
            raise RulesError(f"unknown rules parameter {name!r}")
        return flat[name]

    def flat(self) -> dict:
        """Every parameter by flat name (provenance excluded)."""
        return _flatten(self._data, drop_provenance=True)

    def to_dict(self) -> dict:
        return copy.deepcopy(self._data)

    @property
    def cargo_types(self) -> list[str]:
        return list(self._data["cargo_types"])

    @property
    def port_names(self) -> list[str]:
        return list(self._data["port"].keys())

    @property
    def card_names(self) -> list[str]:
        return list(self._data["card"].keys())

    @property
    def player_counts(self) -> list[int]:
        return [n for n in range(self._data["min_players"], self._data["max_players"] + 1)]

    def open_ports(self, n_players: int) -> list[str]:
        return [p for p, d in self._data["port"].items() if n_players in d["players"]]

    def turns(self, n_players: int) -> int:
        return self._data["turns"][str(n_players)]

    def check_players(self, n_players: int) -> None:
        lo, hi = self._data["min_players"], self._data["max_players"]
        if not whole(n_players) or not lo <= n_players <= hi:
            raise RulesError(f"impossible player count {n_players!r}: these rules allow {lo} to {hi} players")

    @cached_property
    def digest(self) -> str:
        """A short hash of the full rules data: two runs with equal digests used equal rules."""
        blob = json.dumps(self._data, sort_keys=True).encode()
        return hashlib.sha256(blob).hexdigest()[:16]

    # ---- provenance -----------------------------------------------------
    def source_of(self, name: str) -> str:
        """Where a parameter's value comes from; 'override' if this variant changed it."""
        if name in self.overrides or any(name.startswith(k + ".") for k in self.overrides):
            return "override"
        prov = self._data.get("provenance", {})
        best, best_score = "unknown", None
        for pattern, source in prov.items():
            if fnmatch.fnmatchcase(name, pattern.replace("*", "[!.]*")) or name == pattern:
                score = (-pattern.count("*"), len(pattern))     # fewest wildcards, then longest
                if best_score is None or score > best_score:
                    best, best_score = source, score
        return best

    @property
    def provenance(self):
        """DataFrame: parameter, value, status (rulebook/review/estimated/decision/override), source."""
        import pandas as pd
        rows = []
        for name, value in self.flat().items():
            if name in ("game", "name"):
                continue
            src = self.source_of(name)
            status = src.split(":", 1)[0].strip()
            rows.append({"parameter": name, "value": value, "status": status, "source": src})
        return pd.DataFrame(rows)

    @property
    def ranges(self) -> dict:
        """Plausible values of each estimate and decision (the rules data's
        [range] table): name -> sorted list of values, the current one included
        (every whole number of a [lo, hi] range; the alternatives otherwise)."""
        flat = self.flat()
        out = {}
        for name, spec in self._data.get("range", {}).items():
            cur = flat[name]
            if whole(cur, numpy=False):
                vals = set(range(spec[0], spec[1] + 1)) | {cur}
                out[name] = sorted(vals)
            else:
                vals = [cur] + [v for v in spec if v != cur]
                out[name] = vals
        return out

    @property
    def estimated(self) -> list[str]:
        """Names of the parameters whose value is an estimate, not a printed value."""
        return [n for n in self.flat() if self.source_of(n).startswith("estimated")]

    # ---- output ---------------------------------------------------------
    def to_toml(self) -> str:
        """The full rules as TOML text (loadable with Rules.from_file; tomli-w
        quotes and escapes every name, non-ASCII included)."""
        import tomli_w
        d = self._data
        ordered = {k: v for k, v in d.items() if k not in SECTIONS}
        ordered.update({k: d[k] for k in ("turns", "port", "card") if k in d})
        ordered.update({k: v for k, v in d.items() if k not in ordered})
        return tomli_w.dumps(ordered)

    def __repr__(self) -> str:
        extra = f", overrides={self.overrides}" if self.overrides else ""
        return f"Rules({self._data['name']!r}{extra})"

    def __eq__(self, other) -> bool:
        return isinstance(other, Rules) and self._data == other._data

    def __hash__(self) -> int:
        return hash(self.digest)

    # ---- compiled arrays --------------------------------------------------
    def compile(self, n_players: int) -> np.ndarray:
        """The engine's template state for an n-player game: the rules' numbers in
        the header of an int64 array laid out as in ``enums`` (memoised, read-only)."""
        self.check_players(n_players)
        cache = self.__dict__.setdefault("_compiled", {})
        if n_players not in cache:
            cache[n_players] = _compile(self._data, n_players)
        return cache[n_players]

    def state_template(self, n_players: int) -> np.ndarray:
        """A new n-player state array before setup: the rules header
        (``compile``), the packed trade tables after the state, then the
        bots' workspace (``enums.R_WORK``)."""
        from .enums import R_WORK, R_WORK_LEN, WORK_W
        head = self.compile(n_players)
        packed = self.packed_trade_tables()
        template = np.concatenate([head, packed, np.zeros(WORK_W, np.int64)])
        template[R_WORK] = len(head) + len(packed)
        template[R_WORK_LEN] = WORK_W
        return template

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
def _default_data() -> dict:
    text = resources.files(__package__).joinpath("rules_default.toml").read_text(encoding="utf-8")
    data = tomllib.loads(text)
    for card in data["card"].values():
        for k, v in CARD_DEFAULTS.items():
            card.setdefault(k, v)
    data["turns"] = {str(k): v for k, v in data["turns"].items()}
    return data


def _flatten(data: dict, drop_provenance: bool) -> dict:
    flat = {}
    for k, v in data.items():
        if k in ("provenance", "range"):
            if not drop_provenance:
                flat[k] = v
            continue
        if k in ("port", "card") and isinstance(v, dict):
            for name, fields in v.items():
                if isinstance(fields, dict):
                    for f, fv in fields.items():
                        flat[f"{k}.{name}.{f}"] = fv
                else:
                    flat[f"{k}.{name}"] = fields
        elif k == "turns" and isinstance(v, dict):
            for n, t in v.items():
                flat[f"turns.{n}"] = t
        else:
            flat[k] = v
    return flat


def _set_flat(data: dict, name: str, value, problems: list) -> None:
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, tuple):
        value = list(value)
    parts = name.split(".")
    head = parts[0]
    if head in SCALARS and len(parts) == 1:
        if _check_type(name, value, SCALARS[head], problems):
            data[head] = value
    elif head == "turns" and len(parts) == 2:
        if _check_type(name, value, int, problems):
            data["turns"][parts[1]] = value
    elif head in ("port", "card") and len(parts) == 3:
        _, item, field = parts
        fields = PORT_FIELDS if head == "port" else CARD_FIELDS
        if field not in fields:
            problems.append(f"unknown rules parameter {name!r} ({head} fields: {', '.join(fields)})")
            return
        if _check_type(name, value, fields[field], problems):
            entry = data[head].setdefault(item, {} if head == "port" else dict(CARD_DEFAULTS))
            entry[field] = value
    else:
        problems.append(f"unknown rules parameter {name!r}")


def validate_data(d: dict) -> list[str]:
    """Every problem with a rules data dict, one message each (empty list = valid)."""
    p: list[str] = []
    for k in d:
        if k not in SCALARS and k not in SECTIONS:
            p.append(f"unknown rules parameter {k!r}")
    for k, t in SCALARS.items():
        if k not in d:
            p.append(f"{k}: missing")
        else:
            _check_type(k, d[k], t, p)
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
        for f in port:
            if f not in PORT_FIELDS:
                p.append(f"unknown rules parameter 'port.{name}.{f}'")
        for f, t in PORT_FIELDS.items():
            if f not in port:
                p.append(f"port.{name}.{f}: missing")
            else:
                _check_type(f"port.{name}.{f}", port[f], t, p)
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
        for f in card:
            if f not in CARD_FIELDS:
                p.append(f"unknown rules parameter 'card.{name}.{f}'")
        for f, t in CARD_FIELDS.items():
            if f not in card:
                p.append(f"card.{name}.{f}: missing")
            elif _check_type(f"card.{name}.{f}", card[f], t, p) and t is int:
                lo = 1 if f in ("copies", "cost") else 0
                if card[f] < lo:
                    p.append(f"card.{name}.{f}: must be >= {lo}, got {card[f]}")
        if card.get("kind") not in CARD_KINDS:
            p.append(f"card.{name}.kind: must be one of {', '.join(CARD_KINDS)}, got {card.get('kind')!r}")
    if isinstance(d.get("provenance", {}), dict) is False:
        p.append("provenance: must be a table")
    p += _range_problems(d)
    return p or limit_problems(d)


def _range_problems(d: dict) -> list[str]:
    """[range]: known parameters; [lo, hi] with lo <= hi for whole numbers, a
    list of alternatives of the parameter's type otherwise."""
    ranges = d.get("range", {})
    if not isinstance(ranges, dict):
        return ["range: must be a table"]
    flat = _flatten(d, drop_provenance=True)
    p = []
    for name, spec in ranges.items():
        if name not in flat:
            p.append(f"range: unknown rules parameter {name!r}")
        elif not isinstance(spec, list) or not spec:
            p.append(f"range.{name}: must be a non-empty list")
        elif whole(flat[name], numpy=False):
            if len(spec) != 2 or not all(whole(x, numpy=False) for x in spec) or spec[0] > spec[1]:
                p.append(f"range.{name}: must be [lo, hi], whole numbers with lo <= hi, got {spec}")
        elif not all(type(x) is type(flat[name]) for x in spec):
            p.append(f"range.{name}: alternatives must be of the parameter's type, got {spec}")
    return p


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
