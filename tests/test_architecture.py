"""The import rules of docs/ARCHITECTURE.md, checked on the source."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
STDLIB = frozenset(sys.stdlib_module_names)


def imports_of(source: str, package: str) -> set[str]:
    """Absolute names of the modules a source file imports (relative ones resolved)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                names.add(".".join([*base, node.module] if node.module else base))
            elif node.module:
                names.add(node.module)
    return names


def modules(folder: str) -> list[tuple[Path, str]]:
    out = []
    for path in sorted((ROOT / folder).rglob("*.py")):
        package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
        out.append((path, package))
    return out


def outside(names: set[str], allowed_prefixes: tuple[str, ...]) -> set[str]:
    return {
        n
        for n in names
        if n.split(".")[0] not in STDLIB
        and n != "__future__"
        and not any(n == p or n.startswith(p + ".") for p in allowed_prefixes)
    }


@pytest.mark.parametrize(("path", "package"), modules("bot/engine"), ids=lambda x: str(x))
def test_engine_imports_only_the_standard_library_and_itself(path: Path, package: str):
    names = imports_of(path.read_text(encoding="utf-8"), package)
    assert outside(names, ("bot.engine",)) == set()


@pytest.mark.parametrize(("path", "package"), modules("render"), ids=lambda x: str(x))
def test_render_knows_pillow_and_the_engine_never_discord(path: Path, package: str):
    names = imports_of(path.read_text(encoding="utf-8"), package)
    assert outside(names, ("PIL", "render", "bot.engine")) == set()


def test_nothing_imports_cogs_but_the_bot_loads_them_by_name():
    offenders = []
    for folder in ("bot", "render"):
        for path, package in modules(folder):
            names = imports_of(path.read_text(encoding="utf-8"), package)
            if any(n == "cogs" or n.startswith("cogs.") for n in names):
                offenders.append(str(path.relative_to(ROOT)))
    assert offenders == []


def test_the_checker_catches_a_forbidden_import():
    source = "import os\nfrom discord import ui\nfrom . import tiles\nfrom ..storage import db\n"
    names = imports_of(source, "bot.engine")
    assert outside(names, ("bot.engine",)) == {"discord", "bot.storage"}
