"""The service's side of a rematch: who may accept, the one new game, the offer's end."""

from __future__ import annotations

import asyncio

import pytest
from games_support import ALICE, BOB, CAROL, GUILD, RecordingPublisher, Started
from test_service import play_until

from bot.games.errors import GameError
from bot.games.service import GameService
from bot.games.session import Session


async def finished(service: GameService, started: Started) -> Session:
    session = await started("block", scoring="single")
    return await play_until(service, session, lambda s: not s.active)


async def test_the_last_two_acceptances_at_once_open_one_game(
    service: GameService, started: Started, publisher: RecordingPublisher
) -> None:
    old = await finished(service, started)
    results = await asyncio.gather(
        service.rematch(old.id, ALICE), service.rematch(old.id, BOB), return_exceptions=True
    )
    new = [r.session for r in results if not isinstance(r, BaseException) and r.session]
    assert len(new) == 1
    assert new[0].seats == old.seats
    assert new[0].rules == old.rules
    assert new[0].status == "playing"
    assert publisher.tables[-1].id == new[0].id
    assert any(n.kind == "rematch" for n in publisher.updates[-1].notes)


async def test_a_stranger_and_a_second_click_are_refused(
    service: GameService, started: Started
) -> None:
    old = await finished(service, started)
    with pytest.raises(GameError, match="Only the players"):
        await service.rematch(old.id, CAROL)
    progress = await service.rematch(old.id, ALICE)
    assert progress.accepted == {ALICE}
    assert progress.waiting == ("Bob",)
    assert progress.session is None
    with pytest.raises(GameError) as again:
        await service.rematch(old.id, ALICE)
    assert again.value.message == "You're already in for the rematch. Waiting for {names}."
    assert again.value.fields == {"names": "Bob"}


async def test_a_new_game_in_the_channel_ends_the_offer(
    service: GameService, started: Started
) -> None:
    old = await finished(service, started)
    await service.rematch(old.id, ALICE)
    other = await service.open_lobby(
        guild_id=GUILD,
        channel_id=old.channel_id,
        user_id=CAROL,
        name="Carol",
        options={"game": "draw"},
    )
    with pytest.raises(GameError, match="already has a game"):
        await service.rematch(old.id, BOB)
    await service.leave(other.id, CAROL)  # the lobby is gone: the offer stays lapsed
    with pytest.raises(GameError, match="a new game was opened"):
        await service.rematch(old.id, BOB)
    assert await service.in_channel(old.channel_id) is None


async def test_only_a_match_played_to_its_end_has_a_rematch(
    service: GameService, started: Started
) -> None:
    session = await started("block")
    with pytest.raises(GameError, match="played to its end"):
        await service.rematch(session.id, ALICE)
    with pytest.raises(GameError, match="no such game"):
        await service.rematch(10**6, ALICE)
