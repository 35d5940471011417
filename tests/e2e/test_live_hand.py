"""One live hand per player: it refreshes itself on every change of its game, a new one replaces
the old, a dead token is left alone, a failed refresh costs one log line; ``/domino end``
of a match in play asks first."""

from __future__ import annotations

import logging

import pytest

from bot.games.moves_text import move_key
from cogs.domino.items import EndButton, sent_view
from cogs.domino.live_hands import HAND_LIFE


async def two_player_game(bot, channel, alice, bob):
    await alice.slash(channel, "domino new", game="block", scoring="points", target=500)
    table = channel.last_message
    await bob.click(table, label="Join")
    await alice.click(table, label="Start")
    return await bot.games.in_channel(channel.id)


def move_ids(message):
    return [
        c["custom_id"]
        for row in message.components
        for c in row["components"]
        if c.get("custom_id", "").startswith("domino:m:")
    ]


def token_of(result) -> str:
    """The interaction token behind a result (its messages are edited through it)."""
    return result._interaction.token


def calls_with(env, token, mark=0):
    return [(r.method, r.path) for r in env.http_requests[mark:] if token in r.path]


def hands_of(channel, user):
    """The hand messages ``user`` sees (ephemeral messages with a hand image)."""
    return [
        m
        for m in channel.history(viewer=user)
        if m.flags.ephemeral and any(a.filename == "hand.png" for a in m.attachments)
    ]


async def others_move_until_turn_of(driver, user):
    """Everyone else plays (through their own hands) until it is ``user``'s turn."""
    for _ in range(50):
        session = await driver.session()
        assert session.status == "playing"
        if session.turn_seat.user_id == user.id:
            return session
        await driver.play_turn()
    raise AssertionError(f"it never became {user.name}'s turn")


def waiter_and_mover(session, alice, bob):
    mover = alice if session.turn_seat.user_id == alice.id else bob
    return (bob if mover is alice else alice), mover


# -- (a) the hand refreshes itself ------------------------------------------------------------


async def test_the_earlier_hand_offers_moves_on_the_players_turn_and_plays(
    simcord_env, bot, channel, alice, bob, driver
):
    session = await two_player_game(bot, channel, alice, bob)
    waiter, mover = waiter_and_mover(session, alice, bob)
    asked = await waiter.slash(channel, "domino hand")
    hand = asked.response
    assert not move_ids(hand)
    assert "It is" in hand.content

    mark = len(simcord_env.http_requests)
    before = await others_move_until_turn_of(driver, waiter)
    # edited through the waiter's own interaction, once per change (the other's moves,
    # a pass of the waiter's), the last time to offer the moves of this turn
    edits = calls_with(simcord_env, token_of(asked), mark)
    assert edits
    assert edits == [("PATCH", edits[0][1])] * len(edits)
    assert edits[0][1].endswith("/messages/@original")
    assert hand.content == "Your turn: choose a move."
    buttons = move_ids(hand)
    assert buttons
    assert all(
        f":{before.state.deal_number}.{len(before.state.deal.history)}:" in b for b in buttons
    )
    # only its owner sees it
    assert hand.id not in [m.id for m in channel.history(viewer=mover)]

    await waiter.click(hand, custom_id=buttons[0])  # no /domino hand: straight from it
    after = await bot.games.in_channel(channel.id)
    assert len(after.state.deal.history) > len(before.state.deal.history) or (
        after.state.deal_number > before.state.deal_number
    )
    assert not move_ids(hand) or after.turn_seat.user_id == waiter.id
    assert [m.id for m in hands_of(channel, waiter)] == [hand.id]  # still one hand


async def test_a_hand_loses_its_moves_when_the_turn_passes_without_it(
    simcord_env, bot, channel, alice, bob
):
    session = await two_player_game(bot, channel, alice, bob)
    _waiter, mover = waiter_and_mover(session, alice, bob)
    asked = await mover.slash(channel, "domino hand")
    assert move_ids(asked.response)
    await mover.slash(channel, "domino play", tile=str(session.state.deal.lead_tile))
    after = await bot.games.in_channel(channel.id)
    token = f"{after.state.deal_number}.{len(after.state.deal.history)}"
    if after.turn_seat.user_id == mover.id:  # the other had to pass: a new turn, new moves
        assert move_ids(asked.response)
        assert all(f":{token}:" in b for b in move_ids(asked.response))
    else:
        assert not move_ids(asked.response)  # no stale buttons left for a turn gone by
        assert "It is" in asked.response.content


# -- (b) one hand on screen ---------------------------------------------------------------


async def test_a_new_hand_replaces_the_previous_one(simcord_env, bot, channel, alice, bob):
    session = await two_player_game(bot, channel, alice, bob)
    table = next(m for m in channel.history(viewer=alice) if m.id == session.table_message_id)
    first = await alice.slash(channel, "domino hand")
    assert first.response is not None
    second = await alice.slash(channel, "domino hand")
    assert first.response is None  # deleted through its own interaction
    assert [m.id for m in hands_of(channel, alice)] == [second.response.id]
    third = await alice.click(table, label="Show my hand")
    assert second.response is None
    assert [m.id for m in hands_of(channel, alice)] == [third.response.id]
    # "Refresh" shows the hand anew in the same message
    hand = third.response
    refreshed = await alice.click(hand, label="Refresh")
    assert [m.id for m in hands_of(channel, alice)] == [hand.id]
    assert refreshed.followups == []
    # bob's hands are his own: alice's asking never touched them
    bobs = await bob.slash(channel, "domino hand")
    await alice.slash(channel, "domino hand")
    assert [m.id for m in hands_of(channel, bob)] == [bobs.response.id]


# -- (c) a token past its life is left alone ------------------------------------------------


async def test_a_hand_older_than_its_token_is_never_touched(
    simcord_env, bot, channel, alice, bob, driver
):
    session = await two_player_game(bot, channel, alice, bob)
    waiter, _mover = waiter_and_mover(session, alice, bob)
    old = await waiter.slash(channel, "domino hand")
    shown = old.response.content
    await simcord_env.advance_time(HAND_LIFE.total_seconds() + 1)  # under 15 min: alive
    mark = len(simcord_env.http_requests)
    await others_move_until_turn_of(driver, waiter)
    assert calls_with(simcord_env, token_of(old), mark) == []  # neither edited nor deleted
    assert old.response.content == shown
    assert not move_ids(old.response)
    fresh = await waiter.slash(channel, "domino hand")
    assert move_ids(fresh.response)
    assert calls_with(simcord_env, token_of(old), mark) == []  # not deleted either
    assert old.response is not None
    await waiter.click(fresh.response, custom_id=move_ids(fresh.response)[0])


# -- (d) a refresh that fails ---------------------------------------------------------------


async def test_a_failed_refresh_costs_one_log_line_and_nothing_else(
    simcord_env, bot, channel, alice, bob, driver, caplog
):
    session = await two_player_game(bot, channel, alice, bob)
    waiter, _mover = waiter_and_mover(session, alice, bob)
    asked = await waiter.slash(channel, "domino hand")
    simcord_env.backend.delete_message(channel.id, asked.response.id)  # dismissed meanwhile
    caplog.set_level(logging.INFO)
    mark = len(simcord_env.http_requests)
    await others_move_until_turn_of(driver, waiter)
    assert calls_with(simcord_env, token_of(asked), mark) == [
        ("PATCH", calls_with(simcord_env, token_of(asked), mark)[0][1])
    ]  # one attempt, no retry
    lines = [r for r in caplog.records if "could not be refreshed" in r.getMessage()]
    assert len(lines) == 1
    assert lines[0].levelno == logging.INFO
    assert not lines[0].exc_info
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert simcord_env.errors == []
    # forgotten: later turns never try it again, and the game goes on
    await driver.play_turn()
    await others_move_until_turn_of(driver, waiter)
    assert len(calls_with(simcord_env, token_of(asked), mark)) == 1
    fresh = await waiter.slash(channel, "domino hand")
    assert move_ids(fresh.response)


async def test_a_refresh_discord_is_too_busy_for_is_retried_with_the_announcement(
    simcord_env, bot, channel, alice, bob, driver, caplog
):
    bot.get_cog("Domino").publisher.delays = (0.1, 0.1)
    session = await two_player_game(bot, channel, alice, bob)
    waiter, mover = waiter_and_mover(session, alice, bob)
    asked = await waiter.slash(channel, "domino hand")
    simcord_env.inject_error("PATCH", f"/webhooks/*/{token_of(asked)}/*", status=429, times=1)
    caplog.set_level(logging.INFO)
    hands = bot.get_cog("Domino").publisher.hands
    refreshed = hands.refreshed
    mark = len(simcord_env.http_requests)
    while (await bot.games.in_channel(channel.id)).turn_seat.user_id != waiter.id:
        # typed moves: the waiter's is the only live hand
        [move, *_] = await bot.games.moves_for(channel.id, mover.id)
        await mover.slash(channel, "domino play", tile=move_key(move))
    await settle_announcements(bot)
    # every change refreshes it once; the refused edit once more (refused, then done)
    edits = len(calls_with(simcord_env, token_of(asked), mark))
    assert edits == hands.refreshed - refreshed + 1
    assert move_ids(asked.response)
    assert not [r for r in caplog.records if "could not be refreshed" in r.getMessage()]
    assert simcord_env.errors == []


async def settle_announcements(bot):
    for worker in list(bot.get_cog("Domino").publisher._workers.values()):
        await worker


# -- (e) the last ping goes with the game ---------------------------------------------------


def pings(channel, viewer):
    return [m for m in channel.history(viewer=viewer) if "it's your turn" in (m.content or "")]


async def test_the_last_ping_is_gone_when_the_game_is_ended(bot, channel, alice, bob):
    session = await two_player_game(bot, channel, alice, bob)
    _waiter, mover = waiter_and_mover(session, alice, bob)
    hand = (await mover.slash(channel, "domino hand")).response
    assert move_ids(hand)
    assert len(pings(channel, alice)) == 1
    asked = await alice.slash(channel, "domino end")
    assert len(pings(channel, alice)) == 1  # nothing happens before the confirmation
    await alice.click(asked.response, label="End the game")
    assert pings(channel, alice) == []
    assert pings(channel, bob) == []
    # the hand of the player who was to move offers no moves any more
    assert not move_ids(hand)
    assert hand.content == "This game is over."


# -- (f) /domino end asks first ---------------------------------------------------------------


async def test_ending_a_match_in_play_asks_first_and_only_the_asker_confirms(
    simcord_env, bot, channel, alice, bob
):
    session = await two_player_game(bot, channel, alice, bob)
    asked = await alice.slash(channel, "domino end")
    question = asked.response
    assert question.ephemeral
    assert "End this game now?" in question.content
    assert await bot.games.in_channel(channel.id) is not None
    [button] = [c for row in question.components for c in row["components"]]
    assert button["label"] == "End the game"
    assert button["custom_id"] == f"domino:end:{session.id}:{alice.id}"
    assert question.id not in [m.id for m in channel.history(viewer=bob)]

    # a copy of the button where bob can click it: his click is refused, nothing ends
    view = sent_view()
    view.add_item(EndButton(session.id, alice.id, "End the game"))
    copy = await bot.get_channel(channel.id).send("copy", view=view)
    refused = await bob.click(copy, label="End the game")
    assert refused.followups[-1].ephemeral
    assert "Only the player who asked" in refused.followups[-1].content
    assert await bot.games.in_channel(channel.id) is not None

    await alice.click(question, label="End the game")
    assert await bot.games.in_channel(channel.id) is None
    assert (await bot.games.latest_in_channel(channel.id)).status == "cancelled"
    assert question.content == "The game is over."
    assert question.components == []
    assert simcord_env.errors == []


async def test_a_lobby_is_ended_directly(bot, channel, alice):
    await alice.slash(channel, "domino new", game="block")
    result = await alice.slash(channel, "domino end")
    assert "The game is over." in result.response.content
    assert await bot.games.in_channel(channel.id) is None


@pytest.fixture
def simcord_bot(new_bot, request):
    """The bot; a test parametrized indirectly with a seed deals every game from it."""
    seed = getattr(request, "param", None)
    return new_bot() if seed is None else new_bot(seed_source=lambda: seed)


# pinned: a random deal could end on the first move, or give the turn straight back
@pytest.mark.parametrize("simcord_bot", [3], indirect=True)
async def test_the_hand_of_the_player_to_move_goes_before_the_table_and_the_others_after(
    simcord_env, bot, channel, alice, bob, carol, driver
):
    """With three humans, a move's change refreshes the hand of the player to move before
    the table pings them, and a third player's hand after it: their edit never holds up
    the ping."""
    await alice.slash(channel, "domino new", game="block", players=3, scoring="single")
    table = channel.last_message
    for user in (bob, carol):
        await user.click(table, label="Join")
    await alice.click(table, label="Start")
    users = {u.id: u for u in (alice, bob, carol)}
    session = await bot.games.in_channel(channel.id)
    mover = users[session.turn_seat.user_id]
    hands = {u.id: await u.slash(channel, "domino hand") for u in users.values()}
    await settle_announcements(bot)
    mark = len(simcord_env.http_requests)
    await mover.click(hands[mover.id].response, custom_id=move_ids(hands[mover.id].response)[0])
    await settle_announcements(bot)
    after = await bot.games.in_channel(channel.id)
    assert after is not None
    assert after.status == "playing"
    assert after.turn_seat.user_id != mover.id
    nxt = users[after.turn_seat.user_id]
    third = next(u for u in users.values() if u not in (mover, nxt))
    requests = simcord_env.http_requests[mark:]
    table_post = next(
        i
        for i, r in enumerate(requests)
        if r.method == "POST" and f"<@{nxt.id}>" in str((r.json or {}).get("content", ""))
    )
    to_move = [i for i, r in enumerate(requests) if token_of(hands[nxt.id]) in r.path]
    others = [i for i, r in enumerate(requests) if token_of(hands[third.id]) in r.path]
    assert to_move
    assert others
    assert max(to_move) < table_post < min(others)
