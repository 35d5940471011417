"""The puzzle service (issue 40): the day's puzzle from the server's finished matches
(else the built-in set), never twice the same position, posting what is due, answers."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from bot.engine import Rules, match_record, new_match, next_deal, play, view
from bot.engine.ai import Level, choose_move
from bot.puzzles import DailyPuzzle, PuzzleError, PuzzleService
from bot.storage import Database, FinishedMatch, MatchDeal, MatchSeat

T0 = datetime(2025, 3, 1, 8, 0, tzinfo=UTC)
GUILD = 1
CHANNEL = 10


def finished_record(seed: int) -> dict[str, object]:
    rng = random.Random(seed)
    state = new_match(Rules.make("block", players=2, target=30), rng)
    while True:
        while not state.deal.over:
            state = play(state, choose_move(view(state, state.turn), Level.NORMAL, rng))
        if state.over:
            return match_record(state, ["Alice", "Bob"])
        state = next_deal(state, rng)


async def store_match(db: Database, guild_id: int, seed: int) -> int:
    game = await db.games.create(
        guild_id=guild_id,
        channel_id=500 + seed,
        creator_id=42,
        rules={"game": "block"},
        seats=[],
        seed=seed,
        timer=60,
        now=T0,
    )
    game = await db.games.save(game.id, 0, now=T0, status="playing", state={"deals": []})
    record = finished_record(seed)
    await db.games.finish(
        game.id,
        game.version,
        now=T0,
        status="finished",
        state=record,
        seats=[],
        match=FinishedMatch(
            game="block",
            finished_at=T0,
            record=record,
            seats=(
                MatchSeat(0, 42, None, "Alice", 0, 30.0, True, None),
                MatchSeat(1, 43, None, "Bob", 1, 0.0, False, None),
            ),
            deals=(MatchDeal(1, "domino", (0,), (30.0, 0.0)),),
        ),
    )
    history = await db.matches.history(guild_id)
    return history.entries[0].id


class Clock:
    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


async def test_the_day_s_puzzle_comes_from_the_server_s_finished_match(db: Database) -> None:
    match_id = await store_match(db, GUILD, 7)
    clock = Clock(T0)
    service = PuzzleService(db, clock=clock)
    daily = await service.today(GUILD)
    assert daily.puzzle.source == f"match {match_id}"
    assert daily.names == ("Alice", "Bob")
    assert (await service.today(GUILD)).id == daily.id  # the day's, for everyone
    # another server without matches gets a built-in one
    other = await service.today(2)
    assert other.builtin
    # the next days never repeat a position
    keys = {daily.puzzle.key}
    for day in range(1, 4):
        clock.now = T0 + timedelta(days=day)
        keys.add((await service.today(GUILD)).puzzle.key)
    assert len(keys) == 4


async def test_post_due_posts_once_a_day_at_the_server_s_time(db: Database) -> None:
    clock = Clock(T0)
    service = PuzzleService(db, clock=clock)
    await service.setup(GUILD, enabled=True, channel_id=CHANNEL, time="09:30")
    await service.setup(2, enabled=False, channel_id=CHANNEL, time="00:00")
    posts: list[tuple[DailyPuzzle, int]] = []

    async def post(daily: DailyPuzzle, channel_id: int) -> int:
        posts.append((daily, channel_id))
        return 1000 + len(posts)

    assert await service.post_due(T0.replace(hour=9, minute=29), post) == []
    due = await service.post_due(T0.replace(hour=9, minute=30), post)
    assert [d.guild_id for d in due] == [GUILD]
    assert posts[0][1] == CHANNEL
    assert await service.post_due(T0.replace(hour=23), post) == []  # posted already
    clock.now = T0 + timedelta(days=1)
    again = await service.post_due(clock.now.replace(hour=10), post)
    assert len(again) == 1
    assert again[0].puzzle.key != due[0].puzzle.key
    stored = await db.puzzles.of_day(GUILD, "2025-03-02")
    assert stored is not None
    assert stored.message_id == 1002


async def test_next_due_is_the_next_server_s_time_and_none_while_none_has_it_on(
    db: Database,
) -> None:
    service = PuzzleService(db, clock=Clock(T0), owns=lambda guild_id: guild_id != 3)
    assert await service.next_due(T0) is None  # nothing to wait for: the loop ends
    await service.setup(2, enabled=False, channel_id=CHANNEL, time="09:00")
    await service.setup(3, enabled=True, channel_id=CHANNEL, time="09:00")  # not ours
    assert await service.next_due(T0) is None
    await service.setup(GUILD, enabled=True, channel_id=CHANNEL, time="09:30")
    assert await service.next_due(T0) == T0.replace(hour=9, minute=30)


async def test_a_failed_post_is_tried_again(db: Database) -> None:
    service = PuzzleService(db, clock=Clock(T0))
    await service.setup(GUILD, enabled=True, channel_id=CHANNEL, time="08:00")

    async def fail(daily: DailyPuzzle, channel_id: int) -> int | None:
        return None

    async def post(daily: DailyPuzzle, channel_id: int) -> int:
        return 77

    assert await service.post_due(T0, fail) == []
    assert len(await service.post_due(T0, post)) == 1


async def test_answers_once_right_or_wrong_and_streaks(db: Database) -> None:
    clock = Clock(T0)
    service = PuzzleService(db, clock=clock)
    daily = await service.today(GUILD)
    right = daily.puzzle.answer
    wrong = (right + 1) % len(daily.puzzle.choices)
    ok = await service.answer(daily.id, guild_id=GUILD, user_id=5, choice=right)
    assert ok.correct
    assert ok.streak.current == 1
    bad = await service.answer(daily.id, guild_id=GUILD, user_id=6, choice=wrong)
    assert not bad.correct
    assert bad.streak.current == 0
    with pytest.raises(PuzzleError, match="already answered"):
        await service.answer(daily.id, guild_id=GUILD, user_id=5, choice=wrong)
    with pytest.raises(PuzzleError, match="another server"):
        await service.answer(daily.id, guild_id=2, user_id=7, choice=right)
    stats = await service.stats(GUILD, 5)
    assert (stats.mine.solved, stats.mine.answered, stats.mine.current) == (1, 1, 1)
    assert [s.user_id for s in stats.top] == [5]
    clock.now = T0 + timedelta(days=1)
    with pytest.raises(PuzzleError, match="day is over"):
        await service.answer(daily.id, guild_id=GUILD, user_id=8, choice=right)


async def test_setup_refuses_a_bad_time_or_no_channel(db: Database) -> None:
    service = PuzzleService(db, clock=Clock(T0))
    with pytest.raises(PuzzleError, match="HH:MM"):
        await service.setup(GUILD, enabled=True, channel_id=CHANNEL, time="25:00")
    with pytest.raises(PuzzleError, match="channel"):
        await service.setup(GUILD, enabled=True, time="10:00")
    assert not (await service.settings(GUILD)).enabled
    saved = await service.setup(GUILD, enabled=True, channel_id=CHANNEL, time="7:05")
    assert (saved.minute, saved.channel_id) == (425, CHANNEL)
    # turned off, the channel and time are kept
    off = await service.setup(GUILD, enabled=False)
    assert (off.enabled, off.minute, off.channel_id) == (False, 425, CHANNEL)
