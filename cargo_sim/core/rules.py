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
* ``[range]``: plausible values of estimates and decisions.

A game subclasses it with its schema (``SCALARS``, ``KEYED``, ``TABLES``), its
checks (``validate``) and what it compiles the data into. See docs/contract.md.
"""
from __future__ import annotations

import copy
import fnmatch
import operator
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

RULES_FILE_LIMIT = 4 * 2**20      # bytes; the default rules file is ~10 KB

META = ("provenance", "range", "constraint")
STATUSES = ("rulebook", "review", "estimated", "decision")   # a [provenance] row's first word
MAX_RANGE_VALUES = 1000       # values of one [range] row (each may be played: keep it finite)

# [constraint] rows: "NAME" = "OP OTHER" (OP one of these) or "none" (a lifted constraint)
CONSTRAINT_OPS = {"<=": operator.le, ">=": operator.ge, "=": operator.eq,
                  "<": operator.lt, ">": operator.gt}
LIFTED = "none"


def parse_constraint(spec):
    """A [constraint] row's value: (op, other parameter), or None when lifted
    ("none"); ValueError when malformed."""
    if not isinstance(spec, str):
        raise ValueError
    s = spec.strip()
    if s == LIFTED:
        return None
    for op in CONSTRAINT_OPS:                 # two-character operators first
        if s.startswith(op):
            other = s[len(op):].strip()
            if other and other[0] not in "<>=":
                return op, other
    raise ValueError


def _range_ends(spec, current):
    """(lo, hi) of a well-formed whole-number [range] row with the current value, else None."""
    if spec is None:
        return current, current
    if isinstance(spec, list) and len(spec) == 2 and all(is_int(x) for x in spec) and spec[0] <= spec[1]:
        return min(spec[0], current), max(spec[1], current)
    return None


def type_name(t) -> str:
    if isinstance(t, IntList):
        return t.describe()
    return {int: "an integer", str: "a string", bool: "true/false", list: "a list"}[t]


def is_int(v) -> bool:
    return whole(v, numpy=False)


def check_type(name, value, t, problems) -> bool:
    """Is ``value`` of type ``t`` (bool is not an int)? Otherwise a problem is added."""
    if isinstance(t, IntList):
        why = t.problem(value)
        if why:
            problems.append(f"{name}: must be {t.describe()}, got {short_repr(value)} ({why})")
        return not why
    if t is int:
        ok = is_int(value)
    elif t is bool:
        ok = isinstance(value, bool)
    else:
        ok = isinstance(value, t)
    if not ok:
        problems.append(f"{name}: must be {type_name(t)}, got {value!r}")
    return ok


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


# ---- array-valued parameters ------------------------------------------------
MAX_INT_LIST = 1000           # entries of one list parameter unless its schema says fewer


def short_repr(value, limit: int = 60) -> str:
    """repr() cut to ``limit`` characters (an error message stays one short line)."""
    r = repr(value)
    return r if len(r) <= limit else r[:limit - 3] + "..."


class IntList:
    """The type of an array-valued rules parameter: a flat list of integers.

    Used in a schema like ``int`` or ``str`` (``SCALARS``, ``KEYED`` or a
    ``TABLES`` field), e.g. ``{"adjacent": IntList(min_len=1, max_len=8, lo=1, hi=30)}``.
    Its value is a TOML array of integers (``adjacent = [12, 16, 18, 22]``); its
    flat name is the whole list's (``quarter.17.adjacent``, one [provenance] row,
    one [range] row of alternative lists); an override gives a list, a tuple, a
    1-d integer numpy array, or text (``--set quarter.17.adjacent=12,16,18``):
    integers separated by commas, with or without brackets, ``""`` or ``[]`` for
    the empty list (``parse``). Nested lists, non-integers (true/false and 1.5
    included), lists too long or too short and entries outside [lo, hi] are each
    refused with a one-line message.
    """

    def __init__(self, min_len: int = 0, max_len: int = MAX_INT_LIST, lo: int | None = None,
                 hi: int | None = None):
        self.min_len, self.max_len, self.lo, self.hi = min_len, max_len, lo, hi

    def describe(self) -> str:
        if self.min_len == self.max_len:
            n = f"{self.min_len}"
        elif self.min_len:
            n = f"{self.min_len} to {self.max_len}"
        else:
            n = f"at most {self.max_len}"
        bounds = ""
        if self.lo is not None and self.hi is not None:
            bounds = f" from {self.lo} to {self.hi}"
        elif self.lo is not None:
            bounds = f" >= {self.lo}"
        elif self.hi is not None:
            bounds = f" <= {self.hi}"
        return f"a list of {n} integers{bounds}"

    def problem(self, value) -> str:
        """Why ``value`` is not such a list ("" when it is)."""
        if isinstance(value, str):
            return "text, not integers separated by commas"
        if not isinstance(value, list):
            return "not a list"
        for i, x in enumerate(value):
            if isinstance(x, (list, tuple, dict)):
                return f"entry {i} is nested (a list parameter is one flat list)"
            if not is_int(x):
                return f"entry {i} is {short_repr(x, 20)}, not an integer"
        if len(value) > self.max_len:
            return f"{len(value)} entries, at most {self.max_len}"
        if len(value) < self.min_len:
            return f"{len(value)} entries, at least {self.min_len}"
        for i, x in enumerate(value):
            if (self.lo is not None and x < self.lo) or (self.hi is not None and x > self.hi):
                return f"entry {i} is {x}, outside {self.lo}..{self.hi}"
        return ""

    def coerce(self, value):
        """An override's value as a plain list where it unambiguously is one
        (text, tuple, numpy array, numpy integers); anything else unchanged (for
        ``problem`` to refuse)."""
        if isinstance(value, str):
            return self.parse(value)
        if isinstance(value, np.ndarray):
            value = value.tolist() if value.ndim == 1 and value.dtype.kind in "iu" else value
        if isinstance(value, tuple):
            value = list(value)
        if isinstance(value, list):
            value = [x.item() if isinstance(x, np.integer) else x for x in value]
        return value

    @staticmethod
    def parse(text: str):
        """``"12,16,18"``, ``"[12, 16, 18]"`` -> [12, 16, 18]; ``""``, ``"[]"`` -> [].
        Text that is not integers separated by commas is returned unchanged (then
        refused as "not a list", naming the parameter)."""
        s = text.strip()
        if s.startswith("[") and s.endswith("]"):
            s = s[1:-1].strip()
        if not s:
            return []
        out = []
        for tok in s.split(","):
            tok = tok.strip()
            body = tok[1:] if tok[:1] in "+-" else tok
            if not body.isdigit() or not body.isascii() or len(body) > 30:
                return text
            out.append(int(tok))
        return out


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

class RulesBase:
    """The rules of one variant of a game (immutable): data plus overrides."""

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
            raise RulesError("invalid rules: " + "; ".join(problems))

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
        """Default rules with the overrides of a TOML file (same layout as the default file)."""
        path = Path(path)
        # a regular file of at most RULES_FILE_LIMIT bytes, UTF-8 (a FIFO or /dev/zero would hang)
        text = read_text(path, RULES_FILE_LIMIT, "rules file", RulesError)
        return cls.from_toml(text, f"rules file {path}")

    @classmethod
    def from_toml(cls, text: str, what: str = "rules TOML"):
        """Default rules with the overrides of TOML text (``to_toml`` gives it back)."""
        user = parse_rules_toml(text, what)
        meta = {k: user[k] for k in META if k in user}
        return cls.default()._derive(cls.flatten(user, drop_provenance=True), meta, what)

    @classmethod
    def from_saved(cls, text: str, what: str = "saved rules TOML"):
        """Rules saved whole (``to_toml``: a run's manifest, an aggregates file)
        read back as they were saved, not merged over today's defaults: a later
        change of the default data (a new [provenance], [range] or [constraint]
        row) must not change a saved run's rules or their digest. A partial file
        (some scalar missing) is read over the defaults, like ``from_toml``.
        ``overrides`` are the parameters that differ from today's defaults."""
        user = parse_rules_toml(text, what)
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
        return self._derive(changes)

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
            raise RulesError("invalid rules override: " + "; ".join(problems))
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
                raise RulesError(f"invalid rules in {what}: " + "; ".join(problems))
        return type(self)(data, merged)

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
        """A short hash of the full rules data: two runs with equal digests used equal rules."""
        blob = json.dumps(self._data, sort_keys=True).encode()
        return hashlib.sha256(blob).hexdigest()[:16]

    # ---- provenance -----------------------------------------------------------
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

    def provenance_rows(self) -> list[dict]:
        """``provenance`` as plain rows (what ``cargo-sim rules`` prints, without pandas)."""
        rows = []
        for name, value in self.flat().items():
            if name in self.LABEL_KEYS:
                continue
            src = self.source_of(name)
            status = src.split(":", 1)[0].strip()
            rows.append({"parameter": name, "value": value, "status": status, "source": src})
        return rows

    @property
    def provenance(self):
        """DataFrame: parameter, value, status (rulebook/review/estimated/decision/override), source."""
        import pandas as pd
        return pd.DataFrame(self.provenance_rows())

    @property
    def ranges(self) -> dict:
        """Plausible values of each estimate and decision (the rules data's
        [range] table): name -> sorted list of values, the current one included
        (every whole number of a [lo, hi] range; the alternatives otherwise).
        A tied parameter has none: it moves with its leader (``tied``)."""
        flat = self.flat()
        tied = self.tied
        out = {}
        for name, spec in self._data.get("range", {}).items():
            if name in tied:                  # it moves with its leader
                continue
            cur = flat[name]
            if is_int(cur):
                out[name] = sorted(set(range(spec[0], spec[1] + 1)) | {cur})
            else:
                out[name] = [cur] + [v for v in spec if v != cur]
        return out

    @classmethod
    def range_problems(cls, d: dict) -> list[str]:
        """[range]: known parameters; [lo, hi] with lo <= hi for whole numbers, a
        list of alternatives of the parameter's type otherwise."""
        ranges = d.get("range", {})
        if not isinstance(ranges, dict):
            return ["range: must be a table"]
        flat = cls.flatten(d, drop_provenance=True)
        p = []
        for name, spec in ranges.items():
            if name not in flat:
                p.append(f"range: unknown rules parameter {name!r}")
            elif not isinstance(spec, list) or not spec:
                p.append(f"range.{name}: must be a non-empty list")
            elif is_int(flat[name]):
                if len(spec) != 2 or not all(is_int(x) for x in spec) or spec[0] > spec[1]:
                    p.append(f"range.{name}: must be [lo, hi], whole numbers with lo <= hi, got {spec}")
                elif spec[1] - spec[0] >= MAX_RANGE_VALUES:     # Rules.ranges lists every value
                    p.append(f"range.{name}: at most {MAX_RANGE_VALUES} values, got {spec}")
            elif not all(type(x) is type(flat[name]) for x in spec):
                p.append(f"range.{name}: alternatives must be of the parameter's type, got {spec}")
            elif len(spec) > MAX_RANGE_VALUES:
                p.append(f"range.{name}: at most {MAX_RANGE_VALUES} alternatives, got {len(spec)}")
        return p

    # ---- constraints -------------------------------------------------------------
    @staticmethod
    def constraints_in(d: dict) -> dict:
        """The active, well-formed rows of a data dict's [constraint] table:
        name -> (op, other). Lifted ("none") and malformed rows are left out
        (``constraint_problems`` reports the malformed ones)."""
        rows = d.get("constraint", {})
        out = {}
        if isinstance(rows, dict):
            for name, spec in rows.items():
                try:
                    rule = parse_constraint(spec)
                except ValueError:
                    continue
                if rule is not None:
                    out[name] = rule
        return out

    @classmethod
    def tied_in(cls, d: dict) -> dict:
        """follower -> leader for every tie ("A" = "= B": A always equals B)."""
        return {a: b for a, (op, b) in cls.constraints_in(d).items() if op == "="}

    @property
    def constraints(self) -> dict:
        """The rules' constraints between parameters: name -> (op, other), e.g.
        ``{"table.Item.points": ("=", "table.Item.price")}`` (the [constraint] table)."""
        return self.constraints_in(self._data)

    @property
    def tied(self) -> dict:
        """follower -> leader: parameters that always equal another (no range of
        their own; ``replace`` moves them with their leader)."""
        return self.tied_in(self._data)

    def allows(self, name: str, value, others: dict | None = None) -> bool:
        """Would ``name = value`` keep every constraint that involves it, with the
        other parameters at ``others`` (default: these rules' values)? A tie's
        leader always may move (its follower moves with it); a follower may not
        leave its leader's value."""
        flat = self.flat()
        if others:
            flat.update(others)
        for a, (op, b) in self.constraints.items():
            if a == name and not CONSTRAINT_OPS[op](value, flat[b]):
                return False
            if b == name and op != "=" and not CONSTRAINT_OPS[op](flat[a], value):
                return False
        return True

    @classmethod
    def constraint_problems(cls, d: dict) -> list[str]:
        """[constraint]: each row "NAME" = "OP OTHER" between two whole-number
        parameters (OP one of = < > <= >=; "=" ties NAME to OTHER) or "none" (a
        lifted constraint). No chains (OTHER is not itself constrained). The
        values must obey every row; a tied parameter has no [range] row of its
        own; the ranges of two parameters related by an inequality must leave
        each value of either a legal value of the other."""
        rows = d.get("constraint", {})
        if not isinstance(rows, dict):
            return ["constraint: must be a table"]
        flat = cls.flatten(d, drop_provenance=True)
        p, rules = [], {}
        for name, spec in rows.items():
            try:
                rule = parse_constraint(spec)
            except ValueError:
                p.append(f"constraint.{name}: must be '= NAME', '< NAME', '> NAME', '<= NAME' or "
                         f"'>= NAME' (NAME another rules parameter), or 'none' (lifted), got {spec!r}")
                continue
            if rule is None:
                if name not in flat:
                    p.append(f"constraint: unknown rules parameter {name!r}")
                continue
            op, other = rule
            bad = next((n for n in (name, other) if n not in flat), None)
            if bad is not None:
                p.append(f"constraint.{name}: unknown rules parameter {bad!r}")
            elif not all(is_int(flat[n]) for n in (name, other)):
                p.append(f"constraint.{name}: both sides must be whole-number parameters, got "
                         f"{name} = {flat[name]!r} and {other} = {flat[other]!r}")
            elif other == name:
                p.append(f"constraint.{name}: a parameter cannot be constrained by itself")
            else:
                rules[name] = (op, other)
        for name, (op, other) in rules.items():
            if other in rules:
                p.append(f"constraint.{name}: {other} is itself constrained (constraint.{other}); "
                         f"chains are not supported, relate both to the same parameter")
        if p:
            return p
        for name, (op, other) in rules.items():
            a, b = flat[name], flat[other]
            if not CONSTRAINT_OPS[op](a, b):
                hint = (f" (it follows {other}: change {other} instead, or lift the tie with "
                        f"[constraint] \"{name}\" = \"none\" in a rules file)" if op == "=" else
                        f" (lift it with [constraint] \"{name}\" = \"none\" in a rules file)")
                p.append(f"{name} = {a} breaks the constraint {name} {op} {other} ({other} is {b}){hint}")
        ranges = d.get("range", {})
        if not isinstance(ranges, dict):
            return p
        for name, (op, other) in rules.items():
            if op == "=":
                # a tied parameter moves with its leader: a range of its own can only
                # repeat the leader's (a saved rules file from before the tie has one)
                if name in ranges and ranges[name] != ranges.get(other):
                    p.append(f"range.{name}: {name} is tied to {other} (constraint {name} = {other}), "
                             f"so it has no range of its own: give {other} the range "
                             f"(got {ranges[name]}, {other} has {ranges.get(other)})")
                continue
            if name not in ranges and other not in ranges:
                continue
            ra, rb = _range_ends(ranges.get(name), flat[name]), _range_ends(ranges.get(other), flat[other])
            if ra is None or rb is None:
                continue                       # a malformed row: range_problems reports it
            f = CONSTRAINT_OPS[op]
            lone = ([(name, x) for x in ra if not any(f(x, y) for y in rb)]
                    + [(other, y) for y in rb if not any(f(x, y) for x in ra)])
            if lone:
                n, v = lone[0]
                p.append(f"range.{name} {list(ra)} and range.{other} {list(rb)} contradict the "
                         f"constraint {name} {op} {other}: {n} = {v} leaves the other no legal value")
        return p

    @classmethod
    def provenance_problems(cls, d: dict) -> list[str]:
        """[provenance]: each row a flat name or pattern of a parameter (``*``
        for one part of a name) -> "status" or "status: source", with status
        one of ``STATUSES``."""
        prov = d.get("provenance", {})
        if not isinstance(prov, dict):
            return ["provenance: must be a table"]
        names = [n for n in cls.flatten(d, drop_provenance=True) if n not in cls.LABEL_KEYS]
        exact = set(names)        # most rows name one parameter: no pattern matching for those
        p = []
        for pattern, source in prov.items():
            status = source.split(":", 1)[0].strip() if isinstance(source, str) else None
            if status not in STATUSES:
                p.append(f"provenance.{pattern}: must be a string 'status' or 'status: source' with "
                         f"status one of {', '.join(STATUSES)}, got {source!r}")
            elif pattern not in exact and not (
                    any(c in pattern for c in "*?[")
                    and any(fnmatch.fnmatchcase(n, pattern.replace("*", "[!.]*")) for n in names)):
                p.append(f"provenance: {pattern!r} names no rules parameter")
        return p

    @property
    def estimated(self) -> list[str]:
        """Names of the parameters whose value is an estimate, not a printed value."""
        return [n for n in self.flat() if self.source_of(n).startswith("estimated")]

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
        return isinstance(other, type(self)) and self._data == other._data

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
