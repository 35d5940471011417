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
    # the rules of a competition pure; its service over the games and storage
    "bot/competitions": ("bot.engine", "bot.i18n", "bot.games", "bot.storage"),
    # game reviews (issue 40): the AI pool's review job, stored reviews, refusals
    "bot/review": ("bot.engine", "bot.storage", "bot.i18n", "bot.games"),
    "bot/puzzles": ("bot.engine", "bot.storage", "bot.i18n", "bot.games.errors"),  # issue 40
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
ENGINE_STATE = (
    "bot.engine.match",
    "bot.engine.deal",
    "bot.engine.mexican",
    "bot.engine.layout",
    "bot.engine.events",
    "bot.engine.record",
    "bot.engine.trains.Station",
)
"""The engine's state (a match, a deal, its layout and trains, its raw events, a record):
it holds every hand, the boneyard, the tiles drawn and laid face down. The cogs see a game
through its snapshot (``bot/games/snapshot.py``) and the engine's values and public views
(rules, tiles, moves, ``bot.engine.view``), never through these."""
SESSION_SECRETS = frozenset({"state", "seed", "deal_rng", "record"})
"""The parts of a ``Session`` that are not public (its match state; the seed that deals
every hand again; the record of every hand): no cog reads an attribute of these names."""
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


def imported_names(source: str, package: str) -> set[str]:
    """Like :func:`imports_of`, with each name a ``from`` import takes: ``from bot.engine
    import Rules`` is ``bot.engine.Rules``."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = imports_of(ast.unparse(node), package)
            for base in module:
                names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


def engine_exports() -> dict[str, str]:
    """Each name the ``bot.engine`` package re-exports, with the module it comes from
    (``bot.engine.MatchState`` -> ``bot.engine.match.MatchState``)."""
    tree = ast.parse((ROOT / "bot" / "engine" / "__init__.py").read_text(encoding="utf-8"))
    origin: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
            for alias in node.names:
                origin[alias.asname or alias.name] = f"bot.engine.{node.module}.{alias.name}"
        elif (
            isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Name)
            and node.value.id in origin
        ):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    origin[target.id] = origin[node.value.id]
    return {f"bot.engine.{name}": source for name, source in origin.items()}


def engine_state_imports(names: set[str]) -> set[str]:
    """The names in ``names`` (from :func:`imported_names`) that reach the engine's state."""
    exports = engine_exports()
    return {n for n in names if within(exports.get(n, n), ENGINE_STATE)}


def secrets_read(source: str) -> set[str]:
    """The attributes of :data:`SESSION_SECRETS` a source file reads (``x.state``)."""
    return {
        node.attr
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Attribute) and node.attr in SESSION_SECRETS
    }


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


COG_FILES = [(path, package) for path, package in modules("cogs")]


@pytest.mark.parametrize(
    ("path", "package"), COG_FILES, ids=[str(p.relative_to(ROOT)) for p, _ in COG_FILES]
)
def test_cogs_see_a_game_only_through_its_snapshot(path: Path, package: str) -> None:
    """No cog imports the engine's state types nor reads a session's match state or seed:
    what a table, a hand or a summary shows comes from ``bot.games.snapshot``."""
    source = path.read_text(encoding="utf-8")
    assert engine_state_imports(imported_names(source, package)) == set()
    assert secrets_read(source) == set()


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


def drawn_arrows(text: str) -> dict[str, set[str]]:
    """The arrows of the first picture in docs/ARCHITECTURE.md: each line ``part ──> a,
    b (a note), c*``, read without its notes (in parentheses) and marks."""
    block = text.split("```")[1]
    arrows: dict[str, set[str]] = {}
    for line in block.strip().splitlines():
        source, _, targets = line.partition("──>")
        names = re.sub(r"\([^)]*\)", "", targets).replace("*", "")
        arrows[source.strip()] = {n.strip() for n in names.split(",") if n.strip()}
    return arrows


def drawn_part(name: str) -> str:
    """``bot.games`` -> ``bot/games``; ``bot.i18n`` -> ``bot/i18n.py``."""
    path = name.replace(".", "/")
    return path if (ROOT / path).is_dir() else path + ".py"


def test_the_diagram_draws_every_arrow() -> None:
    """The picture at the top of docs/ARCHITECTURE.md is the imports between its parts."""
    arrows = drawn_arrows((ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8"))
    parts = set(arrows) | {t for targets in arrows.values() for t in targets}
    assert all((ROOT / drawn_part(p)).exists() for p in parts), parts
    for part in sorted(parts):
        imported = set()
        for path, package in modules(drawn_part(part)):
            names = imports_of(path.read_text(encoding="utf-8"), package)
            imported |= {p for p in parts if p != part and any(within(n, (p,)) for n in names)}
        assert imported == arrows.get(part, set()), part


def test_the_checker_catches_a_forbidden_import() -> None:
    source = "import os\nfrom discord import ui\nfrom . import tiles\nfrom ..storage import db\n"
    names = imports_of(source, "bot.engine")
    assert outside(names, ("bot.engine",)) == {"discord", "bot.storage"}
    assert forbidden("bot/engine", names) == {"discord", "bot.storage"}
    cog = imports_of("from bot.storage import GameRow\nfrom bot.games import x\n", "cogs.domino")
    assert forbidden("cogs/domino", cog) == {"bot.storage"}
    assert forbidden("bot/client.py", cog) == set()


def test_the_checker_catches_engine_state_in_a_cog() -> None:
    source = (
        "from bot.engine import MatchState, Rules, state_to_json\n"
        "from bot.engine.mexican import TrainDeal\n"
        "from bot.engine.trains import MEXICAN, Station\n"
        "from bot.engine.view import PlayerView\n"
        "import bot.engine.deal\n"
        "from bot.games.snapshot import Snapshot\n"
    )
    names = imported_names(source, "cogs.domino")
    assert engine_state_imports(names) == {
        "bot.engine.MatchState",
        "bot.engine.state_to_json",
        "bot.engine.mexican.TrainDeal",
        "bot.engine.trains.Station",
        "bot.engine.deal",
    }
    relative = imported_names("from ..engine.match import play\n", "bot.games")
    assert engine_state_imports(relative) == {"bot.engine.match.play"}
    reads = "ends = session.state.deal.station.ends\nrng = g.deal_rng(2)\nn = session.names\n"
    assert secrets_read(reads) == {"state", "deal_rng"}
