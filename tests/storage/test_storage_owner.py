"""One owner per shard (issue 37, row 6): ``bot.storage.owner``'s locks, on both backends.

A second owner of a shard waits, with one log line naming what is held and by whom,
until the first releases it, then takes over; owners of other shards do not wait. On
PostgreSQL, a dropped lock connection takes its locks again, and a lock another process
took meanwhile is lost (``on_lost``). Two real processes: tests/e2e/test_owner.py.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import asyncpg  # type: ignore[import-untyped]
import pytest

from bot.storage.owner import SHARD_CLASS, Ownership, Shards, take_ownership

DEADLINE = 60.0
"""Only for the tests' sake: how long a wait may take before the test fails."""

Location = Callable[[str], Awaitable[Path | str]]


def never_lost(line: str) -> None:
    raise AssertionError(f"lost: {line}")


async def until(condition: Callable[[], Any]) -> None:
    """Wait until ``condition()`` holds (the test fails after :data:`DEADLINE`)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + DEADLINE
    while not await _holds(condition):
        assert loop.time() < end, "the condition never came true"
        await asyncio.sleep(0.02)


async def _holds(condition: Callable[[], Any]) -> bool:
    value = condition()
    return bool(await value) if asyncio.iscoroutine(value) else bool(value)


def lines(caplog: pytest.LogCaptureFixture, word: str) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if r.name == "bot.storage.owner" and word in r.getMessage()
    ]


CONFLICTS: list[tuple[Shards | None, Shards | None, str]] = [
    (None, None, "every server"),  # two bots on one database, without shards
    ((2, (0,)), (2, (0,)), "shard 0 of 2"),  # the same SHARD_IDS twice
    ((4, (0, 1, 2)), (4, (2, 3)), "shard 2 of 4"),  # overlapping groups
    (None, (2, (1,)), "every server"),  # a bot without shards, then a shard
    ((2, (1,)), None, "every server"),  # a shard, then a bot without shards
]


@pytest.mark.parametrize(("first", "second", "held"), CONFLICTS)
async def test_a_second_owner_waits_for_the_first_then_takes_over(
    database_at: Location,
    caplog: pytest.LogCaptureFixture,
    first: Shards | None,
    second: Shards | None,
    held: str,
) -> None:
    location = await database_at("dominobot.sqlite3")
    caplog.set_level(logging.INFO, logger="bot.storage.owner")
    owner = await take_ownership(location, first, on_lost=never_lost)
    waiting = asyncio.create_task(take_ownership(location, second, on_lost=never_lost))
    try:
        await until(lambda: lines(caplog, "waiting until it stops"))
        assert not waiting.done()
        [line] = lines(caplog, "waiting until it stops")
        assert line.startswith(f"{held} of the database ")
        assert "check SHARD_IDS" in line
        if first is None or held != "every server":  # the holder is named
            assert f"pid {os.getpid()} on host {socket.gethostname()}" in line
        await owner.release()
        successor = await asyncio.wait_for(waiting, DEADLINE)
    finally:
        waiting.cancel()
        await owner.release()
    assert len(lines(caplog, "took over")) == 1
    assert len(lines(caplog, "waiting until it stops")) == 1
    await successor.release()


async def test_owners_of_other_shards_do_not_wait(
    database_at: Location, caplog: pytest.LogCaptureFixture
) -> None:
    location = await database_at("dominobot.sqlite3")
    caplog.set_level(logging.INFO, logger="bot.storage.owner")
    owners: list[Ownership] = []
    try:
        for ids in ((0, 1), (2,), (3,)):
            take = take_ownership(location, (4, ids), on_lost=never_lost)
            owners.append(await asyncio.wait_for(take, DEADLINE))
        assert lines(caplog, "waiting") == []
    finally:
        for owner in owners:
            await owner.release()
    again = await asyncio.wait_for(take_ownership(location, None, on_lost=never_lost), DEADLINE)
    await again.release()


@pytest.mark.sqlite_only
async def test_a_private_database_needs_no_lock(tmp_path: Path) -> None:
    for location in (":memory:", ""):
        first = await take_ownership(location, None, on_lost=never_lost)
        second = await take_ownership(location, None, on_lost=never_lost)
        await first.release()
        await second.release()
    assert list(tmp_path.iterdir()) == []


# -- PostgreSQL: the lock connection drops ------------------------------------------------------


async def owner_backend(conn: Any) -> int:
    pid = await conn.fetchval(
        "SELECT pid FROM pg_stat_activity WHERE application_name LIKE 'dominobot owner:%'"
        " AND datname = current_database()"
    )
    assert pid is not None
    return int(pid)


async def shard_holder(conn: Any, shard: int) -> int | None:
    return await conn.fetchval(  # type: ignore[no-any-return]
        "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 2"
        " AND classid = $1::bigint::oid AND objid = $2::bigint::oid"
        " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
        SHARD_CLASS,
        shard,
    )


async def test_a_dropped_lock_connection_takes_its_locks_again(
    postgres: Any, caplog: pytest.LogCaptureFixture
) -> None:
    url = await postgres.create_database()
    caplog.set_level(logging.INFO, logger="bot.storage.owner")
    owner = await take_ownership(url, (2, (0,)), on_lost=never_lost)
    admin = await asyncpg.connect(url)
    try:
        before = await owner_backend(admin)
        assert await shard_holder(admin, 0) == before
        assert await admin.fetchval("SELECT pg_terminate_backend($1)", before)

        async def retaken() -> bool:
            holder = await shard_holder(admin, 0)
            return holder is not None and holder != before

        await until(retaken)
        assert len(lines(caplog, "taking it again")) == 1
        await until(lambda: lines(caplog, "took shard 0 of 2 of the database"))
    finally:
        await owner.release()
        await admin.close()
        await postgres.drop_database(url)


async def test_a_shard_taken_by_another_process_meanwhile_is_lost(postgres: Any) -> None:
    """Another process takes the shard's lock between the drop and the retake (the
    server ends the owner's connection and grants the waiting process the lock before
    the owner even hears of it): the owner is told it lost the shard."""
    url = await postgres.create_database()
    lost: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    owner = await take_ownership(url, (2, (0,)), on_lost=lost.set_result)
    rival = await asyncpg.connect(url)
    try:
        pid = await owner_backend(rival)
        await rival.execute(
            "SELECT pg_terminate_backend($1), pg_advisory_lock($2, 0)", pid, SHARD_CLASS
        )
        line = await asyncio.wait_for(lost, DEADLINE)
        assert line.startswith("lost shard 0 of 2 of the database postgresql://")
        assert "dominobot-test" not in line  # the password never shows
    finally:
        await owner.release()
        await rival.close()
        await postgres.drop_database(url)


async def test_a_waiter_that_gives_up_leaves_the_owner_as_it_was(
    database_at: Location, caplog: pytest.LogCaptureFixture
) -> None:
    """A process stopped while it waits (Ctrl+C) holds nothing afterwards, and the owner's
    name stays for the next one that waits."""
    location = await database_at("dominobot.sqlite3")
    caplog.set_level(logging.INFO, logger="bot.storage.owner")
    owner = await take_ownership(location, (2, (0,)), on_lost=never_lost)
    try:
        for count in (1, 2):
            waiting = asyncio.create_task(take_ownership(location, (2, (0,)), on_lost=never_lost))
            await until(lambda n=count: len(lines(caplog, "waiting until it stops")) == n)
            assert not waiting.done()
            waiting.cancel()
            with pytest.raises(asyncio.CancelledError):
                await waiting
        first, second = lines(caplog, "waiting until it stops")
        assert first == second
        assert f"pid {os.getpid()} on host" in second
    finally:
        await owner.release()
    again = take_ownership(location, (2, (0,)), on_lost=never_lost)
    await (await asyncio.wait_for(again, DEADLINE)).release()
