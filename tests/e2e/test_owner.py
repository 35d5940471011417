"""One owner per shard, with two real processes (issue 37, row 6).

Two bot processes (``owner_child.py``) on one database and one shard: two bots on one
SQLite file (no shards), and the same ``SHARD_IDS`` twice on PostgreSQL. The first
starts and opens a game; the second, started while the first runs, logs one line that
its shard is owned by another process and waits: it neither restores a game nor serves
(it has not opened its database). The first is killed (SIGKILL: the kernel drops its
lock file's lock, the server ends its connection and its advisory locks); the second
takes over, says so once, restores the game and serves.
"""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
import sys
from pathlib import Path

import asyncpg  # type: ignore[import-untyped]
import pytest
import simcord
from child_support import next_line, start

from bot.client import DominoBot
from bot.settings import Shards
from bot.storage.owner import SHARD_CLASS

HERE = Path(__file__).parent
CHILD = HERE / "owner_child.py"
DEADLINE = 90.0  # a child's start: imports, SimCord, the bot


class Child:
    """One bot process, the lines it printed, read in order."""

    def __init__(self, location: str, shards: str, *args: str) -> None:
        self.lines: list[str] = []
        self.proc = start(CHILD, location, shards, *args, stderr=subprocess.STDOUT)

    async def until(self, text: str, *, never: str | None = None) -> str:
        """Read lines until one holds ``text``; fails on a line holding ``never`` first."""
        end = asyncio.get_running_loop().time() + DEADLINE
        while True:
            line = await next_line(self.proc, end, "the bot", repr(text), self.tail)
            self.lines.append(line.rstrip("\n"))
            if never is not None and never in line:
                pytest.fail(f"{line.strip()!r} came before {text!r}: {self.lines[-30:]}")
            if text in line:
                return line.strip()

    def tail(self) -> str:
        return "\n".join(self.lines[-30:])

    def said(self, text: str) -> list[str]:
        return [line for line in self.lines if text in line]

    def stop(self) -> int:
        assert self.proc.stdin is not None
        self.proc.stdin.write("STOP\n")
        self.proc.stdin.flush()
        return self.proc.wait(timeout=DEADLINE)

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)


async def test_a_second_process_on_a_shard_waits_until_the_first_is_gone(db_path, backend):
    shards = "-" if backend == "sqlite" else "2:0"  # one file, no shards / SHARD_IDS twice
    first = Child(str(db_path), shards, "--open")
    second: Child | None = None
    try:
        assert await first.until("SERVING") == "SERVING 0"
        await first.until("OPENED")
        second = Child(str(db_path), shards)
        waiting = await second.until("waiting until it stops", never="SERVING")
        what = "every server" if backend == "sqlite" else "shard 0 of 2"
        assert f"{what} of the database " in waiting
        assert "check SHARD_IDS" in waiting
        assert f"pid {first.proc.pid} on host" in waiting  # the owner, as it wrote itself
        assert "dominobot-test" not in waiting  # the password never shows

        first.kill()
        assert await second.until("SERVING") == "SERVING 1"  # the first one's game
        assert len(second.said("waiting until it stops")) == 1
        assert len(second.said("took over")) == 1
        assert second.stop() == 0
    finally:
        first.kill()
        if second is not None:
            second.kill()


@pytest.fixture
def extensions_kept():
    """The bot's real ``close()`` unloads its extensions, and discord.py takes
    ``cogs.domino`` and its modules out of ``sys.modules``: the next bot would import
    them anew, and later tests would hold stale ones (their caches, say). Put them back."""
    kept = {name: module for name, module in sys.modules.items() if name.startswith("cogs")}
    yield
    sys.modules.update(kept)


@pytest.mark.usefixtures("extensions_kept")
async def test_a_bot_that_loses_its_shard_to_another_process_stops(postgres):
    """The lock connection drops and another process takes the shard before this one can
    take it again (the server grants the waiting process the lock as it ends the
    owner's connection): the bot logs one line, keeps it as its reason to stop (``python
    -m bot`` prints it and exits with 1) and closes."""
    url = await postgres.create_database()
    bot = DominoBot(database_url=url, shards=Shards(2, (0,)))
    env = simcord.Env(bot)
    rival = await asyncpg.connect(url)
    try:
        await env.start()
        pid = await rival.fetchval(
            "SELECT pid FROM pg_stat_activity WHERE application_name LIKE 'dominobot owner:%'"
            " AND datname = current_database()"
        )
        await rival.execute(
            "SELECT pg_terminate_backend($1), pg_advisory_lock($2, 0)", pid, SHARD_CLASS
        )
        loop = asyncio.get_running_loop()
        end = loop.time() + DEADLINE
        while not bot.is_closed():
            assert loop.time() < end, "the bot never stopped"
            await asyncio.sleep(0.05)
        assert bot.stop_reason is not None
        assert bot.stop_reason.startswith("lost shard 0 of 2 of the database postgresql://")
        assert "dominobot-test" not in bot.stop_reason
        assert bot.db.closed
    finally:
        await rival.close()
        with contextlib.suppress(Exception):
            await bot.shutdown()
        await env.shutdown()
        await postgres.drop_database(url)
