"""Fixtures for the stats tests: real SQLite files, the real bot against SimCord.

Written for this folder (nothing is imported from the other test folders).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import discord
import pytest
from stats_support import Matches, Seat

from bot.client import DominoBot
from bot.stats import install
from bot.storage import Database


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "stats.sqlite3"


@pytest.fixture
async def db(db_path: Path) -> AsyncIterator[Database]:
    database = await Database.open(db_path)
    install(database)  # the leaderboard's rules with openskill, as setup_hook wires them
    try:
        yield database
    finally:
        await database.close()


@pytest.fixture
def matches(db: Database) -> Matches:
    return Matches(db)


# -- SimCord --------------------------------------------------------------------------------


@pytest.fixture
def simcord_bot(tmp_path: Path) -> DominoBot:
    return DominoBot(database_path=tmp_path / "bot.sqlite3")


@pytest.fixture
async def bot(simcord_env: Any) -> AsyncIterator[DominoBot]:
    bot = simcord_env.bot
    await bot.tree.sync()
    yield bot
    await bot.shutdown()


@pytest.fixture
def guild(simcord_env: Any, bot: DominoBot) -> Any:
    return simcord_env.create_guild("Domino Club")


@pytest.fixture
def channel(guild: Any) -> Any:
    return guild.create_text_channel("dominoes")


@pytest.fixture
def admin_role(guild: Any) -> Any:
    return guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))


@pytest.fixture
def alice(simcord_env: Any, guild: Any, admin_role: Any) -> Any:
    """Alice may manage the server."""
    return guild.add_member(simcord_env.create_user("alice"), roles=[admin_role])


@pytest.fixture
def bob(simcord_env: Any, guild: Any) -> Any:
    return guild.add_member(simcord_env.create_user("bob"))


@pytest.fixture
def carol(simcord_env: Any, guild: Any) -> Any:
    return guild.add_member(simcord_env.create_user("carol"))


@pytest.fixture
def stored(bot: DominoBot, guild: Any) -> Callable[..., Awaitable[int]]:
    """Store a finished match of this guild straight through the bot's repositories."""
    matches = Matches(bot.db)

    async def add(*seats: Seat, **kw: Any) -> int:
        kw.setdefault("guild_id", guild.id)
        kw.setdefault("at", bot.games.clock())
        return await matches.add(*seats, **kw)

    return add
