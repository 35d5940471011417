"""A timed round (issue 41): the referee gives each round a number of minutes (a latvian
session's time limit); when they run out, each table's deal in play is its last, even
across a restart of the bot."""

from __future__ import annotations

import pytest
from competition_support import settle, unpaced
from driver_support import Driver

MINUTES = 5


@pytest.fixture
def simcord_bot(new_bot):
    return unpaced(new_bot)


async def test_a_timed_round_ends_each_table_after_its_deal_in_play(
    simcord_env, bot, new_bot, guild, channel, referee
):
    players = [guild.add_member(simcord_env.create_user(f"p{i}")) for i in range(2)]
    refused = await referee.slash(channel, "domino competition open", game="block", minutes=5)
    assert "Only a Latvian session can be timed" in refused.response.content
    await referee.slash(channel, "domino competition open", rounds=1, minutes=MINUTES)
    message = channel.last_message
    for p in players:
        await p.click(message, label="Check in")
    await referee.slash(channel, "domino competition start")
    await settle(simcord_env, bot)
    held = bot.competitions.in_channel(channel.id)
    table = held.competition.current.tables[0]
    assert held.competition.current.ends_at is not None
    session = await bot.games.get(table.game_id)
    thread = next(t for t in channel.threads if t.id == session.channel_id)
    posted = "\n".join(m.content for m in channel.history(viewer=referee))
    assert f"plays for {MINUTES} minutes" in posted
    driver = Driver(simcord_env, bot, thread, players)
    await driver.play_turn()

    # a restart before the time is up: the round's clock is set again from its stored end
    await bot.shutdown()
    fresh = unpaced(new_bot)
    await simcord_env.restart_bot(fresh)
    try:
        await fresh.restoring
        await settle(simcord_env, fresh)
        assert not (await fresh.games.get(table.game_id)).state.time_up
        await simcord_env.advance_time(MINUTES * 60)
        await settle(simcord_env, fresh)
        session = await fresh.games.get(table.game_id)
        assert session.state.time_up
        assert session.active  # the deal in play goes on
        dealt = session.state.deal_number
        driver = Driver(simcord_env, fresh, thread, players)
        for _ in range(200):
            session = await fresh.games.get(table.game_id)
            if not session.active:
                break
            await driver.play_turn()
            await settle(simcord_env, fresh)
        assert not session.active
        assert session.state.deal_number == dealt  # no deal after the time was up
        assert session.state.outcome is not None
        stored = await fresh.competitions.get(held.id)
        assert stored.competition.status == "finished"
        result = stored.competition.rounds[0].tables[0].result
        assert list(result.score) == [float(x) for x in session.state.totals]
    finally:
        await fresh.shutdown()
