"""Migrations: from an empty file, from every earlier version, and atomic failures."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import aiosqlite
import pytest

from bot.storage import LATEST, MIGRATIONS, Database, IntegrityError, MigrationError, migrate

EXPECTED_TABLES = {"games", "guild_settings", "matches", "match_seats", "match_deals"}
EXPECTED_INDEXES = {
    "games_one_active_per_channel",
    "games_guild_status",
    "matches_guild_finished",
    "match_seats_user",
    "games_active",
    "games_channel",
}

# A longer, synthetic history to exercise stepping through several versions.
FAKE = (
    "CREATE TABLE a (id INTEGER PRIMARY KEY, x TEXT NOT NULL);",
    "ALTER TABLE a ADD COLUMN y INTEGER NOT NULL DEFAULT 7;",
    "CREATE TABLE b (id INTEGER PRIMARY KEY, a_id INTEGER REFERENCES a(id));"
    " CREATE INDEX b_a ON b(a_id);",
)


async def schema(conn: aiosqlite.Connection) -> list[tuple[str, str, str | None]]:
    async with conn.execute(
        "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name"
    ) as cursor:
        return [(r[0], r[1], r[2]) for r in await cursor.fetchall()]


async def version(conn: aiosqlite.Connection) -> int:
    async with conn.execute("PRAGMA user_version") as cursor:
        row = await cursor.fetchone()
    assert row is not None
    return int(row[0])


@pytest.mark.sqlite_only  # PostgreSQL's: test_storage_postgres.py
async def test_open_migrates_an_empty_file_to_the_latest_schema(db_path: Path) -> None:
    db = await Database.open(db_path)
    try:
        assert await db.schema_version() == LATEST == len(MIGRATIONS)
        names = {
            (r["type"], r["name"])
            for r in await db.fetchall("SELECT type, name FROM sqlite_master")
        }
        assert {("table", t) for t in EXPECTED_TABLES} <= names
        assert {("index", i) for i in EXPECTED_INDEXES} <= names
    finally:
        await db.close()


@pytest.mark.parametrize("start", range(len(MIGRATIONS)))
async def test_open_migrates_from_every_earlier_version(tmp_path: Path, start: int) -> None:
    fresh = tmp_path / "fresh.db"
    async with aiosqlite.connect(fresh, isolation_level=None) as conn:
        assert await migrate(conn) == LATEST
        want = await schema(conn)

    old = tmp_path / "old.db"
    async with aiosqlite.connect(old, isolation_level=None) as conn:
        assert await migrate(conn, start) == start
        assert await version(conn) == start
    db = await Database.open(old)
    try:
        assert await db.schema_version() == LATEST
    finally:
        await db.close()
    async with aiosqlite.connect(old) as conn:
        assert await schema(conn) == want


@pytest.mark.parametrize("start", range(len(FAKE) + 1))
async def test_stepwise_migration_matches_a_direct_one(tmp_path: Path, start: int) -> None:
    async with aiosqlite.connect(tmp_path / "direct.db", isolation_level=None) as conn:
        assert await migrate(conn, migrations=FAKE) == len(FAKE)
        want = await schema(conn)
    async with aiosqlite.connect(tmp_path / "steps.db", isolation_level=None) as conn:
        assert await migrate(conn, start, migrations=FAKE) == start
        assert await version(conn) == start
        if start >= 1:
            await conn.execute("INSERT INTO a (x) VALUES ('kept')")
        assert await migrate(conn, migrations=FAKE) == len(FAKE)
        assert await version(conn) == len(FAKE)
        assert await schema(conn) == want
        if start >= 1:
            async with conn.execute("SELECT x, y FROM a") as cursor:
                assert [tuple(r) for r in await cursor.fetchall()] == [("kept", 7)]


async def test_a_failing_migration_leaves_schema_and_version_unchanged(tmp_path: Path) -> None:
    broken = (
        FAKE[0],
        "CREATE TABLE half (id INTEGER); INSERT INTO a (x) VALUES (NULL);",  # NOT NULL fails
    )
    async with aiosqlite.connect(tmp_path / "m.db", isolation_level=None) as conn:
        await migrate(conn, 1, migrations=broken)
        before = await schema(conn)
        with pytest.raises(MigrationError, match="migration 2"):
            await migrate(conn, migrations=broken)
        assert await version(conn) == 1
        assert await schema(conn) == before  # no table "half"
        assert not conn.in_transaction
        # and the connection still works: the fixed migration applies.
        assert await migrate(conn, migrations=(FAKE[0], "CREATE TABLE half (id INTEGER);")) == 2


async def test_migrate_refuses_downgrades_and_unknown_versions(tmp_path: Path) -> None:
    async with aiosqlite.connect(tmp_path / "m.db", isolation_level=None) as conn:
        await migrate(conn, migrations=FAKE)
        with pytest.raises(MigrationError, match="downgrade"):
            await migrate(conn, 1, migrations=FAKE)
        with pytest.raises(MigrationError, match="no schema version"):
            await migrate(conn, len(FAKE) + 1, migrations=FAKE)
        with pytest.raises(MigrationError, match="newer"):
            await migrate(conn, migrations=FAKE[:1])
        assert await version(conn) == len(FAKE)


@pytest.mark.sqlite_only  # PostgreSQL's: test_storage_postgres.py
async def test_open_refuses_a_database_from_a_newer_bot(db_path: Path) -> None:
    async with aiosqlite.connect(db_path) as conn:
        await conn.execute(f"PRAGMA user_version = {LATEST + 1}")
    with pytest.raises(MigrationError, match="newer"):
        await Database.open(db_path)


async def test_schema_enforces_status_and_foreign_keys(db_path: Path) -> None:
    db = await Database.open(db_path)
    try:
        with pytest.raises(IntegrityError, match=r"(?i)check constraint"):
            async with db.transaction() as conn:
                await conn.execute(
                    "INSERT INTO games (guild_id, channel_id, creator_id, status, rules, seats,"
                    " seed, created_at, updated_at) VALUES (1, 1, 1, 'paused', '{}', '[]', 0,"
                    " 'x', 'x')"
                )
        with pytest.raises(IntegrityError, match=r"(?i)foreign key"):
            async with db.transaction() as conn:
                await conn.execute(
                    "INSERT INTO matches (game_id, guild_id, channel_id, game, finished_at,"
                    " deals, record) VALUES (999, 1, 1, 'block', 'x', 0, '{}')"
                )
        assert await db.fetchall("SELECT * FROM games") == []
    finally:
        await db.close()


# -- two processes on one new file ----------------------------------------------------------

CHILD = Path(__file__).with_name("migrate_child.py")
RACES = 12


@pytest.mark.sqlite_only  # PostgreSQL's processes migrate under an advisory lock
def test_two_processes_opening_a_new_file_together_both_find_it_migrated(tmp_path: Path) -> None:
    """Each reads the schema version inside its write transaction (BEGIN IMMEDIATE): the
    one that waited for the other's migration finds it done, instead of applying it
    again ("migration 1 failed: table games already exists")."""
    children = [
        subprocess.Popen(
            [sys.executable, str(CHILD)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    try:
        for child in children:
            assert child.stdout is not None
            assert child.stdout.readline() == "READY\n", child.communicate()[1]
        for race in range(RACES):
            path = tmp_path / f"race-{race}.sqlite3"
            for child in children:  # both at once, on a file neither has seen
                assert child.stdin is not None
                child.stdin.write(f"{path}\n")
                child.stdin.flush()
            answers = [child.stdout.readline().strip() for child in children]  # type: ignore[union-attr]
            assert answers == [f"OK {LATEST}"] * 2, (race, answers)
    finally:
        for child in children:
            child.communicate(timeout=60)


@pytest.mark.sqlite_only
async def test_a_file_locked_past_the_busy_timeout_is_a_migration_error(tmp_path: Path) -> None:
    path = tmp_path / "locked.sqlite3"
    holder = await aiosqlite.connect(path, isolation_level=None)
    conn = await aiosqlite.connect(path, isolation_level=None)
    try:
        await holder.execute("BEGIN IMMEDIATE")
        await conn.execute("PRAGMA busy_timeout = 50")
        with pytest.raises(MigrationError, match="cannot lock the database"):
            await migrate(conn)
        await holder.execute("ROLLBACK")
        assert await migrate(conn) == LATEST
    finally:
        await conn.close()
        await holder.close()
