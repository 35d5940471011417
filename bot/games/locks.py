"""The per-game locks: one :class:`asyncio.Lock` per game while someone uses it.

A lock lives only while a task holds it or waits for it: the table keeps a count of
its users, and the last one out drops it. So ids clicked for games that do not exist
(or are over) leave nothing behind, and the table is as large as the games being
changed at this moment, not every id ever named.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager


class LockTable:
    """Locks by game id, each dropped when its last user is done."""

    def __init__(self) -> None:
        self._locks: dict[int, tuple[asyncio.Lock, int]] = {}

    def __len__(self) -> int:
        """How many locks are held or waited for now."""
        return len(self._locks)

    def __contains__(self, game_id: object) -> bool:
        return game_id in self._locks

    def locked(self, game_id: int) -> bool:
        """Whether someone holds the game's lock now."""
        entry = self._locks.get(game_id)
        return entry is not None and entry[0].locked()

    @asynccontextmanager
    async def hold(self, game_id: int) -> AsyncIterator[None]:
        """Hold the game's lock for the block (waiting for it first)."""
        lock, users = self._locks.get(game_id) or (asyncio.Lock(), 0)
        self._locks[game_id] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[game_id]
            if users > 1:
                self._locks[game_id] = (lock, users - 1)
            else:  # nobody holds it or waits for it: the next user makes a new one
                del self._locks[game_id]
