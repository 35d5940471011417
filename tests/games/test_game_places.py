"""A clicked game id is checked against where it was clicked (issue 37, row 2): every
action by id (join, leave, addbot, start, hand, move, end, rematch) from another server
or channel than its game's is refused and changes nothing."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from games_support import ALICE, BOB, CAROL, GUILD, T0, FirstLegalMove, RecordingPublisher, Started
from test_service import play_until

from bot.games.errors import GameError
from bot.games.refs import Clicked
from bot.games.service import GameService, turn_token
from bot.games.session import Session
from bot.storage import Database

ELSEWHERE = "That button belongs to a game in another channel."
OTHER_GUILD = 2


def places(session: Session) -> list[Clicked]:
    """Clicks of the game's id from another channel of its server, from another server
    (the same channel id, which no real server shares), and from outside any server."""
    return [
        Clicked(session.id, session.guild_id, session.channel_id + 1),
        Clicked(session.id, OTHER_GUILD, session.channel_id),
        Clicked(session.id, None, None),
    ]


def here(session: Session) -> Clicked:
    return Clicked(session.id, session.guild_id, session.channel_id)


async def refused_everywhere_else(
    service: GameService,
    db: Database,
    publisher: RecordingPublisher,
    session: Session,
    action: Callable[[Clicked], Awaitable[Any]],
) -> None:
    sent = len(publisher.updates)
    for clicked in places(session):
        with pytest.raises(GameError) as refused:
            await action(clicked)
        assert refused.value.message == ELSEWHERE
    row = await db.games.get(session.id)
    assert row is not None
    assert row.version == session.version
    assert row.status == session.status
    assert len(row.seats) == len(session.seats)
    assert len(publisher.updates) == sent


async def lobby(service: GameService, channel: int = 300) -> Session:
    return await service.open_lobby(
        guild_id=GUILD,
        channel_id=channel,
        user_id=ALICE,
        name="Alice",
        options={"game": "block", "players": 2},
    )


async def test_a_stranger_elsewhere_cannot_join_or_leave_a_lobby(
    service: GameService, db: Database, publisher: RecordingPublisher
) -> None:
    table = await lobby(service)
    await refused_everywhere_else(
        service, db, publisher, table, lambda c: service.join(c, CAROL, "Carol")
    )
    await refused_everywhere_else(service, db, publisher, table, lambda c: service.leave(c, ALICE))
    joined = await service.join(here(table), BOB, "Bob")  # where the table is: seated
    assert joined.seat_of(BOB) == 1


async def test_addbot_and_start_only_from_the_lobby_s_channel(
    service: GameService, db: Database, publisher: RecordingPublisher
) -> None:
    table = await lobby(service)
    await refused_everywhere_else(
        service, db, publisher, table, lambda c: service.add_bot(c, ALICE, None)
    )
    table = await service.add_bot(here(table), ALICE, None)
    await refused_everywhere_else(service, db, publisher, table, lambda c: service.start(c, ALICE))
    started = await service.start(here(table), ALICE)
    assert started.status == "playing"


async def test_hand_move_and_end_only_from_the_game_s_channel(
    service: GameService, db: Database, publisher: RecordingPublisher, started: Started
) -> None:
    session = await started()
    seat = session.turn_seat
    assert seat is not None
    assert seat.user_id is not None
    mover, token = seat.user_id, turn_token(session)
    await refused_everywhere_else(
        service, db, publisher, session, lambda c: service.player_hand(c, mover)
    )
    await refused_everywhere_else(
        service, db, publisher, session, lambda c: service.play_choice(c, mover, token, 0)
    )
    await refused_everywhere_else(
        service,
        db,
        publisher,
        session,
        lambda c: service.end_game(c, ALICE, can_manage=True),  # Manage Server elsewhere
    )
    shown, _ = await service.player_hand(here(session), mover)
    assert shown.id == session.id
    moved = await service.play_choice(here(session), mover, token, 0)
    assert moved.version > session.version
    ended = await service.end_game(here(moved), ALICE, can_manage=False)
    assert ended.status == "cancelled"


async def test_a_rematch_only_from_the_match_s_channel(
    service: GameService, db: Database, publisher: RecordingPublisher, started: Started
) -> None:
    session = await started("block", scoring="single")
    over = await play_until(service, session, lambda s: not s.active)
    await refused_everywhere_else(service, db, publisher, over, lambda c: service.rematch(c, ALICE))
    accepted = await service.rematch(here(over), ALICE)
    assert accepted.accepted == {ALICE}


async def test_a_game_in_a_thread_answers_only_clicks_in_that_thread(
    service: GameService, db: Database, publisher: RecordingPublisher
) -> None:
    parent, thread = 400, 401  # the game's channel is the thread
    table = await lobby(service, channel=thread)
    with pytest.raises(GameError, match="another channel"):
        await service.join(Clicked(table.id, GUILD, parent), BOB, "Bob")
    joined = await service.join(Clicked(table.id, GUILD, thread), BOB, "Bob")
    assert joined.seat_of(BOB) == 1


async def test_an_unknown_id_clicked_anywhere_is_no_such_game(service: GameService) -> None:
    with pytest.raises(GameError, match="no such game"):
        await service.join(Clicked(10**6, GUILD, 1), BOB, "Bob")


async def test_a_click_naming_another_shard_s_game_leaves_it_to_its_process(
    db: Database, publisher: RecordingPublisher
) -> None:
    theirs = await db.games.create(
        guild_id=1 << 22,  # shard 1 of 2
        channel_id=500,
        creator_id=ALICE,
        rules={"game": "block", "players": 2},
        seats=[{"name": "Alice", "user_id": ALICE}],
        seed=7,
        timer=0,
        now=T0,
    )
    service = GameService(db, clock=lambda: T0, ai=FirstLegalMove(), shards=(2, (0,)))
    service.publisher = publisher
    await service.restore()
    try:
        with pytest.raises(GameError, match="another channel"):
            await service.join(Clicked(theirs.id, GUILD, 500), BOB, "Bob")
        assert not service.is_active(theirs.id)  # read to check the click, not adopted
        assert service.in_play() == 0
    finally:
        await service.close()
