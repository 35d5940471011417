"""The whole suite: the translations are compiled before anything imports the bot.

``make test`` compiles the catalogs (``make catalogs``) before running pytest; this
also covers a bare ``pytest`` run: any ``.mo`` file missing or older than its
``.po`` is compiled here, with Babel (a dev dependency), before collection.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

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


def pytest_configure(config: object) -> None:
    compile_stale_catalogs()


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
