"""The import rules of docs/ARCHITECTURE.md, checked on the source.

:data:`MAY_IMPORT` is the "may import" column of the table in docs/ARCHITECTURE.md,
one entry per part: what its modules may import besides the standard library and
the part itself. Change the two together.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
STDLIB = frozenset(sys.stdlib_module_names)

MAY_IMPORT: dict[str, tuple[str, ...] | None] = {
    # part (a folder or a file): module name prefixes it may import; None: anything
    "bot/engine": (),  # the standard library only
    "render": ("PIL", "bot.engine"),
    "bot/storage": ("aiosqlite", "asyncpg", "bot.engine"),
    "bot/games": ("bot.engine", "bot.storage", "bot.i18n"),
    "bot/stats": ("openskill", "bot.storage", "bot.engine", "bot.i18n", "bot.games.errors"),
    "bot/i18n.py": ("babel",),  # numbers the language's way
    "bot/discord_i18n.py": ("discord", "bot.i18n"),
    "cogs/domino": ("discord", "aiohttp", "bot", "render"),  # but not bot.storage: below
    "bot/__main__.py": None,
    "bot/client.py": None,
    "bot/settings.py": None,
    "bot/logs.py": None,
    "bot/pacer.py": ("aiohttp",),  # the token's budget of counted Discord calls
    "bot/playground": ("simcord", "bot.client", "bot.games", "bot.i18n"),
    "bot/competitions": ("bot.engine", "bot.i18n"),  # pure so far: the rules of a competition
}
NEVER: dict[str, tuple[str, ...]] = {
    # exceptions to MAY_IMPORT's prefixes
    "cogs/domino": ("bot.storage",),  # the cogs reach storage only through the services
}
ONLY_IMPORTED_BY: dict[str, tuple[str, ...]] = {
    # module: the only parts that may import it ("nothing imports cogs": the bot
    # loads its extensions by name)
    "cogs": (),
    "bot.playground": ("bot/__main__.py", "bot/playground"),
    "asyncpg": ("bot/storage",),  # PostgreSQL is storage's business alone
}
CODE = ("bot", "cogs", "render")
"""Where the code the rules are about lives (tests and benchmarks may import anything)."""


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


def module_name(part: str) -> str:
    """``bot/engine`` -> ``bot.engine``, ``bot/i18n.py`` -> ``bot.i18n``."""
    return part.removesuffix(".py").replace("/", ".")


def modules(part: str) -> list[tuple[Path, str]]:
    """The source files of ``part`` (a folder or one file), each with its package."""
    path = ROOT / part
    paths = [path] if path.suffix == ".py" else sorted(path.rglob("*.py"))
    out = []
    for p in paths:
        package = ".".join(p.relative_to(ROOT).with_suffix("").parts[:-1])
        out.append((p, package))
    return out


def within(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def outside(names: set[str], allowed_prefixes: tuple[str, ...]) -> set[str]:
    """The names that are neither the standard library nor under an allowed prefix."""
    return {
        n
        for n in names
        if n.split(".")[0] not in STDLIB and n != "__future__" and not within(n, allowed_prefixes)
    }


def forbidden(part: str, names: set[str]) -> set[str]:
    """What a module of ``part`` imports against the rules of :data:`MAY_IMPORT`."""
    allowed = MAY_IMPORT[part]
    bad = set() if allowed is None else outside(names, (module_name(part), *allowed))
    return bad | {n for n in names if within(n, NEVER.get(part, ()))}


def part_of(path: Path) -> str | None:
    """The part of :data:`MAY_IMPORT` a source file belongs to."""
    relative = path.relative_to(ROOT).as_posix()
    for part in MAY_IMPORT:
        if relative == part or relative.startswith(part + "/"):
            return part
    return None


CASES = [(part, path, package) for part in MAY_IMPORT for path, package in modules(part)]


@pytest.mark.parametrize(
    ("part", "path", "package"), CASES, ids=[str(p.relative_to(ROOT)) for _, p, _ in CASES]
)
def test_each_part_imports_only_what_the_table_allows(part: str, path: Path, package: str) -> None:
    names = imports_of(path.read_text(encoding="utf-8"), package)
    assert forbidden(part, names) == set()


def test_every_source_file_belongs_to_a_part() -> None:
    loose = [
        str(path.relative_to(ROOT))
        for folder in CODE
        for path, _ in modules(folder)
        if part_of(path) is None and path.name != "__init__.py"
    ]
    assert loose == []


@pytest.mark.parametrize("module", list(ONLY_IMPORTED_BY))
def test_only_its_parts_import(module: str) -> None:
    allowed = ONLY_IMPORTED_BY[module]
    offenders = []
    for folder in CODE:
        for path, package in modules(folder):
            names = imports_of(path.read_text(encoding="utf-8"), package)
            if not any(within(n, (module,)) for n in names):
                continue
            part = part_of(path)
            if (part is None or part not in allowed) and not within(package, (module,)):
                offenders.append(str(path.relative_to(ROOT)))
    assert offenders == []


def test_the_table_in_the_docs_names_every_part() -> None:
    """docs/ARCHITECTURE.md's table and :data:`MAY_IMPORT` name the same parts."""
    text = (ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    rows = [line for line in text.splitlines() if line.startswith("| `")]
    named = {p.rstrip("/") for row in rows for p in re.findall(r"`([^`]+)`", row.split("|")[1])}
    assert set(MAY_IMPORT) <= named
    assert named - set(MAY_IMPORT) == {"bot/locales"}  # catalogs: no code


def test_the_checker_catches_a_forbidden_import() -> None:
    source = "import os\nfrom discord import ui\nfrom . import tiles\nfrom ..storage import db\n"
    names = imports_of(source, "bot.engine")
    assert outside(names, ("bot.engine",)) == {"discord", "bot.storage"}
    assert forbidden("bot/engine", names) == {"discord", "bot.storage"}
    cog = imports_of("from bot.storage import GameRow\nfrom bot.games import x\n", "cogs.domino")
    assert forbidden("cogs/domino", cog) == {"bot.storage"}
    assert forbidden("bot/client.py", cog) == set()
