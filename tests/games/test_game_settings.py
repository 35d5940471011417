"""Server settings through the service: each setter checks, then stores; the cache
follows. A real SQLite file."""

from __future__ import annotations

import pytest
from games_support import ALICE, GUILD

from bot.games.errors import GameError
from bot.games.service import GameService
from bot.games.settings import SettingsService
from bot.storage import Database, GuildSettings


@pytest.fixture
def settings(db: Database) -> SettingsService:
    return SettingsService(db)


@pytest.mark.parametrize("seconds", [1, 9, 3601, 100_000, -5])
async def test_a_timer_outside_the_range_is_refused_and_nothing_stored(
    settings: SettingsService, db: Database, seconds: int
) -> None:
    with pytest.raises(GameError) as refused:
        await settings.set_timer(GUILD, seconds, can_manage=True)
    assert refused.value.message == "The timer is 0 (off) or {low} to {high} seconds."
    assert refused.value.fields == {"low": 10, "high": 3600}
    assert await db.guilds.default_timer(GUILD) is None


@pytest.mark.parametrize(("seconds", "stored"), [(10, 10), (60, 60), (3600, 3600), (0, None)])
async def test_a_valid_timer_is_stored(
    settings: SettingsService, db: Database, seconds: int, stored: int | None
) -> None:
    await settings.set_timer(GUILD, 45, can_manage=True)
    assert (await settings.get(GUILD)).default_timer == 45
    await settings.set_timer(GUILD, seconds, can_manage=True)
    assert await db.guilds.default_timer(GUILD) == stored
    assert (await settings.get(GUILD)).default_timer == stored  # the cache follows


async def test_only_a_manager_changes_settings(settings: SettingsService, db: Database) -> None:
    for change in (
        settings.set_timer(GUILD, 60, can_manage=False),
        settings.set_language(GUILD, "fi", can_manage=False),
        settings.set_threads(GUILD, True, can_manage=False),
    ):
        with pytest.raises(GameError, match="Only someone with Manage Server"):
            await change
    assert await db.guilds.settings(GUILD) == GuildSettings(None, None, False)


async def test_language_is_checked_then_stored(settings: SettingsService, db: Database) -> None:
    with pytest.raises(GameError, match="That language is not available"):
        await settings.set_language(GUILD, "xx", can_manage=True)
    assert await db.guilds.language(GUILD) is None
    await settings.set_language(GUILD, "lv", can_manage=True)
    assert (await settings.get(GUILD)).language == "lv"
    await settings.set_language(GUILD, None, can_manage=True)  # the server's own locale
    assert (await settings.get(GUILD)).language is None
    assert await db.guilds.language(GUILD) is None


async def test_threads_are_stored(settings: SettingsService) -> None:
    assert (await settings.get(GUILD)).threads is False
    await settings.set_threads(GUILD, True, can_manage=True)
    assert (await settings.get(GUILD)).threads is True


async def test_new_tables_take_the_server_timer_and_refuse_a_bad_one(
    service: GameService,
) -> None:
    await service.settings.set_timer(GUILD, 90, can_manage=True)
    table = await service.open_lobby(
        guild_id=GUILD, channel_id=300, user_id=ALICE, name="Alice", options={"game": "draw"}
    )
    assert table.timer == 90
    with pytest.raises(GameError, match="The timer is 0"):
        await service.open_lobby(
            guild_id=GUILD,
            channel_id=301,
            user_id=ALICE,
            name="Alice",
            options={"game": "draw"},
            timer=5,
        )
    assert await service.in_channel(301) is None
