"""The documentation stays inside the repository: every relative link of
README.md and docs/*.md names a file of the repository, none leaves it,
README.md stays short, and no source, data or doc file names a path outside
the repository (a user's clone has only the repository)."""
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# the development machines' folders, spelled so that this file does not name them itself
MACHINE_ROOTS = tuple(f"/{name}/" for name in ("work", "farm"))
DOCS = sorted((ROOT / "docs").glob("*.md"))
PAGES = [ROOT / "README.md"] + DOCS

FENCE = re.compile(r"^(```|~~~).*?^\1", re.S | re.M)
INLINE_CODE = re.compile(r"`[^`\n]*`")
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$", re.M)
EXTERNAL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")      # http:, https:, mailto: ...


def links(text: str) -> list[str]:
    """Link targets of a Markdown page, outside code blocks and inline code."""
    prose = INLINE_CODE.sub("", FENCE.sub("", text))
    return LINK.findall(prose) + REFERENCE.findall(prose)


def test_links_parser_sees_inline_and_reference_links_only_outside_code():
    text = ("See [a](docs/a.md#top) and ![fig](img/x.png \"t\").\n"
            "`[not](code.md)`\n```sh\n[no](fenced.md)\n```\n[ref]: ../out.md\n")
    assert links(text) == ["docs/a.md#top", "img/x.png", "../out.md"]


def rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


@pytest.mark.parametrize("page", PAGES, ids=rel)
def test_relative_links_name_files_of_the_repository(page):
    bad = []
    for target in links(page.read_text(encoding="utf-8")):
        if EXTERNAL.match(target) or target.startswith("#"):
            continue
        path = target.split("#", 1)[0]
        if path.startswith("/"):
            bad.append(f"{target}: absolute path")
            continue
        resolved = (page.parent / path).resolve()
        if not resolved.is_relative_to(ROOT):
            bad.append(f"{target}: outside the repository")
        elif not resolved.exists():
            bad.append(f"{target}: no such file")
    assert bad == [], f"{rel(page)}: {bad}"


def test_every_docs_page_is_listed_in_the_index():
    index = ROOT / "docs" / "index.md"
    listed = {(index.parent / t.split("#", 1)[0]).resolve()
              for t in links(index.read_text(encoding="utf-8"))}
    missing = [rel(p) for p in DOCS if p != index and p not in listed]
    assert missing == []


def test_readme_is_short_and_names_nothing_outside_the_repository():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 260
    assert "../shared" not in text and MACHINE_ROOTS[0] not in text


OUTSIDE = ("../shared",) + MACHINE_ROOTS
SKIP_DIRS = {".git", ".venv", "build", "dist", "__pycache__", ".pytest_cache", ".hypothesis"}


def repository_text_files():
    for path in ROOT.rglob("*"):
        parts = set(path.relative_to(ROOT).parts)
        if (path.suffix in {".py", ".md", ".toml", ".cfg", ".txt"} or path.name == "Makefile") \
                and not parts & SKIP_DIRS and not any(p.endswith(".egg-info") for p in parts) \
                and path.is_file() and path != Path(__file__).resolve():
            yield path


def test_no_file_names_a_path_outside_the_repository():
    found = [f"{rel(p)}: {s}" for p in repository_text_files()
             for s in OUTSIDE if s in p.read_text(encoding="utf-8", errors="replace")]
    assert found == []
