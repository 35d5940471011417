"""Caps and cooldowns through Discord (issue 37, row 7): a polite refusal, nothing posted."""

from __future__ import annotations

from test_refusals import refused, started


def public(channel, viewer) -> list[int]:
    return [m.id for m in channel.history(viewer=viewer) if not m.flags.ephemeral]


async def test_the_table_is_posted_again_once_per_ten_seconds_per_player(
    simcord_env, bot, channel, alice, bob
):
    await started(alice, bob, channel, bot)
    first = await alice.slash(channel, "domino board")
    assert "Here is the table" in first.response.content
    tables = public(channel, alice)
    await refused(await alice.slash(channel, "domino board"), "You just posted the table")
    assert public(channel, alice) == tables  # nothing posted
    other = await bob.slash(channel, "domino board")  # another player may
    assert "Here is the table" in other.response.content
    await simcord_env.advance_time(11)
    again = await alice.slash(channel, "domino board")
    assert "Here is the table" in again.response.content


async def test_a_fourth_open_table_is_refused(bot, guild, alice):
    channels = [guild.create_text_channel(f"room-{i}") for i in range(4)]
    for room in channels[:3]:
        opened = await alice.slash(room, "domino new", game="block")
        assert "table is open" in opened.response.content
    fourth = await alice.slash(channels[3], "domino new", game="block")
    await refused(fourth, "You already have as many tables open as one player may (3)")
    assert await bot.games.in_channel(channels[3].id) is None
    assert not [m for m in channels[3].history(viewer=alice) if m.embeds]  # no table
