"""RulesBase: the part of a game's rules object every game shares.

A game's rules are one data dict read from a TOML file beside the game's module
(``rules_default.toml``), plus overrides, addressed by flat parameter names:

* scalars: ``min_players``;
* keyed values (``KEYED``, e.g. one per player count): ``section.4``;
* tables of named items with typed fields (``TABLES``): ``table.Item.field``;
* any of these may be array-valued, a flat list of integers (``IntList`` in the
  schema): ``quarter.17.adjacent = [12, 16, 18, 22]``, overridden as a list or
  as text ``"12,16,18"`` (``IntList.parse``);
* ``[provenance]``: flat name or pattern -> "rulebook: ..." / "estimated: ...";
* ``[range]``: plausible values of estimates and decisions;
* ``[constraint]``: relations between parameters.

This module holds the data, its flat names and the TOML in and out; the three
tables of metadata are read and checked by ``provenance.RulesMeta``, the value
types are ``rule_types``. A game subclasses it with its schema (``SCALARS``, ``KEYED``, ``TABLES``), its
checks (``validate``) and what it compiles the data into. See docs/contract.md.
"""
from __future__ import annotations

import copy
import hashlib
import json
import tomllib
from functools import cached_property
from importlib import resources
from pathlib import Path

import numpy as np

from .checks import whole
from .errors import RulesError
from .fileio import read_text
from .provenance import META, USER, RulesMeta, status_of
from .rule_types import IntList, check_items, check_type, is_int, short_repr, type_name

__all__ = ["RulesBase", "IntList", "check_items", "check_type", "check_top_level", "is_int", "short_repr",
           "type_name", "parse_rules_toml", "copy_tree", "RULES_FILE_LIMIT"]

RULES_FILE_LIMIT = 4 * 2**20      # bytes; the default rules file is ~10 KB


def some(problems: list[str], most: int = 5) -> str:
    """Problems joined for one line: the first ``most``, then how many more."""
    more = len(problems) - most
    return "; ".join(problems[:most]) + (f"; and {more} more" if more > 0 else "")


def parse_rules_toml(text: str, what: str) -> dict:
    """TOML text as a dict, or one RulesError (bad TOML, too deeply nested)."""
    check_key_depth(text, what)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise RulesError(f"{what} is not valid TOML: {e}") from None
    except RecursionError:
        raise RulesError(f"{what} is nested too deeply to be a rules file") from None


def check_top_level(d: dict, scalars: dict, sections) -> list[str]:
    """A rules data dict's top level: unknown names, missing and mistyped scalars
    (one message each; empty = fine). A game's validate_data starts with it."""
    p: list[str] = []
    for k in d:
        if k not in scalars and k not in sections:
            p.append(f"unknown rules parameter {k!r}")
    for k, t in scalars.items():
        if k not in d:
            p.append(f"{k}: missing")
        else:
            check_type(k, d[k], t, p)
    return p


# tomllib's memory and time grow with the square of a dotted key's depth
# (10^4 parts: 0.4 GB, 5 s; 10^5: killed), so dots are bounded before parsing.
# Counting every dot of a line over-counts (values, prose): a rules file has a
# few dozen, the bound is 10^6 squared dots (a few MB, a tenth of a second).
MAX_DOTS_SQUARED = 10**6


def check_key_depth(text: str, what: str) -> None:
    """RulesError for TOML text whose dotted keys are too deep to parse in bounded memory."""
    cost, worst, worst_line = 0, 0, 0
    for i, line in enumerate(text.splitlines(), 1):
        d = line.count(".")
        cost += d * d
        if d > worst:
            worst, worst_line = d, i
    if cost > MAX_DOTS_SQUARED:
        raise RulesError(f"{what} is nested too deeply to be a rules file (line {worst_line} "
                         f"has {worst} dots; keys of a few parts are all a rules file needs)")


def copy_tree(x):
    """A copy of rules data (dicts and lists of scalars): what ``copy.deepcopy`` gives,
    several times faster (every ``replace`` copies the whole tree)."""
    if isinstance(x, dict):
        return {k: copy_tree(v) for k, v in x.items()}
    if isinstance(x, list):
        return [copy_tree(v) for v in x]
    return copy.deepcopy(x) if not isinstance(x, (str, int, float, bool, type(None))) else x


class RulesBase(RulesMeta):
    """The rules of one variant of a game (immutable): data plus overrides. Its
    [provenance], [range] and [constraint] tables are read by ``RulesMeta``
    (provenance.py)."""

    SCALARS: dict = {}       # name -> type
    KEYED: dict = {}         # section -> value type: flat "section.key"
    TABLES: dict = {}        # section -> (fields {name: type}, defaults of a new item)
    DEFAULTS_FILE = "rules_default.toml"      # beside the subclass's module
    LABEL_KEYS = ("game", "name")             # data, not parameters (provenance skips them)

    def __init__(self, data: dict, overrides: dict | None = None):
        self._data = data
        self.overrides = dict(overrides or {})
        problems = self.validate(data)
        if problems:
            raise RulesError("invalid rules: " + some(problems))

    # ---- what a game defines ----------------------------------------------
    @classmethod
    def validate(cls, data: dict) -> list[str]:
        """Every problem with a rules data dict, one message each (empty list = valid)."""
        return []

    @classmethod
    def default_data(cls) -> dict:
        package = cls.__module__.rpartition(".")[0]
        text = resources.files(package).joinpath(cls.DEFAULTS_FILE).read_text(encoding="utf-8")
        return tomllib.loads(text)

    # ---- construction -------------------------------------------------------
    @classmethod
    def default(cls):
        return cls(cls.default_data())

    @classmethod
    def from_file(cls, path):
        """Default rules with the overrides of a TOML file (same layout as the default
        file, any part of it); the values that differ from the defaults are marked as
        the user's, 'user: FILE NAME' (``supplied_in``)."""
        path = Path(path)
        # a regular file of at most RULES_FILE_LIMIT bytes, UTF-8 (a FIFO or /dev/zero would hang)
        text = read_text(path, RULES_FILE_LIMIT, "rules file", RulesError)
        what = f"rules file {path}"
        user = parse_rules_toml(text, what)
        cls.check_game_entry(user, what)        # before a game's own reading (a map read whole)
        rules = cls.from_toml(text, what)
        given = user.get("provenance", {})
        return rules.supplied_in(path.name, keep=given if isinstance(given, dict) else {})

    def supplied_in(self, origin: str, keep=()):
        """These rules with every value that differs from the game's defaults
        marked as the user's ('user: ORIGIN' in [provenance]; ``source_of`` gives
        it, ``estimated`` no longer lists it), except the names in ``keep`` (the
        file's own [provenance] rows). A value equal to the default stays as the
        defaults say (an estimate stays an estimate): a file read back unchanged
        changes nothing. ``overrides`` becomes exactly the differing values."""
        default = type(self).default().flat()
        flat = self.flat()
        differ = {n: v for n, v in flat.items()
                  if n not in self.LABEL_KEYS and (n not in default or default[n] != v)}
        rules = self if differ == self.overrides else type(self)(self._data, differ)
        rows = {n: f"{USER}: {origin}" for n in differ if n not in keep}
        return rules.with_meta({"provenance": rows}, f"rules file {origin}") if rows else rules

    @classmethod
    def from_toml(cls, text: str, what: str = "rules TOML"):
        """Default rules with the overrides of TOML text (``to_toml`` gives it back)."""
        user = parse_rules_toml(text, what)
        cls.check_game_entry(user, what)
        meta = {k: user[k] for k in META if k in user}
        return cls.default()._derive(cls.flatten(user, drop_provenance=True), meta, what)

    @classmethod
    def check_game_entry(cls, user: dict, what: str) -> None:
        """A rules file whose ``game`` entry names another game: one line naming both
        (not one problem per parameter the other game does not have)."""
        own, theirs = cls.default_data().get("game"), user.get("game")
        if own is not None and theirs is not None and theirs != own:
            raise RulesError(f"{what} holds rules of the game {theirs!r}, not of {own!r}: play it "
                             f"with --game {theirs} (game={theirs!r}), or write {own}'s rules "
                             f"(cargo-sim rules --game {own} --toml)")

    @classmethod
    def from_saved(cls, text: str, what: str = "saved rules TOML"):
        """Rules saved whole (``to_toml``: a run's manifest, an aggregates file)
        read back as they were saved, not merged over today's defaults: a later
        change of the default data (a new [provenance], [range] or [constraint]
        row) must not change a saved run's rules or their digest. A partial file
        (some scalar missing) is read over the defaults, like ``from_toml``.
        ``overrides`` are the parameters that differ from today's defaults."""
        user = parse_rules_toml(text, what)
        cls.check_game_entry(user, what)
        if not all(k in user for k in cls.SCALARS):
            return cls.from_toml(text, what)
        data = cls.complete(user)
        problems = cls.validate(data)
        if problems:
            raise RulesError(f"invalid rules in {what}: " + "; ".join(problems))
        now = cls.default().flat()
        flat = cls.flatten(data, drop_provenance=True)
        return cls(data, {k: v for k, v in flat.items()
                          if k not in cls.LABEL_KEYS and (k not in now or now[k] != v)})

    @classmethod
    def complete(cls, data: dict) -> dict:
        """A data dict with what the file may leave implicit filled in (a game
        adds its tables' field defaults)."""
        return data

    def with_meta(self, meta: dict, what: str = "rules"):
        """These rules with rows of [provenance], [range] and [constraint] added or
        replaced (``meta``: {"provenance": {...}, ...}), checked like the rest."""
        return self._derive({}, meta, what)

    def replace(self, overrides: dict | None = None, **kw):
        """A new rules object with some parameters changed, by flat name:
        ``replace(min_players=3)`` or ``replace({"table.Item.field": 22})``. A new
        item of a table can be added with all its fields. A parameter tied to
        another by [constraint] ("A" = "= B") follows B when B changes."""
        changes = dict(overrides or {})
        changes, kw = self.coerced(changes), self.coerced(kw)    # list parameters as lists
        changes.update(kw)
        new = self._derive(changes)
        users = self.user_rows()
        if users:
            # a value changed here is no longer the one the user's file supplied
            before, after = self.flat(), new.flat()
            prov = new._data["provenance"]
            for name in users:
                if before.get(name) != after.get(name):
                    del prov[name]
        return new

    def _derive(self, changes: dict, meta: dict | None = None, what: str = "rules"):
        """A new rules object: ``meta`` rows merged in, then ``changes`` applied
        (and tied parameters moved with their leaders), then everything checked."""
        data = copy_tree(self._data)
        for k, rows in (meta or {}).items():
            if not isinstance(rows, dict):
                raise RulesError(f"invalid rules in {what}: {k}: must be a table")
            data.setdefault(k, {}).update(rows)
        problems = []
        for name, value in changes.items():
            self.set_flat(data, name, value, problems)
        if problems:
            raise RulesError(f"invalid rules {'override' if what == 'rules' else 'in ' + what}: "
                             + some(problems))
        changes = dict(changes)
        flat = self.flatten(data, drop_provenance=True)
        for follower, leader in self.tied_in(data).items():
            if leader in changes and follower not in changes and follower in flat and leader in flat:
                self.set_flat(data, follower, flat[leader], problems)
                changes[follower] = flat[leader]
        # record what differs from the current value only: a full rules file
        # (e.g. a saved run's) read back over the defaults changes nothing
        before = self.flat()
        merged = dict(self.overrides)
        merged.update({k: v for k, v in changes.items() if k not in before or before[k] != v
                       or k in merged})
        if meta:
            problems = self.validate(data)
            if problems:
                raise RulesError(f"invalid rules in {what}: " + some(problems))
        try:
            return type(self)(data, merged)
        except RulesError as e:
            if what == "rules":
                raise
            raise RulesError(f"{what}: {e}") from None

    # ---- flat names -------------------------------------------------------------
    @classmethod
    def flatten(cls, data: dict, drop_provenance: bool) -> dict:
        flat = {}
        for k, v in data.items():
            if k in META:
                if not drop_provenance:
                    flat[k] = v
                continue
            if k in cls.TABLES and isinstance(v, dict):
                for name, fields in v.items():
                    if isinstance(fields, dict):
                        for f, fv in fields.items():
                            flat[f"{k}.{name}.{f}"] = fv
                    else:
                        flat[f"{k}.{name}"] = fields
            elif k in cls.KEYED and isinstance(v, dict):
                for n, t in v.items():
                    flat[f"{k}.{n}"] = t
            else:
                flat[k] = v
        return flat

    @classmethod
    def set_flat(cls, data: dict, name: str, value, problems: list) -> None:
        if isinstance(value, np.generic):
            value = value.item()
        if isinstance(value, tuple):
            value = list(value)
        parts = name.split(".")
        head = parts[0]
        if head in cls.SCALARS and len(parts) == 1:
            if check_type(name, value, cls.SCALARS[head], problems):
                data[head] = value
        elif head in cls.KEYED and len(parts) == 2:
            if check_type(name, value, cls.KEYED[head], problems):
                data[head][parts[1]] = value
        elif head in cls.TABLES and len(parts) == 3:
            _, item, field = parts
            fields, defaults = cls.TABLES[head]
            if field not in fields:
                problems.append(f"unknown rules parameter {name!r} ({head} fields: {', '.join(fields)})")
                return
            if check_type(name, value, fields[field], problems):
                entry = data[head].setdefault(item, dict(defaults))
                entry[field] = value
        else:
            problems.append(f"unknown rules parameter {name!r}")

    def __getitem__(self, name: str):
        flat = self.flat()
        if name not in flat:
            raise RulesError(f"unknown rules parameter {name!r}")
        return flat[name]

    def flat(self) -> dict:
        """Every parameter by flat name (provenance excluded)."""
        return self.flatten(self._data, drop_provenance=True)

    def to_dict(self) -> dict:
        return copy_tree(self._data)

    @property
    def player_counts(self) -> list[int]:
        return [n for n in range(self._data["min_players"], self._data["max_players"] + 1)]

    def check_players(self, n_players: int) -> None:
        lo, hi = self._data["min_players"], self._data["max_players"]
        if not whole(n_players) or not lo <= n_players <= hi:
            raise RulesError(f"impossible player count {n_players!r}: these rules allow {lo} to {hi} players")

    @cached_property
    def digest(self) -> str:
        """A short hash of the full rules data: two runs with equal digests used equal
        rules. The user's marks ('user: FILE' provenance rows) count as the rows they
        replaced (the defaults'): the same values from a rules file or from ``--set``
        are the same rules."""
        blob = json.dumps(self.unmarked_data(), sort_keys=True).encode()
        return hashlib.sha256(blob).hexdigest()[:16]

    def unmarked_data(self) -> dict:
        """The rules data with the user's marks replaced by the defaults' rows (or
        dropped where the defaults have none): what ``digest`` and ``==`` compare."""
        data = self._data
        prov = data.get("provenance")
        if not isinstance(prov, dict) or not any(isinstance(v, str) and status_of(v) == USER
                                                 for v in prov.values()):
            return data
        was = self.default_data().get("provenance", {})
        mark = {k for k, v in prov.items() if isinstance(v, str) and status_of(v) == USER}
        return dict(data, provenance={k: was[k] if k in mark else v for k, v in prov.items()
                                      if k not in mark or k in was})

    # ---- output -------------------------------------------------------------------
    def to_toml(self) -> str:
        """The full rules as TOML text (loadable with from_file; tomli-w quotes and
        escapes every name, non-ASCII included): scalars, keyed values, tables, then
        provenance and ranges."""
        import tomli_w
        d = self._data
        sections = (*self.KEYED, *self.TABLES)
        ordered = {k: v for k, v in d.items() if k not in sections and k not in META}
        ordered.update({k: d[k] for k in sections if k in d})
        ordered.update({k: v for k, v in d.items() if k not in ordered})
        return tomli_w.dumps(ordered)

    def __repr__(self) -> str:
        extra = f", overrides={self.overrides}" if self.overrides else ""
        return f"{type(self).__name__}({self._data.get('name', '')!r}{extra})"

    def __eq__(self, other) -> bool:
        return isinstance(other, type(self)) and self.unmarked_data() == other.unmarked_data()

    def __hash__(self) -> int:
        return hash(self.digest)

    # ---- array-valued parameters (IntList) ----------------------------------------
    @classmethod
    def type_of(cls, name: str):
        """The schema type of a flat parameter name (None if unknown)."""
        parts = name.split(".")
        head = parts[0]
        if head in cls.SCALARS and len(parts) == 1:
            return cls.SCALARS[head]
        if head in cls.KEYED and len(parts) == 2:
            return cls.KEYED[head]
        if head in cls.TABLES and len(parts) == 3:
            return cls.TABLES[head][0].get(parts[2])
        return None

    @classmethod
    def coerced(cls, changes: dict) -> dict:
        """Overrides by flat name with each array-valued one as a plain list
        (text "12,16,18", a tuple or an array: ``IntList.coerce``)."""
        out = {}
        for name, value in changes.items():
            t = cls.type_of(name)
            out[name] = t.coerce(value) if isinstance(t, IntList) else value
        return out

    @classmethod
    def list_problems(cls, d: dict) -> list[str]:
        """Every array-valued parameter (``IntList`` in the schema) of a data dict
        checked, and every alternative in its [range] row: one message each."""
        p = []
        ranges = d.get("range", {}) if isinstance(d.get("range", {}), dict) else {}
        for name, value in cls.flatten(d, drop_provenance=True).items():
            t = cls.type_of(name)
            if not isinstance(t, IntList):
                continue
            check_type(name, value, t, p)
            spec = ranges.get(name)
            if isinstance(spec, list):
                for i, alt in enumerate(spec):
                    check_type(f"range.{name}[{i}]", alt, t, p)
        return p
