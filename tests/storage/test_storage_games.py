"""Games: create, read, versioned saves and the one-active-game-per-channel rule."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import FrozenInstanceError
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest

from bot.storage import ChannelBusyError, Database, GameRow, StaleGameError

MakeGame = Callable[..., Awaitable[GameRow]]


async def test_create_returns_a_lobby_game_at_version_0(
    db: Database, make_game: MakeGame, t0: datetime
) -> None:
    game = await make_game(channel_id=10, seats=[{"user_id": 42, "name": "Ā"}], now=t0)
    assert isinstance(game.id, int)
    assert (game.guild_id, game.channel_id, game.creator_id) == (1, 10, 42)
    assert game.status == "lobby"
    assert game.version == 0
    assert game.rules == {"game": "block", "players": 4}
    assert game.seats == [{"user_id": 42, "name": "Ā"}]
    assert game.state is None
    assert (game.seed, game.timer, game.table_message_id) == (12345, 60, None)
    assert game.created_at == game.updated_at == t0
    assert game.created_at.tzinfo is not None
    assert game.turn_started_at is None
    assert game.active
    assert await db.games.get(game.id) == game
    with pytest.raises(FrozenInstanceError):
        game.status = "playing"  # type: ignore[misc]


async def test_get_unknown_game_is_none(db: Database) -> None:
    assert await db.games.get(12345) is None


async def test_datetimes_are_stored_as_utc_and_returned_aware(
    db: Database, make_game: MakeGame
) -> None:
    riga = timezone(timedelta(hours=2))
    local = datetime(2025, 3, 1, 14, 30, 15, 123456, tzinfo=riga)
    game = await make_game(now=local)
    assert game.created_at == local
    assert game.created_at.utcoffset() == timedelta(0)
    row = await db.fetchone("SELECT created_at FROM games WHERE id = ?", (game.id,))
    assert row is not None
    assert row[0] == "2025-03-01T12:30:15.123456+00:00"


async def test_naive_datetimes_are_refused(db: Database, make_game: MakeGame) -> None:
    with pytest.raises(ValueError, match="naive"):
        await make_game(now=datetime(2025, 1, 1))
    assert await db.games.active() == []


async def test_active_in_channel_latest_in_channel_and_active(
    db: Database, make_game: MakeGame, t0: datetime
) -> None:
    assert await db.games.active_in_channel(10) is None
    assert await db.games.latest_in_channel(10) is None
    first = await make_game(channel_id=10)
    assert await db.games.active_in_channel(10) == first
    done = await db.games.save(first.id, 0, now=t0, status="finished")
    assert await db.games.active_in_channel(10) is None
    assert await db.games.latest_in_channel(10) == done
    second = await make_game(channel_id=10)
    assert second.id > first.id
    assert await db.games.latest_in_channel(10) == second
    other = await make_game(channel_id=11)
    playing = await db.games.save(other.id, 0, now=t0, status="playing")
    cancelled = await make_game(channel_id=12)
    await db.games.save(cancelled.id, 0, now=t0, status="cancelled")
    assert await db.games.active() == [second, playing]


async def test_save_bumps_the_version_and_changes_only_given_fields(
    db: Database, make_game: MakeGame, t0: datetime
) -> None:
    game = await make_game(now=t0)
    later = t0 + timedelta(minutes=1)
    saved = await db.games.save(
        game.id,
        0,
        now=later,
        status="playing",
        state={"deals": [], "n": 1},
        table_message_id=777,
        turn_started_at=later,
    )
    assert saved.version == 1
    assert saved.updated_at == later
    assert saved.created_at == t0
    assert (saved.status, saved.state, saved.table_message_id) == (
        "playing",
        {"deals": [], "n": 1},
        777,
    )
    assert saved.turn_started_at == later
    assert (saved.rules, saved.seats, saved.timer) == (game.rules, game.seats, game.timer)
    assert await db.games.get(game.id) == saved

    seats: list[dict[str, Any]] = [{"user_id": 42}, {"ai": "hard"}]
    again = await db.games.save(game.id, 1, now=later, rules={"game": "draw"}, seats=seats, timer=0)
    assert again.version == 2
    assert (again.rules, again.seats, again.timer) == ({"game": "draw"}, seats, 0)
    assert (again.status, again.state, again.table_message_id) == (
        "playing",
        {"deals": [], "n": 1},
        777,
    )
    # a save with no fields still bumps the version (a touch)
    touched = await db.games.save(game.id, 2, now=later + timedelta(seconds=5))
    assert touched.version == 3
    assert touched.updated_at == later + timedelta(seconds=5)


async def test_save_can_clear_nullable_columns(
    db: Database, make_game: MakeGame, t0: datetime
) -> None:
    game = await make_game()
    game = await db.games.save(
        game.id, 0, now=t0, state={"a": 1}, table_message_id=5, turn_started_at=t0
    )
    cleared = await db.games.save(game.id, 1, now=t0, clear={"table_message_id", "turn_started_at"})
    assert (cleared.table_message_id, cleared.turn_started_at) == (None, None)
    assert cleared.state == {"a": 1}
    with pytest.raises(ValueError, match="cannot clear"):
        await db.games.save(game.id, 2, now=t0, clear={"rules"})
    with pytest.raises(ValueError, match="cannot clear"):
        await db.games.save(game.id, 2, now=t0, clear={"timer"})
    with pytest.raises(ValueError, match="both given and cleared"):
        await db.games.save(game.id, 2, now=t0, state={"b": 2}, clear={"state"})
    assert await db.games.get(game.id) == cleared


async def test_save_with_a_stale_version_raises_and_changes_nothing(
    db: Database, make_game: MakeGame, t0: datetime
) -> None:
    game = await make_game()
    current = await db.games.save(game.id, 0, now=t0, status="playing")
    with pytest.raises(StaleGameError) as info:
        await db.games.save(
            game.id, 0, now=t0 + timedelta(hours=1), status="finished", state={"x": 1}
        )
    assert (info.value.game_id, info.value.expected_version, info.value.actual_version) == (
        game.id,
        0,
        1,
    )
    assert await db.games.get(game.id) == current
    with pytest.raises(StaleGameError, match="does not exist") as missing:
        await db.games.save(9999, 0, now=t0)
    assert missing.value.actual_version is None


async def test_save_refuses_an_unknown_status(
    db: Database, make_game: MakeGame, t0: datetime
) -> None:
    game = await make_game()
    with pytest.raises(ValueError, match="paused"):
        await db.games.save(game.id, 0, now=t0, status="paused")
    assert await db.games.get(game.id) == game


async def test_a_second_active_game_in_a_channel_is_refused(
    db: Database, make_game: MakeGame, t0: datetime
) -> None:
    first = await make_game(channel_id=10)
    with pytest.raises(ChannelBusyError) as info:
        await make_game(channel_id=10)
    assert info.value.channel_id == 10
    playing = await db.games.save(first.id, 0, now=t0, status="playing")
    with pytest.raises(ChannelBusyError):
        await make_game(channel_id=10)
    assert [g.id for g in await db.games.active()] == [first.id]
    assert await make_game(channel_id=11)  # another channel is free

    await db.games.save(first.id, playing.version, now=t0, status="finished")
    second = await make_game(channel_id=10)
    assert second.status == "lobby"
    assert await db.games.active_in_channel(10) == second


async def test_reviving_a_finished_game_in_a_busy_channel_is_refused(
    db: Database, make_game: MakeGame, t0: datetime
) -> None:
    old = await make_game(channel_id=10)
    old = await db.games.save(old.id, 0, now=t0, status="abandoned")
    new = await make_game(channel_id=10)
    with pytest.raises(ChannelBusyError):
        await db.games.save(old.id, old.version, now=t0, status="playing")
    assert await db.games.get(old.id) == old
    assert await db.games.active_in_channel(10) == new


async def test_games_survive_close_and_reopen(db_path: Any, t0: datetime) -> None:
    db = await Database.open(db_path)
    game = await db.games.create(
        guild_id=1,
        channel_id=2,
        creator_id=3,
        rules={"game": "allfives"},
        seats=[{"user_id": 3}],
        seed=-(2**62),
        timer=30,
        now=t0,
    )
    game = await db.games.save(
        game.id, 0, now=t0, status="playing", state={"deals": [1, 2]}, turn_started_at=t0
    )
    await db.close()
    db = await Database.open(db_path)
    try:
        assert await db.games.get(game.id) == game
        assert await db.games.active() == [game]
    finally:
        await db.close()


def test_game_row_is_frozen_and_slotted() -> None:
    now = datetime.now(UTC)
    row = GameRow(
        1, 1, 1, 1, "lobby", {}, [], None, 0, 0, None, 0, now, now, None, 0, 0, None, None
    )
    assert not hasattr(row, "__dict__")


async def test_the_table_message_is_remembered_without_a_new_version(db, make_game):
    game = await make_game()
    await db.games.set_table_message(game.id, 99)
    again = await db.games.get(game.id)
    assert again is not None
    assert again.table_message_id == 99
    assert again.version == game.version
