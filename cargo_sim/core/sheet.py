"""A game owner's data sheet: the rules' estimated values, and only those, as a
partial rules file (``cargo-sim rules --estimated --toml``).

The owner replaces each estimate with the number printed in their box and passes
the file with ``--rules``: it is read over the defaults like any rules file, and
every value that differs from the default is marked as the user's
(``RulesBase.supplied_in``). Read back unchanged it gives the default rules
(same digest). Each value carries a comment: its range, and once per
[provenance] row the reason it is an estimate (which says where the printed
value is, where known). A parameter tied to another ([constraint] "= B") is
only named in a comment: it moves with its leader, so giving it too would pin
it to its old value.
"""
from __future__ import annotations

import textwrap

WIDTH = 88


def _key(part: str) -> str:
    """One TOML key, quoted when it is not a bare key (tomli-w's quoting)."""
    import tomli_w
    return tomli_w.dumps({part: 0}).rsplit(" = ", 1)[0]


def _value(v) -> str:
    """A value as TOML on one line (tomli-w splits long lists over several)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, str):
        import tomli_w
        return tomli_w.dumps({"v": v}).split(" = ", 1)[1].strip()
    return str(v)


def _comment(text: str, indent: str = "") -> list[str]:
    return textwrap.wrap(text, WIDTH, initial_indent=indent + "# ", subsequent_indent=indent + "#   ",
                         break_on_hyphens=False, break_long_words=False)


def _split(rules, name: str) -> tuple[tuple, str]:
    """(table header parts, key) of a flat name by the schema (an item's name may hold dots)."""
    head, _, rest = name.partition(".")
    if head in rules.TABLES and rest:
        item, _, field = rest.rpartition(".")
        return (head, item), field
    if head in rules.KEYED and rest:
        return (head,), rest
    return (), name


def estimates_sheet(rules, game_title: str = "") -> str:
    """The sheet of ``rules``' still-estimated values as TOML text with comments
    (a partial rules file ``--rules`` reads back)."""
    estimated = set(rules.estimated)
    tied = rules.tied
    ranges = rules.to_dict().get("range", {})
    flat = rules.flat()
    game = flat.get("game", "")
    names = [n for n in flat if n in estimated]
    out = _comment(f"{game_title or game}: the {len(names)} values of these rules that are our "
                   "estimates (the printed value is not known to us), as a rules file. Replace "
                   "each with the number printed in your box and pass the file with --rules "
                   "FILE: every value you change is marked as yours (source 'user: FILE') and "
                   "drops out of `cargo-sim rules --estimated`; a value you leave as it is stays "
                   "an estimate (unchanged, this file gives the default rules, same digest). "
                   "If your box prints the very number given here, confirm it with a row "
                   "\"NAME\" = \"user: my box\" in a [provenance] table at the end. Delete "
                   "lines freely: what the file does not give keeps its default.")
    out += [f"game = {_value(game)}", ""]
    explained: set = set()

    def entry(name: str, key: str) -> list[str]:
        lines = []
        pattern, source = rules.provenance_row(name)
        if pattern not in explained:
            explained.add(pattern)
            reason = source.split(":", 1)[1].strip() if ":" in source else source
            lines += _comment(f"{pattern}: {reason}")
        spec = ranges.get(name)
        v = flat[name]
        if spec is None:
            note = "no range given"
        elif isinstance(v, int) and not isinstance(v, bool):
            note = f"range {spec[0]}..{spec[1]}"
        else:
            alts = _value(spec)
            note = "alternatives " + (alts if len(alts) <= 70 else alts[:67] + "...")
        if name in tied:
            return lines + [(f"# {key} = {_value(v)} follows {tied[name]} ([constraint]): "
                             "change that, it moves with it")]
        return lines + [f"{key} = {_value(v)}   # {note}"]

    # TOML: top-level values before any table, each table's header once
    sections: dict = {}
    for name in names:
        header, key = _split(rules, name)
        sections.setdefault(header, []).append((name, key))
    for header, members in sorted(sections.items(), key=lambda kv: len(kv[0]) > 0):
        if header:
            out.append("[" + ".".join(_key(p) for p in header) + "]")
        for name, key in members:
            out += entry(name, _key(key))
        out.append("")
    return "\n".join(out).rstrip("\n") + "\n"
