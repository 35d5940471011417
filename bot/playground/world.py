"""The playground's simulated Discord: one server, a ``#dominoes`` channel, four players.

The world is built the same way on every start, so it has the same ids every time:
the server's id is pinned, and SimCord gives the channel and the users ids from its
clock, which starts at the same instant in every new world, in creation order. The
games, match records and leaderboards in the SQLite file therefore keep pointing at
the same people and the same channel after a restart.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

import simcord

from bot.client import DominoBot
from bot.games.service import TIMER_RANGE

GUILD_ID = 1_111_111_111_111_111_111
BOT_NAME = "Dominobot"
GUILD_NAME = "Domino Club"
CHANNEL_NAME = "dominoes"
# (username, display name); the first one owns the server (and may change its settings).
PLAYERS = (("alice", "Alice"), ("bob", "Bob"), ("carol", "Carol"), ("dave", "Dave"))
# Real seconds one action may take before SimCord stops waiting for the bot (AI turns
# included). It must stay below the shortest turn timer: SimCord waits out, in real
# time, any sleep that ends before this deadline, so a longer one would wait for every
# turn timer of a game whose players all time out, one after the other, forever.
SETTLE_TIMEOUT = TIMER_RANGE[0] * 0.8


@dataclass(frozen=True, slots=True)
class World:
    """Handles to the seeded server, its channel and its members (in ``PLAYERS`` order)."""

    guild: simcord.GuildHandle
    channel: simcord.ChannelHandle
    members: tuple[simcord.MemberActor, ...]

    def member(self, display_name: str) -> simcord.MemberActor:
        """The member called ``display_name`` (e.g. ``"Bob"``)."""
        for (_, shown), member in zip(PLAYERS, self.members, strict=True):
            if shown == display_name:
                return member
        raise KeyError(display_name)


def seed_world(env: simcord.Env) -> World:
    """Create the server, the channel and the players, always in the same order."""
    users = [env.create_user(name, global_name=shown) for name, shown in PLAYERS]
    guild = env.create_guild(GUILD_NAME, id=GUILD_ID, owner=users[0])
    channel = guild.create_text_channel(CHANNEL_NAME, topic="Play dominoes here: /domino new")
    members = tuple(guild.add_member(user) for user in users)
    return World(guild=guild, channel=channel, members=members)


@asynccontextmanager
async def running_world(bot: DominoBot) -> AsyncIterator[tuple[simcord.Env, World]]:
    """Seed the world, start ``bot`` in it, register its slash commands and name it.

    Bot errors are logged (by discord.py) rather than collected for a test to read;
    on exit the bot's game tasks and database are closed, then the world.
    """
    env = simcord.Env(bot, check_errors=False, settle_timeout=SETTLE_TIMEOUT)
    world = seed_world(env)  # before the start: nothing else has taken an id yet
    await env.start()
    try:
        with env.time_context():
            await bot.tree.sync()
            if bot.user is not None and bot.user.name != BOT_NAME:
                await bot.user.edit(username=BOT_NAME)  # SimCord calls every bot "TestBot"
            yield env, world
    finally:
        try:
            await bot.shutdown()
        finally:
            await env.shutdown()
