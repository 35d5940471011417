"""Reads beside writes: the read-only connections, snapshots, and what each task sees.

Every ordering here is forced with events. The scenarios that would deadlock if
reads waited for writes run under ``asyncio.timeout(DEADLOCK_GUARD)``: it only
turns that hang into a failure; no assertion depends on how long anything takes.
"""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.storage import Database, StorageError

DEADLOCK_GUARD = 30


async def test_reads_complete_while_another_task_holds_a_write_transaction(db: Database) -> None:
    await db.guilds.set_language(1, "en")
    inside = asyncio.Event()
    reads_done = asyncio.Event()
    events: list[object] = []

    async def writer() -> None:
        async with db.transaction() as conn:
            await conn.execute("UPDATE guild_settings SET language = 'lv' WHERE guild_id = 1")
            inside.set()
            await reads_done.wait()  # the transaction stays open until every read is back
            events.append("commit")

    async def reader() -> None:
        await inside.wait()
        events.append(await db.guilds.language(1))
        events.append(len(await db.fetchall("SELECT * FROM guild_settings")))
        events.append(await db.schema_version() > 0)
        async with db.snapshot():
            events.append(await db.guilds.language(1))
        reads_done.set()

    async with asyncio.timeout(DEADLOCK_GUARD):
        await asyncio.gather(writer(), reader())
    assert events == ["en", 1, True, "en", "commit"]
    assert await db.guilds.language(1) == "lv"  # and once committed, every read sees it


async def test_uncommitted_writes_are_invisible_to_other_tasks_and_a_rollback_never_shows(
    db: Database,
) -> None:
    inserted = asyncio.Event()
    seen = asyncio.Event()
    while_open: list[str | None] = []

    async def writer() -> None:
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO guild_settings (guild_id, language) VALUES (1, 'lv')")
            inserted.set()
            await seen.wait()
            raise RuntimeError("abort")

    async def reader() -> None:
        await inserted.wait()
        while_open.append(await db.guilds.language(1))
        seen.set()

    async with asyncio.timeout(DEADLOCK_GUARD):
        results = await asyncio.gather(writer(), reader(), return_exceptions=True)
    assert isinstance(results[0], RuntimeError)
    assert while_open == [None]
    assert await db.guilds.language(1) is None  # the rolled-back write was never seen


async def test_a_transaction_reads_its_own_uncommitted_writes_its_child_tasks_do_not(
    db: Database,
) -> None:
    async with asyncio.timeout(DEADLOCK_GUARD), db.transaction() as conn:
        await conn.execute("INSERT INTO guild_settings (guild_id, language) VALUES (1, 'lv')")
        assert await db.guilds.language(1) == "lv"  # through the writer
        assert await asyncio.create_task(db.guilds.language(1)) is None  # another task
    assert await asyncio.create_task(db.guilds.language(1)) == "lv"


async def test_reads_see_writes_committed_before_them(db: Database) -> None:
    for language in ("lv", "fi", "da"):
        await db.guilds.set_language(1, language)
        assert await db.guilds.language(1) == language
        assert await asyncio.create_task(db.guilds.language(1)) == language


async def test_a_read_sees_a_commit_made_while_another_task_holds_a_snapshot(
    db: Database,
) -> None:
    await db.guilds.set_language(1, "en")
    opened = asyncio.Event()
    written = asyncio.Event()

    async def in_a_snapshot() -> tuple[str | None, str | None]:
        async with db.snapshot():
            first = await db.guilds.language(1)
            opened.set()
            await written.wait()
            again = await db.guilds.language(1)
        return first, again

    async def write_then_read() -> str | None:
        await opened.wait()
        await db.guilds.set_language(1, "lv")
        seen = await db.guilds.language(1)
        written.set()
        return seen

    async with asyncio.timeout(DEADLOCK_GUARD):
        (first, again), seen = await asyncio.gather(in_a_snapshot(), write_then_read())
    assert (first, again) == ("en", "en")  # a snapshot sees one state throughout
    assert seen == "lv"  # a plain read is never pulled into someone's snapshot


async def test_snapshots_of_many_tasks_each_see_one_state(db: Database) -> None:
    await db.guilds.set_language(1, "en")
    await db.guilds.set_default_timer(1, 0)

    async def snapshot() -> tuple[str | None, int | None]:
        async with db.snapshot():
            language = await db.guilds.language(1)
            await asyncio.sleep(0)
            return language, await db.guilds.default_timer(1)

    async def write(n: int) -> None:
        async with db.transaction() as conn:
            await conn.execute(
                "UPDATE guild_settings SET language = ?, default_timer = ? WHERE guild_id = 1",
                (f"l{n}", n),
            )

    results = await asyncio.gather(
        *(snapshot() if i % 2 else write(i) for i in range(1, 41)), return_exceptions=True
    )
    pairs = [r for r in results if isinstance(r, tuple)]
    assert len(pairs) == 20
    assert [p for p in pairs if p != ("en", 0) and p[0] != f"l{p[1]}"] == []


@pytest.mark.sqlite_only
async def test_plain_reads_go_to_a_read_only_connection(db: Database) -> None:
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        await db.fetchone("INSERT INTO guild_settings (guild_id) VALUES (1) RETURNING guild_id")
    assert await db.fetchall("SELECT * FROM guild_settings") == []
    async with db.snapshot() as conn:
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            await conn.execute("INSERT INTO guild_settings (guild_id) VALUES (1)")
    # inside a transaction the task reads (and may write) through the writer
    async with db.transaction():
        row = await db.fetchone("INSERT INTO guild_settings (guild_id) VALUES (1) RETURNING 7")
        assert row is not None
        assert row[0] == 7
    assert len(await db.fetchall("SELECT * FROM guild_settings")) == 1


async def test_snapshots_and_transactions_do_not_nest(db: Database) -> None:
    async with db.transaction():
        with pytest.raises(StorageError, match="reentrant"):
            async with db.snapshot():
                pass
    async with db.snapshot():
        with pytest.raises(StorageError, match="reentrant"):
            async with db.transaction():
                pass
        with pytest.raises(StorageError, match="reentrant"):
            async with db.snapshot():
                pass
    await db.guilds.set_language(1, "lv")  # both locks were released
    async with db.snapshot():
        assert await db.guilds.language(1) == "lv"


@pytest.mark.sqlite_only
async def test_close_closes_every_connection(db_path: Path) -> None:
    db = await Database.open(db_path)
    await db.guilds.set_language(1, "lv")
    assert await db.guilds.language(1) == "lv"
    async with db.snapshot():
        assert await db.guilds.language(1) == "lv"
    wal = db_path.with_name(db_path.name + "-wal")
    assert wal.exists()
    await db.close()
    # The last connection to close checkpoints the WAL and removes it: with any
    # connection left open, the file would stay.
    assert not wal.exists()
    assert not db_path.with_name(db_path.name + "-shm").exists()
    await db.close()  # idempotent


async def test_a_closed_database_refuses_every_use(db_path: Path) -> None:
    db = await Database.open(db_path)
    await db.close()
    with pytest.raises(StorageError, match="closed"):
        await db.fetchone("SELECT 1")
    with pytest.raises(StorageError, match="closed"):
        await db.fetchall("SELECT 1")
    with pytest.raises(StorageError, match="closed"):
        await db.schema_version()
    with pytest.raises(StorageError, match="closed"):
        async with db.snapshot():
            pass
    with pytest.raises(StorageError, match="closed"):
        async with db.transaction():
            pass


async def test_close_waits_for_a_running_snapshot(db: Database) -> None:
    await db.guilds.set_language(1, "lv")
    inside = asyncio.Event()
    release = asyncio.Event()
    seen: list[str | None] = []

    async def in_a_snapshot() -> None:
        async with db.snapshot():
            inside.set()
            await release.wait()
            seen.append(await db.guilds.language(1))

    task = asyncio.create_task(in_a_snapshot())
    await inside.wait()
    closing = asyncio.create_task(db.close())
    await asyncio.sleep(0)
    release.set()
    await asyncio.gather(task, closing)
    assert seen == ["lv"]
    assert db.closed


@pytest.mark.parametrize("location", [":memory:", ""])
async def test_a_private_database_reads_and_writes_through_one_connection(location: str) -> None:
    async with await Database.open(location) as db:
        await db.guilds.set_language(1, "lv")
        assert await db.guilds.language(1) == "lv"
        async with db.snapshot():
            assert await db.guilds.language(1) == "lv"
        async with db.transaction() as conn:
            await conn.execute("UPDATE guild_settings SET language = 'fi' WHERE guild_id = 1")
            assert await db.guilds.language(1) == "fi"
        assert await db.schema_version() > 0
    assert db.closed
