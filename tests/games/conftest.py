"""Fixtures for the game service's tests: a real database, the service on it with a
:class:`~games_support.RecordingPublisher`.

Every test that uses ``db`` (the service too) runs on both backends (``[sqlite]``: a
SQLite file; ``[postgresql]``: a fresh database on the session's throwaway PostgreSQL
server, tests/postgres_support.py).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from games_support import ALICE, BOB, GUILD, T0, FirstLegalMove, RecordingPublisher, Started

from bot.games.service import GameService
from bot.games.session import Session
from bot.storage import Database


@pytest.fixture
async def db_path(database_at: Any) -> Any:
    """Where the test's database lives: a SQLite file, or a new PostgreSQL database's URL."""
    return await database_at("games.sqlite3")


@pytest.fixture
def publisher() -> RecordingPublisher:
    return RecordingPublisher()


@pytest.fixture
async def service(db: Database, publisher: RecordingPublisher) -> AsyncIterator[GameService]:
    games = GameService(db, clock=lambda: T0, ai=FirstLegalMove(), seed_source=lambda: 7)
    games.publisher = publisher
    await games.restore()
    try:
        yield games
    finally:
        await games.close()


@pytest.fixture
def started(service: GameService) -> Started:
    """A two-player game of ``game`` between Alice and Bob, started, in ``channel``."""

    async def start(game: str = "block", channel: int = 100, **options: object) -> Session:
        session = await service.open_lobby(
            guild_id=GUILD,
            channel_id=channel,
            user_id=ALICE,
            name="Alice",
            options={"game": game, "players": 2, **options},
        )
        await service.join(session.id, BOB, "Bob")
        return await service.start(session.id, ALICE)

    return start
