"""Opening and closing the SQLite connections: the pragmas each one gets.

Every connection runs in autocommit mode (``isolation_level=None``: transactions
are explicit), returns :class:`aiosqlite.Row` rows and waits up to
:data:`BUSY_TIMEOUT_MS` for a lock. The writer also puts the file in WAL mode;
a reader is ``query_only``, so a write through it fails instead of landing.
"""

from __future__ import annotations

from collections.abc import Iterable

import aiosqlite

from .sql import execute

BUSY_TIMEOUT_MS = 5000

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
            await execute(conn, "PRAGMA journal_mode = WAL")
        await execute(conn, "PRAGMA synchronous = NORMAL")
        await execute(conn, "PRAGMA foreign_keys = ON")
        if read_only:
            await execute(conn, "PRAGMA query_only = ON")
    except BaseException:
        await conn.close()
        raise
    return conn


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
