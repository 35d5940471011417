"""Migration 5 on a version 4 file: games.ended_at, given to the ended games whose end
Discord was never shown (a restart announces them, GameRepository.unannounced)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import aiosqlite
import pytest
from test_storage_migration_3 import on_disk

from bot.storage import LATEST, Database, migrate

# The SQLite file (PostgreSQL runs the same script; test_storage_dialects compares them).
pytestmark = pytest.mark.sqlite_only

STAMP = "2025-03-01T12:00:00.000000+00:00"
# id -> (status, version, announced_version)
GAMES = {
    1: ("playing", 5, 4),
    2: ("finished", 9, 8),  # its end never shown
    3: ("cancelled", 4, 4),
    4: ("abandoned", 3, 1),  # its end never shown
}


async def version_4_file(path: Path) -> None:
    async with aiosqlite.connect(path, isolation_level=None) as conn:
        assert await migrate(conn, 4) == 4
        for game_id, (status, version, announced) in GAMES.items():
            await conn.execute(
                "INSERT INTO games (id, guild_id, channel_id, creator_id, status, rules, seats,"
                " state, seed, version, timer, created_at, updated_at, announced_version)"
                " VALUES (?, 1, ?, 42, ?, '{}', '[]', '{}', 7, ?, 0, ?, ?, ?)",
                (game_id, 100 + game_id, status, version, STAMP, STAMP, announced),
            )


async def test_only_ended_games_never_shown_get_their_end(db_path: Path) -> None:
    await version_4_file(db_path)
    async with await Database.open(db_path) as db:
        assert await db.schema_version() == LATEST  # 5 and after
        since = datetime(2025, 3, 1, 11, 0, tzinfo=UTC)
        assert [g.id for g in await db.games.unannounced(ended_since=since)] == [1, 2, 4]
        later = since + timedelta(days=2)
        assert [g.id for g in await db.games.unannounced(ended_since=later)] == [1]
    ended = dict(on_disk(db_path, "SELECT id, ended_at FROM games"))
    assert ended == {1: None, 2: STAMP, 3: None, 4: STAMP}
