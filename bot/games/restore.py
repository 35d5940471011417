"""After a start: the active games taken back into memory, and the unannounced ends told.

Games are read in chunks of :data:`RESTORE_CHUNK`, the event loop answering
interactions in between (a game not restored yet is read from the database on
demand, :class:`~bot.games.memory.Memory`). Each goes on where it was: its turn timer
and AI task are set. A game whose last change never reached Discord (a crash between
saving and announcing) is announced again (``Note("recovered")``, which adds no line
to the table: nothing happened in the game), and so is a game that ended so within
:data:`RECOVERY_WINDOW`. Nothing else is sent: a restart costs Discord no call per game.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from bot.storage import StorageError

from .memory import Memory
from .session import Session

if TYPE_CHECKING:  # (the service imports this module, and they import the service)
    from .saving import Saver
    from .turns import Turns

log = logging.getLogger(__name__)

RECOVERY_WINDOW = timedelta(days=1)
"""How long after its end a game whose end was never shown is announced by a restart."""
RESTORE_CHUNK = 25
"""Games parsed per step on start; the event loop answers interactions in between."""


async def restore(memory: Memory, saver: Saver, turns: Turns, clock: Callable[[], datetime]) -> int:
    """Take the active games into memory, in chunks, and resume them; then announce the
    ends a restart interrupted. The number of active games."""
    restored = 0
    after_id = 0
    while not turns.closed:
        rows = await memory.db.games.active(
            after_id=after_id, limit=RESTORE_CHUNK, shards=memory.shards
        )
        if not rows:
            break
        after_id = rows[-1].id
        for row in rows:
            session = memory.games.get(row.id)  # an interaction may have loaded it
            if session is None:
                session = memory.adopt(Session.from_row(row))
            restored += 1
            if row.announced_version < row.version and session.version == row.version:
                saver.recovered(session)
            if session.id not in turns.watchdogs:
                turns.after_change(session)
        await asyncio.sleep(0)
    memory.restored.set()
    log.info("restored %d active games", restored)
    if not turns.closed:
        try:
            await announce_ended(memory, saver, clock)
        except StorageError:
            log.warning("could not read the games that ended unannounced", exc_info=True)
    return restored


async def announce_ended(memory: Memory, saver: Saver, clock: Callable[[], datetime]) -> None:
    """Announce the games whose final save landed but whose end Discord was never
    shown (a crash between the two), if they ended within :data:`RECOVERY_WINDOW`:
    their table shows the result and a finished match its Rematch button."""
    since = clock() - RECOVERY_WINDOW
    rows = await memory.db.games.unannounced(ended_since=since, shards=memory.shards)
    ended = 0
    for row in rows:
        if row.active:
            continue  # restored above
        try:
            session = Session.from_row(row)
        except Exception:  # one unreadable game must not keep the others unannounced
            log.warning("game %d: its end could not be read to announce it", row.id)
            continue
        saver.recovered(session)
        ended += 1
    if ended:
        log.info("announcing the end of %d games a restart interrupted", ended)
