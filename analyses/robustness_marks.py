"""The robustness marks a report's highlights carry: each headline's verdict from a
written robustness report (``verdicts.json``; analyses.robustness makes it), and the
link to that report. Read by analyses.report (and re-exported by analyses.robustness);
imports neither (docs/robustness.md)."""
from __future__ import annotations

import json
from pathlib import Path

from cargo_sim.core.errors import ConfigError
from cargo_sim.core.fileio import read_json

VERDICTS_FILE = "verdicts.json"


def load_marks(folder) -> dict:
    """headline -> mark from a written robustness report ({} if there is none)."""
    path = Path(folder) / VERDICTS_FILE
    if not path.exists():
        return {}
    try:                              # a regular file, capped: a FIFO or /dev/zero cannot hang it
        d = read_json(path, 2**20, "robustness verdicts")
    except ConfigError:
        return {}
    marks = d.get("marks") if isinstance(d, dict) else None
    return {str(k): str(v) for k, v in marks.items()} if isinstance(marks, dict) else {}


SOURCE_ROOT = Path(__file__).resolve().parents[1]
REPORT_DIR = SOURCE_ROOT / "reports" / "robustness"      # Cargo Noir's (its report.ROBUSTNESS_MARKS)


def report_folder(spec: dict | None) -> Path | None:
    """The committed robustness report a game's highlights cite: its ``ROBUSTNESS_MARKS``
    ``report`` (a folder relative to the source tree), or None when it names none."""
    return SOURCE_ROOT / spec["report"] if spec and spec.get("report") else None


def headline_keys(line: str, marks: dict, spec: dict) -> list[str]:
    """The study's headlines a highlight line states, by the game's ``ROBUSTNESS_MARKS``
    ``lines``: (pattern, prefix) pairs matched at the line's start; a pattern with a group
    names the player count (headline ``prefix.N``), one without names every ``prefix.N``
    of the verdicts whose count the line shows as ``Np`` (a 3/4-player report does not
    borrow the study's 2- and 5-player verdicts)."""
    import re
    for pattern, prefix in spec.get("lines", ()):
        m = re.match(pattern, line)
        if not m:
            continue
        if m.groups():
            return [f"{prefix}.{m.group(1)}"]
        shown = set(re.findall(r"\b(\d)p\b", line))
        return sorted(k for k in marks if k.startswith(prefix + ".") and k.split(".", 1)[1] in shown)
    return []


def mark_highlights(lines: list[str], rules, out_dir, spec: dict | None, folder=None):
    """The report's highlight lines, each with its robustness mark from the game's
    committed robustness report (``spec``: the game's ``ROBUSTNESS_MARKS``, read beside its
    report sections by analyses.games.report_parts; ``folder`` overrides its ``report``)
    when that report was made with these rules, and the relative link to it (None if
    there is none for these rules)."""
    folder = folder if folder is not None else report_folder(spec)
    marks = load_marks(folder) if folder is not None else {}
    try:
        digest = json.loads((Path(folder) / VERDICTS_FILE).read_text(encoding="utf-8"))["rules_digest"]
    except (OSError, ValueError, KeyError, TypeError):
        digest = None
    if digest is None or digest != rules.digest:
        return [f"{ln} [robustness: not assessed for these rules]" for ln in lines], None
    out = []
    for ln in lines:
        keys = headline_keys(ln, marks, spec or {})
        tag = "; ".join(f"{k}: {marks.get(k, 'not assessed')}" for k in keys) or "not assessed"
        out.append(f"{ln} [robustness: {tag}]")
    return out, robustness_link(Path(folder) / "index.md", out_dir)


def robustness_link(target: Path, out_dir) -> str:
    """Markdown naming the robustness report for a report in ``out_dir``: a
    relative link when both are in one tree (the source tree, or the folder
    above a robustness report written elsewhere; the link then works wherever
    the tree is copied), else the report's path there, not linked (a link out
    of a report written elsewhere would break when it moves)."""
    import os
    target = target.resolve()
    root = SOURCE_ROOT
    if not target.is_relative_to(root):      # a robustness report of its own: its folder's parent
        root = target.parents[1]
    out = Path(out_dir).resolve()
    name = target.relative_to(root).as_posix()
    if out.is_relative_to(root):
        rel = Path(os.path.relpath(target, out)).as_posix()
        return f"[{name}]({rel}) (its own games and bots; the marks apply to these rules)"
    return (f"`{name}` in the cargo_sim source (its own games and bots; not linked: this report "
            "was written outside the source tree)")
