"""Announcement marks as group commits, on a real SQLite file."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest

from bot.games.marks import AnnouncedMarks
from bot.storage import Announced, Database

T0 = datetime(2026, 1, 1, tzinfo=UTC)


async def _games(db: Database, n: int) -> list[int]:
    ids = []
    for channel in range(n):
        game = await db.games.create(
            guild_id=1,
            channel_id=100 + channel,
            creator_id=7,
            rules={"game": "block", "players": 2},
            seats=[{"user_id": 7, "name": "Ann"}],
            seed=1,
            timer=0,
            now=T0,
        )
        ids.append(game.id)
    return ids


async def _shown(db: Database) -> dict[int, tuple[int, int, int | None]]:
    rows = await db.fetchall(
        "SELECT id, announced_version, announced_deals, ping_message_id FROM games"
    )
    return {r[0]: (r[1], r[2], r[3]) for r in rows}


async def test_marks_that_arrive_during_a_write_go_together(db: Database) -> None:
    ids = await _games(db, 5)
    marks = AnnouncedMarks(db.games)
    marks.note(Announced(ids[0], 1, 0))  # written at once, alone
    await asyncio.sleep(0)  # its write is under way
    for version in (1, 2, 3):  # these wait for it: one statement for all of them
        for game_id in ids[1:]:
            marks.note(Announced(game_id, version, 0, ping=(900 + version, str(version))))
    await marks.flush()
    assert marks.statements == 2
    assert await _shown(db) == {
        ids[0]: (1, 0, None),
        **dict.fromkeys(ids[1:], (3, 0, 903)),
    }


async def test_an_idle_bot_writes_each_mark_as_it_comes(db: Database) -> None:
    (game_id,) = await _games(db, 1)
    marks = AnnouncedMarks(db.games)
    marks.note(Announced(game_id, 1, 0))
    await marks.flush()
    marks.note(Announced(game_id, 2, 1))
    await marks.flush()
    assert marks.statements == 2
    assert await _shown(db) == {game_id: (2, 1, None)}


async def test_a_failed_write_is_logged_and_later_marks_still_go(
    db: Database, caplog: pytest.LogCaptureFixture
) -> None:
    (game_id,) = await _games(db, 1)
    marks = AnnouncedMarks(db.games)
    async with db.transaction() as conn:  # the writer is busy: the mark waits its turn
        marks.note(Announced(game_id, 1, 0))
        await asyncio.sleep(0)
        cascade = "" if db.dialect.name == "sqlite" else " CASCADE"  # PostgreSQL's FKs
        await conn.execute(f"DROP TABLE games{cascade}")  # ... and then finds no table
    await marks.flush()
    assert marks.statements == 0
    assert "could not write down 1 announcements" in caplog.text
