"""The playground's tests: the seeded world and its clock (fast), and one browser test.

The browser test (marker ``browser``) drives the playground page in headless
Chromium with Playwright. Without Chromium or Playwright it is skipped with the
reason, except in CI (``CI`` set), where a missing browser is a failure.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

from bot.client import DominoBot
from bot.playground.app import in_ci

CHROMIUM = Path(os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium"))


@pytest.fixture
def database(tmp_path: Path) -> Path:
    return tmp_path / "playground.sqlite3"


@pytest.fixture
def new_bot(database: Path):
    """Builds a fresh bot on the same database, as every start of the playground does."""
    return lambda: DominoBot(database_path=database)


@pytest.fixture(scope="session")
def chromium() -> Path:
    """Chromium's path; a clear skip (a failure in CI) when the browser test cannot run."""
    reason = None
    if importlib.util.find_spec("playwright") is None:
        reason = "Playwright is not installed: pip install -e '.[dev,playground]'"
    elif not CHROMIUM.exists():
        reason = f"no Chromium at {CHROMIUM}: apt-get install chromium (or set CHROMIUM_PATH)"
    if reason is not None:
        if in_ci():
            pytest.fail(f"the browser test must run in CI: {reason}")
        pytest.skip(reason)
    return CHROMIUM
