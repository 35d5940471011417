"""Citations of docs/RULES.md name one of its sections.

Code, tests and docs cite a section by its heading's anchor (GitHub's), as
``RULES.md#all-fives``; several in a row as ``RULES.md#block-game, #all-fives and
#latvian-dominoes``. Section numbers (``§7.4``) are not used: they were the numbering
of a rule book users do not have.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "docs" / "RULES.md"
CITATION = re.compile(r"RULES\.md(#[a-z0-9-]+(?:(?:, | and |, and )#[a-z0-9-]+)*)")
NUMBERED = re.compile(r"§ ?\d")


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to dashes."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors() -> set[str]:
    lines = RULES.read_text(encoding="utf-8").splitlines()
    return {slug(line.lstrip("#")) for line in lines if line.startswith("#")}


def sources() -> list[Path]:
    found = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    for folder in ("bot", "cogs", "render", "tests", "benchmarks"):
        found += sorted((ROOT / folder).rglob("*.py"))
    return [p for p in found if p.exists()]


def where(path: Path, text: str, index: int) -> str:
    return f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, index) + 1}"


def test_the_anchors_are_githubs() -> None:
    assert slug("What every game shares") == "what-every-game-shares"
    assert slug("All Fives") == "all-fives"
    assert {"block-game", "all-fives", "latvian-dominoes", "worked-examples"} <= anchors()


def test_every_citation_names_a_section() -> None:
    known = anchors()
    wrong = []
    for path in sources():
        text = path.read_text(encoding="utf-8")
        for match in CITATION.finditer(text):
            for anchor in re.findall(r"#([a-z0-9-]+)", match.group(1)):
                if anchor not in known:
                    wrong.append(f"{where(path, text, match.start())}: #{anchor}")
    assert wrong == []


def test_no_section_numbers() -> None:
    numbered = []
    for path in sources():
        if path == Path(__file__):  # its docstring shows one
            continue
        text = path.read_text(encoding="utf-8")
        numbered += [where(path, text, m.start()) for m in NUMBERED.finditer(text)]
    assert numbered == []
