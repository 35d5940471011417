"""A button's game id from another server or channel is refused (issue 37, row 2).

Discord checks today that a clicked custom id is on the clicked message; the bot does not
rely on it. These interactions carry a custom id that is not on the message they click
(SimCord's own component dispatch, below the check its ``click`` makes, as a modified
client or a Discord bug could send them): ``domino:end:<N>`` from a server where the
clicker has Manage Server, ``domino:join:<N>`` from another channel.
"""

from __future__ import annotations

import copy

import discord
import pytest
from simcord import ChannelHandle, actors
from simcord.backend import serializers
from simcord.enums import ComponentType, InteractionType

ELSEWHERE = "That button belongs to a game in another channel."


async def forged_click(user, message, custom_id):
    """``user`` clicks a button of ``message`` that says ``custom_id``: the interaction
    carries the message with its first button's custom id changed (as a modified client
    could send it; discord.py looks the clicked item up in that message)."""
    stored = actors._visible_message(user, message)
    payload = copy.deepcopy(dict(serializers.message_payload(user._env.backend, stored)))
    first = next(
        c for row in payload["components"] for c in row["components"] if c.get("custom_id")
    )
    first["custom_id"] = custom_id
    data = {"custom_id": custom_id, "component_type": ComponentType.BUTTON}
    channel = ChannelHandle(user._env, user.guild, user._env.backend.get_channel(stored.channel_id))
    return await actors._dispatch_actor_interaction(
        user,
        InteractionType.MESSAGE_COMPONENT,
        channel,
        data,
        extra={"message": payload},
        source_message_id=stored.id,
    )


def answer(result):
    """The clicker's private answer."""
    private = [m for m in result.followups if m.ephemeral]
    if private:
        return private[-1].content
    assert result.ephemeral
    return result.response.content


@pytest.fixture
def other_server(simcord_env, bot):
    """Another server, its channel, and mallory, who manages it, with a table open there
    (a message of the bot's to click on)."""
    guild = simcord_env.create_guild("Elsewhere")
    channel = guild.create_text_channel("games")
    admins = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    mallory = guild.add_member(simcord_env.create_user("mallory"), roles=[admins])
    return channel, mallory


async def test_end_and_join_from_another_server_are_refused(bot, channel, alice, bob, other_server):
    await alice.slash(channel, "domino new", game="block")
    table = channel.last_message
    await bob.click(table, label="Join")
    await alice.click(table, label="Start")
    game = await bot.games.in_channel(channel.id)
    assert game is not None
    there, mallory = other_server
    await mallory.slash(there, "domino new", game="draw")
    mallory_table = there.last_message

    ended = await forged_click(mallory, mallory_table, f"domino:end:{game.id}:{mallory.id}")
    assert answer(ended) == ELSEWHERE
    joined = await forged_click(mallory, mallory_table, f"domino:join:{game.id}")
    assert answer(joined) == ELSEWHERE

    after = await bot.games.in_channel(channel.id)
    assert after is not None
    assert after.status == "playing"
    assert after.version == game.version
    row = await bot.db.games.get(game.id)
    assert row.status == "playing"
    assert row.version == game.version
    assert all(seat.user_id != mallory.id for seat in after.seats)


async def test_join_from_another_channel_of_the_server_is_refused(
    bot, guild, channel, alice, bob, carol
):
    await alice.slash(channel, "domino new", game="block")
    lobby = await bot.games.in_channel(channel.id)
    side = guild.create_text_channel("side-room")
    await bob.slash(side, "domino new", game="draw")
    bob_table = side.last_message

    joined = await forged_click(carol, bob_table, f"domino:join:{lobby.id}")
    assert answer(joined) == ELSEWHERE
    still = await bot.games.in_channel(channel.id)
    assert [s.user_id for s in still.seats] == [alice.id]
    assert still.version == lobby.version

    seated = await carol.click(channel.last_message, label="Join")  # where the table is
    assert not seated.ephemeral or "seat" in answer(seated)
    assert (await bot.games.in_channel(channel.id)).seat_of(carol.id) == 1
