"""The game service on its own: move buttons' checks, the public record, the
channel's game. A real SQLite file; the publisher only keeps what it is handed."""

from __future__ import annotations

import pytest
from games_support import ALICE, BOB, CAROL, RecordingPublisher, Started

from bot.engine import state_to_json
from bot.games.errors import GameError, StaleError
from bot.games.service import GameService, InChannel, turn_token
from bot.games.session import Session
from bot.storage import Database


def mover_and_waiter(session: Session) -> tuple[int, int]:
    seat = session.turn_seat
    assert seat is not None
    assert seat.user_id is not None
    return seat.user_id, BOB if seat.user_id == ALICE else ALICE


async def assert_unchanged(
    service: GameService, db: Database, publisher: RecordingPublisher, before: Session, sent: int
) -> None:
    """Nothing was saved, kept or announced since ``before``."""
    now = await service.get(before.id)
    assert now is not None
    assert now.version == before.version
    assert now.state is before.state
    row = await db.games.get(before.id)
    assert row is not None
    assert row.version == before.version
    assert len(publisher.updates) == sent


# -- play_choice: the checks of a move button -----------------------------------------------


async def test_a_move_button_plays_the_chosen_legal_move(
    service: GameService, publisher: RecordingPublisher, started: Started
) -> None:
    session = await started()
    assert session.state is not None
    mover, _ = mover_and_waiter(session)
    legal = session.state.legal_moves()
    index = len(legal) - 1
    sent = len(publisher.updates)

    after = await service.play_choice(session.id, mover, turn_token(session), index)

    assert after.version == session.version + 1
    assert after.state is not None
    assert after.state.deal.history[: len(session.state.deal.history)] == (
        session.state.deal.history
    )
    assert legal[index] in [getattr(e, "move", None) for e in after.state.deal.history]
    assert len(publisher.updates) == sent + 1
    assert publisher.updates[-1].after == after


@pytest.mark.parametrize("token", ["9.9", "1.99", "0", ""])
async def test_a_stale_turn_token_is_refused_and_changes_nothing(
    service: GameService,
    db: Database,
    publisher: RecordingPublisher,
    started: Started,
    token: str,
) -> None:
    session = await started()
    mover, _ = mover_and_waiter(session)
    sent = len(publisher.updates)
    with pytest.raises(StaleError) as refused:
        await service.play_choice(session.id, mover, token, 0)
    assert refused.value.message == "This hand is out of date: the game has moved on."
    await assert_unchanged(service, db, publisher, session, sent)


async def test_a_hand_from_before_a_move_is_refused(
    service: GameService, db: Database, publisher: RecordingPublisher, started: Started
) -> None:
    session = await started()
    mover, _ = mover_and_waiter(session)
    old_token = turn_token(session)
    moved = await service.play_choice(session.id, mover, old_token, 0)
    again, _ = mover_and_waiter(moved)
    sent = len(publisher.updates)
    with pytest.raises(StaleError, match="out of date"):
        await service.play_choice(session.id, again, old_token, 0)
    await assert_unchanged(service, db, publisher, moved, sent)


@pytest.mark.parametrize("where", ["negative", "past the end", "far past the end"])
async def test_a_move_index_out_of_range_is_refused_and_changes_nothing(
    service: GameService,
    db: Database,
    publisher: RecordingPublisher,
    started: Started,
    where: str,
) -> None:
    session = await started()
    assert session.state is not None
    mover, _ = mover_and_waiter(session)
    count = len(session.state.legal_moves())
    index = {"negative": -1, "past the end": count, "far past the end": 9999}[where]
    sent = len(publisher.updates)
    with pytest.raises(StaleError) as refused:
        await service.play_choice(session.id, mover, turn_token(session), index)
    assert refused.value.message == "That move is no longer possible."
    await assert_unchanged(service, db, publisher, session, sent)


async def test_a_move_button_refuses_the_wrong_player(
    service: GameService, db: Database, publisher: RecordingPublisher, started: Started
) -> None:
    session = await started()
    _, waiter = mover_and_waiter(session)
    token = turn_token(session)
    sent = len(publisher.updates)
    with pytest.raises(GameError) as not_yours:
        await service.play_choice(session.id, waiter, token, 0)
    assert not_yours.value.message == "It's not your turn: {name} is playing."
    with pytest.raises(GameError) as not_seated:
        await service.play_choice(session.id, CAROL, token, 0)
    assert not_seated.value.message == "You are not playing in this game."
    with pytest.raises(GameError, match="There is no such game"):
        await service.play_choice(session.id + 1000, ALICE, token, 0)
    await assert_unchanged(service, db, publisher, session, sent)


async def test_a_move_button_of_a_lobby_is_refused(service: GameService) -> None:
    lobby = await service.open_lobby(
        guild_id=1, channel_id=200, user_id=ALICE, name="Alice", options={"game": "block"}
    )
    with pytest.raises(GameError, match="has not started yet"):
        await service.play_choice(lobby.id, ALICE, "0", 0)


# -- export_record: only what is public ---------------------------------------------------


async def play_until(service: GameService, session: Session, done: object) -> Session:
    for _ in range(500):
        if callable(done) and done(session):
            return session
        mover, _ = mover_and_waiter(session)
        session = await service.play_choice(session.id, mover, turn_token(session), 0)
    raise AssertionError("the game never got there")


async def test_no_record_before_a_deal_is_finished(service: GameService, started: Started) -> None:
    with pytest.raises(GameError) as nothing:
        await service.export_record(100)
    assert nothing.value.message == "There is no finished deal to export in this channel yet."
    await started(channel=100)
    with pytest.raises(GameError, match="no finished deal"):
        await service.export_record(100)


async def test_the_record_leaves_out_the_deal_in_play(
    service: GameService, started: Started
) -> None:
    session = await started("block", scoring="points")
    session = await play_until(
        service,
        session,
        lambda s: s.state is not None and s.state.deal_number == 2 and not s.state.deal.over,
    )
    assert session.state is not None

    game_id, record = await service.export_record(session.channel_id)

    assert game_id == session.id
    full = state_to_json(session.state, session.names)
    assert len(full["deals"]) == 2
    assert record["deals"] == full["deals"][:1]  # deal 2's hands are still hidden
    assert record["rules"] == full["rules"]
    assert record["seats"] == ["Alice", "Bob"]


async def test_a_finished_game_exports_every_deal(service: GameService, started: Started) -> None:
    session = await started("block", scoring="single")
    session = await play_until(service, session, lambda s: not s.active)
    assert session.state is not None
    assert await service.in_channel(session.channel_id) is None

    game_id, record = await service.export_record(session.channel_id)

    assert game_id == session.id
    assert record == state_to_json(session.state, session.names)


# -- the channel's game ----------------------------------------------------------------


async def test_channel_game_refuses_a_channel_without_one(
    service: GameService, started: Started
) -> None:
    with pytest.raises(GameError) as none:
        await service.channel_game(100)
    assert none.value.message == "There is no game in this channel. Open one with /domino new."
    session = await started(channel=100)
    assert (await service.channel_game(100)).id == session.id


async def test_moves_for_only_the_player_to_move(service: GameService, started: Started) -> None:
    session = await started(channel=100)
    assert session.state is not None
    mover, waiter = mover_and_waiter(session)
    assert await service.moves_for(100, mover) == list(session.state.legal_moves())
    assert await service.moves_for(100, waiter) == []
    assert await service.moves_for(100, CAROL) == []
    assert await service.moves_for(999, mover) == []


async def test_the_notes_are_only_what_the_table_tells(
    service: GameService, publisher: RecordingPublisher, started: Started
) -> None:
    session = await started("block", scoring="points")
    await play_until(service, session, lambda s: s.state is not None and s.state.deal_number == 3)
    kinds = {note.kind for update in publisher.updates for note in update.notes}
    assert kinds == {"joined", "started"}  # deals begin and end in the moves themselves


# -- a game named by its channel (what slash commands act on) --------------------------------


async def test_a_channel_names_its_game_in_play_for_every_action(service: GameService) -> None:
    lobby = await service.open_lobby(
        guild_id=1, channel_id=555, user_id=ALICE, name="Alice", options={"game": "block"}
    )
    here = InChannel(555)
    joined = await service.join(here, BOB, "Bob")
    assert joined.id == lobby.id
    assert joined.seat_of(BOB) is not None
    started = await service.start(here, ALICE)
    session, seen = await service.player_hand(here, BOB)
    assert session.id == started.id
    assert seen.seat == started.seat_of(BOB)


async def test_a_channel_without_a_game_is_refused_politely(service: GameService) -> None:
    with pytest.raises(GameError, match="no game in this channel"):
        await service.join(InChannel(556), BOB, "Bob")
    with pytest.raises(GameError, match="no game in this channel"):
        await service.end_game(InChannel(556), ALICE, can_manage=True)


async def test_ending_a_match_in_play_waits_for_its_confirmation(
    service: GameService, publisher: RecordingPublisher, db: Database, started: Started
) -> None:
    session = await started(channel=557)
    sent = len(publisher.updates)
    asked = await service.end_game(InChannel(557), ALICE, can_manage=False, confirmed=False)
    assert asked.status == "playing"
    await assert_unchanged(service, db, publisher, session, sent)
    with pytest.raises(GameError, match="creator or someone with Manage Server"):
        await service.end_game(InChannel(557), BOB, can_manage=False, confirmed=False)
    ended = await service.end_game(session.id, ALICE, can_manage=False)
    assert ended.status == "cancelled"
