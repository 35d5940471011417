"""Leaving (issue 38): the service's side. An AI takes a leaver's seat in a match; the
last human's leave ends it only once confirmed, with a note that says so."""

from __future__ import annotations

from games_support import ALICE, BOB, RecordingPublisher, against_the_ai

from bot.games.service import GameService
from bot.games.session import Session


async def test_the_last_human_s_leave_unconfirmed_changes_nothing(
    service: GameService, publisher: RecordingPublisher
) -> None:
    session = await against_the_ai(service, 800)
    published = len(publisher.updates)
    asked = await service.leave(session.id, ALICE, confirmed=False)
    assert asked.status == "playing"
    assert asked.seat_of(ALICE) == 0  # the caller asks: still seated
    current = await service.get(session.id)
    assert current is not None
    assert current.version == session.version
    assert len(publisher.updates) == published


async def test_the_last_human_s_confirmed_leave_ends_the_game_saying_who_left(
    service: GameService, publisher: RecordingPublisher
) -> None:
    session = await against_the_ai(service, 801)
    ended = await service.leave(session.id, ALICE)
    assert ended.status == "cancelled"
    assert ended.seat_of(ALICE) is None
    [note] = publisher.updates[-1].notes
    assert note.kind == "no_humans"
    assert note.seat == 0
    assert note.fields == {"name": "Alice", "left": True}
    assert not service.is_active(session.id)


async def test_leaving_with_another_human_seated_needs_no_confirmation(
    service: GameService, started, publisher: RecordingPublisher
) -> None:
    session: Session = await started(channel=802)
    left = await service.leave(session.id, BOB, confirmed=False)
    assert left.status == "playing"
    assert left.seat_of(BOB) is None
    assert left.seats[1].is_ai
    assert [n.kind for n in publisher.updates[-1].notes] == ["left"]
