"""Every interaction is acknowledged before any database work.

Discord fails an interaction not answered within 3 seconds; under load the
database may be busy. A journal records, in order, every database call the bot
makes and every interaction callback (the acknowledgement) it sends to SimCord's
HTTP router; for each command, button and select the acknowledgement comes first.
"""

from __future__ import annotations

from dataclasses import replace

import discord
import pytest
from ack_journal import install

from bot.engine.review import ReviewSettings
from bot.engine.review.values import KNOWN

SMALL_REVIEW = ReviewSettings(known=replace(KNOWN, work=5_000, worlds=10), open_playouts=1)


@pytest.fixture
def journal(monkeypatch, bot):
    return install(monkeypatch, bot)


@pytest.fixture
def admin(simcord_env, guild):
    admins = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    return guild.add_member(simcord_env.create_user("admin"), roles=[admins])


def ids(message, prefix):
    return [
        c["custom_id"]
        for row in message.components
        for c in row["components"]
        if c.get("custom_id", "").startswith(prefix)
    ]


async def test_every_command_and_component_acknowledges_before_the_database(
    journal, bot, channel, alice, bob, admin, driver
):
    async def step(what, action):
        journal.clear()
        result = await action
        journal.check(what)
        return result

    await step("/domino new", alice.slash(channel, "domino new", game="block", scoring="single"))
    table = channel.last_message
    await step("/domino addbot", alice.slash(channel, "domino addbot", level="easy"))
    await step("Leave (button)", bob.click(table, label="Leave"))  # not seated: refused
    await step("/domino leave", alice.slash(channel, "domino leave"))
    await step("/domino new again", alice.slash(channel, "domino new", game="block"))
    table = channel.last_message
    await step("Join (button)", bob.click(table, label="Join"))
    await step("/domino join", alice.slash(channel, "domino join"))  # seated: refused
    await step("/domino start", bob.slash(channel, "domino start"))  # not the creator
    await step("Start (button)", alice.click(table, label="Start"))
    session = await bot.games.in_channel(channel.id)
    mover = alice if session.turn_seat.user_id == alice.id else bob
    other = bob if mover is alice else alice
    # the game's table moved to the bottom of the channel when the game began
    table = next(m for m in channel.history(viewer=alice) if m.id == session.table_message_id)
    hand = await step("/domino hand", mover.slash(channel, "domino hand"))
    await step("Show my hand (button)", other.click(table, label="Show my hand"))
    await step("Refresh (button)", mover.click(hand.response, label="Refresh"))
    await step("/domino play", other.slash(channel, "domino play", tile="6-6"))
    await step(
        "move button", mover.click(hand.response, custom_id=ids(hand.response, "domino:m:")[0])
    )
    await step("/domino board", alice.slash(channel, "domino board"))
    await step("/domino export", alice.slash(channel, "domino export"))
    await step("/domino rules", alice.slash(channel, "domino rules", game="latvian"))
    end = await step("/domino end", alice.slash(channel, "domino end"))
    await step("End the game (button)", alice.click(end.response, label="End the game"))
    await step("/domino settings timer", admin.slash(channel, "domino settings timer", seconds=60))
    await step(
        "/domino settings language",
        admin.slash(channel, "domino settings language", language="fi"),
    )
    await step(
        "/domino settings threads",
        admin.slash(channel, "domino settings threads", enabled=False),
    )
    board = await step("/domino leaderboard", alice.slash(channel, "domino leaderboard"))
    await step("/domino stats", alice.slash(channel, "domino stats"))
    history = await step("/domino history", alice.slash(channel, "domino history"))
    reset = await step(
        "/domino reset-leaderboard", admin.slash(channel, "domino reset-leaderboard")
    )
    await step(
        "reset cancel (button)",
        admin.click(reset.response, custom_id=ids(reset.response, "domino:rc:")[0]),
    )
    assert board
    assert history

    # a match played to its end offers a rematch: each click is acknowledged first
    await alice.slash(channel, "domino new", game="block", scoring="single")
    table = channel.last_message
    await bob.slash(channel, "domino join")
    await alice.slash(channel, "domino start")
    session = await driver.play_until(lambda s: s.status != "playing")
    final = next(m for m in channel.history(viewer=alice) if m.id == session.table_message_id)
    [rematch, review] = [c.custom_id for row in final.components for c in row.children]
    assert rematch == f"domino:rematch:{session.id}"
    assert review == f"domino:review:{session.id}"
    bot.reviews.settings = SMALL_REVIEW
    await step("Review (button)", bob.click(final, custom_id=review))
    await step("/domino review", alice.slash(channel, "domino review"))
    await step("/domino review of no match", alice.slash(channel, "domino review", match=10**9))
    await step("Rematch (button)", bob.click(final, custom_id=rematch))
    await step("Rematch again (button)", bob.click(final, custom_id=rematch))  # refused
    await step("Rematch, the last player (button)", alice.click(final, custom_id=rematch))
    assert (await bot.games.in_channel(channel.id)).id != session.id
    assert table


async def test_every_competition_command_and_button_acknowledges_before_the_database(
    journal, bot, guild, channel, alice, bob, admin
):
    async def step(what, action):
        journal.clear()
        result = await action
        journal.check(what)
        return result

    def private(result):
        shown = [m for m in result.followups if m.ephemeral]
        return shown[-1] if shown else result.response

    admins = guild.create_role("Referees")
    await step(
        "/domino competition referees",
        admin.slash(channel, "domino competition referees", role=admins),
    )
    await step("/domino competition open", admin.slash(channel, "domino competition open", deals=1))
    message = channel.last_message
    await step("Check in (button)", alice.click(message, label="Check in"))
    await step("Check out (button)", alice.click(message, label="Check out"))
    await step("Check in again (button)", alice.click(message, label="Check in"))
    await step("Check in, bob (button)", bob.click(message, label="Check in"))
    await step(
        "/domino competition standings", alice.slash(channel, "domino competition standings")
    )
    asked = await step(
        "/domino competition remove", admin.slash(channel, "domino competition remove", player=bob)
    )
    await step("Cancel (button)", admin.click(private(asked), label="Cancel"))
    await step(
        "/domino competition reinstate",
        admin.slash(channel, "domino competition reinstate", player=bob),
    )  # refused: not removed
    await step(
        "/domino competition end-round", admin.slash(channel, "domino competition end-round")
    )
    asked = await step("/domino competition end", admin.slash(channel, "domino competition end"))
    await step("End (button)", admin.click(private(asked), label="End the competition"))
    await step("/domino competition history", alice.slash(channel, "domino competition history"))
    await step("/domino competition export", alice.slash(channel, "domino competition export"))
