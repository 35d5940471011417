"""Whole matches through the commands and buttons."""

from __future__ import annotations

import json

from bot.engine import Played, load_record, replay_summary


async def open_table(user, channel, **options):
    result = await user.slash(channel, "domino new", **options)
    assert result.ephemeral, result
    return channel.last_message


async def test_two_users_and_an_ai_seat_play_a_match_to_the_end(bot, channel, alice, bob, driver):
    table = await open_table(alice, channel, game="block", players=3, target=15)
    await bob.click(table, label="Join")
    await alice.click(table, label="Add AI")
    await alice.click(table, label="Start")
    session = await driver.play_until(lambda s: s.status != "playing")
    assert session.status == "finished"
    assert session.state.over
    assert session.state.winners
    assert max(session.state.totals) >= 15
    [stored] = (await bot.db.matches.history(channel.guild.id)).entries
    assert stored.game_id == session.id
    assert [s.name for s in stored.seats] == ["alice", "bob", "Bot 1"]
    assert stored.seats[2].user_id is None
    assert stored.seats[2].ai_level == "normal"
    record = await bot.db.matches.record(channel.guild.id, stored.id)
    assert record is not None
    assert replay_summary(load_record(record))["winners"] == list(session.state.winners)
    await bot.get_cog("Domino").publisher.settled()
    # one summary above the table: each deal's summary replaces the one before it (it
    # shows the match so far)
    summaries = [
        m.content
        for m in channel.history(viewer=alice)
        if not m.flags.ephemeral and " is over.**" in m.content
    ]
    deals = len(session.state.deals)
    assert summaries == [f"**Deal {deals} is over.**"]
    table = next(m for m in channel.history(viewer=alice) if m.id == session.table_message_id)
    assert "the match is over" in table.embeds[0].footer.text
    # a finished table offers the rematch and the review of its last deal
    labels = [c.label for row in table.components for c in row.children]
    assert labels == ["Rematch", "Review"]


async def test_four_players_in_teams(bot, channel, alice, bob, carol, dave, driver):
    table = await open_table(alice, channel, game="block", players=4, teams=True, scoring="single")
    for user in (bob, carol, dave):
        await user.click(table, label="Join")
    await alice.click(table, label="Start")
    session = await driver.play_until(lambda s: s.status != "playing")
    assert session.status == "finished"
    winners = set(session.state.winners)
    assert winners in ({0, 2}, {1, 3}, set())
    [stored] = (await bot.db.matches.history(channel.guild.id)).entries
    assert stored.game_id == session.id
    assert {s.seat for s in stored.winners} == winners
    assert [s.side for s in stored.seats] == [0, 1, 0, 1]


async def test_export_gives_a_record_that_replays(bot, channel, alice, bob, driver):
    table = await open_table(alice, channel, game="draw", scoring="single")
    await bob.click(table, label="Join")
    await alice.click(table, label="Start")
    early = await alice.slash(channel, "domino export")
    assert early.ephemeral
    assert "no finished deal" in early.response.content
    session = await driver.play_until(lambda s: s.status != "playing")
    result = await bob.slash(channel, "domino export")
    assert result.ephemeral
    data = await result.response.attachments[0].read()
    record = json.loads(data)
    assert record["seats"] == ["alice", "bob"]
    assert replay_summary(load_record(record))["over"] is True
    assert session.state.over


async def test_a_hard_ai_seat_plays_a_match_against_a_user(bot, channel, alice, driver):
    await open_table(alice, channel, game="draw", scoring="single")
    result = await alice.slash(channel, "domino addbot", level="hard")
    assert result.ephemeral
    await alice.slash(channel, "domino start")
    session = await driver.play_until(lambda s: s.status != "playing")
    assert session.status == "finished"
    assert session.seats[1].ai == "hard"
    history = session.state.deals[0].history
    assert any(isinstance(e, Played) and e.seat == 1 for e in history)
