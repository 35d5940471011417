"""Leaderboard seasons through SimCord: close with a confirmation, the archived board,
the new season's board with ratings reset or carried, and the scheduled close."""

from __future__ import annotations

from datetime import timedelta
from itertools import count
from typing import Any

import discord
import pytest
from ack_journal import install

from bot.storage import FinishedMatch, MatchSeat

_channels = count(70_000)


@pytest.fixture
def admin(simcord_env, guild):
    admins = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    return guild.add_member(simcord_env.create_user("admin"), roles=[admins])


async def duel(bot, guild, winner, loser, *, at=None) -> None:
    """A finished match of ``guild`` stored through the bot's own repositories (and so
    counted into its leaderboard as a played one is)."""
    when = at or bot.games.clock()
    row = await bot.db.games.create(
        guild_id=guild.id,
        channel_id=next(_channels),
        creator_id=winner.id,
        rules={"game": "block"},
        seats=[],
        seed=1,
        timer=0,
        now=when,
    )
    seats = (
        MatchSeat(0, winner.id, None, winner.name, 0, 100.0, True, None),
        MatchSeat(1, loser.id, None, loser.name, 1, 0.0, False, None),
    )
    match = FinishedMatch("block", when, {"format": "domino-record/1"}, seats, ())
    await bot.db.games.finish(
        row.id, 0, now=when, status="finished", state={}, seats=[], match=match
    )


def board(message: Any) -> str:
    """A leaderboard message's text: its picture's alt text, else its embed."""
    if message.attachments:
        return str(message.attachments[0].description)
    return str(message.embeds[0].description)


def board_lines(message: Any) -> list[str]:
    return [line for line in board(message).splitlines() if line.lstrip("*")[:1].isdigit()]


def answer_of(result: Any) -> Any:
    """The message a command answered with (a deferred reply's followup, or the reply)."""
    return result.followups[0] if result.followups else result.response


def texts(result: Any) -> list[str]:
    """What a private answer said (the reply, or its followups)."""
    out = [m.content for m in result.followups]
    if result.response is not None:
        out.append(result.response.content or "")
    return out


async def test_closing_a_season_archives_its_board_and_resets_ratings(
    monkeypatch, simcord_env, bot, channel, guild, admin, alice, bob, carol
):
    await duel(bot, guild, alice, bob)
    await duel(bot, guild, alice, bob)
    await duel(bot, guild, carol, bob)
    live = await bob.slash(channel, "domino leaderboard")
    assert "Season 1 · by rating · 3 players" in board(live.response)
    season_one = board_lines(live.response)
    assert season_one[0].startswith("1. alice — rating ")
    assert "2 matches · 2 wins" in season_one[0]

    refused = await bob.slash(channel, "domino season close")
    assert refused.ephemeral
    assert "Only someone with Manage Server can close or set up seasons." in texts(refused)

    journal = install(monkeypatch, bot)
    ask = await admin.slash(channel, "domino season close")
    journal.check("/domino season close")
    question = answer_of(ask)
    assert question.ephemeral
    assert "This closes season 1" in question.content
    assert "Ratings begin anew: season 2 counts only its own matches." in question.content
    journal.clear()
    cancel = await admin.click(question, label="Cancel")
    journal.check("Cancel (season)")
    assert cancel.response.content == "Nothing was closed."
    assert (await bot.stats.seasons.current(guild.id)).number == 1

    question = answer_of(await admin.slash(channel, "domino season close"))
    second = answer_of(await admin.slash(channel, "domino season close"))  # asked twice
    journal.clear()
    done = await admin.click(question, label="Close season 1")
    journal.check("Close season (button)")
    assert done.response.content == "Season 1 is closed and archived; season 2 has begun."
    told = [m for m in done.followups if not m.ephemeral]
    assert "**Season 1** is closed" in told[0].content
    again = await admin.click(second, label="Close season 1")  # the other question: refused
    assert any("Season 1 is closed already." in t for t in texts(again))
    assert (await bot.stats.seasons.current(guild.id)).number == 2

    # the new season's board starts empty, and counts only its own matches
    fresh = await bob.slash(channel, "domino leaderboard")
    assert "Season 2 · by rating · 0 players" in board(fresh.response)
    assert not board_lines(fresh.response)
    await duel(bot, guild, bob, alice)
    fresh = await bob.slash(channel, "domino leaderboard")
    lines = board_lines(fresh.response)
    assert lines[0].startswith("1. bob — rating ")  # reset: bob's one win puts him first
    assert "1 match · 1 win" in lines[0]
    assert lines[1].startswith("2. alice")
    assert "1 match · 0 wins" in lines[1]

    # the archived board shows season 1 as it was shown
    journal.clear()
    shown = await carol.slash(channel, "domino season show", number=1)
    journal.check("/domino season show")
    assert not shown.ephemeral
    assert "Season 1 (closed)" in board(shown.response)
    assert board_lines(shown.response) == season_one
    assert (await shown.response.attachments[0].read()).startswith(b"\x89PNG")

    listed = await carol.slash(channel, "domino season list")
    text = str(listed.response.embeds[0].description)
    assert "**Season 2** is going on, since" in text
    assert "**Season 1** · until " in text
    assert f"closed by <@{admin.id}>" in text
    assert "Block game: 3 players" in text

    # options are checked by the bot, politely
    for number, words in ((2, "Season 2 is still going on"), (5, "no closed season 5")):
        answer = await carol.slash(channel, "domino season show", number=number)
        assert any(words in t for t in texts(answer))
    latvian = await carol.slash(channel, "domino season show", number=1, order="places")
    assert any("Only Latvian sessions give place points." in t for t in texts(latvian))


async def test_carried_ratings_and_the_scheduled_close(
    simcord_env, bot, channel, guild, admin, alice, bob
):
    refused = await bob.slash(channel, "domino season settings", ratings="carry")
    assert any("Only someone with Manage Server" in t for t in texts(refused))
    assert (await bot.db.seasons.settings(guild.id)).ratings == "reset"

    answer = await admin.slash(
        channel, "domino season settings", ratings="carry", schedule="weekly"
    )
    said = " ".join(texts(answer))
    assert "ratings are carried into the next season" in said
    assert "seasons close every Monday at 00:00 UTC" in said
    assert "The next close: " in said
    due = await bot.stats.seasons.next_due()
    assert due is not None
    assert due.weekday() == 0
    assert (due.hour, due.minute, due.second) == (0, 0, 0)

    await duel(bot, guild, alice, bob)
    await duel(bot, guild, alice, bob)
    # the due step: nothing before the moment, season 1 at it
    assert await bot.stats.seasons.close_due(due - timedelta(seconds=1)) == []
    closed = await bot.stats.seasons.close_due(due)
    assert [(c.number, c.closed_by, c.next_ratings) for c in closed] == [(1, None, "carry")]
    assert await bot.stats.seasons.next_due() == due + timedelta(days=7)

    # carried: bob's first win of season 2 does not lift him over alice's rating
    await duel(bot, guild, bob, alice)
    fresh = await alice.slash(channel, "domino leaderboard")
    assert "Season 2 · by rating · 2 players" in board(fresh.response)
    lines = board_lines(fresh.response)
    assert lines[0].startswith("1. alice — rating ")
    assert "1 match · 0 wins" in lines[0]
    assert lines[1].startswith("2. bob")
    assert "1 match · 1 win" in lines[1]

    old = await bob.slash(channel, "domino season show", number=1)
    lines = board_lines(old.response)
    assert lines[0].startswith("1. alice")
    assert "2 matches · 2 wins" in lines[0]
    listed = await bob.slash(channel, "domino season list")
    text = str(listed.response.embeds[0].description)
    assert "closed by the schedule" in text
    assert "ratings are carried into the next season" in text
