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


REPORT_DIR = Path(__file__).resolve().parents[1] / "reports" / "robustness"


def mark_highlights(lines: list[str], rules, out_dir, folder=REPORT_DIR):
    """The report's highlight lines, each with its robustness mark from the
    committed robustness report (when it was made with these rules), and the
    relative link to that report (None if there is none for these rules)."""
    import re
    marks = load_marks(folder)
    try:
        digest = json.loads((Path(folder) / VERDICTS_FILE).read_text(encoding="utf-8"))["rules_digest"]
    except (OSError, ValueError, KeyError):
        digest = None
    if digest != rules.digest:
        return [f"{ln} [robustness: not assessed for these rules]" for ln in lines], None
    out = []
    for ln in lines:
        m = re.match(r"(\d) players: best seat", ln)
        if m:
            keys = [f"seat.{m.group(1)}"]
        elif ln.startswith("Games with a bank shortfall"):
            # only the player counts this line reports (a 3/4-player report
            # does not borrow the study's 2- and 5-player verdicts)
            shown = set(re.findall(r"\b(\d)p\b", ln))
            keys = sorted(k for k in marks if k.startswith("bank.") and k.split(".")[1] in shown)
        else:
            keys = []
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
    root = Path(__file__).resolve().parents[1]
    if not target.is_relative_to(root):      # a robustness report of its own: its folder's parent
        root = target.parents[1]
    out = Path(out_dir).resolve()
    name = target.relative_to(root).as_posix()
    if out.is_relative_to(root):
        rel = Path(os.path.relpath(target, out)).as_posix()
        return f"[{name}]({rel}) (its own games and bots; the marks apply to these rules)"
    return (f"`{name}` in the cargo_sim source (its own games and bots; not linked: this report "
            "was written outside the source tree)")
