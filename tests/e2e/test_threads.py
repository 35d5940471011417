"""``/domino settings threads``: each new game in a thread of its own, linked from the channel."""

from __future__ import annotations

import discord
import pytest


@pytest.fixture
def admin(simcord_env, guild):
    admins = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    return guild.add_member(simcord_env.create_user("admin"), roles=[admins])


def reply_text(result) -> str:
    """The user's private answer (a click or command may also carry a public table)."""
    private = [m for m in result.followups if m.ephemeral]
    if private:
        return private[-1].content
    return result.response.content


async def test_only_a_manager_turns_threads_on(bot, guild, channel, alice, admin):
    refused = await alice.slash(channel, "domino settings threads", enabled=True)
    assert "Manage Server" in reply_text(refused)
    assert not (await bot.games.settings.get(guild.id)).threads
    done = await admin.slash(channel, "domino settings threads", enabled=True)
    assert "thread" in reply_text(done)
    assert (await bot.games.settings.get(guild.id)).threads


async def test_with_threads_on_each_game_is_played_in_its_own_thread(
    bot, guild, channel, alice, bob, admin
):
    await admin.slash(channel, "domino settings threads", enabled=True)
    opened = await alice.slash(channel, "domino new", game="block")
    assert opened.ephemeral
    assert "thread" in reply_text(opened)
    threads = channel.threads
    assert len(threads) == 1
    thread = threads[0]
    assert thread.mention in reply_text(opened)
    # the channel has the line that starts the thread; the table is in the thread
    starter = channel.last_message
    assert "alice" in starter.content
    table = thread.last_message
    assert table.embeds[0].title.startswith("Block game")
    await bob.click(table, label="Join")
    await alice.click(thread.last_message, label="Start")
    session = await bot.games.in_channel(thread.id)
    assert session.status == "playing"
    assert session.channel_id == thread.id
    # commands in the thread find the game; the channel itself stays free for another
    hand = await bob.slash(thread, "domino hand")
    assert hand.ephemeral
    second = await bob.slash(channel, "domino new", game="draw")
    assert "thread" in reply_text(second)
    assert len(channel.threads) == 2


async def test_threads_need_their_permissions(simcord_env, bot, guild, alice, admin):
    no_threads = guild.create_text_channel(
        "no-threads",
        overwrites={guild.default_role: discord.PermissionOverwrite(create_public_threads=False)},
    )
    await admin.slash(no_threads, "domino settings threads", enabled=True)
    result = await alice.slash(no_threads, "domino new", game="block")
    assert "Create Public Threads" in reply_text(result)
    assert no_threads.threads == []
    assert await bot.games.in_channel(no_threads.id) is None


async def test_a_failed_thread_leaves_nothing_behind(
    simcord_env, bot, guild, channel, alice, admin
):
    await admin.slash(channel, "domino settings threads", enabled=True)
    simcord_env.inject_error("POST", f"/channels/{channel.id}/messages/*/threads", status=500)
    result = await alice.slash(channel, "domino new", game="block")
    assert "none was opened" in reply_text(result)
    assert await bot.games.in_channel(channel.id) is None
    assert channel.threads == []
    assert [m for m in channel.history(viewer=alice) if not m.flags.ephemeral] == []


async def test_impossible_options_are_refused_before_any_thread_is_made(
    bot, guild, channel, alice, admin
):
    await admin.slash(channel, "domino settings threads", enabled=True)
    result = await alice.slash(channel, "domino new", game="latvian", teams=True, players=4)
    assert "without teams" in reply_text(result)
    assert channel.threads == []
    assert [m for m in channel.history(viewer=alice) if not m.flags.ephemeral] == []
