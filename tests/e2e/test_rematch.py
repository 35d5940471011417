"""Rematch: the final table's button starts the same match again, once every player is in."""

from __future__ import annotations

import pytest

from bot.games.service import REMATCH_LIFE


def reply_text(result) -> str:
    """The bot's ephemeral answer to a click (every answer here is one; the click may also
    carry the new table, a public followup)."""
    replies = [m for m in result.followups if m.ephemeral]
    assert replies
    return replies[-1].content


async def finished_table(bot, channel, driver, creator, *others, ai=None, **options):
    """A short match played to its end; returns (finished session, its table message)."""
    await creator.slash(channel, "domino new", game="block", scoring="single", **options)
    table = channel.last_message
    for user in others:
        await user.click(table, label="Join")
    if ai:
        await creator.slash(channel, "domino addbot", level=ai)
    await creator.click(table, label="Start")
    session = await driver.play_until(lambda s: s.status != "playing")
    assert session.status == "finished"
    message = next(m for m in channel.history(viewer=creator) if m.id == session.table_message_id)
    return session, message


async def test_both_players_accept_and_the_same_match_starts_again(
    bot, channel, alice, bob, carol, driver
):
    old, table = await finished_table(bot, channel, driver, alice, bob, timer=120)
    assert "30 minutes" in "\n".join(f.value for f in table.embeds[0].fields)

    stranger = await carol.click(table, label="Rematch")
    assert "Only the players of that match" in reply_text(stranger)

    first = await bob.click(table, label="Rematch")
    assert reply_text(first) == "You're in for the rematch. Waiting for alice."
    again = await bob.click(table, label="Rematch")
    assert "already in" in reply_text(again)
    assert await bot.games.in_channel(channel.id) is None  # not before everyone is in

    last = await alice.click(table, label="Rematch")
    assert "the rematch is on" in reply_text(last)
    new = await bot.games.in_channel(channel.id)
    assert new is not None
    assert new.id != old.id
    assert new.status == "playing"
    assert [(s.name, s.user_id, s.ai) for s in new.seats] == [
        (s.name, s.user_id, s.ai) for s in old.seats
    ]
    assert new.rules == old.rules
    assert new.timer == old.timer == 120
    # the new table is posted as for any new game, with a public line
    posted = next(m for m in channel.history(viewer=carol) if m.id == new.table_message_id)
    text = "\n".join(f.value for f in posted.embeds[0].fields)
    assert "Rematch: the same players, the same rules." in text
    assert "The match begins!" in text
    assert f"#{new.id}" in posted.embeds[0].footer.text
    # the old offer is spent: the channel has a game now
    late = await bob.click(table, label="Rematch")
    assert "already has a game" in reply_text(late)


async def test_ai_seats_stay_and_accept_by_themselves(bot, channel, alice, driver):
    old, table = await finished_table(bot, channel, driver, alice, ai="easy")
    assert [s.is_ai for s in old.seats] == [False, True]
    result = await alice.click(table, label="Rematch")
    assert "the rematch is on" in reply_text(result)
    new = await bot.games.in_channel(channel.id)
    assert new is not None
    assert [(s.name, s.user_id, s.ai) for s in new.seats] == [
        ("alice", alice.id, None),
        (old.seats[1].name, None, "easy"),
    ]


async def test_the_offer_is_refused_while_another_game_is_active(
    bot, channel, alice, bob, carol, driver
):
    _old, table = await finished_table(bot, channel, driver, alice, bob)
    await alice.click(table, label="Rematch")
    await carol.slash(channel, "domino new", game="draw")
    refused = await bob.click(table, label="Rematch")
    assert "This channel already has a game" in reply_text(refused)
    active = await bot.games.in_channel(channel.id)
    assert active.creator_id == carol.id
    # once that game is gone, the old offer has lapsed: a newer game was opened here
    await carol.slash(channel, "domino end")
    lapsed = await bob.click(table, label="Rematch")
    assert "a new game was opened in this channel" in reply_text(lapsed)
    assert await bot.games.in_channel(channel.id) is None


@pytest.mark.simcord(settle_timeout=30)
async def test_the_offer_lapses_after_thirty_minutes(simcord_env, bot, channel, alice, bob, driver):
    _old, table = await finished_table(bot, channel, driver, alice, bob)
    await simcord_env.advance_time(REMATCH_LIFE.total_seconds() + 60)
    result = await alice.click(table, label="Rematch")
    assert "lapsed" in reply_text(result)
    assert "30 minutes" in reply_text(result)
    assert await bot.games.in_channel(channel.id) is None
