"""One owner per shard: the process that runs a shard's games (their timers, their AI
seats, their announcements) holds a lock on it for as long as it runs.

Two processes must never own the same games: the same ``SHARD_IDS`` twice, a rolling
deploy whose new process starts before the old one stops, two bots on one SQLite file.
Each would run the games' timers and AI turns and announce them. So before a bot opens
its database it takes, in this order:

- **every server's lock**: exclusive for a bot without shards (it owns every server),
  shared for a bot with shards (processes of different shards coexist; none coexists
  with a bot without shards);
- **each of its shards' locks**, exclusive, in increasing order (every process takes
  them in the same order, so two never wait for each other).

A lock another process holds is waited for: the bot logs one line (what is held, by
whom when the database says, and why), does nothing else meanwhile (it has not opened
its database, restored a game nor connected to Discord's gateway), takes over when the
other process stops, and logs that. Waiting is the choice for a rolling deploy (the new
process takes over the moment the old one is gone); two processes started on one shard
by mistake leave one running and one waiting, with its line in the log.

**SQLite**: ``flock`` on lock files beside the database (``<file>-owner`` and
``<file>-shard-<n>``), which the kernel releases when the process ends, however it ends.
A file on one machine only (``flock`` does not reach across machines).

**PostgreSQL**: session advisory locks (``pg_advisory_lock``, two 32-bit keys: a class
for every server's lock, another whose second key is the shard) on a connection of
their own, outside the pool, held for the process's life; the server releases them
when the connection ends, however it ends. That connection lives on a thread of its
own with its own event loop, so waiting and retrying never touch the bot's loop. If it
drops (the server restarts, a network cut), the locks are taken again as soon as the
server answers; if another process took one meanwhile, this one has lost the shard:
``on_lost`` is called (the bot stops, with one line and exit status 1) rather than run
the games beside their new owner.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import fcntl
import logging
import os
import socket
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, TypeVar

from .connections import is_private
from .database import is_url
from .urls import redacted

log = logging.getLogger(__name__)

T = TypeVar("T")

EVERY_SERVER: Final = (0x646F6D6F, 0)
"""PostgreSQL's lock on every server ("domo", 0): exclusive without shards, else shared."""
SHARD_CLASS: Final = 0x646F6D73
"""PostgreSQL's class of shard locks ("doms"); the second key is the shard. Both classes
differ from the migrations' lock ("domi"), and the two-key space is apart from the
servers' one-key locks."""
RETRY_SECONDS: Final = 2.0
"""How often a dropped PostgreSQL lock connection is tried again."""
CONNECT_TIMEOUT: Final = 10.0

Shards = tuple[int, tuple[int, ...]]
"""``(count, ids)``: the shards a process runs; None: every server (no shards)."""


@dataclass(frozen=True, slots=True)
class Lock:
    """One lock: its name for people, PostgreSQL's keys, its file's suffix, its mode."""

    name: str
    keys: tuple[int, int]
    suffix: str
    shared: bool


def locks_for(shards: Shards | None) -> list[Lock]:
    """The locks a process takes, in the order every process takes them."""
    if shards is None:
        return [Lock("every server", EVERY_SERVER, "-owner", shared=False)]
    count, ids = shards
    every = Lock("every server", EVERY_SERVER, "-owner", shared=True)
    return [every] + [
        Lock(f"shard {i} of {count}", (SHARD_CLASS, i), f"-shard-{i}", shared=False)
        for i in sorted(ids)
    ]


def describe_self(shards: Shards | None) -> str:
    """This process, for another one's log line: its pid, host and shards."""
    serving = "every server" if shards is None else f"shards {_ids(shards[1])} of {shards[0]}"
    return f"pid {os.getpid()} on host {socket.gethostname()}, {serving}"


def _ids(ids: tuple[int, ...]) -> str:
    return ",".join(str(i) for i in sorted(ids))


def waiting_line(lock: Lock, where: str, holder: str) -> str:
    by = f" ({holder})" if holder else ""
    return (
        f"{lock.name} of the database {where} is owned by another process{by}; waiting "
        "until it stops. Two processes must never run one shard's games: if this is not "
        "a deploy replacing that process, check SHARD_IDS and SHARD_COUNT"
    )


class Ownership(ABC):
    """The locks a process holds on its shards; :meth:`release` frees them."""

    @abstractmethod
    async def release(self) -> None:
        """Free every lock (idempotent). Call it after the database is closed."""


class NoOwnership(Ownership):
    """A private database (``":memory:"``, a temporary file): nobody else can reach it."""

    async def release(self) -> None:
        return None


async def take_ownership(
    location: str | os.PathLike[str], shards: Shards | None, *, on_lost: Callable[[str], None]
) -> Ownership:
    """Take the locks of ``shards`` on the database at ``location`` (a SQLite file or a
    PostgreSQL URL), waiting for another owner to stop (one log line). ``on_lost`` is
    called on the caller's loop, with one line, if a lock is lost (PostgreSQL only)."""
    if is_url(location):
        return await PgOwnership.take(os.fspath(location), shards, on_lost)
    if is_private(os.fspath(location)):
        return NoOwnership()
    return await FileOwnership.take(Path(location), shards)


# -- SQLite: flock on files beside the database ------------------------------------------------


class FileOwnership(Ownership):
    """``flock`` on lock files beside a SQLite file (see the module)."""

    def __init__(self, files: list[tuple[int, Lock]]) -> None:
        self._files = files

    @classmethod
    async def take(cls, database: Path, shards: Shards | None) -> FileOwnership:
        held: list[tuple[int, Lock]] = []
        waited: list[str] = []
        try:
            for lock in locks_for(shards):
                path = Path(f"{database}{lock.suffix}")
                fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
                mode = fcntl.LOCK_SH if lock.shared else fcntl.LOCK_EX
                try:
                    try:
                        fcntl.flock(fd, mode | fcntl.LOCK_NB)
                    except BlockingIOError:
                        log.warning(waiting_line(lock, str(database), _read_holder(fd)))
                        await _wait_for_lock(fd, mode)
                        waited.append(lock.name)
                except BaseException:  # not held: its holder's words stay
                    os.close(fd)
                    raise
                held.append((fd, lock))
                if not lock.shared:  # who holds it, for a process that will wait for it
                    os.ftruncate(fd, 0)
                    os.pwrite(fd, describe_self(shards).encode(), 0)
        except BaseException:
            _close_files(held)
            raise
        if waited:
            log.warning("took over %s of the database %s", " and ".join(waited), database)
        return cls(held)

    async def release(self) -> None:
        files, self._files = self._files, []
        _close_files(files)


def _read_holder(fd: int) -> str:
    try:
        text = os.pread(fd, 200, 0).decode(errors="replace").strip()
    except OSError:
        return ""
    return f"its lock file says: {text}" if text else ""


def _close_files(files: list[tuple[int, Lock]]) -> None:
    for fd, lock in reversed(files):
        with contextlib.suppress(OSError):
            if not lock.shared:
                os.ftruncate(fd, 0)  # while still held: nobody reads a stale holder
            os.close(fd)  # the lock goes with the file's last descriptor


async def _wait_for_lock(fd: int, mode: int) -> None:
    """``flock(fd, mode)``, waiting, on a daemon thread (never one that keeps the process
    from exiting, as the default executor's would). The thread waits on a duplicate of
    ``fd``, which shares its lock, and closes it once the call returns: the lock stays
    with ``fd``, or, if the wait was given up and ``fd`` closed meanwhile, goes with it."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[None] = loop.create_future()
    mine = os.dup(fd)

    def run() -> None:
        error: OSError | None = None
        try:
            fcntl.flock(mine, mode)
        except OSError as exc:  # handed to the waiting coroutine
            error = exc
        finally:
            os.close(mine)
        with contextlib.suppress(RuntimeError):  # the waiter's loop is gone: nobody waits
            loop.call_soon_threadsafe(_settle, future, error)

    threading.Thread(target=run, name="dominobot-owner-wait", daemon=True).start()
    await future


def _settle(future: asyncio.Future[None], error: OSError | None) -> None:
    if future.done():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(None)


# -- PostgreSQL: session advisory locks on a connection of their own ---------------------------


class PgOwnership(Ownership):
    """Advisory locks on a dedicated connection, on a thread of its own (see the module)."""

    def __init__(
        self,
        url: str,
        shards: Shards | None,
        on_lost: Callable[[str], None],
        caller: asyncio.AbstractEventLoop,
    ) -> None:
        self._url = url
        self._where = redacted(url)
        self._shards = shards
        self._locks = locks_for(shards)
        self._on_lost = on_lost
        self._caller = caller
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(
            target=self._loop.run_forever, name="dominobot-owner", daemon=True
        )
        self._conn: Any = None
        self._held = False
        self._releasing = False
        self._retaking: asyncio.Task[None] | None = None

    @classmethod
    async def take(
        cls, url: str, shards: Shards | None, on_lost: Callable[[str], None]
    ) -> PgOwnership:
        import asyncpg  # type: ignore[import-untyped]  # loaded only for PostgreSQL

        from .postgres import unavailable

        owner = cls(url, shards, on_lost, asyncio.get_running_loop())
        owner._thread.start()
        try:
            await owner._call(owner._take())
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            await owner.release()
            raise unavailable(exc, owner._where, url=url) from exc
        except BaseException:
            await owner.release()
            raise
        return owner

    async def release(self) -> None:
        if self._releasing:
            return
        self._releasing = True
        if self._thread.is_alive():
            with contextlib.suppress(Exception):
                await self._call(self._close())
            self._loop.call_soon_threadsafe(self._loop.stop)
            await asyncio.to_thread(self._thread.join, CONNECT_TIMEOUT)
        if not self._thread.is_alive():
            self._loop.close()

    async def _call(self, coro: Coroutine[Any, Any, T]) -> T:
        """Run ``coro`` on the lock thread's loop; its result here. It runs in a context
        of its own: none of the caller's context variables (a test harness's virtual
        clock, say) reach the lock thread."""
        future = contextvars.Context().run(asyncio.run_coroutine_threadsafe, coro, self._loop)
        try:
            return await asyncio.wrap_future(future)
        except asyncio.CancelledError:
            future.cancel()
            raise

    # -- on the lock thread ----------------------------------------------------------------

    async def _connect(self) -> Any:
        import asyncpg

        settings = {
            "application_name": f"dominobot owner: {describe_self(self._shards)}"[:63],
            "lock_timeout": "0",  # waiting for another owner is what this connection does
            "statement_timeout": "0",
        }
        conn = await asyncpg.connect(self._url, timeout=CONNECT_TIMEOUT, server_settings=settings)
        conn.add_termination_listener(self._terminated)
        return conn

    async def _take(self) -> None:
        """Connect and take every lock, waiting for each one another process holds."""
        self._conn = await self._connect()
        waited: list[str] = []
        for lock in self._locks:
            if await self._try(lock):
                continue
            log.warning(waiting_line(lock, self._where, await self._holder(lock)))
            shared = "_shared" if lock.shared else ""
            await self._conn.execute(f"SELECT pg_advisory_lock{shared}($1, $2)", *lock.keys)
            waited.append(lock.name)
        self._held = True
        if waited:
            log.warning("took over %s of the database %s", " and ".join(waited), self._where)

    async def _try(self, lock: Lock) -> bool:
        shared = "_shared" if lock.shared else ""
        sql = f"SELECT pg_try_advisory_lock{shared}($1, $2)"
        return bool(await self._conn.fetchval(sql, *lock.keys))

    async def _holder(self, lock: Lock) -> str:
        """Who holds ``lock``, as the server knows it (their application names)."""
        rows = await self._conn.fetch(
            "SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid"
            " WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2"
            " AND l.classid = $1::bigint::oid AND l.objid = $2::bigint::oid"
            " AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())",
            *lock.keys,
        )
        names = sorted({str(r[0]) for r in rows if r[0]})
        return "; ".join(names)

    async def _close(self) -> None:
        if self._retaking is not None:
            self._retaking.cancel()
        if self._conn is not None:
            with contextlib.suppress(Exception):
                await self._conn.close(timeout=CONNECT_TIMEOUT)

    def _terminated(self, conn: Any) -> None:
        if self._releasing or not self._held or conn is not self._conn:
            return  # a release, a start that fails as it is, or a connection given up
        if self._retaking is not None and not self._retaking.done():
            return  # the retake under way connects anew
        log.warning("the database connection holding %s dropped; taking it again", self._names())
        self._retaking = self._loop.create_task(self._retake())

    async def _retake(self) -> None:
        """Connect again and take every lock without waiting: one taken by another process
        meanwhile means this process lost it."""
        while not self._releasing:
            try:
                conn = await self._connect()
            except Exception:
                await asyncio.sleep(RETRY_SECONDS)  # the server is not back yet
                continue
            self._conn = conn
            try:
                taken = [await self._try(lock) for lock in self._locks]
            except Exception:  # dropped again: anew
                with contextlib.suppress(Exception):
                    await conn.close(timeout=CONNECT_TIMEOUT)
                await asyncio.sleep(RETRY_SECONDS)
                continue
            lost = [lock.name for lock, ok in zip(self._locks, taken, strict=True) if not ok]
            if not lost:
                log.warning("took %s of the database %s again", self._names(), self._where)
                return
            line = (
                f"lost {' and '.join(lost)} of the database {self._where} to another process "
                "while the connection holding it was down; stopping, so that one process "
                "runs those games"
            )
            with contextlib.suppress(RuntimeError):  # the bot's loop is gone already
                self._caller.call_soon_threadsafe(self._on_lost, line)
            return

    def _names(self) -> str:
        """What this process owns: its shards (the shared lock is only a place beside
        the other shards' owners), or every server."""
        owned = [lock.name for lock in self._locks if not lock.shared]
        return " and ".join(owned)
