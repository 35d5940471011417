"""Statement helpers that never leave a statement open on the shared connection.

An unclosed cursor of a statement that returned a row (``PRAGMA journal_mode``,
``... RETURNING``) keeps the statement in progress for as long as anything holds
the cursor, and then ``COMMIT`` fails with "SQL statements in progress". Every
statement whose rows are not read goes through :func:`execute`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import aiosqlite


async def execute(conn: aiosqlite.Connection, sql: str, params: Sequence[Any] = ()) -> None:
    """Run one statement and close its cursor at once."""
    async with conn.execute(sql, params):
        pass


async def execute_many(conn: aiosqlite.Connection, sql: str, rows: Iterable[Sequence[Any]]) -> None:
    """Run one statement for each parameter row and close its cursor at once."""
    async with conn.executemany(sql, rows):
        pass


async def execute_script(conn: aiosqlite.Connection, script: str) -> None:
    """Run an SQL script and close its cursor at once."""
    async with conn.executescript(script):
        pass
