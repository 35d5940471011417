"""The per-game locks stay as few as the games being changed (issue 37, row 11): ids of
games that do not exist, or are over, leave no lock behind."""

from __future__ import annotations

import asyncio

import pytest
from games_support import ALICE, BOB, Started
from test_service import play_until

from bot.games.errors import GameError
from bot.games.service import GameService, turn_token


async def test_five_hundred_unknown_ids_leave_the_lock_table_small(
    service: GameService, started: Started
) -> None:
    session = await started()
    actions = [
        lambda game: service.join(game, BOB, "Bob"),
        lambda game: service.leave(game, BOB),
        lambda game: service.add_bot(game, ALICE, None),
        lambda game: service.start(game, ALICE),
        lambda game: service.play_choice(game, ALICE, "1.0", 0),
        lambda game: service.end_game(game, ALICE, can_manage=True),
        lambda game: service.rematch(game, ALICE),
    ]
    for n in range(500):
        unknown = 10**6 + n
        with pytest.raises(GameError, match="no such game"):
            await actions[n % len(actions)](unknown)
    assert len(service._locks) == 0  # none per id (the old table kept one each)
    after = await service.get(session.id)
    assert after is not None
    assert after.version == session.version


async def test_a_finished_game_keeps_no_lock(service: GameService, started: Started) -> None:
    session = await started("block", scoring="single")
    over = await play_until(service, session, lambda s: not s.active)
    for _ in range(3):
        with pytest.raises(GameError, match="over"):
            await service.join(over.id, BOB, "Bob")
    assert over.id not in service._locks
    assert len(service._locks) == 0


async def test_a_lock_still_serializes_two_changes_of_one_game(
    service: GameService, started: Started
) -> None:
    session = await started()
    seat = session.turn_seat
    assert seat is not None
    assert seat.user_id is not None
    token = turn_token(session)
    results = await asyncio.gather(
        service.play_choice(session.id, seat.user_id, token, 0),
        service.play_choice(session.id, seat.user_id, token, 0),
        return_exceptions=True,
    )
    played = [r for r in results if not isinstance(r, BaseException)]
    assert len(played) == 1  # the second waited for the lock and found the hand stale
    assert isinstance(next(r for r in results if isinstance(r, BaseException)), GameError)
    assert len(service._locks) == 0
