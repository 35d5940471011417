"""The bot's database: SQLite (a file) or PostgreSQL (a server), behind one API.

:meth:`Database.open` takes a file path (SQLite, :class:`SqliteDatabase` below)
or a ``postgresql://`` URL (PostgreSQL, ``bot.storage.postgres.PostgresDatabase``);
callers see the same repositories (``games``, ``matches``, ``guilds``,
``leaderboards``), the same rows and the same errors. Statements run through a
:class:`~.sql.Connection`; a task holding a transaction or a snapshot must not
open another one (that raises StorageError), nor wait on a child task that writes.

**SQLite.** Writes run on one writer connection: each :meth:`Database.transaction`
holds the writer lock from ``BEGIN IMMEDIATE`` to ``COMMIT`` (measured here: one
writer connection serialized by a lock beats a connection per task, which
collapses under write contention).

**Reads never wait for writes.** In WAL mode a reader sees the last committed
state while a write transaction is open, so :meth:`Database.fetchone`,
:meth:`Database.fetchall` and :meth:`Database.schema_version` go to a separate
``query_only`` connection and take no lock. Each read is a single ``execute`` +
``fetchall`` call on that connection's thread: it is its own read transaction,
sees every commit made before it was called, and cannot interleave with another
read. Another task's uncommitted writes are never visible. A task that holds a
write transaction reads through the writer instead, so it sees its own writes.

**Snapshots** (:meth:`Database.snapshot`: ``BEGIN DEFERRED`` over several reads)
get a second reader and a lock of their own. On the shared reader an open
snapshot would pull other tasks' reads into its transaction and show them an
older state (a task could miss its own just-committed save); a lock shared by
reads and snapshots would make every read wait for a leaderboard page. With two
readers, plain reads wait for nothing and snapshots wait only for each other.

A **private** database (``":memory:"``, or ``""`` for a temporary file) exists
only for the connection that opened it: there the writer does everything, and
reads and snapshots take the writer lock.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from abc import abstractmethod
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from typing import Any, Self

import aiosqlite

from .competitions import CompetitionRepository
from .connections import close_all, connect, is_private
from .errors import StorageError
from .games import GameRepository
from .guilds import GuildRepository
from .leaderboards import LeaderboardRepository
from .matches import MatchRepository
from .migrations import migrate, user_version
from .puzzles import PuzzleRepository
from .reviews import ReviewRepository
from .seasons import SeasonRepository
from .sql import (
    SQLITE,
    Connection,
    Dialect,
    Insert,
    Reader,
    Row,
    SqliteConnection,
    execute,
    rollback,
    transaction_on,
)

URL_SCHEMES = ("postgresql://", "postgres://")
"""What :meth:`Database.open` takes for a PostgreSQL server's URL."""


def is_url(location: str | os.PathLike[str]) -> bool:
    """Whether ``location`` names a PostgreSQL server (a URL) rather than a SQLite file."""
    return isinstance(location, str) and location[:16].lower().startswith(URL_SCHEMES)


@dataclass(frozen=True, slots=True)
class Timeouts:
    """How long a PostgreSQL server may take, in seconds (``DATABASE_TIMEOUT``,
    ``DATABASE_LOCK_TIMEOUT``). A statement past them fails, its transaction is rolled
    back and the caller gets :class:`~.errors.DatabaseTimeoutError` (a player: "the
    database is unavailable, nothing was done"), instead of holding a game's lock for
    as long as the server hangs. Migrations have none (they may take long, once).
    SQLite waits :data:`~.connections.BUSY_TIMEOUT_MS` for its lock."""

    statement: float = 10.0
    """The server's ``statement_timeout``: the longest a statement may run."""
    lock: float = 5.0
    """The server's ``lock_timeout``: the longest a statement may wait for a lock (a
    row another connection is writing, a server's standings lock)."""
    grace: float = 2.0
    """How much longer than ``statement`` the client waits for an answer before it gives
    the connection up (the server itself may be what hangs)."""

    @property
    def command(self) -> float:
        """asyncpg's ``command_timeout``: the client's limit on every statement."""
        return self.statement + self.grace

    def server_settings(self) -> dict[str, str]:
        """The two as PostgreSQL settings (milliseconds), given when a connection opens."""
        return {
            "statement_timeout": str(max(1, round(self.statement * 1000))),
            "lock_timeout": str(max(1, round(self.lock * 1000))),
        }


log = logging.getLogger(__name__)
# aiosqlite logs every statement with its parameters at DEBUG: a saved game state
# holds every hand, and a hand must never reach a log. Keep it to warnings.
logging.getLogger("aiosqlite").setLevel(logging.WARNING)


class Database(Reader):
    """The bot's database; build it with :meth:`open`, release it with :meth:`close`."""

    dialect: Dialect
    _version_sql: str
    """The query of the applied schema version."""
    path: str
    """Where the data lives: the SQLite file, or the server's URL without its password."""

    def __init__(self) -> None:
        self._closed = False
        self.games = GameRepository(self)
        self.matches = MatchRepository(self)
        self.guilds = GuildRepository(self)
        self.leaderboards = LeaderboardRepository(self)
        self.competitions = CompetitionRepository(self)
        self.seasons = SeasonRepository(self)
        self.reviews = ReviewRepository(self)
        self.puzzles = PuzzleRepository(self)

    @classmethod
    async def open(
        cls, location: str | os.PathLike[str], *, timeouts: Timeouts | None = None
    ) -> Database:
        """Open the database at ``location`` and bring its schema up to date.

        A ``postgresql://`` URL opens PostgreSQL (with ``timeouts``, default
        :class:`Timeouts`); anything else is a SQLite file, created if missing
        (``":memory:"`` and ``""`` are private to this object).
        """
        if is_url(location):
            from .postgres import PostgresDatabase  # asyncpg is loaded only when used

            return await PostgresDatabase.connect(os.fspath(location), timeouts or Timeouts())
        return await SqliteDatabase.connect_file(location)

    @abstractmethod
    async def close(self) -> None:
        """Wait for the running transactions and snapshots, then close every connection.

        Idempotent; any use after it raises StorageError.
        """

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` has run."""
        return self._closed

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @abstractmethod
    def transaction(self) -> contextlib.AbstractAsyncContextManager[Connection]:
        """A write transaction; ``ROLLBACK`` and re-raise on any exception. Not reentrant."""

    @abstractmethod
    def snapshot(self) -> contextlib.AbstractAsyncContextManager[Connection]:
        """A read transaction: the task's reads inside it see one state. Not reentrant,
        and not inside a transaction."""

    @abstractmethod
    async def write(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """One statement that writes, as a transaction of its own (or as part of the
        task's transaction), and its rows (``RETURNING``)."""

    @abstractmethod
    async def write_guarded(
        self, guard: str, params: Sequence[Any], inserts: Sequence[Insert]
    ) -> list[Row]:
        """``guard`` (a statement that returns rows: a versioned ``UPDATE ... RETURNING``)
        and, only if it returned a row, the ``inserts``, as one transaction of its own (or
        as part of the task's): all of it lands, or nothing does. The guard's rows.

        One round trip on either backend: SQLite runs it all in one call on the writer's
        thread, PostgreSQL as one statement (the inserts in ``WITH``)."""

    async def schema_version(self) -> int:
        """The applied schema version."""
        return await self.fetchint(self._version_sql)

    def _check_open(self) -> None:
        if self._closed:
            raise StorageError(f"database {self.path} is closed")


class SqliteDatabase(Database):
    """SQLite through aiosqlite: one writer behind a lock, two readers (see the module)."""

    dialect = SQLITE
    _version_sql = "PRAGMA user_version"

    def __init__(
        self,
        writer: aiosqlite.Connection,
        path: str,
        readers: tuple[aiosqlite.Connection, aiosqlite.Connection] | None = None,
    ) -> None:
        """Wrap open connections (``readers``: plain reads, snapshots); use :meth:`open`."""
        super().__init__()
        self._writer = writer
        self._writer_conn = SqliteConnection(writer)
        self._reader_conns = None if readers is None else tuple(map(SqliteConnection, readers))
        self.path = path
        self._lock = asyncio.Lock()
        self._owner: asyncio.Task[Any] | None = None
        self._snapshot_lock = asyncio.Lock()
        self._snapshot_owner: asyncio.Task[Any] | None = None

    @classmethod
    async def connect_file(cls, path: str | os.PathLike[str]) -> SqliteDatabase:
        """Connect to ``path`` (created if missing), set the pragmas and apply migrations.

        The readers are opened after the migrations, so they see the final schema.
        """
        location = os.fspath(path)
        writer = await connect(location)
        opened = [writer]
        try:
            before = await user_version(writer)
            after = await migrate(writer)
            readers = None
            if not is_private(location):
                opened.append(await connect(location, read_only=True))
                opened.append(await connect(location, read_only=True))
                readers = (opened[1], opened[2])
        except BaseException:
            await close_all(opened)
            raise
        if after != before:
            log.info("database %s migrated from schema %d to %d", location, before, after)
        log.info("opened database %s (schema %d)", location, after)
        return cls(writer, location, readers)

    async def close(self) -> None:
        if self._closed:
            return
        async with self._lock:
            if self._closed:
                return
            self._closed = True
            async with self._snapshot_lock:
                await close_all([*(c.raw for c in self._reader_conns or ()), self._writer])
        log.info("closed database %s", self.path)

    def transaction(self) -> contextlib.AbstractAsyncContextManager[Connection]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT``; ``ROLLBACK`` and re-raise on any exception.

        Transactions are serialized by the writer lock. Not reentrant: a nested
        call (or one inside a snapshot) from the same task raises StorageError.
        """
        return self._on_writer("BEGIN IMMEDIATE")

    @asynccontextmanager
    async def snapshot(self) -> AsyncIterator[Connection]:
        """A read transaction (``BEGIN DEFERRED``): several reads that see one state.

        Runs on the snapshot reader, so it waits only for other snapshots. The
        task's :meth:`fetchone` / :meth:`fetchall` calls inside it read the
        snapshot; the yielded connection is read-only. Not reentrant, and not
        inside a transaction (it could not see the transaction's writes).
        """
        if self._reader_conns is None:
            async with self._on_writer("BEGIN DEFERRED") as conn:
                yield conn
            return
        reader = self._reader_conns[1]
        task = self._refuse_nesting()
        async with self._snapshot_lock:
            self._check_open()
            self._snapshot_owner = task
            try:
                async with _transaction(reader.raw, "BEGIN DEFERRED"):
                    yield reader
            finally:
                self._snapshot_owner = None

    @asynccontextmanager
    async def _on_writer(self, begin: str) -> AsyncIterator[Connection]:
        task = self._refuse_nesting()
        async with self._lock:
            self._check_open()
            self._owner = task
            try:
                async with _transaction(self._writer, begin):
                    yield self._writer_conn
            finally:
                self._owner = None

    def _refuse_nesting(self) -> asyncio.Task[Any] | None:
        """The current task, after checking it holds neither a transaction nor a snapshot."""
        task = asyncio.current_task()
        if task is not None and task in (self._owner, self._snapshot_owner):
            raise StorageError("transactions are not reentrant: this task already holds one")
        return task

    async def write(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """One statement that writes, as a transaction of its own, and its rows (``RETURNING``).

        The whole statement runs in one step on the writer's thread (SQLite makes a
        single statement atomic), so the writer lock is held for one round trip
        instead of four (BEGIN, the statement, its rows, COMMIT): under load, every
        round trip waits its turn on a busy event loop. Inside the task's own
        :meth:`transaction` it is part of that transaction.
        """
        return await self._writing(lambda conn: conn.fetchall(sql, params))

    async def write_guarded(
        self, guard: str, params: Sequence[Any], inserts: Sequence[Insert]
    ) -> list[Row]:
        return await self._writing(lambda conn: conn.write_guarded(guard, params, inserts))

    async def _writing(self, step: Callable[[SqliteConnection], Awaitable[list[Row]]]) -> list[Row]:
        """``step`` on the writer: in the task's own transaction, else under the writer lock."""
        task = asyncio.current_task()
        if task is not None and task is self._owner:
            return await step(self._writer_conn)
        if task is not None and task is self._snapshot_owner:
            raise StorageError("a snapshot is read-only: write outside it")
        async with self._lock:
            self._check_open()
            return await step(self._writer_conn)

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """A read on the connection this task should read through (see the module)."""
        task = asyncio.current_task()
        if self._reader_conns is None or (task is not None and task is self._owner):
            return await self._writing(lambda conn: conn.fetchall(sql, params))
        if task is not None and task is self._snapshot_owner:
            return await self._reader_conns[1].fetchall(sql, params)
        self._check_open()
        return await self._reader_conns[0].fetchall(sql, params)


def _transaction(conn: aiosqlite.Connection, begin: str) -> AbstractAsyncContextManager[None]:
    """``begin`` ... ``COMMIT`` on ``conn``; ``ROLLBACK`` and re-raise on any exception."""
    return transaction_on(lambda sql: execute(conn, sql), lambda: rollback(conn), begin)
