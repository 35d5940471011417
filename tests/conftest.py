"""The whole suite: the translations are compiled before anything imports the bot, and
the two storage backends every database test runs on.

``make test`` compiles the catalogs (``make catalogs``) before running pytest; this
also covers a bare ``pytest`` run: any ``.mo`` file missing or older than its
``.po`` is compiled here, with Babel (a dev dependency), before collection.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from postgres_support import Cluster, start_cluster

LOCALES = Path(__file__).resolve().parents[1] / "bot" / "locales"


def compile_stale_catalogs() -> None:
    try:
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po
    except ImportError:  # no Babel: the test of the catalogs says so
        return
    for po in sorted(LOCALES.glob("*/LC_MESSAGES/*.po")):
        mo = po.with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        with po.open("rb") as f:
            catalog = read_po(f, locale=po.parts[-3])
        with mo.open("wb") as f:
            write_mo(f, catalog)


def pytest_configure(config: pytest.Config) -> None:
    compile_stale_catalogs()
    config.addinivalue_line(
        "markers", "sqlite_only(reason): runs on the SQLite backend only (one backend)"
    )


# -- the quick part: pytest -m "not slow" --------------------------------------------------

SLOW_FOLDERS = ("e2e", "playground")
"""Whole folders that are slow: a bot under SimCord, subprocesses, a browser."""
SLOW_MODULES = frozenset(
    {
        "engine/test_properties.py",  # Hypothesis over whole matches
        "engine/test_record_reader.py",
        "engine/ai/test_ai_same_decisions.py",  # every level over recorded positions
        "engine/review/test_review_engine.py",  # hard-level searches of whole deals
        "competitions/test_ai_entrants.py",
        "render/test_render_review.py",
        "render/test_render_standings.py",
        "render/test_render_geometry.py",  # every move of random games
        "render/test_render_readable.py",
        "storage/test_storage_postgres.py",  # a PostgreSQL server of its own
        "storage/test_storage_dialects.py",
        "storage/test_storage_migrations.py",  # two processes on one new file
        "storage/test_storage_owner.py",  # lock holders in processes of their own
        "test_cli.py",  # a Python process a test
        "test_settings.py",
    }
)
"""Single modules (paths under tests/) that take seconds each."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the slow tests ``slow`` (``pytest -m "not slow"`` runs the rest in under a
    minute; ``make test`` runs everything): whole folders (:data:`SLOW_FOLDERS`), every
    test on PostgreSQL (a server to start), and the modules in :data:`SLOW_MODULES`."""
    tests = Path(__file__).resolve().parent
    for item in items:
        path = Path(str(item.path)).resolve().relative_to(tests)
        callspec = getattr(item, "callspec", None)
        on_postgres = callspec is not None and callspec.params.get("backend") == "postgresql"
        if path.parts[0] in SLOW_FOLDERS or on_postgres or path.as_posix() in SLOW_MODULES:
            item.add_marker(pytest.mark.slow)


# -- the two storage backends ---------------------------------------------------------------

BACKENDS = ("sqlite", "postgresql")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A test that uses ``backend`` (through ``database_at``, a folder's ``db_path``…) runs
    on both backends (``[sqlite]``, ``[postgresql]``), unless it is marked ``sqlite_only``."""
    if "backend" in metafunc.fixturenames:
        only = metafunc.definition.get_closest_marker("sqlite_only") is not None
        metafunc.parametrize("backend", BACKENDS[:1] if only else BACKENDS)


@pytest.fixture
async def database_at(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> AsyncIterator[Callable[[str], Awaitable[Path | str]]]:
    """``await database_at(name)``: where one of the test's databases lives, a SQLite file
    ``name`` in the test's folder or a new database on the session's PostgreSQL server (its
    URL, dropped after the test). :meth:`Database.open` and ``DominoBot`` take either."""
    cluster: Cluster | None = request.getfixturevalue("postgres") if backend != "sqlite" else None
    made: list[str] = []

    async def make(name: str) -> Path | str:
        if cluster is None:
            return tmp_path / name
        url = await cluster.create_database()
        made.append(url)
        return url

    yield make
    if cluster is not None:
        for url in made:
            await cluster.drop_database(url)


# -- PostgreSQL ---------------------------------------------------------------------------


@pytest.fixture(scope="session")
def postgres() -> Iterator[Cluster]:
    """One throwaway PostgreSQL server for the session, started on first use
    (tests/postgres_support.py: skipped without PostgreSQL, failed under CI)."""
    cluster = start_cluster()
    try:
        yield cluster
    finally:
        try:
            cluster.stop()
        finally:
            cluster.remove()


@pytest.fixture
async def db(db_path: Any) -> AsyncIterator[Any]:
    """The test's database, open (``db_path`` is each folder's: a file or a URL).
    Imported here: nothing of the bot is imported before the catalogs are compiled."""
    from bot.storage import Database

    database = await Database.open(db_path)
    try:
        yield database
    finally:
        await database.close()
