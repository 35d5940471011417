"""Fixtures for the stats tests: real databases, the real bot against SimCord.

Written for this folder (nothing is imported from the other test folders). Every test
that uses ``db``, ``db_path`` or the bot runs on both backends (``[sqlite]``: SQLite
files; ``[postgresql]``: fresh databases on the session's throwaway PostgreSQL server,
tests/postgres_support.py); ``db_path`` is then the file's path or the database's URL,
which :meth:`Database.open` takes alike. A test about SQLite's own files is marked
``sqlite_only``.
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
async def db_path(database_at: Any) -> Any:
    """The stats database: a SQLite file, or a new PostgreSQL database's URL."""
    return await database_at("stats.sqlite3")


@pytest.fixture
async def bot_db_path(database_at: Any) -> Any:
    """The bot's database (another one than ``db_path``'s)."""
    return await database_at("bot.sqlite3")


@pytest.fixture
async def db(db_path: Any) -> AsyncIterator[Database]:
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
def simcord_bot(bot_db_path: Any) -> DominoBot:
    if isinstance(bot_db_path, Path):
        return DominoBot(database_path=bot_db_path)
    return DominoBot(database_url=bot_db_path)


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
