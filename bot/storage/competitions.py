"""Club competitions: the ``competitions`` table behind :class:`CompetitionRepository`.

A competition is saved whole, as the JSON of its value (``bot.competitions``), with a
version that every save checks (two referees clicking at once: the second save is
stale and reloads, as a game's would). At most one open competition a channel.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from .codec import from_row, to_text
from .errors import ChannelBusyError, IntegrityError, StaleGameError

if TYPE_CHECKING:
    from .database import Database
    from .sql import Row

COMPETITION_STATUSES = frozenset({"checkin", "playing", "finished", "cancelled"})
_OPEN = "status IN ('checkin', 'playing')"
_COLUMNS = (
    "id, guild_id, channel_id, referee_id, status, state, version, message_id,"
    " created_at, updated_at"
)


@dataclass(frozen=True, slots=True)
class CompetitionRow:
    id: int
    guild_id: int
    channel_id: int
    referee_id: int
    status: str
    state: dict[str, Any]
    version: int
    message_id: int | None
    created_at: datetime
    updated_at: datetime


def _row(row: Row) -> CompetitionRow:
    return from_row(CompetitionRow, row, state=json.loads(row["state"]))


class CompetitionRepository:
    """Create, read and save competitions."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        referee_id: int,
        status: str,
        state: Mapping[str, Any],
        now: datetime,
    ) -> CompetitionRow:
        """A new competition at version 0; :class:`ChannelBusyError` if the channel
        already has an open one."""
        _check(status)
        stamp = to_text(now)
        try:
            rows = await self._db.write(
                "INSERT INTO competitions (guild_id, channel_id, referee_id, status, state,"
                " version, message_id, created_at, updated_at)"
                f" VALUES (?, ?, ?, ?, ?, 0, NULL, ?, ?) RETURNING {_COLUMNS}",
                (guild_id, channel_id, referee_id, status, json.dumps(state), stamp, stamp),
            )
        except IntegrityError as exc:
            if "competitions" in exc.constraint:
                raise ChannelBusyError(
                    f"channel {channel_id} already has an open competition", channel_id=channel_id
                ) from exc
            raise
        return _row(rows[0])

    async def _select(self, where: str, params: Sequence[Any] = ()) -> list[CompetitionRow]:
        rows = await self._db.fetchall(f"SELECT {_COLUMNS} FROM competitions WHERE {where}", params)
        return [_row(r) for r in rows]

    async def get(self, competition_id: int) -> CompetitionRow | None:
        return next(iter(await self._select("id = ?", (competition_id,))), None)

    async def open_in(self, channel_id: int) -> CompetitionRow | None:
        """The channel's open competition (checking in or being played), if any."""
        return next(iter(await self._select(f"channel_id = ? AND {_OPEN}", (channel_id,))), None)

    async def open_all(self) -> list[CompetitionRow]:
        """Every open competition (a restart picks them up), oldest first."""
        return await self._select(f"{_OPEN} ORDER BY id")

    async def finished_in(
        self, guild_id: int, limit: int = 20, offset: int = 0
    ) -> list[CompetitionRow]:
        """The guild's finished competitions, newest first (from the ``offset``-th)."""
        return await self._select(
            "guild_id = ? AND status = 'finished' ORDER BY id DESC LIMIT ? OFFSET ?",
            (guild_id, limit, offset),
        )

    async def finished_count(self, guild_id: int) -> int:
        """How many finished competitions the guild has."""
        return await self._db.fetchint(
            "SELECT count(*) FROM competitions WHERE guild_id = ? AND status = 'finished'",
            (guild_id,),
        )

    async def save(
        self,
        competition_id: int,
        *,
        expected_version: int,
        status: str,
        state: Mapping[str, Any],
        now: datetime,
        message_id: int | None = None,
    ) -> CompetitionRow:
        """Save the competition if it is still at ``expected_version`` (bumping it);
        :class:`~.errors.StaleGameError` otherwise."""
        _check(status)
        rows = await self._db.write(
            "UPDATE competitions SET status = ?, state = ?, version = version + 1,"
            " updated_at = ?, message_id = COALESCE(?, message_id)"
            f" WHERE id = ? AND version = ? RETURNING {_COLUMNS}",
            (status, json.dumps(state), to_text(now), message_id, competition_id, expected_version),
        )
        if not rows:
            found = await self.get(competition_id)
            raise StaleGameError(
                f"competition {competition_id} is not at version {expected_version}",
                game_id=competition_id,
                expected_version=expected_version,
                actual_version=None if found is None else found.version,
            )
        return _row(rows[0])


def _check(status: str) -> None:
    if status not in COMPETITION_STATUSES:
        raise ValueError(
            f"competition status {status!r} is not one of {sorted(COMPETITION_STATUSES)}"
        )
