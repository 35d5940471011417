"""PostgreSQL through asyncpg: a pool of connections, the same API as SQLite's.

:meth:`Database.open` with a ``postgresql://`` URL builds a :class:`PostgresDatabase`.
Several bot processes may share one database: nothing here assumes it is the only
writer.

- **Transactions** (:meth:`PostgresDatabase.transaction`) take a connection of their
  own from the pool and run at READ COMMITTED: each statement sees what was committed
  before it began. Where a transaction reads, computes and writes back (counting a
  finished match into the standings, a leaderboard reset, a rebuild), it first takes
  the server's transaction-scoped advisory lock (:meth:`PgConnection.lock`, keyed by
  the Discord server id): two processes finishing matches of one server's players
  count them one after the other, each reading the other's committed standings, so
  no update is lost. Games need no lock: every save is a versioned ``UPDATE``
  (optimistic), one atomic statement.
- **Plain reads and one-statement writes** each take a pooled connection for one
  statement (its own transaction). **Snapshots** are ``REPEATABLE READ READ ONLY``
  transactions on a connection of their own.
- **Migrations** (:func:`migrate_pg`) run under an advisory lock of their own, so
  processes that start together apply each migration once.
- **A server that hangs**: every pooled connection has a ``statement_timeout`` and a
  ``lock_timeout`` (:class:`~.database.Timeouts`, ``DATABASE_TIMEOUT`` and
  ``DATABASE_LOCK_TIMEOUT``), and the client gives up a little after the first
  (asyncpg's ``command_timeout``) on a server that does not answer at all. A statement
  past either is :class:`DatabaseTimeoutError` (a :class:`DatabaseUnavailableError`):
  its transaction is rolled back, the player is told the database is unavailable, and a
  game's lock is held no longer than that. Migrations run before the pool, on a
  connection without timeouts.
- **A server that goes away**: every connection failure (refused, dropped, the
  backend terminated, the server shutting down) is raised as
  :class:`DatabaseUnavailableError`, a :class:`StorageError`, and the pool's
  connections are replaced on their next use; a plain read is tried once more on a
  fresh connection first (a read may be repeated, a write may not). Nothing waits
  for the server to come back: the next call connects anew.

Statements are written with ``?`` placeholders, as for SQLite; :func:`numbered`
turns them into asyncpg's ``$1, $2, ...``.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from typing import Any, Final

import asyncpg  # type: ignore[import-untyped]

from .database import Database, Timeouts
from .errors import (
    DatabaseTimeoutError,
    DatabaseUnavailableError,
    IntegrityError,
    MigrationError,
    StorageError,
)
from .migrations import PG_MIGRATIONS, check_versions, goal_of
from .sql import POSTGRESQL, Connection, Insert, Row, transaction_on
from .urls import redacted, scrub

log = logging.getLogger(__name__)

CONNECT_TIMEOUT: Final = 10.0
"""Seconds to wait for a connection before calling the server unavailable."""
POOL_SIZE: Final = 10
MIGRATION_LOCK: Final = (0x646F6D69, 1)
"""The advisory lock (two 32-bit keys: "domi", 1) held while migrating. Servers' locks
use the single 64-bit key space, which PostgreSQL keeps apart from this one."""
SCHEMA_TABLE: Final = "dominobot_schema"

_QUOTED_OR_MARK = re.compile(r"'(?:[^']|'')*'|\?")

# The server stopped a statement: it waited past lock_timeout (55P03) or ran past
# statement_timeout (57014, which asyncpg files under operator intervention).
_SERVER_TIMEOUTS: Final = (asyncpg.LockNotAvailableError, asyncpg.QueryCanceledError)

# The server went away, refused us, or is shutting down (SQLSTATE classes 08, 57, 53300);
# or the connection is left in a state it cannot leave (a server's "terminating
# connection" notice read while idle: asyncpg's InternalClientError on the next use).
_GONE: Final = (
    OSError,
    asyncpg.PostgresConnectionError,
    asyncpg.exceptions.OperatorInterventionError,
    asyncpg.exceptions.TooManyConnectionsError,
    asyncpg.InternalClientError,
)


@functools.lru_cache(maxsize=1024)
def numbered(sql: str) -> str:
    """``sql`` with each ``?`` placeholder (outside string literals) as ``$1``, ``$2``..."""
    count = 0

    def number(match: re.Match[str]) -> str:
        nonlocal count
        if match.group() != "?":
            return match.group()
        count += 1
        return f"${count}"

    return _QUOTED_OR_MARK.sub(number, sql)


def guarded(guard: str, params: Sequence[Any], inserts: Sequence[Insert]) -> tuple[str, list[Any]]:
    """:meth:`~.database.Database.write_guarded` as one statement: the guard in ``WITH``, each
    insert taking its rows only if the guard returned one (an atomic statement)."""
    parts = [f"guard AS ({guard})"]
    values = list(params)
    for n, insert in enumerate(inserts):
        if not insert.rows:
            continue
        row = "(" + ", ".join(f"?::{t}" for t in insert.types) + ")"
        rows = ", ".join([row] * len(insert.rows))
        parts.append(
            f"insert{n} AS (INSERT INTO {insert.table} ({', '.join(insert.columns)})"
            f" SELECT * FROM (VALUES {rows}) AS v WHERE EXISTS (SELECT 1 FROM guard))"
        )
        values += [value for r in insert.rows for value in r]
    return f"WITH {', '.join(parts)} SELECT * FROM guard", values


def is_gone(exc: BaseException, raw: Any = None) -> bool:
    """Whether ``exc`` says the server cannot be used (rather than that a statement failed)."""
    if isinstance(exc, _GONE):
        return True
    if not isinstance(exc, asyncpg.InterfaceError) or raw is None:
        return False
    try:
        return bool(raw.is_closed())
    except asyncpg.InterfaceError:  # the pool took back a connection that closed
        return True


def unavailable(
    exc: BaseException, where: str, *, sent: bool = True, url: str = ""
) -> DatabaseUnavailableError:
    """The :class:`DatabaseUnavailableError` for a connection failure (``url``: the URL
    whose password the driver's message must not show)."""
    reason = scrub(str(exc) or type(exc).__name__, url) if url else str(exc) or type(exc).__name__
    return DatabaseUnavailableError(f"the database at {where} is unavailable: {reason}", sent=sent)


def timed_out(exc: BaseException, where: str) -> DatabaseTimeoutError:
    """The :class:`DatabaseTimeoutError` for a statement past a timeout (:class:`Timeouts`)."""
    if isinstance(exc, asyncpg.LockNotAvailableError):
        reason = f"waited too long for a lock ({exc})"
    elif isinstance(exc, asyncpg.QueryCanceledError):
        reason = f"a statement ran too long ({exc})"
    else:
        reason = "the server did not answer in time"
    return DatabaseTimeoutError(f"the database at {where} is unavailable: {reason}")


class PgConnection(Connection):
    """A :class:`Connection` over one asyncpg connection; errors in storage's terms."""

    dialect = POSTGRESQL

    def __init__(self, raw: Any, where: str, on_gone: Callable[[], Awaitable[None]]) -> None:
        self.raw = raw
        self._where = where
        self._on_gone = on_gone

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> None:
        async with self._errors():
            await self.raw.execute(numbered(sql), *params)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        batch = [tuple(r) for r in rows]
        if not batch:
            return
        async with self._errors():
            await self.raw.executemany(numbered(sql), batch)

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        async with self._errors():
            return list(await self.raw.fetch(numbered(sql), *params))

    async def chunks(self, sql: str, params: Sequence[Any], size: int) -> AsyncIterator[list[Row]]:
        async with self._errors():
            cursor = await self.raw.cursor(numbered(sql), *params)
        while True:
            async with self._errors():
                batch = await cursor.fetch(size)
            if not batch:
                return
            yield list(batch)

    async def lock(self, key: int) -> None:
        await self.execute("SELECT pg_advisory_xact_lock(?::bigint)", (key,))

    @asynccontextmanager
    async def _errors(self) -> AsyncIterator[None]:
        try:
            yield
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise IntegrityError(str(exc), constraint=exc.constraint_name or "") from exc
        except _SERVER_TIMEOUTS as exc:  # the server gave up: the connection is fine
            raise timed_out(exc, self._where) from exc
        except TimeoutError as exc:  # the client gave up on a server that does not answer
            with contextlib.suppress(Exception):  # never back into the pool
                self.raw.terminate()
            raise timed_out(exc, self._where) from exc
        except Exception as exc:
            if not is_gone(exc, self.raw):
                raise
            with contextlib.suppress(Exception):  # never back into the pool
                self.raw.terminate()
            await self._on_gone()
            # asyncpg refuses to send on a connection found closed, or broken by a notice
            never_sent = isinstance(exc, asyncpg.InternalClientError | asyncpg.InterfaceError)
            raise unavailable(exc, self._where, sent=not never_sent) from exc


class PostgresDatabase(Database):
    """PostgreSQL through an asyncpg pool (see the module)."""

    dialect = POSTGRESQL
    _version_sql = f"SELECT version FROM {SCHEMA_TABLE}"

    def __init__(self, pool: Any, url: str) -> None:
        """Wrap an open pool; use :meth:`Database.open`."""
        super().__init__()
        self._pool = pool
        self.path = redacted(url)
        self._held: dict[asyncio.Task[Any], tuple[PgConnection, bool]] = {}
        """Each task's open transaction (False) or snapshot (True) connection."""

    @classmethod
    async def connect(cls, url: str, timeouts: Timeouts | None = None) -> PostgresDatabase:
        """Connect to the server at ``url``, apply the migrations, open the pool.

        The migrations run first, on a connection of their own without ``timeouts``
        (a migration may take long, once); every pooled connection has them.
        Raises :class:`DatabaseUnavailableError` when the server cannot be reached or
        refuses the login, :class:`MigrationError` as SQLite's :meth:`Database.open`.
        """
        timeouts = timeouts or Timeouts()
        where = redacted(url)
        async with _connect_errors(url):
            raw = await asyncpg.connect(url, timeout=CONNECT_TIMEOUT)
        try:
            before, after = await migrate_pg(raw)
        except BaseException as exc:
            if is_gone(exc):
                raise unavailable(exc, where, url=url) from exc
            raise
        finally:
            with contextlib.suppress(Exception):
                await raw.close(timeout=CONNECT_TIMEOUT)
        async with _connect_errors(url):
            pool = await asyncpg.create_pool(
                url,
                min_size=1,
                max_size=POOL_SIZE,
                timeout=CONNECT_TIMEOUT,
                command_timeout=timeouts.command,
                server_settings=timeouts.server_settings(),
            )
        if after != before:
            log.info("database %s migrated from schema %d to %d", where, before, after)
        log.info("opened database %s (schema %d)", where, after)
        return cls(pool, url)

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        # waits for every connection to come back: running transactions end first
        await self._pool.close()
        log.info("closed database %s", self.path)

    def transaction(self) -> contextlib.AbstractAsyncContextManager[Connection]:
        return self._hold("BEGIN", snapshot=False)

    def snapshot(self) -> contextlib.AbstractAsyncContextManager[Connection]:
        return self._hold("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", snapshot=True)

    async def write(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return await self._statement(sql, params, write=True)

    async def write_guarded(
        self, guard: str, params: Sequence[Any], inserts: Sequence[Insert]
    ) -> list[Row]:
        return await self.write(*guarded(guard, params, inserts))

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return await self._statement(sql, params, write=False)

    async def _statement(self, sql: str, params: Sequence[Any], *, write: bool) -> list[Row]:
        """One statement's rows: in the task's transaction or snapshot, else on a pooled
        connection, and once more on a fresh one when the pool's connections were dropped
        (a restart, a terminated backend). A read is asked again unless it timed out (it
        would only wait as long again); a write only if it certainly never left (else it
        may have landed: the caller finds out, not a second write)."""
        task = asyncio.current_task()
        held = None if task is None else self._held.get(task)
        if held is not None:
            conn, snapshot = held
            if snapshot and write:
                raise StorageError("a snapshot is read-only: write outside it")
            return await conn.fetchall(sql, params)
        try:
            async with self._connection() as conn:
                return await conn.fetchall(sql, params)
        except DatabaseUnavailableError as exc:
            if exc.sent if write else isinstance(exc, DatabaseTimeoutError):
                raise
        async with self._connection() as conn:
            return await conn.fetchall(sql, params)

    # -- connections ----------------------------------------------------------------------

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[PgConnection]:
        """A pooled connection for this task's use; connection failures translated."""
        self._check_open()
        try:
            raw = await self._pool.acquire(timeout=CONNECT_TIMEOUT)
        except Exception as exc:
            if not is_gone(exc):
                raise
            await self._expire()
            raise unavailable(exc, self.path, sent=False) from exc
        try:
            yield PgConnection(raw, self.path, self._expire)
        finally:
            await self._release(raw)

    async def _release(self, raw: Any) -> None:
        try:
            await self._pool.release(raw)
        except Exception as exc:  # a dead connection: the pool has dropped it
            if not is_gone(exc, raw):
                raise

    async def _expire(self) -> None:
        """Replace every pooled connection on its next use (the server went away)."""
        with contextlib.suppress(Exception):
            await self._pool.expire_connections()

    @asynccontextmanager
    async def _hold(self, begin: str, *, snapshot: bool) -> AsyncIterator[PgConnection]:
        task = asyncio.current_task()
        if task is not None and task in self._held:
            raise StorageError("transactions are not reentrant: this task already holds one")
        async with (
            self._connection() as conn,
            transaction_on(conn.execute, functools.partial(_rollback, conn), begin),
        ):
            if task is not None:
                self._held[task] = (conn, snapshot)
            try:
                yield conn
            finally:
                if task is not None:
                    self._held.pop(task, None)


@asynccontextmanager
async def _connect_errors(url: str) -> AsyncIterator[None]:
    """A first connection's failures in storage's terms, the URL's password hidden."""
    try:
        yield
    except (ValueError, asyncpg.InterfaceError) as exc:  # a URL asyncpg cannot read
        raise StorageError(
            f"the database URL {redacted(url)} is malformed: {scrub(str(exc), url)}"
        ) from exc
    except (asyncpg.PostgresError, OSError) as exc:
        raise unavailable(exc, redacted(url), url=url) from exc


async def _rollback(conn: PgConnection) -> None:
    # A dead connection has nothing left to roll back; the pool drops it on release.
    with contextlib.suppress(Exception):
        await conn.raw.execute("ROLLBACK")


# -- migrations ---------------------------------------------------------------------------


async def migrate_pg(
    raw: Any, target: int | None = None, *, migrations: Sequence[str] = PG_MIGRATIONS
) -> tuple[int, int]:
    """Apply the pending PostgreSQL migrations up to ``target`` (default: the latest) on
    an asyncpg connection; (the version before, the version after).

    Each migration runs in its own transaction with its version bump, under
    :data:`MIGRATION_LOCK`; the version is read again under the lock, so a process
    that waited finds the work done. Raises :class:`MigrationError` as SQLite's
    :func:`~.migrations.migrate` does.
    """
    latest, goal = len(migrations), goal_of(target, migrations)
    before: int | None = None
    while True:
        async with raw.transaction():
            await raw.execute("SELECT pg_advisory_xact_lock($1, $2)", *MIGRATION_LOCK)
            await raw.execute(
                f"CREATE TABLE IF NOT EXISTS {SCHEMA_TABLE} (version INTEGER NOT NULL);"
                f" INSERT INTO {SCHEMA_TABLE} (version)"
                f" SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM {SCHEMA_TABLE})"
            )
            current = int(await raw.fetchval(f"SELECT version FROM {SCHEMA_TABLE}"))
            before = current if before is None else before
            check_versions(current, goal, latest)
            if current == goal:
                return before, goal
            number = current + 1
            try:
                async with raw.transaction():  # a savepoint: the failure is reported as ours
                    await raw.execute(migrations[number - 1])
            except asyncpg.PostgresError as exc:
                raise MigrationError(f"migration {number} failed: {exc}") from exc
            await raw.execute(f"UPDATE {SCHEMA_TABLE} SET version = $1", number)
        log.info("applied schema migration %d", number)


# -- before the bot logs in ---------------------------------------------------------------


async def server_problem(url: str) -> tuple[str, bool] | None:
    """Why the database at ``url`` cannot be used (None: it can), in a few words, and
    whether trying again later may help (the server is unreachable, not refusing us).
    Nothing of the URL's password is in the words (the driver's own are scrubbed).

    Connects once and disconnects; changes nothing.
    """
    answer = await _server_problem(url)
    return None if answer is None else (scrub(answer[0], url), answer[1])


async def _server_problem(url: str) -> tuple[str, bool] | None:
    try:
        conn = await asyncpg.connect(url, timeout=CONNECT_TIMEOUT)
    except asyncpg.InvalidAuthorizationSpecificationError as exc:  # a wrong password, user
        return f"the server refused the login ({exc})", False
    except asyncpg.InvalidCatalogNameError as exc:
        return f"the server has no such database ({exc})", False
    except TimeoutError:
        return f"the server did not answer within {CONNECT_TIMEOUT:.0f} s", True
    except OSError as exc:
        return f"cannot reach the server ({exc.strerror or exc})", True
    except (ValueError, asyncpg.InterfaceError) as exc:
        return f"the URL is malformed ({exc})", False
    except asyncpg.PostgresError as exc:
        return f"the server refused the connection ({exc})", is_gone(exc)
    await conn.close()
    return None
