"""Within Discord's budget: a human move costs no counted REST call in steady play.

Discord counts every REST call of a bot token against one global limit (50 a second for
all its shards and processes), except the calls on an interaction's own routes (its
callback and webhook: followups, ``@original``, its own followups). SimCord logs every
call the bot makes (``env.http_requests``); these tests play real games through the UI
and count the counted ones per human move (docs/LOAD.md, "Within Discord's budget").
"""

from __future__ import annotations

from bot.games.moves_text import move_key

MAX_COUNTED_PER_MOVE_HUMANS = 0.25
MAX_COUNTED_PER_MOVE_WITH_AI = 0.5


def counted(requests) -> list:
    """The calls Discord counts: every route but an interaction's own."""
    return [r for r in requests if not r.path.startswith(("/interactions/", "/webhooks/"))]


def visible(channel, viewer, message_id):
    return next((m for m in channel.history(viewer=viewer) if m.id == message_id), None)


async def settle(bot):
    """Every announcement and deletion the publisher has queued, done."""
    await bot.get_cog("Domino").publisher.settled()


async def four_humans(channel, alice, bob, carol, dave, **options):
    await alice.slash(channel, "domino new", game="block", players=4, **options)
    table = channel.last_message
    for user in (bob, carol, dave):
        await user.click(table, label="Join")
    await alice.click(table, label="Start")


async def play_by_command(bot, channel, users):
    """The player to move types their first legal move with ``/domino play``."""
    session = await bot.games.in_channel(channel.id)
    user = users[session.turn_seat.user_id]
    moves = await bot.games.moves_for(channel.id, user.id)
    result = await user.slash(
        channel, "domino play", tile=move_key(moves[0], session.seat_of(user.id))
    )
    return user, result


async def test_four_humans_playing_by_command_cost_no_counted_call_per_move(
    simcord_env, bot, channel, alice, bob, carol, dave
):
    await four_humans(channel, alice, bob, carol, dave, scoring="single")
    await settle(bot)
    users = {u.id: u for u in (alice, bob, carol, dave)}
    mark = len(simcord_env.http_requests)
    moves = 0
    while await bot.games.in_channel(channel.id) is not None:
        _user, result = await play_by_command(bot, channel, users)
        moves += 1
        # the mover's answer stays private; the table went to everyone
        assert result.ephemeral
        assert result.response.content == "Played."
        await settle(bot)
        after = await bot.games.latest_in_channel(channel.id)
        table = visible(channel, bob, after.table_message_id)
        assert table is not None
        assert not table.flags.ephemeral
        assert moves < 200
    calls = counted(simcord_env.http_requests[mark:])
    assert moves >= 8
    assert len(calls) / moves <= MAX_COUNTED_PER_MOVE_HUMANS, [(r.method, r.path) for r in calls]


async def test_humans_and_ai_seats_playing_from_their_hands_stay_within_the_bound(
    simcord_env, bot, channel, alice, bob, driver
):
    await alice.slash(channel, "domino new", game="block", players=4, scoring="single")
    table = channel.last_message
    await bob.click(table, label="Join")
    await alice.slash(channel, "domino addbot", level="easy")
    await alice.slash(channel, "domino addbot", level="easy")
    await alice.click(table, label="Start")
    await settle(bot)
    mark = len(simcord_env.http_requests)
    moves = 0
    while (session := await driver.session()).status == "playing":
        await driver.play_turn()
        moves += 1
        await settle(bot)
        assert moves < 200
    assert session.status == "finished"
    calls = counted(simcord_env.http_requests[mark:])
    assert moves >= 3
    assert len(calls) / moves <= MAX_COUNTED_PER_MOVE_WITH_AI, [(r.method, r.path) for r in calls]


async def test_a_turn_timer_after_the_tokens_expired_falls_back_to_the_channel(
    simcord_env, bot, channel, alice, bob
):
    """No interaction lives after 15 quiet minutes: the timer's move is announced by the
    counted channel routes, with the table and the next player's ping all the same."""
    await alice.slash(channel, "domino new", game="block", timer=1200)
    table = channel.last_message
    await bob.click(table, label="Join")
    await alice.click(table, label="Start")
    await settle(bot)
    before = await bot.games.in_channel(channel.id)
    mark = len(simcord_env.http_requests)
    await simcord_env.advance_time(1201)
    await settle(bot)
    after = await bot.games.in_channel(channel.id)
    assert after.version > before.version  # the timer played for the idle player
    assert after.seats[before.turn].missed == 1
    requests = simcord_env.http_requests[mark:]
    posts = [r for r in counted(requests) if r.method == "POST" and r.path.endswith("/messages")]
    assert posts, "the table went out by the channel route"
    assert not [r for r in requests if r.path.startswith("/webhooks/") and r.method == "POST"]
    shown = visible(channel, alice, after.table_message_id)
    assert shown is not None
    assert f"<@{after.turn_seat.user_id}>" in shown.content
    assert [int(u) for u in posts[-1].json["allowed_mentions"]["users"]] == [
        after.turn_seat.user_id
    ]
    # exactly one table is left: the old one was deleted
    tables = [m for m in channel.history(viewer=alice) if m.embeds and not m.flags.ephemeral]
    assert [m.id for m in tables] == [after.table_message_id]


async def test_opening_and_starting_a_game_costs_no_counted_call(
    simcord_env, bot, channel, alice, bob
):
    """The lobby is carried by /domino new (its answer first, then the lobby as a public
    followup), joins edit it through the click, the start posts the table through the
    click and deletes the lobby through the interaction that posted it."""
    mark = len(simcord_env.http_requests)
    opened = await alice.slash(channel, "domino new", game="block")
    assert opened.ephemeral  # the creator's answer stays private
    lobby = channel.last_message
    assert lobby.embeds[0].title == "Block game: a table is open"
    await bob.click(lobby, label="Join")
    await alice.click(channel.last_message, label="Start")
    await settle(bot)
    session = await bot.games.in_channel(channel.id)
    assert session.status == "playing"
    assert counted(simcord_env.http_requests[mark:]) == []
    public = [m for m in channel.history(viewer=bob) if not m.flags.ephemeral]
    assert [m.id for m in public] == [session.table_message_id]  # the lobby is gone
