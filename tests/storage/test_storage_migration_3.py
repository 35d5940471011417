"""Migration 3 on a version 2 file with data: announced columns, threads, the record once."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import aiosqlite
import pytest

from bot.storage import LATEST, Database, migrate

# A version 2 file is SQLite's: PostgreSQL came with version 3 (its backfill is tested
# on a version 2 PostgreSQL database in test_storage_postgres.py).
pytestmark = pytest.mark.sqlite_only

STAMP = "2025-03-01T12:00:00.000000+00:00"
RECORD = '{"format":"domino-record/1","deals":[{"moves":[]},{"moves":[]},{"moves":[]}]}'

# id -> (status, version, games.state as a version 2 bot stored it)
GAMES: dict[int, tuple[str, int, str | None]] = {
    1: ("lobby", 0, None),
    2: ("playing", 5, '{"deals":[{"n":1},{"n":2},{"n":3}]}'),
    3: ("finished", 9, RECORD),  # its match holds the same text
    4: ("cancelled", 4, '{"deals":[{"n":1},{"n":2}]}'),  # no match
    5: ("finished", 7, '{"deals":[{"n":1}],"other":true}'),  # its match differs
    6: ("playing", 2, '{"format":"domino-record/1"}'),  # no deals key
    7: ("playing", 1, '{"deals":3}'),  # deals is not a list
}
# game id -> (match deals, match record)
MATCHES = {3: (3, RECORD), 5: (1, '{"deals":[{"n":1}]}')}


async def version_2_file(path: Path) -> None:
    async with aiosqlite.connect(path, isolation_level=None) as conn:
        assert await migrate(conn, 2) == 2
        for game_id, (status, version, state) in GAMES.items():
            await conn.execute(
                "INSERT INTO games (id, guild_id, channel_id, creator_id, status, rules, seats,"
                " state, seed, version, timer, created_at, updated_at)"
                " VALUES (?, 1, ?, 42, ?, '{}', '[]', ?, 7, ?, 0, ?, ?)",
                (game_id, 100 + game_id, status, state, version, STAMP, STAMP),
            )
        for game_id, (deals, record) in MATCHES.items():
            await conn.execute(
                "INSERT INTO matches (game_id, guild_id, channel_id, game, finished_at, deals,"
                " record) VALUES (?, 1, ?, 'block', ?, ?, ?)",
                (game_id, 100 + game_id, STAMP, deals, record),
            )
        await conn.execute("INSERT INTO guild_settings (guild_id, language) VALUES (1, 'lv')")


def on_disk(path: Path, sql: str) -> list[tuple[Any, ...]]:
    """Rows read with plain sqlite3, past the repositories."""
    with closing(sqlite3.connect(path)) as conn:
        return [tuple(r) for r in conn.execute(sql).fetchall()]


async def test_existing_games_count_as_announced_up_to_their_version(db_path: Path) -> None:
    await version_2_file(db_path)
    async with await Database.open(db_path) as db:
        assert await db.schema_version() == LATEST  # 3 and after
        for game_id, (_, version, _) in GAMES.items():
            game = await db.games.get(game_id)
            assert game is not None
            assert (game.announced_version, game.version) == (version, version)
        assert await db.games.unannounced() == []  # an upgrade announces nothing again
    # every finished deal counts as posted: a match's deals, or all but the deal in play
    deals = dict(on_disk(db_path, "SELECT id, announced_deals FROM games"))
    assert deals == {1: 0, 2: 2, 3: 3, 4: 1, 5: 1, 6: 0, 7: 0}


async def test_a_finished_games_record_stays_only_in_its_match(db_path: Path) -> None:
    await version_2_file(db_path)
    before = {g: None if s is None else json.loads(s) for g, (_, _, s) in GAMES.items()}
    async with await Database.open(db_path) as db:
        for game_id in (1, 2, 3, 4, 5, 6, 7):
            game = await db.games.get(game_id)
            assert game is not None
            assert game.state == before[game_id], game_id
    [(record,)] = on_disk(db_path, "SELECT record FROM matches WHERE game_id = 3")
    assert json.loads(record) == before[3]
    states = dict(on_disk(db_path, "SELECT id, state FROM games"))
    assert states[3] is None  # stored once, in matches.record
    # kept: no match (4), a match whose record is not the same document (5), active games
    assert {g: states[g] for g in (1, 2, 4, 5, 6, 7)} == {
        g: GAMES[g][2] for g in (1, 2, 4, 5, 6, 7)
    }


async def test_guilds_get_threads_off(db_path: Path) -> None:
    await version_2_file(db_path)
    async with await Database.open(db_path) as db:
        settings = await db.guilds.settings(1)
        assert (settings.language, settings.threads) == ("lv", False)
        await db.guilds.set_threads(1, True)
        assert await db.guilds.threads(1) is True


async def test_an_unreadable_state_does_not_stop_the_migration(db_path: Path) -> None:
    await version_2_file(db_path)
    with closing(sqlite3.connect(db_path)) as conn, conn:
        conn.execute("UPDATE games SET state = 'not json' WHERE id = 2")
    async with await Database.open(db_path) as db:
        assert await db.schema_version() == LATEST
    assert on_disk(
        db_path, "SELECT announced_version, announced_deals FROM games WHERE id = 2"
    ) == [(5, 0)]
