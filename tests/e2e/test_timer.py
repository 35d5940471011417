"""The turn timer and the 24-hour idle limit, on SimCord's virtual clock."""

from __future__ import annotations

import pytest
from feed_support import feed_lines
from flaky_games import FlakyGames

SEED = 1
"""A first deal whose lead someone can follow: a lead that blocks the deal at once
(seed 138, for one) starts deal 2 before the table is drawn, and its feed begins after
the other seat's pass, past the timed-out move."""


@pytest.fixture
def simcord_bot(new_bot):
    return new_bot(seed_source=lambda: SEED)


async def timed_game(bot, channel, alice, bob, timer=30, **options):
    await alice.slash(channel, "domino new", **({"game": "block", "timer": timer} | options))
    table = channel.last_message
    await bob.click(table, label="Join")
    await alice.click(table, label="Start")
    return await bot.games.in_channel(channel.id)


def moves_made(session):
    return sum(len(deal.history) for deal in session.state.deals)


async def test_the_timer_plays_for_a_slow_player(simcord_env, bot, channel, alice, bob):
    session = await timed_game(bot, channel, alice, bob)
    slow = session.turn
    await simcord_env.advance_time(20)
    assert (await bot.games.in_channel(channel.id)).version == session.version
    await simcord_env.advance_time(11)
    after = await bot.games.in_channel(channel.id)
    # every move of the match: the timer's move may end the deal (a lead nobody can
    # follow blocks it) and a new deal start with an empty history
    assert moves_made(after) > moves_made(session)
    assert after.seats[slow].missed == 1
    assert after.seats[slow].user_id is not None
    table = next(m for m in channel.history(viewer=alice) if m.id == after.table_message_id)
    latest = "\n".join(feed_lines(table))
    assert "ran out of time" in latest


async def test_a_timer_move_whose_save_fails_is_tried_again(simcord_env, bot, channel, alice, bob):
    """A database outage when the timer plays for a slow player (issue 37, row 5): the
    move is tried again after a pause, not lost with the game's only timer."""
    session = await timed_game(bot, channel, alice, bob, timer=10)
    flaky = FlakyGames(bot.db)
    bot.db.games = flaky
    flaky.fail(2)
    await simcord_env.advance_time(11)
    assert flaky.failed >= 1
    assert (await bot.games.in_channel(channel.id)).version == session.version
    await simcord_env.advance_time(10)  # the retries: after 1 s, then 2 s
    assert flaky.failed == 2
    after = await bot.games.in_channel(channel.id)
    assert moves_made(after) > moves_made(session)
    assert after.seats[session.turn].missed == 1
    table = next(m for m in channel.history(viewer=alice) if m.id == after.table_message_id)
    assert "ran out of time" in "\n".join(feed_lines(table))


async def test_three_missed_turns_hand_the_seat_to_the_ai(simcord_env, bot, channel, alice, bob):
    session = await timed_game(bot, channel, alice, bob, timer=10, scoring="points", target=1000)
    for _ in range(12):
        await simcord_env.advance_time(11)
        session = await bot.games.in_channel(channel.id)
        if session is None or any(s.is_ai for s in session.seats):
            break
    assert session is not None
    replaced = [s for s in session.seats if s.is_ai]
    assert replaced
    assert replaced[0].user_id is None
    assert replaced[0].name in ("alice", "bob")


async def test_a_game_nobody_touches_for_a_day_is_abandoned(simcord_env, bot, channel, alice, bob):
    await timed_game(bot, channel, alice, bob, timer=0)
    await simcord_env.advance_time(23 * 3600)
    assert await bot.games.in_channel(channel.id) is not None
    await simcord_env.advance_time(3601)
    assert await bot.games.in_channel(channel.id) is None
    latest = await bot.games.latest_in_channel(channel.id)
    assert latest.status == "abandoned"


async def test_a_lobby_nobody_starts_lapses_after_half_an_hour(
    simcord_env, bot, channel, alice, bob
):
    """Issue 37, row 7: an idle lobby no longer holds its channel for a day. Each change
    (a player sitting down) starts the half hour again."""
    await alice.slash(channel, "domino new", game="block")
    await simcord_env.advance_time(20 * 60)
    await bob.click(channel.last_message, label="Join")
    await simcord_env.advance_time(29 * 60)
    lobby = await bot.games.in_channel(channel.id)
    assert lobby is not None
    await simcord_env.advance_time(61)
    assert await bot.games.in_channel(channel.id) is None
    latest = await bot.games.latest_in_channel(channel.id)
    assert latest.status == "cancelled"
    table = next(m for m in channel.history(viewer=alice) if m.id == latest.table_message_id)
    assert "Nobody started the game within 30 minutes" in table.embeds[0].description
    again = await bob.slash(channel, "domino new", game="draw")  # the channel is free
    assert "table is open" in again.response.content


async def test_a_match_whose_last_human_timed_out_ends(simcord_env, bot, channel, alice):
    """Issue 37, row 7: when the timer hands the last human's seat to the AI, the match
    ends as if they had left, instead of AI seats playing it out among themselves."""
    await alice.slash(channel, "domino new", game="block", timer=10)
    table = channel.last_message
    await alice.click(table, label="Add AI")
    await alice.click(table, label="Start")
    for _ in range(10):
        await simcord_env.advance_time(11)
        session = await bot.games.latest_in_channel(channel.id)
        if not session.active:
            break
    assert session.status == "cancelled"
    assert session.seats[0].is_ai
    assert session.state is not None
    assert not session.state.over
    final = next(m for m in channel.history(viewer=alice) if m.id == session.table_message_id)
    assert "No human player is left at the table" in final.embeds[0].description


async def test_a_server_default_timer_applies_to_new_tables(
    simcord_env, bot, guild, channel, alice, bob
):
    import discord

    admins = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    boss = guild.add_member(simcord_env.create_user("boss"), roles=[admins])
    refused = await alice.slash(channel, "domino settings timer", seconds=45)
    assert "Manage Server" in refused.response.content
    done = await boss.slash(channel, "domino settings timer", seconds=45)
    assert "45-second" in done.response.content
    await alice.slash(channel, "domino new", game="block")
    session = await bot.games.in_channel(channel.id)
    assert session.timer == 45


async def test_a_creator_the_timer_replaced_can_no_longer_end_the_game(
    simcord_env, bot, channel, alice, bob, carol, driver
):
    """The right to end moves with the seat (issue 37, row 12): alice opened the table and
    missed her turns until an AI took her seat; bob, the next human seat, holds it now."""
    await alice.slash(channel, "domino new", game="block", players=3, timer=10, target=1000)
    table = channel.last_message
    await bob.click(table, label="Join")
    await carol.click(table, label="Join")
    await alice.click(table, label="Start")
    for _ in range(200):
        session = await bot.games.in_channel(channel.id)
        if session.seats[0].is_ai:
            break
        if session.turn_seat is not None and session.turn_seat.user_id == alice.id:
            await simcord_env.advance_time(11)
        else:
            await driver.play_turn()
    assert session.seats[0].is_ai
    assert session.creator_id == bob.id
    refused = await alice.slash(channel, "domino end")
    assert "You are not at this table" in refused.response.content
    asked = await bob.slash(channel, "domino end")
    assert "End this game now?" in asked.response.content
    assert (await bot.games.in_channel(channel.id)).status == "playing"
