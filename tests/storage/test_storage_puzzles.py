"""The daily puzzle's tables (issue 40), on both backends: settings, one puzzle a server
a day and each position once a server, one answer a user a puzzle, streaks."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.storage import Database, IntegrityError, PuzzleSettings, Streak, streaks

DOC = {"format": "domino-puzzle/1", "note": "any JSON object"}


async def test_settings_default_off_and_are_saved_whole(db: Database, t0) -> None:
    assert await db.puzzles.settings(1) == PuzzleSettings(1)
    await db.puzzles.set_settings(1, enabled=True, channel_id=10, minute=9 * 60, now=t0)
    await db.puzzles.set_settings(2, enabled=False, channel_id=None, minute=0, now=t0)
    assert await db.puzzles.settings(1) == PuzzleSettings(1, True, 10, 540)
    assert await db.puzzles.enabled() == [PuzzleSettings(1, True, 10, 540)]
    await db.puzzles.set_settings(1, enabled=False, channel_id=10, minute=30, now=t0)
    assert await db.puzzles.enabled() == []
    assert (await db.puzzles.settings(1)).minute == 30


async def test_settings_out_of_range_are_refused(db: Database, t0) -> None:
    with pytest.raises(ValueError, match="1439"):
        await db.puzzles.set_settings(1, enabled=True, channel_id=10, minute=1440, now=t0)
    with pytest.raises(ValueError, match="channel"):
        await db.puzzles.set_settings(1, enabled=True, channel_id=None, minute=10, now=t0)
    assert await db.puzzles.settings(1) == PuzzleSettings(1)


async def test_one_puzzle_a_server_a_day_and_each_position_once(db: Database, t0) -> None:
    first = await db.puzzles.create_day(1, "2025-03-01", "builtin 0/1/3", DOC, t0)
    assert first.puzzle == DOC
    assert first.message_id is None
    # asked again the same day (another key): the day's puzzle stays
    again = await db.puzzles.create_day(1, "2025-03-01", "builtin 2/1/5", DOC, t0)
    assert again.id == first.id
    assert again.key == "builtin 0/1/3"
    # another server may have the same position
    other = await db.puzzles.create_day(2, "2025-03-01", "builtin 0/1/3", DOC, t0)
    assert other.id != first.id
    with pytest.raises(IntegrityError):
        await db.puzzles.create_day(1, "2025-03-02", "builtin 0/1/3", DOC, t0)
    assert await db.puzzles.used_keys(1) == {"builtin 0/1/3"}
    await db.puzzles.mark_posted(first.id, 10, 555)
    posted = await db.puzzles.of_day(1, "2025-03-01")
    assert posted is not None
    assert (posted.channel_id, posted.message_id) == (10, 555)
    assert await db.puzzles.of_day(1, "2025-03-02") is None
    assert (await db.puzzles.get(first.id)) == posted


async def test_one_answer_a_user_a_puzzle(db: Database, t0) -> None:
    p = await db.puzzles.create_day(1, "2025-03-01", "k", DOC, t0)
    assert await db.puzzles.answer(p.id, 7, choice=1, correct=True, now=t0)
    assert not await db.puzzles.answer(p.id, 7, choice=0, correct=False, now=t0)
    kept = await db.puzzles.answer_of(p.id, 7)
    assert kept is not None
    assert (kept.choice, kept.correct) == (1, True)
    assert await db.puzzles.answer_of(p.id, 8) is None


async def test_streaks_from_the_stored_answers(db: Database, t0) -> None:
    days = [f"2025-03-0{d}" for d in range(1, 6)]
    ids = []
    for i, day in enumerate(days):
        ids.append((await db.puzzles.create_day(1, day, f"k{i}", DOC, t0 + timedelta(days=i))).id)
    # user 7: right, right, wrong, right, (today unanswered); user 8: right on days 4, 5
    for i, right in enumerate([True, True, False, True]):
        await db.puzzles.answer(ids[i], 7, choice=0, correct=right, now=t0)
    for i in (3, 4):
        await db.puzzles.answer(ids[i], 8, choice=0, correct=True, now=t0)
    found = await db.puzzles.streaks(1, today=days[-1])
    assert found[7] == Streak(7, answered=4, solved=3, current=1, best=2)
    assert found[8] == Streak(8, answered=2, solved=2, current=2, best=2)
    assert await db.puzzles.streaks(1, today=days[-1], user_id=8) == {8: found[8]}
    assert await db.puzzles.streaks(2, today=days[-1]) == {}
    # the next day user 7 still has not answered day 5: the streak is over
    later = await db.puzzles.streaks(1, today="2025-03-06")
    assert later[7].current == 0


def test_a_missed_past_day_ends_a_streak_and_today_does_not() -> None:
    days = [(1, "2025-01-01"), (2, "2025-01-02"), (3, "2025-01-03")]
    found = streaks(days, [(1, 5, True), (3, 5, True)], today="2025-01-03")
    assert (found[5].current, found[5].best) == (1, 1)
    found = streaks(days, [(1, 5, True), (2, 5, True)], today="2025-01-03")
    assert (found[5].current, found[5].best) == (2, 2)
