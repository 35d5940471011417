"""The seeded world: the bot answers in it, its ids never change, games survive restarts."""

from __future__ import annotations

from bot.playground.app import show_game_in_progress
from bot.playground.world import BOT_NAME, CHANNEL_NAME, GUILD_ID, PLAYERS, running_world


async def test_the_bot_opens_a_table_in_the_seeded_world(new_bot):
    async with running_world(new_bot()) as (env, world):
        assert world.guild.id == GUILD_ID
        assert world.channel.name == CHANNEL_NAME
        assert [m.name for m in world.members] == [name for name, _ in PLAYERS]
        alice = world.member("Alice")
        result = await alice.slash(world.channel, "domino new", game="block")
        assert result.ephemeral
        table = world.channel.last_message
        assert table.author.id == env.bot.user.id
        assert env.bot.user.name == BOT_NAME
        assert "Block game" in table.embeds[0].title
        assert "Alice" in table.embeds[0].fields[0].value


async def test_every_start_builds_the_same_world(new_bot):
    ids = []
    for _ in range(2):
        async with running_world(new_bot()) as (_env, world):
            ids.append((world.guild.id, world.channel.id, [m.id for m in world.members]))
    assert ids[0] == ids[1]


async def test_a_game_in_play_is_shown_again_after_a_restart(new_bot):
    async with running_world(new_bot()) as (env, world):
        alice, bob = world.member("Alice"), world.member("Bob")
        await alice.slash(world.channel, "domino new", game="block")
        await bob.click(world.channel.last_message, label="Join")
        await alice.click(world.channel.last_message, label="Start")
        game = await env.bot.games.in_channel(world.channel.id)
        assert game is not None
    async with running_world(new_bot()) as (env, world):
        bob = world.member("Bob")
        assert list(world.channel.history(viewer=bob)) == []  # a new world: no messages
        await show_game_in_progress(env.bot, world)
        table = world.channel.last_message
        assert table.interaction_metadata is None  # the bot's own post: nobody "used" a command
        assert "deal 1" in table.embeds[0].title
        assert f"#{game.id}" in table.embeds[0].footer.text
        hand = await bob.click(table, label="Show my hand")
        assert hand.ephemeral
