"""Bad input gets a clear, polite ephemeral message and changes nothing."""

from __future__ import annotations

import pytest


async def started(alice, bob, channel, bot, **options):
    await alice.slash(channel, "domino new", **({"game": "block"} | options))
    table = channel.last_message
    await bob.click(table, label="Join")
    await alice.click(table, label="Start")
    return await bot.games.in_channel(channel.id)


async def refused(result, phrase):
    assert result.ephemeral
    text = result.response.content if result.response else result.followups[-1].content
    assert phrase in text, text


@pytest.mark.parametrize(
    ("options", "phrase"),
    [
        ({"game": "block", "players": 5}, "players"),
        ({"game": "latvian", "players": 4, "teams": True}, "teams"),
        ({"game": "allfives", "set": 9}, "set"),
        ({"game": "block", "players": 3, "teams": True}, "exactly 4 players"),
        ({"game": "block", "scoring": "penalty", "teams": True, "players": 4}, "scoring"),
        ({"game": "block", "timer": 5}, "timer"),
    ],
)
async def test_an_impossible_table_is_refused_naming_the_option(
    bot, channel, alice, options, phrase
):
    result = await alice.slash(channel, "domino new", **options)
    await refused(result, phrase)
    assert await bot.games.in_channel(channel.id) is None


async def test_one_game_per_channel(bot, channel, alice, bob):
    await alice.slash(channel, "domino new", game="block")
    result = await bob.slash(channel, "domino new", game="draw")
    await refused(result, "already has a game")


async def test_lobby_refusals(bot, channel, alice, bob, carol):
    await alice.slash(channel, "domino new", game="block")
    await refused(await bob.slash(channel, "domino start"), "Only the player who opened")
    await refused(await alice.slash(channel, "domino start"), "needs 2 players")
    await refused(await alice.slash(channel, "domino join"), "already have a seat")
    await refused(await bob.slash(channel, "domino addbot"), "Only the player who opened")
    await bob.slash(channel, "domino join")
    await refused(await carol.slash(channel, "domino join"), "full")
    await refused(await carol.slash(channel, "domino hand"), "not playing")


async def test_play_refusals_change_nothing(bot, channel, alice, bob, carol):
    session = await started(alice, bob, channel, bot)
    users = {alice.id: alice, bob.id: bob}
    mover = users[session.turn_seat.user_id]
    waiter = bob if mover is alice else alice
    mover_seat = session.turn
    hand = session.state.deal.hand(mover_seat)
    other = session.state.deal.hand(1 - mover_seat)
    version = session.version

    await refused(await carol.slash(channel, "domino play", tile="6-6"), "not playing")
    await refused(await waiter.slash(channel, "domino play", tile=str(other[0])), "not your turn")
    await refused(await mover.slash(channel, "domino play", tile=str(other[0])), "don't have")
    await refused(await mover.slash(channel, "domino play", tile="banana"), "can't read")
    await refused(await mover.slash(channel, "domino play", tile="6-6", end="up"), "is not an end")
    lead = session.state.deal.lead_tile
    wrong = next(t for t in hand if t != lead) if len(hand) > 1 else None
    if wrong is not None:
        await refused(await mover.slash(channel, "domino play", tile=str(wrong)), "must lead")
    after = await bot.games.in_channel(channel.id)
    assert after.version == version
    assert after.state.deal.history == session.state.deal.history


async def test_a_stale_hand_button_is_refused(simcord_env, bot, channel, alice, bob, driver):
    session = await started(alice, bob, channel, bot)
    mover = {alice.id: alice, bob.id: bob}[session.turn_seat.user_id]
    old_hand = await driver.hand(mover)
    # past its token's life the bot no longer keeps it current: its buttons go stale
    await simcord_env.advance_time(15 * 60)
    lead = session.state.deal.lead_tile
    await mover.slash(channel, "domino play", tile=str(lead))
    moved = await bot.games.in_channel(channel.id)
    assert moved.version > session.version  # (the lead may block the deal: a new one)
    button = driver.move_ids(old_hand)[0]
    result = await mover.click(old_hand, custom_id=button)
    assert result.followups[-1].ephemeral
    assert "out of date" in result.followups[-1].content
    again = await bot.games.in_channel(channel.id)
    assert again.version == moved.version


async def test_only_the_creator_or_a_manager_ends_a_game(bot, channel, alice, bob):
    await started(alice, bob, channel, bot)
    await refused(await bob.slash(channel, "domino end"), "Only the game's creator")
    result = await alice.slash(channel, "domino end")
    assert result.ephemeral
    assert await bot.games.in_channel(channel.id) is not None  # a match in play: asked first
    await alice.click(result.response, label="End the game")
    assert await bot.games.in_channel(channel.id) is None
    latest = await bot.games.latest_in_channel(channel.id)
    assert latest.status == "cancelled"
