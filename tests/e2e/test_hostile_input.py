"""What a hostile user or a modified client can send: a polite refusal, nothing changed.

Discord's official clients enforce each option's choices and limits; the API
does not. ``modified_client`` turns SimCord's client-side option checks off, so
these values reach the bot exactly as a modified client would send them.
"""

from __future__ import annotations

import discord
import pytest
import simcord.interactions
from test_refusals import started


@pytest.fixture
def admin(simcord_env, guild):
    admins = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    return guild.add_member(simcord_env.create_user("admin"), roles=[admins])


@pytest.fixture
def modified_client(monkeypatch):
    monkeypatch.setattr(
        simcord.interactions, "validate_option_value", lambda _name, _option, value: value
    )


def reply_text(result) -> str:
    """The user's private answer (a click or command may also carry a public table)."""
    private = [m for m in result.followups if m.ephemeral]
    if private:
        return private[-1].content
    return result.response.content


def mover(session, users):
    return users[session.turn_seat.user_id]


# -- 5. a huge tile text ----------------------------------------------------------------


@pytest.mark.parametrize("tile", ["6-6 " * 500, "x" * 1999, "9" * 90 + "-" + "9" * 9])
async def test_a_huge_move_text_is_refused_briefly_without_echoing_it(
    bot, channel, alice, bob, tile
):
    session = await started(alice, bob, channel, bot)
    user = mover(session, {alice.id: alice, bob.id: bob})
    result = await user.slash(channel, "domino play", tile=tile)
    text = reply_text(result)
    assert result.ephemeral
    assert text
    assert len(text) < 200
    assert tile[:40] not in text
    after = await bot.games.in_channel(channel.id)
    assert after.version == session.version


async def test_an_unreadable_word_is_quoted_only_as_a_short_excerpt(bot, channel, alice, bob):
    session = await started(alice, bob, channel, bot)
    user = mover(session, {alice.id: alice, bob.id: bob})
    result = await user.slash(channel, "domino play", tile="6-6 **@everyone_" + "z" * 50)
    text = reply_text(result)
    assert "I can't read" in text
    assert "@everyone" not in text
    assert "z" * 20 not in text


# -- 8. an option the game would ignore -----------------------------------------------------


@pytest.mark.parametrize(
    ("options", "phrase"),
    [
        ({"game": "latvian", "target": 100}, "no target"),
        ({"game": "block", "scoring": "single", "target": 50}, "no target"),
        ({"game": "draw", "deals": 3}, "Only Latvian dominoes and Mexican Train"),
    ],
)
async def test_an_option_the_game_ignores_is_refused(bot, channel, alice, options, phrase):
    result = await alice.slash(channel, "domino new", **options)
    assert phrase in reply_text(result)
    assert await bot.games.in_channel(channel.id) is None


# -- 9. values only a modified client can send ------------------------------------------------


async def test_rules_of_an_unknown_game_is_a_polite_refusal(modified_client, bot, channel, alice):
    result = await alice.slash(channel, "domino rules", game="chess")
    assert result.ephemeral
    assert "Choose a game" in reply_text(result)


@pytest.mark.parametrize("seconds", [10**12, -5, 4, 3601])
async def test_an_impossible_default_timer_is_refused(
    modified_client, bot, guild, channel, admin, seconds
):
    result = await admin.slash(channel, "domino settings timer", seconds=seconds)
    assert "The timer is 0 (off) or 10 to 3600 seconds" in reply_text(result)
    assert (await bot.games.settings.get(guild.id)).default_timer is None


@pytest.mark.parametrize(
    ("options", "phrase"),
    [
        ({"game": "chess"}, "Choose a game"),
        ({"game": "block", "players": 99}, "players"),
        ({"game": "block", "players": -1}, "players"),
        ({"game": "block", "set": 7}, "double-6, double-9 or double-12"),
        ({"game": "latvian", "deals": 10**9}, "1 to 100 deals"),
        ({"game": "allfives", "target": 10**12}, "target"),
        ({"game": "block", "timer": 10**12}, "timer"),
        ({"game": "block", "layout": "circle"}, "layout"),
        ({"game": "block", "scoring": "golf"}, "scoring"),
    ],
)
async def test_impossible_table_options_are_refused(
    modified_client, bot, channel, alice, options, phrase
):
    result = await alice.slash(channel, "domino new", **options)
    assert phrase in reply_text(result)
    assert await bot.games.in_channel(channel.id) is None


async def test_an_unknown_ai_level_or_language_is_refused(
    modified_client, bot, guild, channel, alice, admin
):
    await alice.slash(channel, "domino new", game="block")
    result = await alice.slash(channel, "domino addbot", level="grandmaster")
    assert "easy, normal or hard" in reply_text(result)
    result = await admin.slash(channel, "domino settings language", language="klingon")
    assert "not available" in reply_text(result)


# -- 10. names, and the same tile twice -------------------------------------------------------


async def test_markdown_and_mentions_in_names_are_shown_as_typed(simcord_env, bot, guild, channel):
    alice = guild.add_member(simcord_env.create_user("alice"), nick="**Al**_`ice` @everyone")
    bob = guild.add_member(simcord_env.create_user("bob"), nick="<@&1> ~~bob~~")
    session = await started(alice, bob, channel, bot)
    table = next(m for m in channel.history(viewer=alice) if m.id == session.table_message_id)
    players = table.embeds[0].fields[0].value
    assert "\\*\\*Al\\*\\*\\_\\`ice\\`" in players
    assert "@everyone" not in players.replace("@\u200beveryone", "")
    assert "\\~\\~bob\\~\\~" in players
    for message in channel.history(viewer=alice):
        mentions = message.raw_mentions + message.raw_role_mentions
        assert not message.mention_everyone
        assert set(mentions) <= {alice.id, bob.id}


async def test_the_same_tile_twice_is_named_as_such(bot, channel, alice, bob):
    await alice.slash(channel, "domino new", game="latvian")
    table = channel.last_message
    await bob.click(table, label="Join")
    await alice.click(table, label="Start")
    session = await bot.games.in_channel(channel.id)
    user = mover(session, {alice.id: alice, bob.id: bob})
    result = await user.slash(channel, "domino play", tile="3-3 3-3")
    text = reply_text(result)
    assert "You named 3-3 twice" in text
    assert "fits" not in text


async def test_a_name_in_a_refusal_is_shown_as_typed(simcord_env, bot, guild, channel):
    alice = guild.add_member(simcord_env.create_user("alice"), nick="a_l*i*ce")
    bob = guild.add_member(simcord_env.create_user("bob"), nick="b_o*b*")
    session = await started(alice, bob, channel, bot)
    waiting = bob if session.turn_seat.user_id == alice.id else alice
    mover_name = "a\\_l\\*i\\*ce" if waiting is bob else "b\\_o\\*b\\*"
    result = await waiting.slash(channel, "domino play", tile="6-6")
    assert mover_name in reply_text(result)
