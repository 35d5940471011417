"""Fixtures for the storage tests: a real database per test, never mocks.

Every test that uses ``db`` or ``db_path`` runs twice, on each backend
(``[sqlite]``: a SQLite file; ``[postgresql]``: a fresh database on the session's
throwaway PostgreSQL server, see tests/postgres_support.py); ``db_path`` is then
the file's path or the database's URL, which :meth:`Database.open` takes alike. A
test about one backend's own machinery is marked ``sqlite_only``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bot.storage import Database, GameRow

T0 = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)

MakeGame = Callable[..., Awaitable[GameRow]]


@pytest.fixture
async def db_path(database_at: Any) -> Any:
    """Where the test's database lives: a SQLite file, or a new PostgreSQL database's URL."""
    return await database_at("dominobot.db")


@pytest.fixture
def t0() -> datetime:
    return T0


@pytest.fixture
def make_game(db: Database) -> MakeGame:
    """A factory for lobby games; channel ids default to a fresh one per call."""
    counter = iter(range(1000, 10**6))

    async def make(**overrides: Any) -> GameRow:
        channel = next(counter)
        args: dict[str, Any] = {
            "guild_id": 1,
            "channel_id": channel,
            "creator_id": 42,
            "rules": {"game": "block", "players": 4},
            "seats": [{"user_id": 42, "name": "Alice"}],
            "seed": 12345,
            "timer": 60,
            "now": T0 + timedelta(seconds=channel),
        }
        args.update(overrides)
        return await db.games.create(**args)

    return make
