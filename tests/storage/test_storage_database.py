"""The Database: pragmas, transactions, closing and reopening (reads: test_storage_readers).

Each test runs on both backends (tests/storage/conftest.py) unless marked ``sqlite_only``.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import aiosqlite
import pytest

from bot.storage import Database, StorageError


@pytest.mark.sqlite_only
async def test_pragmas_wal_full_foreign_keys_busy_timeout(db: Database, db_path: Path) -> None:
    assert (await db.fetchone("PRAGMA journal_mode"))[0] == "wal"  # type: ignore[index]
    # FULL: a commit is on disk when it returns, power loss or not (issue 37, row 14)
    async with db.transaction() as writer:
        assert (await writer.fetchone("PRAGMA synchronous"))[0] == 2  # type: ignore[index]
    assert (await db.fetchone("PRAGMA synchronous"))[0] == 2  # type: ignore[index]
    assert (await db.fetchone("PRAGMA foreign_keys"))[0] == 1  # type: ignore[index]
    assert (await db.fetchone("PRAGMA busy_timeout"))[0] == 5000  # type: ignore[index]
    # WAL is a property of the file: another connection sees it too.
    async with aiosqlite.connect(db_path) as other, other.execute("PRAGMA journal_mode") as cur:
        assert (await cur.fetchone()) == ("wal",)


async def test_rows_are_read_by_name_and_by_position(db: Database, backend: str) -> None:
    row = await db.fetchone("SELECT 1 AS one, 'x' AS ex")
    assert row is not None
    if backend == "sqlite":
        assert isinstance(row, aiosqlite.Row)
    assert (row["one"], row["ex"]) == (1, "x")
    assert (row[0], row[1]) == (1, "x")
    assert tuple(row) == (1, "x")
    assert await db.fetchone("SELECT 1 WHERE 1 = 0") is None
    assert [r[0] for r in await db.fetchall("SELECT 1 UNION ALL SELECT 2")] == [1, 2]


async def test_transaction_commits(db: Database) -> None:
    async with db.transaction() as conn:
        await conn.execute("INSERT INTO guild_settings (guild_id, language) VALUES (1, 'lv')")
    assert await db.guilds.language(1) == "lv"


async def test_transaction_rolls_back_and_reraises(db: Database) -> None:
    class Boom(Exception):
        pass

    async def write_then_fail() -> None:
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO guild_settings (guild_id, language) VALUES (1, 'lv')")
            assert await db.guilds.language(1) == "lv"  # visible inside
            raise Boom

    with pytest.raises(Boom):
        await write_then_fail()
    assert await db.guilds.language(1) is None
    # the lock was released and no transaction is left open
    async with db.transaction() as conn:
        await conn.execute("INSERT INTO guild_settings (guild_id, language) VALUES (2, 'en')")
    assert await db.guilds.language(2) == "en"


async def test_cancelled_transaction_rolls_back(db: Database) -> None:
    entered = asyncio.Event()

    async def writer() -> None:
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO guild_settings (guild_id, language) VALUES (1, 'lv')")
            entered.set()
            await asyncio.sleep(10)

    task = asyncio.create_task(writer())
    await entered.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await db.guilds.language(1) is None
    await db.guilds.set_language(1, "en")
    assert await db.guilds.language(1) == "en"


async def test_nested_transaction_raises_instead_of_deadlocking(db: Database) -> None:
    async with db.transaction():
        with pytest.raises(StorageError, match="reentrant"):
            async with db.transaction():
                pass


async def test_data_survives_close_and_reopen(db_path: Path) -> None:
    db = await Database.open(db_path)
    await db.guilds.set_default_timer(7, 90)
    await db.close()
    assert db.closed
    with pytest.raises(StorageError, match="closed"):
        await db.guilds.default_timer(7)
    await db.close()  # idempotent

    async with await Database.open(db_path) as again:
        assert await again.guilds.default_timer(7) == 90
    assert again.closed
