"""Who may end a game (issue 37, row 12): the right moves with the seat. A creator who
left (an AI took the seat) loses it, the next human seat gets it, Manage Server keeps it."""

from __future__ import annotations

import pytest
from games_support import ALICE, BOB, CAROL, T0, FirstLegalMove, RecordingPublisher, alice_opens

from bot.games.errors import GameError
from bot.games.service import GameService
from bot.games.session import Seat, Session
from bot.storage import Database

DAVE = 14
LEFT = "You are not at this table, so you can't end its game."


async def three_players(service: GameService, channel: int = 700) -> Session:
    """Alice (the creator), Bob and Carol in a 3-player block game, in that seat order."""
    lobby = await alice_opens(service, channel, players=3)
    await service.join(lobby.id, BOB, "Bob")
    await service.join(lobby.id, CAROL, "Carol")
    return await service.start(lobby.id, ALICE)


async def test_a_creator_who_left_can_no_longer_end_the_game(service: GameService) -> None:
    session = await three_players(service)
    left = await service.leave(session.id, ALICE)
    assert left.seats[0].is_ai
    assert left.creator_id == BOB  # the next human seat after hers
    with pytest.raises(GameError, match=LEFT):
        await service.end_game(session.id, ALICE, can_manage=False, confirmed=False)
    with pytest.raises(GameError, match=LEFT):
        await service.end_game(session.id, ALICE, can_manage=False)
    with pytest.raises(GameError, match="Only the game's creator"):
        await service.end_game(session.id, CAROL, can_manage=False)
    still = await service.get(session.id)
    assert still is not None
    assert still.status == "playing"
    asked = await service.end_game(session.id, BOB, can_manage=False, confirmed=False)
    assert asked.status == "playing"  # Bob may: he is asked to confirm
    ended = await service.end_game(session.id, BOB, can_manage=False)
    assert ended.status == "cancelled"


async def test_the_right_passes_on_again_and_wraps_round_the_table(service: GameService) -> None:
    session = await three_players(service)
    await service.leave(session.id, ALICE)
    after_bob = await service.leave(session.id, BOB)
    assert after_bob.creator_id == CAROL
    with pytest.raises(GameError, match=LEFT):
        await service.end_game(session.id, BOB, can_manage=False)
    ended = await service.end_game(session.id, CAROL, can_manage=False)
    assert ended.status == "cancelled"


async def test_a_player_who_is_not_the_creator_leaving_moves_nothing(
    service: GameService,
) -> None:
    session = await three_players(service)
    left = await service.leave(session.id, CAROL)
    assert left.creator_id == ALICE
    ended = await service.end_game(session.id, ALICE, can_manage=False)
    assert ended.status == "cancelled"


async def test_manage_server_keeps_the_right(service: GameService) -> None:
    session = await three_players(service)
    await service.leave(session.id, ALICE)
    with pytest.raises(GameError, match=LEFT):
        await service.end_game(session.id, DAVE, can_manage=False)
    ended = await service.end_game(session.id, DAVE, can_manage=True)
    assert ended.status == "cancelled"


async def test_in_a_game_whose_creator_left_earlier_every_seated_human_may_end_it(
    db: Database, publisher: RecordingPublisher
) -> None:
    """A game saved before the right moved (its creator's seat an AI's, the creator still
    named): the humans still seated hold it; the creator does not."""
    first = GameService(db, clock=lambda: T0, ai=FirstLegalMove(), seed_source=lambda: 7)
    first.publisher = publisher
    session = await three_players(first)
    await first.close()
    seats = [Seat("Alice", None, "normal").to_json(), *(s.to_json() for s in session.seats[1:])]
    await db.games.save(session.id, session.version, now=T0, seats=seats)

    service = GameService(db, clock=lambda: T0, ai=FirstLegalMove(), seed_source=lambda: 7)
    service.publisher = publisher
    await service.restore()
    try:
        restored = await service.get(session.id)
        assert restored is not None
        assert restored.creator_id == ALICE
        with pytest.raises(GameError, match=LEFT):
            await service.end_game(session.id, ALICE, can_manage=False)
        for user in (BOB, CAROL):
            asked = await service.end_game(session.id, user, can_manage=False, confirmed=False)
            assert asked.status == "playing"
        with pytest.raises(GameError, match=LEFT):
            await service.end_game(session.id, DAVE, can_manage=False)
    finally:
        await service.close()
