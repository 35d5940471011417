"""Work a part of the bot does on its own, after the call that started it returned: its
tasks kept until done (asyncio holds only weak references), waited for by tests, cancelled
on close, and a failure logged rather than lost."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any


class Background:
    """A set of running tasks (a competition's results, a herald's posts)."""

    def __init__(self, log: logging.Logger, what: str) -> None:
        self._log = log
        self._what = what
        self._tasks: set[asyncio.Task[None]] = set()

    def spawn(self, coro: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        task.add_done_callback(self._log_failure)
        return task

    @property
    def busy(self) -> bool:
        """Whether work is under way (tests)."""
        return any(not t.done() for t in self._tasks)

    async def settled(self) -> None:
        """Wait until every task spawned so far, and those they spawned, are done (tests)."""
        while self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    async def close(self) -> None:
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def _log_failure(self, task: asyncio.Task[None]) -> None:
        if not task.cancelled() and task.exception() is not None:
            self._log.error("%s failed", self._what, exc_info=task.exception())
