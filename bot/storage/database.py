"""The SQLite database: one shared aiosqlite connection, serialized by a lock.

All access goes through one connection (see ``shared/NOTES.md``: one writer
connection serialized by a lock beats a connection per task). The lock is held
for a whole transaction and for every read, so a read never sees another task's
uncommitted writes. A task that holds a transaction may read through
:meth:`Database.fetchone` / :meth:`Database.fetchall` (they see its own writes),
but must not open a second transaction, nor wait on child tasks that touch the
database, while it holds one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from types import TracebackType
from typing import Any, Self

import aiosqlite

from .errors import StorageError
from .games import GameRepository
from .guilds import GuildRepository
from .matches import MatchRepository
from .migrations import migrate, user_version
from .ratings import RatingRepository
from .sql import execute

log = logging.getLogger(__name__)
# aiosqlite logs every statement with its parameters at DEBUG: a saved game state
# holds every hand, and a hand must never reach a log. Keep it to warnings.
logging.getLogger("aiosqlite").setLevel(logging.WARNING)

BUSY_TIMEOUT_MS = 5000


class Database:
    """The bot's database; build it with :meth:`open`, release it with :meth:`close`."""

    games: GameRepository
    matches: MatchRepository
    guilds: GuildRepository
    ratings: RatingRepository

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        """Wrap an open connection; use :meth:`open` instead."""
        self._conn = conn
        self.path = path
        self._lock = asyncio.Lock()
        self._owner: asyncio.Task[Any] | None = None
        self._closed = False
        self.games = GameRepository(self)
        self.matches = MatchRepository(self)
        self.guilds = GuildRepository(self)
        self.ratings = RatingRepository(self)

    @classmethod
    async def open(cls, path: str | os.PathLike[str]) -> Database:
        """Connect to ``path`` (created if missing), set the pragmas and apply migrations."""
        location = os.fspath(path)
        conn = await aiosqlite.connect(location, isolation_level=None)
        try:
            conn.row_factory = aiosqlite.Row
            await execute(conn, "PRAGMA journal_mode = WAL")
            await execute(conn, "PRAGMA synchronous = NORMAL")
            await execute(conn, "PRAGMA foreign_keys = ON")
            await execute(conn, f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            before = await user_version(conn)
            after = await migrate(conn)
        except BaseException:
            await conn.close()
            raise
        if after != before:
            log.info("database %s migrated from schema %d to %d", location, before, after)
        log.info("opened database %s (schema %d)", location, after)
        return cls(conn, location)

    async def close(self) -> None:
        """Wait for the running transaction, then close the connection (idempotent)."""
        if self._closed:
            return
        async with self._lock:
            if self._closed:
                return
            self._closed = True
            await self._conn.close()
        log.info("closed database %s", self.path)

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` has run."""
        return self._closed

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT``; ``ROLLBACK`` and re-raise on any exception.

        Transactions (and reads) are serialized by one lock. Not reentrant: a
        nested call from the task that holds the transaction raises StorageError.
        """
        async with self._locked("BEGIN IMMEDIATE") as conn:
            yield conn

    @asynccontextmanager
    async def snapshot(self) -> AsyncIterator[aiosqlite.Connection]:
        """A read transaction (``BEGIN DEFERRED``): several reads that see one state.

        Same lock and rules as :meth:`transaction`; meant for reads only.
        """
        async with self._locked("BEGIN DEFERRED") as conn:
            yield conn

    @asynccontextmanager
    async def _locked(self, begin: str) -> AsyncIterator[aiosqlite.Connection]:
        task = asyncio.current_task()
        if self._owner is not None and self._owner is task:
            raise StorageError("transactions are not reentrant: this task already holds one")
        async with self._lock:
            self._check_open()
            self._owner = task
            try:
                try:
                    await execute(self._conn, begin)
                    yield self._conn
                except BaseException:
                    await self._rollback()
                    raise
                try:
                    await execute(self._conn, "COMMIT")
                except BaseException:
                    await self._rollback()
                    raise
            finally:
                self._owner = None

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> aiosqlite.Row | None:
        """The first row of a query, or None."""
        async with self._reading() as conn, conn.execute(sql, params) as cursor:
            row: aiosqlite.Row | None = await cursor.fetchone()
            return row

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[aiosqlite.Row]:
        """Every row of a query."""
        async with self._reading() as conn, conn.execute(sql, params) as cursor:
            return list(await cursor.fetchall())

    async def schema_version(self) -> int:
        """The applied schema version (``PRAGMA user_version``)."""
        async with self._reading() as conn:
            return await user_version(conn)

    @asynccontextmanager
    async def _reading(self) -> AsyncIterator[aiosqlite.Connection]:
        """The connection under the lock, or directly for the task holding a transaction."""
        task = asyncio.current_task()
        if self._owner is not None and self._owner is task:
            yield self._conn
            return
        async with self._lock:
            self._check_open()
            self._owner = task
            try:
                yield self._conn
            finally:
                self._owner = None

    async def _rollback(self) -> None:
        # Runs on the connection's thread after everything already queued, so it
        # also undoes a BEGIN whose await was cancelled; "no transaction" is fine.
        with contextlib.suppress(sqlite3.OperationalError):
            await execute(self._conn, "ROLLBACK")

    def _check_open(self) -> None:
        if self._closed:
            raise StorageError(f"database {self.path} is closed")
