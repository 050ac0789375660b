"""Markdown tables and pages of the reports (the demo report, the robustness report):
one source for ``index.md`` and ``index.html``."""
from __future__ import annotations

import re

import pandas as pd

from .present import format_column, format_p


def markdown_table(df: pd.DataFrame) -> str:
    """A GitHub-flavoured markdown table (no dependency on tabulate): numbers
    and intervals right-aligned with one number of decimals per column
    (``present.format_column``), text left-aligned."""
    if df is None or len(df) == 0:
        return "_(no data)_\n"
    cols = [str(c) for c in df.columns]
    esc = lambda s: s.replace("|", "\\|")  # noqa: E731
    cells = [format_p(df[c]) if str(c) == "p-value" else format_column(df[c]) for c in df.columns]
    right = [pd.api.types.is_numeric_dtype(df[c]) or "95% CI" in str(c) for c in df.columns]
    lines = ["| " + " | ".join(esc(c) for c in cols) + " |",
             "|" + "|".join("---:" if r else "---" for r in right) + "|"]
    for row in zip(*cells):
        lines.append("| " + " | ".join(esc(v) for v in row) + " |")
    return "\n".join(lines) + "\n"


PAGE_STYLE = """
body { font: 15px/1.45 system-ui, sans-serif; max-width: 1400px; margin: auto; padding: 1em; color: #222; }
table { border-collapse: collapse; font-size: 13px; margin-bottom: 1em; }
td, th { border: 1px solid #ccc; padding: 2px 6px; font-variant-numeric: tabular-nums; }
th { background: #f3f3f3; }
p:has(> img) { overflow-x: auto; }
img { max-width: none; }
code { background: #f4f4f4; padding: 0 3px; }
td.est { color: #b00; font-weight: bold; }
"""


def to_html(md_text: str, page_title: str) -> str:
    """A markdown report as a standalone HTML page (Python-Markdown with its
    tables and toc extensions; heading ids are those of ``slug``, as on
    GitHub, so the contents links work in both files). Figures keep their
    size: a wide one scrolls instead of shrinking its legend to a few pixels."""
    import markdown
    body = markdown.markdown(md_text, extensions=["tables", "toc"], output_format="html",
                             extension_configs={"toc": {"slugify": lambda value, sep: slug(value)}})
    body = body.replace("<td>ESTIMATED</td>", '<td class="est">ESTIMATED</td>')
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{page_title}</title><style>{PAGE_STYLE}</style></head>\n<body>\n"
            f"{body}\n</body></html>\n")


def slug(title: str) -> str:
    """The anchor GitHub-style Markdown gives a heading (used by the contents list)."""
    return re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")
