"""One error path: a refusal is a polite ephemeral answer (no bot error), a failure is
logged and answered with a polite "something went wrong" that shows no tile, from a
command (the cog's error handler) and from a button (the items' base class) alike."""

from __future__ import annotations

import logging
import re

import discord

TILE = re.compile(r"\b\d{1,2}-\d{1,2}\b")
WRONG = "Something went wrong on our side. The game is safe; please try again."


async def started(bot, channel, alice, bob):
    await alice.slash(channel, "domino new", game="block")
    table = channel.last_message
    await bob.click(table, label="Join")
    await alice.click(table, label="Start")
    session = await bot.games.in_channel(channel.id)
    # the game's table moved to the bottom of the channel when the game began
    table = next(m for m in channel.history(viewer=alice) if m.id == session.table_message_id)
    return session, table


def answer(result):
    """The user's reply: the deferred response's message, or the one followup after it."""
    assert len(result.followups) <= 1, [m.content for m in result.followups]
    return result.followups[0] if result.followups else result.response


def assert_polite_failure(message):
    assert message.ephemeral
    assert message.content == WRONG
    assert not message.attachments
    assert not TILE.search(message.content)


async def test_refusals_are_answers_not_bot_errors(simcord_env, bot, channel, alice, bob):
    await alice.slash(channel, "domino new", game="block")
    table = channel.last_message
    refused = await alice.click(table, label="Join")  # a button: already seated
    assert "already have a seat" in answer(refused).content
    refused = await bob.slash(channel, "domino start")  # a command: not the creator
    assert "Only the player who opened" in answer(refused).content
    refused = await bob.click(table, label="Leave")  # a button: not seated
    assert "You are not playing in this game" in answer(refused).content
    refused = await bob.slash(channel, "domino reset-leaderboard")  # a stats command
    assert answer(refused).ephemeral
    assert "Manage Server" in answer(refused).content
    assert simcord_env.errors == []


async def test_a_failing_button_answers_politely_and_shows_no_tile(
    simcord_env, bot, channel, alice, bob, caplog
):
    session, table = await started(bot, channel, alice, bob)
    mover = alice if session.turn_seat.user_id == alice.id else bob
    simcord_env.inject_error("POST", "/webhooks/*", status=403, times=1)
    with caplog.at_level(logging.ERROR, logger="cogs.domino.replies"):
        result = await mover.click(table, label="Show my hand")
    assert_polite_failure(answer(result))
    failures = [r for r in caplog.records if r.getMessage() == "an interaction failed"]
    assert failures
    assert isinstance(failures[0].exc_info[1], discord.Forbidden)
    assert simcord_env.errors == []  # answered in the button itself
    again = await mover.click(table, label="Show my hand")  # and nothing broke
    assert answer(again).attachments


async def test_a_failing_command_answers_politely_through_the_cog_handler(
    simcord_env, bot, channel, alice, bob, caplog
):
    session, _table = await started(bot, channel, alice, bob)
    mover = alice if session.turn_seat.user_id == alice.id else bob
    simcord_env.inject_error("POST", "/webhooks/*", status=403, times=1)
    with caplog.at_level(logging.ERROR, logger="cogs.domino.replies"):
        result = await mover.slash(channel, "domino hand")
    assert_polite_failure(answer(result))
    assert any(r.getMessage() == "an interaction failed" for r in caplog.records)
    # discord.py still reports it as the bot error it is (SimCord keeps those)
    errors = simcord_env.errors
    assert len(errors) == 1
    assert isinstance(errors[0], discord.app_commands.CommandInvokeError)
    assert isinstance(errors[0].original, discord.Forbidden)
