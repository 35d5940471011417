"""The season schedule (when the next close is) and the season service's rules."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from stats_support import T0, Matches

from bot.games.errors import GameError
from bot.stats import (
    CLOSE_WINDOW,
    CurrentSeason,
    SeasonService,
    SeasonSettings,
    due_at,
    next_close,
)
from bot.storage import Database

GUILD, OTHER = 1, 2


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


@pytest.mark.parametrize(
    ("after", "weekly", "monthly"),
    [
        # 2025-03-01 is a Saturday
        (utc(2025, 3, 1, 12), utc(2025, 3, 3), utc(2025, 4, 1)),
        # exactly at a due moment: the next one (a season that began then is not due)
        (utc(2025, 3, 3), utc(2025, 3, 10), utc(2025, 4, 1)),
        (utc(2025, 3, 31, 23, 59, 59), utc(2025, 4, 7), utc(2025, 4, 1)),
        (utc(2025, 4, 1), utc(2025, 4, 7), utc(2025, 5, 1)),
        (utc(2025, 12, 15, 8), utc(2025, 12, 22), utc(2026, 1, 1)),
        (utc(2025, 12, 29, 0, 0, 0), utc(2026, 1, 5), utc(2026, 1, 1)),
        # February of a leap year; a Monday a minute before midnight
        (utc(2028, 2, 28, 23, 59), utc(2028, 3, 6), utc(2028, 3, 1)),
    ],
)
def test_the_next_close_is_monday_or_the_first_at_midnight_utc(
    after: datetime, weekly: datetime, monthly: datetime
) -> None:
    assert next_close("weekly", after) == weekly
    assert next_close("monthly", after) == monthly
    assert next_close("off", after) is None


def test_the_schedule_is_in_utc_whatever_the_clock_says() -> None:
    # Monday 01:30 in Helsinki (UTC+2) is still Sunday 23:30 UTC: due half an hour later
    helsinki = timezone(timedelta(hours=2))
    assert next_close("weekly", datetime(2025, 3, 3, 1, 30, tzinfo=helsinki)) == utc(2025, 3, 3)
    with pytest.raises(ValueError, match="daily"):
        next_close("daily", T0)


def test_a_season_is_due_after_its_start_and_after_the_schedule_was_chosen() -> None:
    never = CurrentSeason(GUILD, 1, None, 0)
    began = CurrentSeason(GUILD, 4, utc(2025, 3, 10, 9), 77)
    weekly = SeasonSettings("reset", "weekly", utc(2025, 3, 5))
    assert due_at(weekly, never) == utc(2025, 3, 10)
    assert due_at(weekly, began) == utc(2025, 3, 17)
    chosen_later = SeasonSettings("carry", "monthly", utc(2025, 4, 2))
    assert due_at(chosen_later, began) == utc(2025, 5, 1)
    assert due_at(SeasonSettings(), began) is None
    assert due_at(SeasonSettings("reset", "weekly", None), never) is None


def duel(winner: int, loser: int) -> tuple[tuple[int, str, int, float, bool, None], ...]:
    return (winner, f"P{winner}", 0, 100.0, True, None), (loser, f"P{loser}", 1, 0.0, False, None)


class Clock:
    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


async def test_the_due_step_closes_each_due_season_once(db: Database, matches: Matches) -> None:
    clock = Clock(utc(2025, 3, 1, 12))  # a Saturday
    seasons = SeasonService(db, clock=clock)
    await seasons.set_settings(GUILD, can_manage=True, schedule="weekly")
    await seasons.set_settings(OTHER, can_manage=True, schedule="monthly")
    await matches.add(*duel(5, 6), at=utc(2025, 3, 1, 13))
    assert await seasons.next_due() == utc(2025, 3, 3)
    assert await seasons.close_due(utc(2025, 3, 2, 23, 59)) == []

    # the bot was down for a fortnight: one close, not two
    late = utc(2025, 3, 17, 8)
    closed = await seasons.close_due(late)
    assert [(c.guild_id, c.number, c.closed_by, c.ended_at) for c in closed] == [
        (GUILD, 1, None, late)
    ]
    assert await seasons.close_due(late) == []
    current = await seasons.current(GUILD)
    assert (current.number, current.started_at) == (2, late)
    assert await seasons.next_due() == utc(2025, 3, 24)
    assert [c.number for c in await seasons.close_due(utc(2025, 4, 1))] == [2, 1]
    assert (await seasons.current(OTHER)).number == 2

    # schedule off: nothing is due any more
    await seasons.set_settings(GUILD, can_manage=True, schedule="off")
    await seasons.set_settings(OTHER, can_manage=True, schedule="off")
    assert await seasons.next_due() is None
    assert await seasons.close_due(utc(2026, 1, 1)) == []


async def test_closing_by_hand_is_checked(db: Database, matches: Matches) -> None:
    clock = Clock(T0)
    seasons = SeasonService(db, clock=clock)
    await matches.add(*duel(5, 6))
    with pytest.raises(GameError, match="Manage Server"):
        await seasons.close(GUILD, 5, can_manage=False, number=1, asked_at=T0)
    clock.now = T0 + CLOSE_WINDOW + timedelta(seconds=1)
    with pytest.raises(GameError, match="expired"):
        await seasons.close(GUILD, 5, can_manage=True, number=1, asked_at=T0)
    assert (await seasons.current(GUILD)).number == 1
    closed = await seasons.close(GUILD, 5, can_manage=True, number=1, asked_at=clock.now)
    assert (closed.number, closed.closed_by) == (1, 5)
    with pytest.raises(GameError) as again:
        await seasons.close(GUILD, 5, can_manage=True, number=1, asked_at=clock.now)
    assert again.value.fields == {"number": 1}
    assert (await seasons.current(GUILD)).number == 2


async def test_settings_and_archived_boards_refuse_bad_options(
    db: Database, matches: Matches
) -> None:
    seasons = SeasonService(db, clock=Clock(T0))
    for kw in ({"ratings": "keep"}, {"schedule": "daily"}):
        with pytest.raises(GameError):
            await seasons.set_settings(GUILD, can_manage=True, **kw)
    with pytest.raises(GameError, match="Manage Server"):
        await seasons.set_settings(GUILD, can_manage=False, ratings="carry")
    assert await db.seasons.settings(GUILD) == SeasonSettings()

    await matches.add(*duel(5, 6))
    await seasons.close(GUILD, 5, can_manage=True, number=1, asked_at=T0)
    season, page = await seasons.board(GUILD, 1)
    assert (season.number, page.game, [e.user_id for e in page.entries]) == (1, "block", [5, 6])
    for number in (0, -3, 7):
        with pytest.raises(GameError, match="no closed season"):
            await seasons.board(GUILD, number)
    with pytest.raises(GameError, match="still going on"):
        await seasons.board(GUILD, 2)
    with pytest.raises(GameError):
        await seasons.board(GUILD, 1, game="chess")
    with pytest.raises(GameError):
        await seasons.board(GUILD, 1, order="places")
    with pytest.raises(GameError):
        await seasons.board(GUILD, 1, order="fame")
