"""Opening a table, taking seats, starting: through the real commands and buttons."""

from __future__ import annotations


async def test_open_join_and_start_a_game(bot, channel, alice, bob):
    result = await alice.slash(channel, "domino new", game="block")
    assert result.ephemeral
    table = channel.last_message
    assert "Block game" in table.embeds[0].title
    await bob.click(table, label="Join")
    table = channel.last_message
    assert "bob" in table.embeds[0].fields[0].value
    await alice.click(table, label="Start")
    session = await bot.games.in_channel(channel.id)
    assert session is not None
    assert session.status == "playing"
