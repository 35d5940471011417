"""What a player is told about a typed move (issue 38): a tile the game's set does not
have, and the tile, end and train options saying the same thing or different things."""

from __future__ import annotations

import random

import pytest

from bot.engine import Rules, new_match


def seed_where(leader: int, game: str = "block", **options) -> int:
    rules = Rules.make(game, players=2, **options)
    return next(s for s in range(200) if new_match(rules, random.Random(f"{s}:1")).turn == leader)


@pytest.fixture
def simcord_bot(new_bot, request):
    seed = getattr(request, "param", None)
    return new_bot() if seed is None else new_bot(seed_source=lambda: seed)


async def started(bot, channel, alice, bob, **options):
    await alice.slash(channel, "domino new", **({"game": "block"} | options))
    table = channel.last_message
    await bob.click(table, label="Join")
    await alice.click(table, label="Start")
    return await bot.games.in_channel(channel.id)


def reply(result) -> str:
    assert result.ephemeral
    private = [m for m in result.followups if m.ephemeral]
    return private[-1].content if private else result.response.content


async def refused_unchanged(bot, channel, user, phrase, **options):
    before = await bot.games.in_channel(channel.id)
    text = reply(await user.slash(channel, "domino play", **options))
    assert phrase in text, text
    after = await bot.games.in_channel(channel.id)
    assert after.version == before.version
    return text


@pytest.mark.parametrize(
    ("options", "tile", "phrase"),
    [
        ({"game": "block"}, "9-9", "There is no 9-9 in a double-6 set."),
        ({"game": "draw", "set": 9}, "10-3", "There is no 10-3 in a double-9 set."),
        ({"game": "mexican", "set": 9}, "12-12 mexican", "There is no 12-12 in a double-9 set."),
        ({"game": "mexican"}, "13-12", "There is no 13-12 in any domino set"),
        ({"game": "block"}, "13-13", "There is no 13-13 in any domino set"),
    ],
)
async def test_a_tile_the_set_does_not_have_is_named_as_such(
    bot, channel, alice, bob, options, tile, phrase
):
    session = await started(bot, channel, alice, bob, **options)
    mover = alice if session.turn_seat.user_id == alice.id else bob
    text = await refused_unchanged(bot, channel, mover, phrase, tile=tile)
    assert "don't have" not in text


async def mover_after_the_lead(bot, channel, alice, bob):
    """Alice leads (a pinned seed); then the player to move, and their autocomplete's
    choices (a tile with its end, like ``0-2 west``)."""
    session = await started(bot, channel, alice, bob)
    assert session.turn_seat.user_id == alice.id
    lead = session.state.deal.lead_tile
    assert reply(await alice.slash(channel, "domino play", tile=str(lead))) == "Played."
    session = await bot.games.in_channel(channel.id)
    assert session is not None
    assert session.state.deal_number == 1, "the lead ended the deal"
    mover = alice if session.turn_seat.user_id == alice.id else bob
    choices = await mover.autocomplete(channel, "domino play", "tile", "")
    return mover, [c["value"] for c in choices]


OTHER = {"west": "east", "east": "west", "north": "south", "south": "north"}


@pytest.mark.parametrize("simcord_bot", [seed_where(0)], indirect=True)
async def test_an_autocomplete_choice_with_an_end_and_the_end_option(bot, channel, alice, bob):
    mover, values = await mover_after_the_lead(bot, channel, alice, bob)
    value = values[0]
    tile, end = value.split()
    # the end option says another end: both are named, nothing is played
    text = await refused_unchanged(bot, channel, mover, "two ends", tile=value, end=OTHER[end])
    assert text == (
        f"You gave {tile} two ends: {end} with the tile and {OTHER[end]} in the end option. "
        "Give one end (or the same one twice)."
    )
    # one end too many, a word that is no end, the same end typed twice in the tile
    await refused_unchanged(
        bot, channel, mover, "more ends than tiles", tile=tile, end=f"{end} {OTHER[end]}"
    )
    await refused_unchanged(bot, channel, mover, "up is not an end", tile=tile, end="up")
    await refused_unchanged(
        bot, channel, mover, f"two ends, {end} and {OTHER[end]}", tile=f"{value} {OTHER[end]}"
    )
    # the same end in both: played as chosen
    assert reply(await mover.slash(channel, "domino play", tile=value, end=end)) == "Played."


async def test_mexican_train_options_that_disagree_are_named(bot, channel, alice, bob):
    session = await started(bot, channel, alice, bob, game="mexican")
    mover = alice if session.turn_seat.user_id == alice.id else bob
    [tile, *_] = session.state.deal.hand(session.turn)
    text = await refused_unchanged(
        bot, channel, mover, "two trains", tile=f"{tile} mexican", train="mine"
    )
    assert "the Mexican train with the tile and your train in the train option" in text
    await refused_unchanged(bot, channel, mover, "not on ends", tile=str(tile), end="east")
