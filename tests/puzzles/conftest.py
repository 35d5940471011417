"""Fixtures for the puzzle service's tests: a real database (both backends)."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture
async def db_path(database_at: Any) -> Any:
    return await database_at("puzzles.sqlite3")
