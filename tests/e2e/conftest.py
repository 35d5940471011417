"""SimCord fixtures: the real bot against a simulated Discord, with a real SQLite file."""

from __future__ import annotations

import pytest

from bot.client import DominoBot


@pytest.fixture
def db_path(tmp_path):
    return tmp_path / "dominobot.sqlite3"


@pytest.fixture
def simcord_bot(db_path):
    return DominoBot(database_path=db_path)


@pytest.fixture
async def bot(simcord_env):
    bot = simcord_env.bot
    await bot.tree.sync()
    yield bot
    await bot.shutdown()


@pytest.fixture
def guild(simcord_env, bot):
    return simcord_env.create_guild("Domino Club")


@pytest.fixture
def channel(guild):
    return guild.create_text_channel("dominoes")


@pytest.fixture
def alice(simcord_env, guild):
    return guild.add_member(simcord_env.create_user("alice"))


@pytest.fixture
def bob(simcord_env, guild):
    return guild.add_member(simcord_env.create_user("bob"))


@pytest.fixture
def carol(simcord_env, guild):
    return guild.add_member(simcord_env.create_user("carol"))


@pytest.fixture
def dave(simcord_env, guild):
    return guild.add_member(simcord_env.create_user("dave"))
