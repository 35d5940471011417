"""Guild settings round trip."""

from __future__ import annotations

import pytest

from bot.storage import Database


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
