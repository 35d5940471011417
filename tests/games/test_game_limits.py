"""Caps and cooldowns (issue 37, row 7): open games per user and per server, posting a
table again (``/domino board``). Each refusal is polite and changes nothing. (A lobby
that lapses and a match with no human left: tests/e2e/test_timer.py, on SimCord's clock.)"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from datetime import datetime, timedelta

import pytest
from games_support import ALICE, BOB, CAROL, GUILD, T0, FirstLegalMove, RecordingPublisher
from test_service import play_until

from bot.games.errors import GameError
from bot.games.limits import Cooldowns, Limits
from bot.games.service import GameService
from bot.games.session import Session
from bot.storage import Database

USER_CAP = "You already have as many tables open as one player may (3)."
SERVER_CAP = "This server already has as many games open as it may have at once ({n})."


class Clock:
    """A clock the test moves."""

    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
async def limited(
    db: Database, publisher: RecordingPublisher
) -> AsyncIterator[Callable[..., GameService]]:
    """``limited(**limits)``: a service with those limits (and a clock the test moves)."""
    made: list[GameService] = []

    def make(clock: Callable[[], datetime] = lambda: T0, **limits: object) -> GameService:
        service = GameService(
            db, clock=clock, ai=FirstLegalMove(), seed_source=lambda: 7, limits=Limits(**limits)
        )
        service.publisher = publisher
        made.append(service)
        return service

    yield make
    for service in made:
        await service.close()


async def open_table(
    service: GameService, channel: int, user: int = ALICE, guild: int = GUILD
) -> Session:
    return await service.open_lobby(
        guild_id=guild,
        channel_id=channel,
        user_id=user,
        name=str(user),
        options={"game": "block", "players": 2},
    )


async def test_a_player_may_hold_three_open_tables(service: GameService, db: Database) -> None:
    tables = [await open_table(service, channel) for channel in (1, 2)]
    tables.append(await open_table(service, 3, guild=GUILD + 1))  # every server counts
    with pytest.raises(GameError) as refused:
        await open_table(service, 4)
    assert refused.value.message.format(**refused.value.fields).startswith(USER_CAP)
    assert await db.games.active_in_channel(4) is None
    assert await service.in_channel(4) is None
    await open_table(service, 4, user=BOB)  # another player may

    await service.end_game(tables[0].id, ALICE, can_manage=False)
    fourth = await open_table(service, 4 + 1)  # one ended: room for one more
    assert fourth.creator_id == ALICE


async def test_a_table_handed_over_counts_for_its_new_holder(service: GameService) -> None:
    for channel in (1, 2):
        await open_table(service, channel, user=BOB)
    hers = await open_table(service, 3)
    await service.join(hers.id, BOB, "Bob")
    await service.start(hers.id, ALICE)
    third = await open_table(service, 4, user=BOB)
    await service.end_game(third.id, BOB, can_manage=False)
    left = await service.leave(hers.id, ALICE)
    assert left.creator_id == BOB  # he holds her table now: his third again
    with pytest.raises(GameError, match="as many tables open"):
        await open_table(service, 5, user=BOB)
    await open_table(service, 5)  # she holds none now


async def test_a_server_may_have_its_cap_of_open_games(
    limited: Callable[..., GameService], db: Database
) -> None:
    service = limited(games_per_server=2)
    await open_table(service, 1, user=ALICE)
    await open_table(service, 2, user=BOB)
    with pytest.raises(GameError) as refused:
        await open_table(service, 3, user=CAROL)
    assert refused.value.message.startswith(SERVER_CAP)
    assert refused.value.fields == {"n": 2}
    assert await db.games.active_in_channel(3) is None
    await open_table(service, 3, user=CAROL, guild=GUILD + 1)  # another server may


async def test_a_rematch_past_the_server_cap_waits_and_keeps_no_acceptance(
    limited: Callable[..., GameService],
) -> None:
    service = limited(games_per_server=1)
    lobby = await open_table(service, 1)
    await service.join(lobby.id, BOB, "Bob")
    session = await service.start(lobby.id, ALICE)
    over = await play_until(service, session, lambda s: not s.active)
    await service.rematch(over.id, ALICE)
    other = await open_table(service, 2, user=CAROL)  # the server's one open game
    with pytest.raises(GameError, match="as many games open"):
        await service.rematch(over.id, BOB)
    await service.leave(other.id, CAROL)
    done = await service.rematch(over.id, BOB)  # not "already in": his click was not kept
    assert done.session is not None


async def test_the_table_is_posted_again_once_per_ten_seconds_per_player_and_channel(
    limited: Callable[..., GameService],
) -> None:
    clock = Clock()
    service = limited(clock)
    await open_table(service, 1)
    await open_table(service, 2, user=BOB)
    assert (await service.table_to_post(1, ALICE)).channel_id == 1
    with pytest.raises(GameError, match="You just posted the table"):
        await service.table_to_post(1, ALICE)
    await service.table_to_post(1, BOB)  # someone else
    await service.table_to_post(2, ALICE)  # another channel
    clock.now += timedelta(seconds=9)
    with pytest.raises(GameError, match="You just posted the table"):
        await service.table_to_post(1, ALICE)
    clock.now += timedelta(seconds=1)
    await service.table_to_post(1, ALICE)
    with pytest.raises(GameError, match="no game in this channel"):
        await service.table_to_post(3, ALICE)


def test_the_cooldown_table_forgets_what_has_cooled_down() -> None:
    clock = Clock()
    cooldowns = Cooldowns(timedelta(seconds=10), clock)
    for user in range(5000):
        cooldowns.take(user, 1)
        clock.now += timedelta(milliseconds=100)  # 100 users within any 10 seconds
    assert len(cooldowns) <= 2048
    with pytest.raises(GameError):
        cooldowns.take(4999, 1)
