"""The rules' metadata: where each value comes from ([provenance]), the values an
estimate may take ([range]) and the relations between parameters
([constraint]). ``RulesMeta`` is the part of ``RulesBase`` that reads and checks
them; it works on the rules' data dict through ``flatten``/``flat`` (rules.py)."""
from __future__ import annotations

import fnmatch
import operator

from .rule_types import is_int

META = ("provenance", "range", "constraint")
STATUSES = ("rulebook", "review", "estimated", "decision", "user")   # a [provenance] row's first word
# "user: FILE": a value the user supplied in a rules file (a game owner's box). Such
# rows are left out of the digest: who gave a value does not change the game.
USER = "user"
SOURCED = ("rulebook", "review")          # values taken from a source (not ours)
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


def status_of(source: str) -> str:
    """A provenance text's status, its first word ('estimated: ...' -> 'estimated')."""
    return source.split(":", 1)[0].strip()


def _range_ends(spec, current):
    """(lo, hi) of a well-formed whole-number [range] row with the current value, else None."""
    if spec is None:
        return current, current
    if isinstance(spec, list) and len(spec) == 2 and all(is_int(x) for x in spec) and spec[0] <= spec[1]:
        return min(spec[0], current), max(spec[1], current)
    return None


class RulesMeta:
    """Provenance, ranges and constraints of a rules object: a mixin of
    ``RulesBase``, which holds the data (``_data``, ``overrides``) and the flat
    names (``flatten``, ``flat``, ``LABEL_KEYS``)."""

    def source_of(self, name: str) -> str:
        """Where a parameter's value comes from: 'user: FILE' if the user supplied
        it in a rules file, 'override' if this variant changed it otherwise."""
        own = self._data.get("provenance", {}).get(name)
        if isinstance(own, str) and status_of(own) == USER:
            return own
        if name in self.overrides or any(name.startswith(k + ".") for k in self.overrides):
            return "override"
        return self.provenance_row(name)[1]

    def provenance_row(self, name: str) -> tuple[str | None, str]:
        """The [provenance] row that speaks for a parameter: (its name or pattern,
        its text); (None, "unknown") when none does. The most specific row wins."""
        prov = self._data.get("provenance", {})
        best, best_score = (None, "unknown"), None
        for pattern, source in prov.items():
            if fnmatch.fnmatchcase(name, pattern.replace("*", "[!.]*")) or name == pattern:
                score = (-pattern.count("*"), len(pattern))     # fewest wildcards, then longest
                if best_score is None or score > best_score:
                    best, best_score = (pattern, source), score
        return best

    def user_rows(self) -> dict:
        """name -> file of the values the user supplied in a rules file ('user: FILE' rows)."""
        return {n: s.split(":", 1)[1].strip() if ":" in s else ""
                for n, s in self._data.get("provenance", {}).items()
                if isinstance(s, str) and status_of(s) == USER}

    def provenance_rows(self) -> list[dict]:
        """``provenance`` as plain rows (what ``cargo-sim rules`` prints, without pandas)."""
        rows = []
        for name, value in self.flat().items():
            if name in self.LABEL_KEYS:
                continue
            src = self.source_of(name)
            status = status_of(src)
            rows.append({"parameter": name, "value": value, "status": status, "source": src})
        return rows

    @property
    def provenance(self):
        """DataFrame: parameter, value, status (rulebook/review/estimated/decision/user/override), source."""
        import pandas as pd
        return pd.DataFrame(self.provenance_rows())

    @property
    def ranges(self) -> dict:
        """Plausible values of each estimate and decision (the rules data's
        [range] table): name -> sorted list of values, the current one included
        (every whole number of a [lo, hi] range; the alternatives otherwise).
        A tied parameter has none: it moves with its leader (``tied``); nor has a value
        the owner supplied from the box (``user_rows``): a printed number is not uncertain."""
        flat = self.flat()
        tied, printed = self.tied, self.user_rows()
        out = {}
        for name, spec in self._data.get("range", {}).items():
            if name in tied or name in printed:
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


# ---- how many values are still estimates (every report says it) -----------------
def rules_census(rules) -> dict:
    """The rules' parameters counted by where their value comes from:
    ``sourced`` (rulebook or review), ``decision``, ``estimated`` (still our
    estimate), ``user`` (supplied in a rules file), ``override`` (changed
    otherwise: ``--set``, ``replace``), ``unknown``; and ``user_files``, the
    files the user's values came from (sorted)."""
    out = dict.fromkeys(("sourced", "decision", "estimated", "user", "override", "unknown"), 0)
    files = set()
    for row in rules.provenance_rows():
        st = row["status"]
        key = "sourced" if st in SOURCED else st if st in out else "unknown"
        out[key] += 1
        if st == USER:
            files.add(row["source"].split(":", 1)[1].strip() if ":" in row["source"] else "")
    out["user_files"] = sorted(files)
    return out


def rules_census_line(rules) -> str:
    """One line for a report: how many of the rules' values come from sources and
    how many are still estimates (``rules_census``)."""
    c = rules_census(rules)
    line = (f"Rules: {c['sourced']} values from sources, {c['decision']} modelling decisions, "
            f"{c['estimated']} still estimated")
    if c["user"]:
        line += f", {c['user']} supplied by the owner ({', '.join(c['user_files'])})"
    if c["override"]:
        line += f", {c['override']} changed for this run"
    if c["unknown"]:
        line += f", {c['unknown']} of unknown source"
    return line + "."
