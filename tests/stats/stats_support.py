"""Helpers shared by the stats tests (a plain module: conftest modules are not importable)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from itertools import count
from typing import Any

from bot.storage import Database, FinishedMatch, MatchSeat

T0 = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)

Seat = tuple[int | None, str, int, float, bool, float | None]
"""(user id or None for an AI, name, side, side total, won, latvian place points)"""


def seats_of(*seats: Seat) -> tuple[MatchSeat, ...]:
    return tuple(
        MatchSeat(
            seat=i,
            user_id=user,
            ai_level=None if user is not None else "normal",
            name=name,
            side=side,
            total=total,
            won=won,
            place=place,
        )
        for i, (user, name, side, total, won, place) in enumerate(seats)
    )


class Matches:
    """Stores finished matches through the real GameRepository.finish, one game each."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._channels = count(5000)
        self.clock = T0

    async def add(
        self,
        *seats: Seat,
        game: str = "block",
        guild_id: int = 1,
        at: datetime | None = None,
        record: dict[str, Any] | None = None,
    ) -> int:
        """Store one match; returns the game id."""
        when = at or self.tick()
        row = await self.db.games.create(
            guild_id=guild_id,
            channel_id=next(self._channels),
            creator_id=1,
            rules={"game": game},
            seats=[],
            seed=1,
            timer=0,
            now=when,
        )
        match = FinishedMatch(
            game=game,
            finished_at=when,
            record=record or {"format": "domino-record/1", "game": row.id},
            seats=seats_of(*seats),
            deals=(),
        )
        await self.db.games.finish(
            row.id, 0, now=when, status="finished", state={}, seats=[], match=match
        )
        return row.id

    def tick(self) -> datetime:
        self.clock += timedelta(minutes=1)
        return self.clock


def components(message: Any) -> Sequence[dict[str, Any]]:
    return [c for row in message.components for c in row["components"]]
