"""The puzzle service: the day's puzzle of a server, posting what is due, answers, stats.

Days are UTC dates (``YYYY-MM-DD``). A server's puzzle of a day is made the first time
it is needed (:meth:`PuzzleService.today`: asked for, or due) and is then the day's for
everyone. :meth:`PuzzleService.post_due` is the scheduler's one step: every server (of
this process) whose time has come today and whose puzzle is not posted yet gets it
posted through the caller's ``post``; the cog's background loop calls it each minute
and tests call it directly with the moment they want.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from bot.games.errors import GameError
from bot.i18n import N_
from bot.storage import Database, IntegrityError, PuzzleSettings, Streak

from .daily import DailyPuzzle, from_row, stored
from .picking import pick

log = logging.getLogger(__name__)

Poster = Callable[[DailyPuzzle, int], Awaitable[int | None]]
"""Posts a puzzle in a channel (its id); the message's id, or None when it could not."""

TOP_STREAKS = 5
IDLE = timedelta(hours=6)
"""The scheduler looks again at least this often (while a server has the puzzle on)."""

NOT_HERE = N_("That puzzle belongs to another server.")
GONE = N_("That puzzle is no longer here.")
ANSWERED = N_(
    "You have already answered this puzzle: each player answers once. A new one comes tomorrow."
)
DAY_OVER = N_("That puzzle's day is over. Try today's with `/domino puzzle today`.")
NONE_LEFT = N_(
    "There is no new puzzle for this server just now. Please try again after your next match."
)
BAD_TIME = N_("Write the time as HH:MM, UTC, from 00:00 to 23:59 (for example 18:30).")
NO_CHANNEL = N_("Name the channel the daily puzzle is posted in.")
BAD_CHOICE = N_("That move is not one of this puzzle's.")


class PuzzleError(GameError):
    """A puzzle request refused (shown politely; nothing changed)."""


@dataclass(frozen=True, slots=True)
class AnswerOutcome:
    daily: DailyPuzzle
    choice: int
    correct: bool
    streak: Streak


@dataclass(frozen=True, slots=True)
class PuzzleStats:
    mine: Streak
    top: tuple[Streak, ...]
    """The server's best current streaks (then best ever), longest first."""


def day_of(moment: datetime) -> str:
    return moment.astimezone(UTC).date().isoformat()


def minute_of(moment: datetime) -> int:
    utc = moment.astimezone(UTC)
    return utc.hour * 60 + utc.minute


def parse_time(text: str) -> int:
    """``HH:MM`` (UTC) as minutes after midnight; :class:`PuzzleError` otherwise."""
    match = re.fullmatch(r"\s*(\d{1,2})[:.](\d{2})\s*", text)
    if match is None:
        raise PuzzleError(BAD_TIME)
    hours, minutes = int(match[1]), int(match[2])
    if hours > 23 or minutes > 59:
        raise PuzzleError(BAD_TIME)
    return hours * 60 + minutes


class PuzzleService:
    """The daily puzzle of every server, over ``db.puzzles`` and the finished matches."""

    def __init__(
        self,
        db: Database,
        *,
        clock: Callable[[], datetime],
        owns: Callable[[int], bool] = lambda guild_id: True,
    ) -> None:
        self.db = db
        self.clock = clock
        self.owns = owns
        """Whether this process posts a server's puzzle (its shards' servers)."""
        self._making: dict[int, asyncio.Lock] = {}
        self._posting = asyncio.Lock()

    # -- the day's puzzle ---------------------------------------------------------

    async def today(self, guild_id: int) -> DailyPuzzle:
        """The server's puzzle of today, made now if it has none yet."""
        day = day_of(self.clock())
        row = await self.db.puzzles.of_day(guild_id, day)
        if row is not None:
            return from_row(row)
        lock = self._making.setdefault(guild_id, asyncio.Lock())
        try:
            async with lock:
                return await self._make(guild_id, day)
        finally:
            if not lock.locked():
                self._making.pop(guild_id, None)

    async def _make(self, guild_id: int, day: str) -> DailyPuzzle:
        row = await self.db.puzzles.of_day(guild_id, day)
        if row is not None:
            return from_row(row)
        for _ in range(3):  # another process may take a position meanwhile: pick again
            used = await self.db.puzzles.used_keys(guild_id)
            picked = await pick(self.db, guild_id, used)
            if picked is None:
                raise PuzzleError(NONE_LEFT)
            puzzle, names = picked
            try:
                made = await self.db.puzzles.create_day(
                    guild_id, day, puzzle.key, stored(puzzle, names), self.clock()
                )
            except IntegrityError:
                continue
            return from_row(made)
        raise PuzzleError(NONE_LEFT)

    async def get(self, puzzle_id: int, guild_id: int | None) -> DailyPuzzle:
        """A puzzle by its id, as a button names it, checked to be the server's."""
        row = await self.db.puzzles.get(puzzle_id)
        if row is None:
            raise PuzzleError(GONE)
        if row.guild_id != guild_id:
            raise PuzzleError(NOT_HERE)
        return from_row(row)

    # -- posting ------------------------------------------------------------------

    async def post_due(self, now: datetime, post: Poster) -> list[DailyPuzzle]:
        """Post every puzzle due at ``now``: each server of this process with the
        puzzle on, a channel, its time of day reached and today's puzzle not posted.
        A server whose post fails is tried again on the next call."""
        async with self._posting:
            day, minute = day_of(now), minute_of(now)
            posted = []
            for settings in await self.db.puzzles.enabled():
                if settings.channel_id is None or not self.owns(settings.guild_id):
                    continue
                if minute < settings.minute:
                    continue
                row = await self.db.puzzles.of_day(settings.guild_id, day)
                if row is not None and row.message_id is not None:
                    continue
                try:
                    daily = (
                        from_row(row) if row is not None else await self.today(settings.guild_id)
                    )
                    message_id = await post(daily, settings.channel_id)
                except PuzzleError:
                    continue  # nothing new to post: the next match brings one
                except Exception:
                    log.exception("the daily puzzle of server %d was not posted", settings.guild_id)
                    continue
                if message_id is None:
                    continue
                await self.db.puzzles.mark_posted(daily.id, settings.channel_id, message_id)
                posted.append(daily)
            return posted

    async def next_due(self, now: datetime) -> datetime | None:
        """When :meth:`post_due` has something to do next: the next time of day of a
        server of this process with the puzzle on (at most :data:`IDLE` away); None when
        no server of this process has it on (nothing to wait for)."""
        day, minute = day_of(now), minute_of(now)
        midnight = now.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
        dues = []
        for settings in await self.db.puzzles.enabled():
            if settings.channel_id is None or not self.owns(settings.guild_id):
                continue
            at = midnight + timedelta(minutes=settings.minute)
            if settings.minute <= minute:
                row = await self.db.puzzles.of_day(settings.guild_id, day)
                if row is None or row.message_id is None:
                    at = now  # due (a post that failed): tried again
                else:
                    at += timedelta(days=1)
            dues.append(at)
        return min(*dues, now + IDLE) if dues else None

    # -- answers and stats --------------------------------------------------------

    async def answer(
        self, puzzle_id: int, *, guild_id: int | None, user_id: int, choice: int
    ) -> AnswerOutcome:
        """Record ``user_id``'s answer (a choice's index) to today's puzzle of the server;
        refused for another server's puzzle, another day's, or a second answer."""
        daily = await self.get(puzzle_id, guild_id)
        now = self.clock()
        if daily.day != day_of(now):
            raise PuzzleError(DAY_OVER)
        if not 0 <= choice < len(daily.puzzle.choices):
            raise PuzzleError(BAD_CHOICE)
        correct = choice == daily.puzzle.answer
        if not await self.db.puzzles.answer(
            daily.id, user_id, choice=choice, correct=correct, now=now
        ):
            raise PuzzleError(ANSWERED)
        mine = await self.db.puzzles.streaks(daily.guild_id, daily.day, user_id)
        return AnswerOutcome(daily, choice, correct, mine.get(user_id, Streak(user_id)))

    async def stats(self, guild_id: int, user_id: int) -> PuzzleStats:
        everyone = await self.db.puzzles.streaks(guild_id, day_of(self.clock()))
        ranked = sorted(
            (s for s in everyone.values() if s.best > 0),
            key=lambda s: (-s.current, -s.best, -s.solved, s.user_id),
        )
        return PuzzleStats(everyone.get(user_id, Streak(user_id)), tuple(ranked[:TOP_STREAKS]))

    # -- settings -----------------------------------------------------------------

    async def settings(self, guild_id: int) -> PuzzleSettings:
        return await self.db.puzzles.settings(guild_id)

    async def setup(
        self,
        guild_id: int,
        *,
        enabled: bool,
        channel_id: int | None = None,
        time: str | None = None,
    ) -> PuzzleSettings:
        """Change a server's settings; what is left out stays as it was."""
        old = await self.db.puzzles.settings(guild_id)
        minute = old.minute if time is None else parse_time(time)
        channel = channel_id if channel_id is not None else old.channel_id
        if enabled and channel is None:
            raise PuzzleError(NO_CHANNEL)
        return await self.db.puzzles.set_settings(
            guild_id, enabled=enabled, channel_id=channel, minute=minute, now=self.clock()
        )
