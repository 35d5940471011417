"""SimCord fixtures: the real bot against a simulated Discord, with a real database.

Every test that uses the bot runs on both backends (``[sqlite]``: a SQLite file;
``[postgresql]``: a fresh database on the session's throwaway PostgreSQL server, see
tests/postgres_support.py), as the storage tests do; ``db_path`` is the file's path or
the database's URL, and ``new_bot`` builds a bot on it (a restart's new bot too). A test
about the SQLite file itself, or a whole match that the PostgreSQL half need not play
again (the time of the suite), is marked ``sqlite_only`` with its reason.

Games are dealt from seeds drawn from the test's own name (``new_bot``), so a test
plays the same deals in every run: a test that fails does so again when run alone, and
CI never meets a deal the test was not run on (a lead nobody can follow, say).
"""

from __future__ import annotations

import random
from pathlib import Path

import discord
import pytest
import simcord.interactions
from driver_support import Driver

from bot.client import DominoBot


@pytest.fixture
async def db_path(database_at):
    """Where the test's database lives: a SQLite file, or a new PostgreSQL database's URL."""
    return await database_at("dominobot.sqlite3")


@pytest.fixture
def new_bot(db_path, request):
    """A new bot on the test's database (``DominoBot``'s other arguments passed on), its
    games' seeds drawn from the test's name unless ``seed_source`` is given."""
    seeds = random.Random(request.node.nodeid)

    def make(**kw):
        kw.setdefault("seed_source", lambda: seeds.getrandbits(62))
        if isinstance(db_path, Path):
            return DominoBot(database_path=db_path, **kw)
        return DominoBot(database_url=db_path, **kw)

    return make


@pytest.fixture
def referee(simcord_env, guild):
    """A member with Manage Server: a competition's referee."""
    managers = guild.create_role("Referees", permissions=discord.Permissions(manage_guild=True))
    return guild.add_member(simcord_env.create_user("referee"), roles=[managers])


@pytest.fixture
def user_locales(monkeypatch):
    """user id -> the Discord locale their interactions carry (default en-US)."""
    locales: dict[int, str] = {}
    original = simcord.interactions.base_payload

    def base_payload(backend, **kw):
        record, payload = original(backend, **kw)
        payload["locale"] = locales.get(kw["user_id"], "en-US")
        return record, payload

    monkeypatch.setattr(simcord.interactions, "base_payload", base_payload)
    return locales


@pytest.fixture
def simcord_bot(new_bot):
    return new_bot()


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


@pytest.fixture
def driver(simcord_env, bot, channel, alice, bob, carol, dave):
    return Driver(simcord_env, bot, channel, [alice, bob, carol, dave])
