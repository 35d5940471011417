"""Which position a server gets next: one of its own finished matches', else a built-in.

The server's matches are read newest first (:data:`MATCHES_LOOKED_AT` at most); in the
newest with a position the server has not had, the one with the largest margin (then the
earliest) is taken. The ``matches`` table holds finished matches only, and
:func:`~bot.engine.puzzle.match_puzzles` refuses a match in play, so no position shows a
hand of a game still being played. Without one, the first built-in puzzle the server
has not had; None when it has had them all.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Collection
from typing import Any

from bot.engine import DominoError, load_record
from bot.engine.puzzle import BUILTIN_SEEDS, Puzzle, match_puzzles
from bot.engine.puzzle.builtin import builtin_puzzle
from bot.storage import Database

log = logging.getLogger(__name__)

MATCHES_LOOKED_AT = 20
"""The server's newest finished matches searched for a position."""


async def pick(
    db: Database, guild_id: int, used: Collection[str]
) -> tuple[Puzzle, tuple[str, ...]] | None:
    """A position the server has not had (``used``: their keys) and its seats' names."""
    page = await db.matches.history(guild_id, page=0, page_size=MATCHES_LOOKED_AT)
    for entry in page.entries:
        record = await db.matches.record(guild_id, entry.id)
        if record is None:
            continue
        found = await asyncio.to_thread(_fresh, record, f"match {entry.id}", used)
        if found is not None:
            names = record.get("seats")
            seats = tuple(str(n) for n in names) if isinstance(names, list) else ()
            return found, seats
    return await asyncio.to_thread(_builtin, used)


def _fresh(record: dict[str, Any], source: str, used: Collection[str]) -> Puzzle | None:
    try:
        state = load_record(record)
        found = [p for p in match_puzzles(state, source) if p.key not in used]
    except (DominoError, ValueError):
        log.warning("no puzzle read from %s (its record does not load)", source, exc_info=True)
        return None
    if not found:
        return None
    return max(found, key=lambda p: (p.margin, -p.deal_number, -p.ply))


def _builtin(used: Collection[str]) -> tuple[Puzzle, tuple[str, ...]] | None:
    for index in range(BUILTIN_SEEDS):
        puzzle = builtin_puzzle(index)
        if puzzle is not None and puzzle.key not in used:
            return puzzle, ()
    return None
