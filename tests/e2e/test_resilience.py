"""Never lose a game: restarts, Discord failures, clicks at the same moment."""

from __future__ import annotations

import asyncio
import re

from feed_support import feed_lines

from bot.games.errors import GameError


async def two_player_game(bot, channel, alice, bob, **options):
    await alice.slash(channel, "domino new", **({"game": "draw"} | options))
    table = channel.last_message
    await bob.click(table, label="Join")
    await alice.click(table, label="Start")
    return await bot.games.in_channel(channel.id)


async def test_a_restart_mid_game_continues_with_the_old_buttons(
    simcord_env, bot, new_bot, channel, alice, bob, driver
):
    session = await two_player_game(bot, channel, alice, bob)
    for _ in range(3):
        await driver.play_turn()
    before = await bot.games.in_channel(channel.id)
    users = {alice.id: alice, bob.id: bob}
    mover = users[before.turn_seat.user_id]
    old_hand = await driver.hand(mover)
    table = next(m for m in channel.history(viewer=alice) if m.id == before.table_message_id)

    await bot.shutdown()
    fresh = new_bot()
    await simcord_env.restart_bot(fresh)
    try:
        restored = await fresh.games.in_channel(channel.id)
        assert restored.id == session.id
        assert restored.version == before.version
        assert restored.state.deal.history == before.state.deal.history
        # the old table's button still opens a hand
        shown = await mover.click(table, label="Show my hand")
        assert shown.response.ephemeral
        assert shown.response.attachments
        # and the old hand's move button still plays
        button = driver.move_ids(old_hand)[0]
        await mover.click(old_hand, custom_id=button)
        after = await fresh.games.in_channel(channel.id) or await fresh.games.latest_in_channel(
            channel.id
        )
        assert len(after.state.deal.history) > len(before.state.deal.history) or (
            after.state.deal_number > before.state.deal_number
        )
    finally:
        await fresh.shutdown()


async def test_a_discord_failure_on_the_table_update_keeps_the_move(
    simcord_env, bot, channel, alice, bob, driver
):
    session = await two_player_game(bot, channel, alice, bob)
    bot.get_cog("Domino").publisher.delays = ()  # no retry: the announcement gives up
    user, hand = await driver.turn_hand()
    simcord_env.inject_error("POST", "/webhooks/*", status=500, times=None)
    simcord_env.inject_error("POST", "/channels/*/messages", status=500, times=None)
    await driver.play_from(user, hand)
    after = await bot.games.in_channel(channel.id)
    assert after.version > session.version
    assert len(after.state.deal.history) > len(session.state.deal.history)
    # the table missed the move (the old one is still up); /domino board draws it right
    stale = next(m for m in channel.history(viewer=alice) if m.id == session.table_message_id)
    assert session.turn_seat.name in stale.embeds[0].footer.text
    simcord_env.backend.faults.clear()
    result = await alice.slash(channel, "domino board")
    assert result.ephemeral
    fresh = await bot.games.in_channel(channel.id)
    table = next(m for m in channel.history(viewer=alice) if m.id == fresh.table_message_id)
    assert fresh.turn_seat.name in table.embeds[0].footer.text
    assert table.attachments


async def test_two_clicks_at_the_same_moment_apply_one_move(bot, channel, alice, bob):
    session = await two_player_game(bot, channel, alice, bob, game="block")
    mover = session.turn_seat.user_id
    legal = session.state.legal_moves()
    token = f"{session.state.deal_number}.{len(session.state.deal.history)}"
    results = await asyncio.gather(
        bot.games.play(session.id, mover, legal[0], token=token),
        bot.games.play(session.id, mover, legal[0], token=token),
        return_exceptions=True,
    )
    errors = [r for r in results if isinstance(r, BaseException)]
    assert len(errors) == 1
    assert isinstance(errors[0], GameError)
    after = await bot.games.in_channel(channel.id)
    # one move went in (it may have blocked the deal: then the next one has begun)
    before = (session.state.deal_number, len(session.state.deal.history))
    assert (after.state.deal_number, len(after.state.deal.history)) > before
    assert after.version == session.version + 1


def table_text(message) -> str:
    embed = message.embeds[0]
    return "\n".join(
        [embed.title or "", embed.description or "", embed.footer.text or ""]
        + [f"{f.name}: {f.value}" for f in embed.fields]
    )


async def restart(simcord_env, bot, new_bot):
    await bot.shutdown()
    fresh = new_bot()
    await simcord_env.restart_bot(fresh)
    await fresh.restoring
    await simcord_env.advance_time(1)  # the announcer's work settles
    return fresh


def new_messages(channel, viewers, seen):
    return [m for viewer in viewers for m in channel.history(viewer=viewer) if m.id not in seen]


async def test_a_restart_after_an_unannounced_move_invents_no_line(
    simcord_env, bot, new_bot, channel, alice, bob, driver
):
    await two_player_game(bot, channel, alice, bob)
    for _ in range(2):
        await driver.play_turn()
    bot.games.publisher = None  # a crash between saving a move and announcing it
    await driver.play_turn()
    saved = await bot.games.in_channel(channel.id)
    await bot.games.marks.flush()
    seen = {m.id for v in (alice, bob) for m in channel.history(viewer=v)}

    fresh = await restart(simcord_env, bot, new_bot)
    try:
        restored = await fresh.games.in_channel(channel.id)
        assert restored.version == saved.version
        table = next(m for m in channel.history(viewer=alice) if m.id == restored.table_message_id)
        text = table_text(table)
        # the table shows the saved state, and no line about anything that did not happen
        assert f"{restored.turn_seat.name} to play" in text
        # the feed tells the moves of the saved state (they happened), no note
        for line in feed_lines(table):
            assert re.match(r"(alice|bob) (played|passes|drew) ", line), line
        assert "used /domino" not in text
        # nobody was made to run a command: no new interaction message
        for message in new_messages(channel, (alice, bob), seen):
            assert message.interaction_metadata is None, message.content
            assert "used /domino" not in (message.content or "")
    finally:
        await fresh.shutdown()
