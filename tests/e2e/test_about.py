"""``/domino about``: the version, this server's shard, the process, the backend, the games.

And the log line each interaction leaves: which shard and which process served it.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket

import discord
import pytest
import simcord
import simcord.interactions

from bot.settings import Shards, shard_of
from cogs.domino.about import version


@pytest.fixture
def admin(simcord_env, guild):
    admins = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    return guild.add_member(simcord_env.create_user("admin"), roles=[admins])


async def test_about_tells_a_manager_the_process_backend_and_games(
    bot, channel, alice, admin, backend, db_path
):
    result = await admin.slash(channel, "domino about")
    assert result.ephemeral
    text = result.response.content
    assert f"Dominobot {version()}" in text
    assert "without shards" in text
    assert f"process {os.getpid()} on host {socket.gethostname()}" in text
    assert f"Storage: {'SQLite' if backend == 'sqlite' else 'PostgreSQL'}." in text
    assert "0 games in play" in text
    assert str(db_path) not in text  # no path, no URL, no password
    assert "dominobot-test" not in text

    await alice.slash(channel, "domino new", game="block", players=2)
    text = (await admin.slash(channel, "domino about")).response.content
    assert "1 game in play" in text


async def test_about_tells_other_members_the_version_and_shard_only(bot, channel, alice):
    result = await alice.slash(channel, "domino about")
    assert result.ephemeral
    text = result.response.content
    assert text.splitlines() == [
        f"**Dominobot {version()}**",
        "The bot runs as one process, without shards.",
    ]
    assert str(os.getpid()) not in text
    assert socket.gethostname() not in text


async def test_about_is_in_the_askers_language(bot, channel, alice, admin, user_locales):
    user_locales[admin.id] = "fi"
    text = (await admin.slash(channel, "domino about")).response.content
    assert "ilman sirpaleita" in text
    assert f"Vastasi prosessi {os.getpid()}" in text
    assert "0 peliä käynnissä" in text
    user_locales[alice.id] = "lv"
    assert "bez šķembām" in (await alice.slash(channel, "domino about")).response.content
    user_locales[alice.id] = "da"
    assert "uden shards" in (await alice.slash(channel, "domino about")).response.content


async def test_a_sharded_bot_names_the_servers_shard_and_logs_each_interaction(new_bot, caplog):
    bot = new_bot(shards=Shards(4, (1, 3)))
    env = simcord.Env(bot)
    guild = env.create_guild("Shard Three", shard_id=3)
    assert shard_of(guild.id, 4) == 3
    channel = guild.create_text_channel("dominoes")
    alice = guild.add_member(env.create_user("alice"))
    await env.start()
    try:
        await bot.tree.sync()
        assert bot.shard_count == 4
        assert bot.shard_ids == [1, 3]
        with caplog.at_level(logging.INFO, logger="bot.interactions"):
            text = (await alice.slash(channel, "domino about")).response.content
            await alice.slash(channel, "domino new", game="block", players=2)
        assert "shard 3 of 4" in text
        lines = [r.getMessage() for r in caplog.records if r.name == "bot.interactions"]
        assert lines == [
            f"/domino about in guild {guild.id} channel {channel.id} by user {alice.id}: "
            f"shard 3 of 4, pid {os.getpid()}",
            f"/domino new in guild {guild.id} channel {channel.id} by user {alice.id}: "
            f"shard 3 of 4, pid {os.getpid()}",
        ]
        env.raise_errors()
    finally:
        with contextlib.suppress(Exception):
            await bot.shutdown()
        await env.shutdown()
