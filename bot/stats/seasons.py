"""Leaderboard seasons: when one is due, closing it, the closed ones and their boards.

    seasons = SeasonService(db, clock=clock)     # StatsService builds it: stats.seasons
    seasons.start_schedule()                     # the owner process: closes what is due
    closed = await seasons.close(guild, user, can_manage=True, number=1, asked_at=t)
    closed = await seasons.close_due(now)        # what the schedule's loop runs

A schedule closes a server's season at the first due moment (:func:`next_close`: weekly
on Mondays 00:00 UTC, monthly on the 1st 00:00 UTC) after both the season's start and
the moment the schedule was chosen. A late check (the bot was down) closes it once, not
once per missed week. Closing is :meth:`bot.storage.SeasonRepository.close`: it closes
only the season it names, so a double click, two processes or a manual close racing the
schedule close one season.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Final

from bot.engine.rules import GAMES
from bot.games.errors import GameError
from bot.i18n import N_
from bot.storage import (
    ORDERS,
    RATINGS,
    SCHEDULES,
    BoardPage,
    ClosedSeason,
    CurrentSeason,
    Database,
    SeasonSettings,
)

log = logging.getLogger(__name__)

__all__ = ["CLOSE_WINDOW", "SeasonOverview", "SeasonService", "due_at", "next_close"]

CLOSE_WINDOW: Final = timedelta(minutes=10)
"""How long a close confirmation button stays good."""
MAX_WAIT: Final = timedelta(days=1)
"""The longest the schedule's loop sleeps before it looks again."""
RETRY: Final = timedelta(minutes=1)
"""How soon the loop tries again after the database failed it."""
BOARD_PAGE_SIZE: Final = 10


def next_close(schedule: str, after: datetime) -> datetime | None:
    """The first moment after ``after`` (strictly) when ``schedule`` closes a season:
    ``weekly`` Mondays 00:00 UTC, ``monthly`` the 1st 00:00 UTC, ``off`` never (None)."""
    if schedule == "off":
        return None
    moment = after.astimezone(UTC)
    midnight = moment.replace(hour=0, minute=0, second=0, microsecond=0)
    if schedule == "weekly":
        monday = midnight - timedelta(days=midnight.weekday())
        return monday + timedelta(days=7) if monday <= moment else monday
    if schedule == "monthly":
        first = midnight.replace(day=1)
        return first if first > moment else (first + timedelta(days=32)).replace(day=1)
    raise ValueError(f"schedule {schedule!r} is not one of {SCHEDULES}")


def due_at(settings: SeasonSettings, current: CurrentSeason) -> datetime | None:
    """When the schedule closes the server's current season (None: no schedule)."""
    starts = [m for m in (current.started_at, settings.schedule_from) if m is not None]
    if settings.schedule == "off" or not starts:
        return None
    return next_close(settings.schedule, max(starts))


@dataclass(frozen=True, slots=True)
class SeasonOverview:
    """What ``/domino season list`` shows: the current season, the settings, the next
    scheduled close, and the closed seasons (the latest first)."""

    current: CurrentSeason
    settings: SeasonSettings
    next_close: datetime | None
    closed: tuple[ClosedSeason, ...]


class SeasonService:
    """Seasons of one bot: settings, closing (by hand or when due), the archived boards."""

    def __init__(self, db: Database, *, clock: Callable[[], datetime]) -> None:
        self.db = db
        self.clock = clock
        self._loop: asyncio.Task[None] | None = None
        self._sleeping = False
        self._again = False
        self._scheduling = False
        """Whether this process closes the seasons due (its owner: ``start_schedule``)."""

    # -- reading --------------------------------------------------------------------------

    async def current(self, guild_id: int) -> CurrentSeason:
        return await self.db.seasons.current(guild_id)

    async def overview(self, guild_id: int) -> SeasonOverview:
        current = await self.db.seasons.current(guild_id)
        settings = await self.db.seasons.settings(guild_id)
        closed = await self.db.seasons.closed(guild_id)
        return SeasonOverview(current, settings, due_at(settings, current), tuple(closed))

    async def board(
        self,
        guild_id: int,
        number: int,
        game: str | None = None,
        order: str = "rating",
        page: int = 0,
    ) -> tuple[ClosedSeason, BoardPage]:
        """A page of closed season ``number``'s board of ``game`` (default: its most
        played), as it was when the season closed."""
        if game is not None and game not in GAMES:
            raise GameError(N_("Choose a game: block, draw, allfives, latvian or mexican."))
        if order not in ORDERS:
            raise GameError(N_("The leaderboard is ordered by rating or by places."))
        season = await self.db.seasons.closed_season(guild_id, number) if number > 0 else None
        if season is None:
            current = await self.db.seasons.current(guild_id)
            if number == current.number:
                raise GameError(
                    N_(
                        "Season {number} is still going on: /domino leaderboard shows it. "
                        "Closed seasons are listed by /domino season list."
                    ),
                    number=number,
                )
            raise GameError(N_("There is no closed season {number} on this server."), number=number)
        game = game or (season.games[0][0] if season.games else "block")
        if order == "places" and game != "latvian":
            raise GameError(N_("Only Latvian sessions give place points."))
        found = await self.db.seasons.board(
            guild_id, number, game, order=order, page=page, page_size=BOARD_PAGE_SIZE
        )
        return season, found

    # -- settings and closing ------------------------------------------------------------

    @staticmethod
    def check_can_manage(can_manage: bool) -> None:
        if not can_manage:
            raise GameError(N_("Only someone with Manage Server can close or set up seasons."))

    async def set_settings(
        self,
        guild_id: int,
        *,
        can_manage: bool,
        ratings: str | None = None,
        schedule: str | None = None,
    ) -> SeasonOverview:
        """Change the server's season settings (what is None stays); the new overview."""
        self.check_can_manage(can_manage)
        if ratings is not None and ratings not in RATINGS:
            raise GameError(N_("Ratings are carried into the next season or reset."))
        if schedule is not None and schedule not in SCHEDULES:
            raise GameError(N_("Seasons close by hand (off), weekly or monthly."))
        if ratings is not None or schedule is not None:
            await self.db.seasons.set_settings(
                guild_id, now=self.clock(), ratings=ratings, schedule=schedule
            )
            self._restart_schedule()  # the loop looks again at once
        return await self.overview(guild_id)

    async def close(
        self, guild_id: int, user_id: int, *, can_manage: bool, number: int, asked_at: datetime
    ) -> ClosedSeason:
        """Close season ``number`` after a confirmation asked at ``asked_at``."""
        self.check_can_manage(can_manage)
        now = self.clock()
        if now - asked_at > CLOSE_WINDOW:
            raise GameError(
                N_("This confirmation has expired. Ask again with /domino season close.")
            )
        closed = await self.db.seasons.close(guild_id, number=number, by=user_id, now=now)
        if closed is None:
            raise GameError(N_("Season {number} is closed already."), number=number)
        return closed

    async def close_due(self, now: datetime) -> list[ClosedSeason]:
        """Close every season whose scheduled close is at or before ``now``."""
        closed = []
        for guild_id, settings, current in await self.db.seasons.scheduled():
            due = due_at(settings, current)
            if due is None or due > now:
                continue
            season = await self.db.seasons.close(guild_id, number=current.number, by=None, now=now)
            if season is not None:
                closed.append(season)
        return closed

    async def next_due(self) -> datetime | None:
        """The earliest scheduled close of any server (None: no server has a schedule)."""
        dues = [due_at(s, c) for _, s, c in await self.db.seasons.scheduled()]
        return min((d for d in dues if d is not None), default=None)

    # -- the schedule's loop -------------------------------------------------------------

    def start_schedule(self) -> None:
        """Close seasons when they are due, in the background, until :meth:`stop`.

        The loop sleeps until the next due close (at most :data:`MAX_WAIT`) and ends
        when no server has a schedule; a schedule chosen here starts it again (a server's
        commands are answered by the process that owns its shard, which runs its loop)."""
        self._scheduling = True
        if self._loop is None:
            self._loop = asyncio.get_running_loop().create_task(self._run())

    def _restart_schedule(self) -> None:
        """The settings changed: a sleeping loop starts anew; a busy one looks again."""
        if self._loop is None:
            if self._scheduling:
                self.start_schedule()
            return
        if self._sleeping:
            self._loop.cancel()
            self._loop = None
            self.start_schedule()
        else:
            self._again = True

    async def stop(self) -> None:
        self._scheduling = False
        if self._loop is not None:
            self._loop.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._loop
            self._loop = None

    async def _run(self) -> None:
        while True:
            try:
                await self.close_due(self.clock())
                due = await self.next_due()
                if due is None and not self._again:
                    self._loop = None  # nothing scheduled: a schedule chosen starts it again
                    return
                wait = MAX_WAIT if due is None else min(MAX_WAIT, due - self.clock())
            except Exception:
                log.exception("closing the seasons that are due failed; trying again")
                wait = RETRY
            if self._again:
                self._again = False
                continue
            # a plain sleep: what SimCord's virtual clock recognizes (and advances)
            self._sleeping = True
            try:
                await asyncio.sleep(max(wait.total_seconds(), 1.0))
            finally:
                self._sleeping = False
