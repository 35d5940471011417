"""Leaving a match (issue 38): an AI takes the seat and the table says so; the last human
is asked first, since leaving ends the game, and the end says why; the leaver's hand
panel says they left, without tiles or buttons."""

from __future__ import annotations

import random

import pytest

from bot.engine import Rules, new_match
from cogs.domino.items import LeaveChoice, sent_view


def seed_where(leader: int, players: int) -> int:
    rules = Rules.make("block", players=players)
    return next(s for s in range(200) if new_match(rules, random.Random(f"{s}:1")).turn == leader)


@pytest.fixture
def simcord_bot(new_bot, request):
    seed = getattr(request, "param", None)
    return new_bot() if seed is None else new_bot(seed_source=lambda: seed)


async def settle(bot):
    await bot.get_cog("Domino").publisher.settled()


def table_text(channel, viewer, session) -> str:
    table = next(m for m in channel.history(viewer=viewer) if m.id == session.table_message_id)
    embed = table.embeds[0]
    return "\n".join([embed.description or "", *(f.value for f in embed.fields)])


def reply(result) -> str:
    private = [m for m in result.followups if m.ephemeral]
    return private[-1].content if private else result.response.content


@pytest.mark.parametrize("simcord_bot", [seed_where(0, 3)], indirect=True)
async def test_a_player_leaving_a_match_is_replaced_and_the_table_says_so(
    bot, channel, alice, bob, driver
):
    await alice.slash(channel, "domino new", game="block", players=3)
    table = channel.last_message
    await bob.click(table, label="Join")
    await alice.click(table, label="Add AI")
    await alice.click(table, label="Start")
    panel = (await bob.slash(channel, "domino hand")).response
    assert any(a.filename == "hand.png" for a in panel.attachments)

    left = await bob.slash(channel, "domino leave")
    assert left.ephemeral
    assert reply(left) == "You left the table: an AI player takes your seat."
    await settle(bot)
    session = await driver.session()
    assert session.status == "playing"
    assert session.seats[1].user_id is None
    assert session.seats[1].ai is not None
    assert "bob left; an AI player takes the seat." in table_text(channel, alice, session)
    # bob's panel: no tiles (the AI's now), no buttons
    assert panel.content == "You left this game: an AI player plays your seat."
    assert panel.attachments == []
    assert panel.components == []


async def alone_with_an_ai(channel, alice):
    await alice.slash(channel, "domino new", game="block")
    table = channel.last_message
    await alice.click(table, label="Add AI")
    await alice.click(table, label="Start")


async def test_the_last_human_is_asked_first_and_may_keep_playing(bot, channel, alice, bob, driver):
    await alone_with_an_ai(channel, alice)
    before = await driver.session()
    asked = await alice.slash(channel, "domino leave")
    question = asked.response
    assert question.ephemeral
    assert question.content == (
        "You are the only human at the table: leaving ends the game. Leave and end it?"
    )
    assert [c["label"] for row in question.components for c in row["components"]] == [
        "Leave and end the game",
        "Keep playing",
    ]
    assert (await driver.session()).version == before.version  # nothing happened yet

    # only alice answers it (a copy of the button where bob can click it)
    view = sent_view()
    view.add_item(LeaveChoice(before.id, alice.id, True, "Leave and end the game"))
    copy = await bot.get_channel(channel.id).send("copy", view=view)
    refused = await bob.click(copy, label="Leave and end the game")
    assert "Only the player who asked to leave" in refused.followups[-1].content
    assert (await driver.session()).version == before.version

    await alice.click(question, label="Keep playing")
    assert question.content == "You keep your seat. Play on!"
    assert question.components == []
    session = await driver.session()
    assert session.status == "playing"
    assert session.version == before.version
    assert session.seat_of(alice.id) == 0


async def test_the_last_human_who_confirms_ends_the_game_and_the_table_says_why(
    bot, channel, alice, driver
):
    await alone_with_an_ai(channel, alice)
    panel = (await alice.slash(channel, "domino hand")).response
    question = (await alice.slash(channel, "domino leave")).response
    await alice.click(question, label="Leave and end the game")
    assert question.content == "You left the table, and the game is over."
    assert question.components == []
    await settle(bot)
    session = await driver.session()
    assert session.status == "cancelled"
    assert await bot.games.in_channel(channel.id) is None
    text = table_text(channel, alice, session)
    assert "alice left, and no human player is left at the table, so the game is over." in text
    assert "Everyone left" not in text
    assert panel.content == "You left this game, and it is over."
    assert panel.components == []
    assert panel.attachments == []


async def test_the_last_human_leaving_a_lobby_with_ai_seats_closes_it_truthfully(
    bot, channel, alice, driver
):
    await alice.slash(channel, "domino new", game="block", players=3)
    table = channel.last_message
    await alice.click(table, label="Add AI")
    left = await alice.slash(channel, "domino leave")
    assert reply(left) == "You left the table, and the game is over."
    await settle(bot)
    session = await driver.session()
    assert session.status == "cancelled"
    text = table_text(channel, alice, session)
    assert "alice left, and no human player is left at the table" in text
    assert "Everyone left" not in text


async def test_the_leave_command_says_what_leaving_does(bot):
    leave = bot.tree.get_command("domino").get_command("leave")
    assert "AI" in leave.description
    assert "last human" in leave.description
    assert "ends the game" in leave.description
