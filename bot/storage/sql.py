"""One way to run statements on either backend, and the SQLite statement helpers.

Repositories write their SQL once, with ``?`` placeholders, and run it through a
:class:`Connection`: :class:`SqliteConnection` (aiosqlite) here, ``PgConnection``
(asyncpg, which numbers the placeholders ``$1``, ``$2``...) in :mod:`.postgres`.
The few places where the two dialects differ ask :attr:`Connection.dialect` (see
:class:`Dialect`). Both translate a constraint violation into
:class:`~.errors.IntegrityError`.

An unclosed aiosqlite cursor of a statement that returned a row (``PRAGMA
journal_mode``, ``... RETURNING``) keeps the statement in progress for as long as
anything holds the cursor, and then ``COMMIT`` fails with "SQL statements in
progress": every SQLite statement here closes its cursor at once.
"""

from __future__ import annotations

import contextlib
import sqlite3
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from typing import Any, Final, Protocol, TypeVar

import aiosqlite

from .errors import IntegrityError

T = TypeVar("T")


class Row(Protocol):
    """A result row of either driver: by column name or by position."""

    def __getitem__(self, key: Any, /) -> Any: ...


@dataclass(frozen=True, slots=True)
class Dialect:
    """The bits of SQL that differ between SQLite and PostgreSQL."""

    name: str
    greatest: str
    """The two-argument "larger of" function (SQLite's scalar ``max``)."""
    nulls_last: str
    """What makes a ``DESC`` order put NULLs last (SQLite's default; PostgreSQL's is first)."""


@dataclass(frozen=True, slots=True)
class Insert:
    """Rows for one table, to insert after a guard (:meth:`SqliteConnection.write_guarded`)."""

    table: str
    columns: tuple[str, ...]
    types: tuple[str, ...]
    """Each column's PostgreSQL type (``bigint``, ``integer``, ``text``...)."""
    rows: Sequence[Sequence[Any]]

    @property
    def sql(self) -> str:
        """The one-row ``INSERT`` (run once per row)."""
        marks = ", ".join("?" * len(self.columns))
        return f"INSERT INTO {self.table} ({', '.join(self.columns)}) VALUES ({marks})"


def upsert(table: str, columns: str, key: str = "guild_id") -> str:
    """The ``INSERT`` of one row of ``columns`` (as the SQL lists them) that, where a row
    of the same ``key`` exists, sets that row's other columns instead."""
    names = columns.split(", ")
    changes = ", ".join(f"{c} = excluded.{c}" for c in names if c not in key.split(", "))
    return (
        f"INSERT INTO {table} ({columns}) VALUES ({', '.join('?' * len(names))})"
        f" ON CONFLICT ({key}) DO UPDATE SET {changes}"
    )


SQLITE: Final = Dialect("sqlite", greatest="max", nulls_last="")
POSTGRESQL: Final = Dialect("postgresql", greatest="greatest", nulls_last=" NULLS LAST")


class Reader(ABC):
    """What reads: a :class:`Connection`, or a whole ``Database`` (a read of its own)."""

    @abstractmethod
    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Every row of one query."""

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        """The first row of one query, or None (its rows are all read: keep it small)."""
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    async def fetchint(self, sql: str, params: Sequence[Any] = ()) -> int:
        """The first column of one query's first row as an int (0 without a row)."""
        row = await self.fetchone(sql, params)
        return 0 if row is None else int(row[0])


class Connection(Reader):
    """One connection's statements, the same for both backends (``?`` placeholders)."""

    dialect: Dialect

    @abstractmethod
    async def execute(self, sql: str, params: Sequence[Any] = ()) -> None:
        """Run one statement; its rows, if any, are dropped."""

    @abstractmethod
    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement for each parameter row."""

    @abstractmethod
    def chunks(self, sql: str, params: Sequence[Any], size: int) -> AsyncIterator[list[Row]]:
        """The rows of one query, ``size`` at a time (inside a transaction)."""

    @abstractmethod
    async def lock(self, key: int) -> None:
        """Hold the lock named ``key`` until the transaction ends (every writer that
        takes it waits for the others). SQLite's write transaction already excludes
        every other writer: there this does nothing."""


class SqliteConnection(Connection):
    """A :class:`Connection` over an aiosqlite connection."""

    dialect = SQLITE

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.raw = conn

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> None:
        with _integrity():
            await execute(self.raw, sql, params)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        with _integrity():
            async with self.raw.executemany(sql, rows):  # its cursor closed at once
                pass

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        # One call on the connection's thread: nothing runs between the execute and the fetch.
        with _integrity():
            return list(await self.raw.execute_fetchall(sql, params))

    async def chunks(self, sql: str, params: Sequence[Any], size: int) -> AsyncIterator[list[Row]]:
        async with self.raw.execute(sql, params) as cursor:
            while batch := await cursor.fetchmany(size):
                yield list(batch)

    async def lock(self, key: int) -> None:
        return None

    async def write_guarded(
        self, guard: str, params: Sequence[Any], inserts: Sequence[Insert]
    ) -> list[Row]:
        """``Database.write_guarded`` as one call on the connection's thread: ``BEGIN
        IMMEDIATE`` (unless a transaction is open), the guard, the inserts if it returned
        a row, ``COMMIT`` (else ``ROLLBACK``). One round trip instead of one per statement."""

        def guarded(conn: sqlite3.Connection) -> list[Row]:
            own = not conn.in_transaction
            if own:
                conn.execute("BEGIN IMMEDIATE")
            try:
                rows: list[Row] = conn.execute(guard, params).fetchall()
                if rows:
                    for insert in inserts:
                        conn.executemany(insert.sql, insert.rows).close()
                if own:
                    conn.execute("COMMIT")
            except BaseException:
                if own and conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
            return rows

        with _integrity():
            return await on_thread(self.raw, guarded)


@contextmanager
def _integrity() -> Iterator[None]:
    """Turn SQLite's constraint errors into :class:`IntegrityError`."""
    try:
        yield
    except sqlite3.IntegrityError as exc:
        raise IntegrityError(str(exc), constraint=str(exc)) from exc


@asynccontextmanager
async def transaction_on(
    run: Callable[[str], Awaitable[None]], undo: Callable[[], Awaitable[None]], begin: str
) -> AsyncIterator[None]:
    """``begin`` ... ``COMMIT`` through ``run`` (either driver); ``undo`` (a rollback that
    fails quietly) and re-raise on any exception, a failing ``BEGIN`` or ``COMMIT`` too."""
    try:
        await run(begin)
        yield
    except BaseException:
        await undo()
        raise
    try:
        await run("COMMIT")
    except BaseException:
        await undo()
        raise


async def execute(conn: aiosqlite.Connection, sql: str, params: Sequence[Any] = ()) -> None:
    """Run one statement and close its cursor at once."""
    async with conn.execute(sql, params):
        pass


async def rollback(conn: aiosqlite.Connection) -> None:
    """``ROLLBACK``; "no transaction" is fine. It runs on the connection's thread after
    everything already queued, so it also undoes a BEGIN whose await was cancelled."""
    with contextlib.suppress(sqlite3.OperationalError):
        await execute(conn, "ROLLBACK")


async def on_thread(conn: aiosqlite.Connection, fn: Callable[[sqlite3.Connection], T]) -> T:
    """``fn(the sqlite3 connection)`` on ``conn``'s own thread, as one step.

    aiosqlite runs every call of its API there, one round trip each, and has no public
    way to run several statements in one: this queues ``fn`` the way its API does
    (``Connection._execute``). Every cursor ``fn`` opens must be closed by it.
    """
    run: Callable[..., Awaitable[T]] = conn._execute
    return await run(fn, conn._conn)
