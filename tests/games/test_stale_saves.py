"""A stale save reads the game again and goes on (issue 37, row 4): the player is told to
try again, the game stays reachable by slash commands and buttons, and an active game
read again gets its turn timer and its AI seat's move."""

from __future__ import annotations

import asyncio
import random

import pytest
from flaky_games import FlakyGames
from games_support import (
    ALICE,
    BOB,
    GUILD,
    T0,
    Decision,
    FirstLegalMove,
    RecordingPublisher,
    Started,
    against_the_ai,
    moved_past,
    until,
)

from bot.engine.view import PlayerView
from bot.games.errors import GameError, StaleError
from bot.games.service import GameService, InChannel, turn_token
from bot.games.session import Session
from bot.storage import Database, DatabaseUnavailableError

TRY_AGAIN = "The game changed at the same moment. Please try again."


def mover(session: Session) -> int:
    seat = session.turn_seat
    assert seat is not None
    assert seat.user_id is not None
    return seat.user_id


async def test_after_a_stale_save_the_game_is_still_the_channel_s(
    service: GameService, db: Database, started: Started
) -> None:
    session = await started()
    await db.games.save(session.id, session.version, now=T0)  # another save landed first
    token = turn_token(session)
    with pytest.raises(StaleError) as stale:
        await service.play_choice(session.id, mover(session), token, 0)
    assert stale.value.message == TRY_AGAIN

    here = await service.in_channel(session.channel_id)
    assert here is not None
    assert here.version == session.version + 1  # as the database has it
    with pytest.raises(GameError, match="already has a game"):
        await service.open_lobby(
            guild_id=GUILD,
            channel_id=session.channel_id,
            user_id=BOB,
            name="Bob",
            options={"game": "draw"},
        )
    assert here.state is not None
    move = here.state.legal_moves()[0]
    again = await service.play(InChannel(session.channel_id), mover(here), move)
    assert again.version == here.version + 1
    assert service.is_active(session.id)


async def test_a_lost_answer_then_a_stale_save_lets_the_ai_move_on(
    service: GameService, db: Database, publisher: RecordingPublisher
) -> None:
    """Alice's move is saved but its answer is lost (the database dropped the connection
    after the commit): her next click finds the game changed; the game read again is at
    the AI's turn, and the AI moves without anyone doing anything."""
    flaky = FlakyGames(db)
    db.games = flaky
    lobby = await against_the_ai(service, 800)

    async def alice_to_move() -> bool:
        current = await service.get(lobby.id)
        return current is not None and current.turn_seat is not None and current.turn == 0

    await until(alice_to_move)
    before = await service.get(lobby.id)
    assert before is not None
    flaky.lose(1)
    with pytest.raises(DatabaseUnavailableError):
        await service.play_choice(lobby.id, ALICE, turn_token(before), 0)
    saved = await db.games.get(lobby.id)
    assert saved is not None
    assert saved.version == before.version + 1  # it landed

    with pytest.raises(StaleError):
        await service.play_choice(lobby.id, ALICE, turn_token(before), 0)

    await until(moved_past(service, lobby.id, saved.version))
    assert publisher.updates[-1].after.version > saved.version
    assert any(n.kind == "recovered" for u in publisher.updates for n in u.notes)


class Stuck:
    """An AI that never decides (its process is gone)."""

    async def decide(self, seen: PlayerView, level: str, rng: random.Random) -> Decision:
        await asyncio.Event().wait()
        raise AssertionError("unreachable")

    async def close(self) -> None:
        pass


async def test_a_game_read_from_the_database_by_a_click_gets_its_ai_task(
    db: Database, publisher: RecordingPublisher
) -> None:
    """A game not in memory (restoring failed, or has not reached it yet) is read when
    someone clicks: at an AI seat's turn, the AI moves."""
    first = GameService(db, clock=lambda: T0, ai=Stuck(), seed_source=lambda: 7)
    session = await against_the_ai(first, 801)
    if session.turn == 0:
        session = await first.play_choice(session.id, ALICE, turn_token(session), 0)
    assert session.turn_seat is not None
    assert session.turn_seat.is_ai  # the AI's turn, and its process stuck
    await first.close()

    service = GameService(db, clock=lambda: T0, ai=FirstLegalMove(), seed_source=lambda: 7)
    service.publisher = publisher
    try:
        seen, _hand = await service.player_hand(session.id, ALICE)  # "Show my hand"
        assert seen.version == session.version
        await until(moved_past(service, session.id, session.version))
    finally:
        await service.close()
