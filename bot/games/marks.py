"""What the tables show, written down without a database round trip per move.

After announcing a change, the publisher notes what Discord now shows of the game
(:class:`~bot.storage.Announced`): a restart announces anything after it. These
marks are presentation only, so they need not be written before the next move:
:class:`AnnouncedMarks` writes them as a group commit. The first mark is written at
once; marks that arrive while a write is under way wait for it and then go
together in one statement (several marks of one game merge into one), so a busy
bot writes a few statements a second instead of one per move, and an idle one
writes each mark as soon as it comes.

A mark lost in a crash costs nothing but a repeat: the restarted bot announces that
change again (the table edited to what it already shows, the ping posted again).
"""

from __future__ import annotations

import asyncio
import logging

from bot.storage import Announced, GameRepository

log = logging.getLogger(__name__)


class AnnouncedMarks:
    """Group commits of announcement marks (see the module)."""

    def __init__(self, games: GameRepository) -> None:
        self._games = games
        self._pending: dict[int, Announced] = {}
        self._writer: asyncio.Task[None] | None = None
        self.statements = 0
        """Statements written (for tests and benchmarks)."""

    def note(self, mark: Announced) -> None:
        """Write ``mark`` down soon; returns at once."""
        earlier = self._pending.get(mark.game_id)
        self._pending[mark.game_id] = earlier.then(mark) if earlier else mark
        if self._writer is None or self._writer.done():
            self._writer = asyncio.get_running_loop().create_task(self._write())

    async def flush(self) -> None:
        """Wait until every mark noted so far is written (or its write has failed)."""
        while self._writer is not None and not self._writer.done():
            await asyncio.shield(self._writer)

    async def _write(self) -> None:
        while self._pending:
            batch = list(self._pending.values())
            self._pending.clear()
            try:
                await self._games.set_announced_many(batch)
                self.statements += 1
            except Exception:
                # Presentation only: a restart announces these games again.
                log.warning("could not write down %d announcements", len(batch), exc_info=True)
