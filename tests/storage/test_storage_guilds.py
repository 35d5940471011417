"""Guild settings round trip."""

from __future__ import annotations

from dataclasses import FrozenInstanceError

import pytest

from bot.storage import Database, GuildSettings


async def test_unset_guild_has_no_settings(db: Database) -> None:
    assert await db.guilds.default_timer(1) is None
    assert await db.guilds.language(1) is None


async def test_default_timer_round_trip(db: Database) -> None:
    await db.guilds.set_default_timer(1, 120)
    await db.guilds.set_default_timer(2, 0)
    assert await db.guilds.default_timer(1) == 120
    assert await db.guilds.default_timer(2) == 0
    await db.guilds.set_default_timer(1, 45)
    assert await db.guilds.default_timer(1) == 45
    await db.guilds.set_default_timer(1, None)
    assert await db.guilds.default_timer(1) is None
    assert await db.guilds.default_timer(2) == 0


async def test_language_round_trip_keeps_the_timer(db: Database) -> None:
    await db.guilds.set_default_timer(1, 30)
    await db.guilds.set_language(1, "lv")
    assert await db.guilds.language(1) == "lv"
    assert await db.guilds.default_timer(1) == 30  # setting one leaves the other
    await db.guilds.set_language(1, None)
    assert await db.guilds.language(1) is None
    assert await db.guilds.default_timer(1) == 30


async def test_negative_timer_is_refused(db: Database) -> None:
    with pytest.raises(ValueError, match="negative"):
        await db.guilds.set_default_timer(1, -1)
    assert await db.guilds.default_timer(1) is None


async def test_threads_are_off_until_set_and_keep_the_other_settings(db: Database) -> None:
    assert await db.guilds.threads(1) is False
    await db.guilds.set_language(1, "lv")
    assert await db.guilds.threads(1) is False  # a row without the setting: off
    await db.guilds.set_threads(1, True)
    assert await db.guilds.threads(1) is True
    assert await db.guilds.threads(2) is False
    assert await db.guilds.language(1) == "lv"
    await db.guilds.set_threads(1, False)
    assert await db.guilds.threads(1) is False
    assert await db.guilds.language(1) == "lv"


async def test_settings_reads_every_setting_at_once(db: Database) -> None:
    assert await db.guilds.settings(1) == GuildSettings(None, None, False)
    await db.guilds.set_threads(1, True)
    assert await db.guilds.settings(1) == GuildSettings(None, None, True)
    await db.guilds.set_default_timer(1, 90)
    await db.guilds.set_language(1, "fi")
    await db.guilds.set_threads(2, True)
    settings = await db.guilds.settings(1)
    assert settings == GuildSettings(default_timer=90, language="fi", threads=True)
    assert await db.guilds.settings(2) == GuildSettings(threads=True)
    with pytest.raises(FrozenInstanceError):
        settings.threads = False  # type: ignore[misc]


async def test_referee_role_round_trip_keeps_the_rest(db: Database) -> None:
    await db.guilds.set_language(1, "fi")
    assert (await db.guilds.settings(1)).referee_role is None
    big = 1456074443980800006  # a Discord id needs 64 bits
    await db.guilds.set_referee_role(1, big)
    settings = await db.guilds.settings(1)
    assert settings.referee_role == big
    assert settings.language == "fi"
    await db.guilds.set_referee_role(1, None)
    assert (await db.guilds.settings(1)).referee_role is None
    assert (await db.guilds.settings(2)).referee_role is None
