"""The daily puzzle in a server (issue 40): a match played to its end, the puzzle posted
by the scheduler's step, answered once by each player (privately), stats with the
streak, and the buttons still working after a restart."""

from __future__ import annotations

from datetime import timedelta

import discord
import pytest

from bot.engine.puzzle import Puzzle


@pytest.fixture
def simcord_bot(new_bot):
    return new_bot(seed_source=lambda: 4242)


@pytest.fixture
def admin(simcord_env, guild):
    admins = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    return guild.add_member(simcord_env.create_user("admin"), roles=[admins])


def puzzle_buttons(message):
    """(custom id, label) of each puzzle button (rows as dicts or as SimCord's ActionRows)."""
    found = []
    for row in message.components:
        items = row["components"] if isinstance(row, dict) else row.children
        for c in items:
            custom_id = c.get("custom_id", "") if isinstance(c, dict) else c.custom_id or ""
            label = c.get("label") if isinstance(c, dict) else c.label
            if custom_id.startswith("domino:pz:"):
                found.append((custom_id, label))
    return found


async def test_a_finished_match_gives_the_day_s_puzzle_answered_once_each(
    simcord_env, bot, new_bot, guild, channel, alice, bob, carol, admin, driver
):
    await alice.slash(channel, "domino new", game="block", target=40)
    table = channel.last_message
    await bob.click(table, label="Join")
    await alice.click(table, label="Start")
    finished = await driver.play_until(lambda s: s.status != "playing")
    assert finished.status == "finished"

    # a member without Manage Server may not set it up; nothing changes
    refused = await alice.slash(
        channel, "domino puzzle setup", enabled=True, channel=channel, time="10:00"
    )
    assert refused.ephemeral
    assert "Manage Server" in refused.response.content
    assert not (await bot.puzzles.settings(guild.id)).enabled
    bad = await admin.slash(
        channel, "domino puzzle setup", enabled=True, channel=channel, time="25:99"
    )
    assert "HH:MM" in bad.response.content

    # set up for the minute after now: the scheduler waits for it; the test steps in
    now = bot.puzzles.clock()
    due = now + timedelta(minutes=1)
    done = await admin.slash(
        channel, "domino puzzle setup", enabled=True, channel=channel, time=due.strftime("%H:%M")
    )
    assert done.ephemeral
    assert "is on" in done.response.content
    cog = bot.get_cog("Domino")
    posted = await cog.post_due_puzzles(due)
    assert len(posted) == 1
    daily = posted[0]
    assert daily.puzzle.source == f"match {(await bot.db.matches.history(guild.id)).entries[0].id}"
    assert await cog.post_due_puzzles(due + timedelta(hours=1)) == []  # once a day
    message = channel.last_message
    assert (
        message.id == daily.message_id
        or message.id == (await bot.db.puzzles.of_day(guild.id, daily.day)).message_id
    )
    assert message.attachments
    assert "find the best move" in message.content
    buttons = puzzle_buttons(message)
    assert len(buttons) == len(daily.puzzle.choices) >= 2

    row = await bot.db.puzzles.of_day(guild.id, daily.day)
    answer = Puzzle.from_json(row.puzzle["puzzle"]).answer
    right = buttons[answer][0]
    wrong = buttons[(answer + 1) % len(buttons)][0]

    ok = await alice.click(message, custom_id=right)
    assert ok.ephemeral
    assert "Right" in ok.followups[-1].content if ok.followups else "Right" in ok.response.content
    no = await bob.click(message, custom_id=wrong)
    text = no.followups[-1].content if no.followups else no.response.content
    assert "Not this time" in text
    assert buttons[answer][1] in text  # the answer is told
    again = await alice.click(message, custom_id=wrong)
    text = again.followups[-1].content if again.followups else again.response.content
    assert "already answered" in text

    # a restart: the posted buttons still answer
    await bot.shutdown()
    fresh = new_bot(seed_source=lambda: 4242)
    await simcord_env.restart_bot(fresh)
    try:
        late = await carol.click(message, custom_id=right)
        text = late.followups[-1].content if late.followups else late.response.content
        assert "Right" in text
        stats = await alice.slash(channel, "domino puzzle stats")
        assert stats.ephemeral
        content = stats.followups[-1].content if stats.followups else stats.response.content
        assert "Solved 1 of 1" in content
        assert "Streak 1" in content
        assert f"<@{alice.id}>" in content
        mine = await alice.slash(channel, "domino puzzle today")
        assert mine.ephemeral
        shown = mine.followups[-1] if mine.followups else mine.response
        assert shown.attachments
        assert len(puzzle_buttons(shown)) == len(buttons)
    finally:
        await fresh.shutdown()


async def test_the_scheduler_keeps_no_timer_while_no_server_has_the_puzzle_on(
    simcord_env, bot, channel, admin
):
    """A loop waking every few hours for nothing would keep a timer forever (the
    playground, whose clock jumps from SimCord's start to today, ran it for each)."""
    await simcord_env.settle()
    cog = bot.get_cog("Domino")
    assert not cog.scheduling
    on = await admin.slash(
        channel, "domino puzzle setup", enabled=True, channel=channel, time="18:30"
    )
    assert "is on" in on.response.content or "is on" in on.followups[-1].content
    assert cog.scheduling
    await admin.slash(channel, "domino puzzle setup", enabled=False)
    assert not cog.scheduling
