"""Opening and closing the SQLite connections: the pragmas each one gets.

Every connection runs in autocommit mode (``isolation_level=None``: transactions
are explicit), returns :class:`aiosqlite.Row` rows and waits up to
:data:`BUSY_TIMEOUT_MS` for a lock. The writer also puts the file in WAL mode;
a reader is ``query_only``, so a write through it fails instead of landing.

Commits are durable (:data:`SYNCHRONOUS`): a save returns only once the write-ahead log
is on disk, so a move that was saved, and then announced, survives a power loss.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Iterable

import aiosqlite

from .sql import execute

BUSY_TIMEOUT_MS = 5000
SYNCHRONOUS = "FULL"
"""``PRAGMA synchronous``. In WAL mode ``NORMAL`` syncs the log only at checkpoints: a
commit survives the bot's crash but not a power loss or a kernel panic, which may take
the last commits (saved and announced moves) with them; ``FULL`` syncs the log at each
commit. Measured (``benchmarks/sqlite_sync_bench.py``, docs/ARCHITECTURE.md): FULL adds
about 0.2-0.4 ms to a save on this project's machines, well below a Discord round trip.
Only the writer commits; the readers get the same setting for simplicity."""

_PRIVATE = frozenset({"", ":memory:"})


def is_private(location: str) -> bool:
    """Whether only the connection that opens ``location`` can see it (memory, temporary)."""
    return location in _PRIVATE


async def connect(location: str, *, read_only: bool = False) -> aiosqlite.Connection:
    """A connection to ``location`` with the pragmas set; ``read_only`` makes it a reader."""
    conn = await aiosqlite.connect(location, isolation_level=None)
    try:
        conn.row_factory = aiosqlite.Row
        await execute(conn, f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        if not read_only:
            await _write_ahead_log(conn)
        await execute(conn, f"PRAGMA synchronous = {SYNCHRONOUS}")
        await execute(conn, "PRAGMA foreign_keys = ON")
        if read_only:
            await execute(conn, "PRAGMA query_only = ON")
    except BaseException:
        await conn.close()
        raise
    return conn


async def _write_ahead_log(conn: aiosqlite.Connection) -> None:
    """Put the file in WAL mode (a private database keeps its own: memory, or a temporary
    file's). On a new file another process may be doing the same, or migrating it:
    SQLite answers "database is locked" at once, without waiting its busy timeout, so
    this waits for it (up to :data:`BUSY_TIMEOUT_MS`)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            await execute(conn, "PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if ("locked" not in str(exc) and "busy" not in str(exc)) or loop.time() >= deadline:
                raise
        await asyncio.sleep(0.01)


async def close_all(conns: Iterable[aiosqlite.Connection]) -> None:
    """Close the connections one after another, even when one fails; then raise the first
    failure. One at a time, so the last one to close finds itself alone with the file and
    checkpoints the WAL into it."""
    failure: BaseException | None = None
    for conn in conns:
        try:
            await conn.close()
        except BaseException as exc:
            failure = failure or exc
    if failure is not None:
        raise failure
