"""The value types of a rules schema: ``int``, ``str``, ``bool``, ``list`` and
``IntList`` (a flat list of integers), and the one check of a value against its
type (``check_type``) that every game's ``validate`` and ``RulesBase`` use, and of a
table of named items against their fields (``check_items``)."""
from __future__ import annotations

import numpy as np

from .checks import whole


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



def check_items(d: dict, table: str, fields: dict, problems: list) -> dict:
    """The items of ``d[table]`` (a non-empty table of named tables) whose fields are
    exactly ``fields`` (name: type), each present and of its type; a problem is added
    for every other."""
    items = d.get(table)
    if not isinstance(items, dict) or not items:
        problems.append(f"{table}: must be a non-empty table")
        return {}
    ok = {}
    for name, item in items.items():
        if not isinstance(item, dict):
            problems.append(f"{table}.{name}: must be a table of {', '.join(fields)}")
            continue
        bad = [f for f in item if f not in fields]
        for f in bad:
            problems.append(f"unknown rules parameter '{table}.{name}.{f}' ({table} fields: {', '.join(fields)})")
        good = not bad
        for f, t in fields.items():
            if f not in item:
                problems.append(f"{table}.{name}.{f}: missing")
                good = False
            elif not check_type(f"{table}.{name}.{f}", item[f], t, problems):
                good = False
        if good:
            ok[name] = item
    return ok

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
