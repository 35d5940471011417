"""A hand panel follows the play (issue 38): after every move, the players' own and the
others' and the AI's, each live hand says whose turn it is; once the match is over it says
the result and offers no buttons, also a panel the bot could no longer keep current, once
it is clicked."""

from __future__ import annotations

import random

import pytest

from bot.engine import Played, Rules, new_match
from cogs.domino.live_hands import HAND_LIFE


def seed_where(leader: int, players: int) -> int:
    """A game seed whose first block deal for ``players`` is led by seat ``leader``."""
    rules = Rules.make("block", players=players)
    return next(s for s in range(200) if new_match(rules, random.Random(f"{s}:1")).turn == leader)


@pytest.fixture
def simcord_bot(new_bot, request):
    """The bot; a test parametrized indirectly with a seed deals every game from it."""
    seed = getattr(request, "param", None)
    return new_bot() if seed is None else new_bot(seed_source=lambda: seed)


def move_ids(message):
    return [
        c["custom_id"]
        for row in message.components
        for c in row["components"]
        if c.get("custom_id", "").startswith(("domino:m:", "domino:s:"))
    ]


def labels(message):
    return [c.get("label") for row in message.components for c in row["components"]]


async def settle(bot):
    await bot.get_cog("Domino").publisher.settled()


async def humans_and_an_ai(channel, alice, bob):
    await alice.slash(channel, "domino new", game="block", players=3, scoring="single")
    table = channel.last_message
    await bob.click(table, label="Join")
    await alice.click(table, label="Add AI")
    await alice.click(table, label="Start")


def says_the_turn(panel, session, owner) -> None:
    """The panel of ``owner`` says what ``session`` says: their turn, with moves, or
    whose turn it is, without."""
    if session.turn == session.seat_of(owner.id):
        assert move_ids(panel), panel.content
        assert "Your turn" in panel.content or "You drew" in panel.content, panel.content
    else:
        assert not move_ids(panel), panel.content
        assert f"It is {session.turn_seat.name}'s turn." in panel.content, panel.content


def ai_played_since(before, after, ai_seat: int) -> bool:
    deal = after.state.deal
    start = (
        len(before.state.deal.history) if before.state.deal_number == after.state.deal_number else 0
    )
    return any(type(e) is Played and e.seat == ai_seat for e in deal.history[start:])


async def test_every_panel_follows_every_move_and_ends_with_the_result(
    bot, channel, alice, bob, driver
):
    await humans_and_an_ai(channel, alice, bob)
    users = {alice.id: alice, bob.id: bob}
    panels = {u.id: (await u.slash(channel, "domino hand")).response for u in (alice, bob)}
    after_ai = 0
    before = None
    for _ in range(100):
        await settle(bot)
        session = await driver.session()
        if session.status != "playing":
            break
        for user_id, panel in panels.items():
            says_the_turn(panel, session, users[user_id])
        if before is not None and ai_played_since(before, session, 2):
            after_ai += 1
        before = session
        mover = users[session.turn_seat.user_id]
        await driver.play_from(mover, panels[mover.id])
    else:
        raise AssertionError("the match did not end")
    assert after_ai >= 1  # the panels were checked right after the AI's moves too
    assert session.status == "finished"
    winners = " & ".join(session.seats[s].name for s in session.state.winners)
    result = f"The match is over: {winners} wins!" if winners else "The match is over: a draw."
    for panel in panels.values():
        assert result in panel.content, panel.content
        assert "turn" not in panel.content
        assert panel.components == []  # no moves, no Refresh: nothing looks live


@pytest.mark.parametrize("simcord_bot", [seed_where(0, 3)], indirect=True)
async def test_a_panel_the_bot_could_no_longer_refresh_shows_the_end_once_clicked(
    simcord_env, bot, channel, alice, bob, driver
):
    await humans_and_an_ai(channel, alice, bob)
    session = await driver.session()
    assert session.turn_seat.user_id == alice.id
    old_alices = (await alice.slash(channel, "domino hand")).response
    old_bobs = (await bob.slash(channel, "domino hand")).response
    assert move_ids(old_alices)
    assert "Refresh" in labels(old_bobs)
    await simcord_env.advance_time(HAND_LIFE.total_seconds() + 1)  # past their refreshes
    session = await driver.play_until(lambda s: s.status != "playing")
    assert session.status == "finished"
    assert move_ids(old_alices)  # untouched: the bot may no longer edit it

    # a move clicked on it is refused, and the panel shows how the match ended
    refused = await alice.click(old_alices, custom_id=move_ids(old_alices)[0])
    assert refused.followups[-1].ephemeral
    assert refused.followups[-1].content == "This game is over."
    assert "The match is over" in old_alices.content
    assert old_alices.components == []

    # "Refresh" on another one: the same
    await bob.click(old_bobs, label="Refresh")
    assert "The match is over" in old_bobs.content
    assert old_bobs.components == []

    # and none opens after the end
    late = await alice.slash(channel, "domino hand")
    assert "no game in this channel" in late.response.content
    assert (await bot.games.latest_in_channel(channel.id)).version == session.version


def played_in_deal(session) -> set[int]:
    """The seats that laid a tile in the deal in play."""
    return {e.seat for e in session.state.deal.history if type(e) is Played}


async def test_a_panel_in_a_new_deal_says_how_the_last_one_ended_until_its_owner_plays(
    bot, channel, alice, bob, driver
):
    await alice.slash(channel, "domino new", game="block", scoring="points", target=500)
    table = channel.last_message
    await bob.click(table, label="Join")
    await alice.click(table, label="Start")
    users = {alice.id: alice, bob.id: bob}
    panels = {u.id: (await u.slash(channel, "domino hand")).response for u in (alice, bob)}

    async def play_until(done):
        for _ in range(100):
            await settle(bot)
            session = await driver.session()
            if done(session):
                return session
            mover = users[session.turn_seat.user_id]
            await driver.play_from(mover, panels[mover.id])
        raise AssertionError("the goal was never reached")

    session = await play_until(lambda s: s.state.deal_number > 1)
    first = session.state.deals[0].result
    told = {"domino": "went out and wins deal 1.", "blocked": "Deal 1 is blocked"}[first.end]
    for user_id, panel in panels.items():
        says_the_turn(panel, session, users[user_id])
        if session.seat_of(user_id) in played_in_deal(session):
            assert "deal 1" not in panel.content.lower(), panel.content
        else:
            assert told in panel.content.splitlines()[0], panel.content
    # once its owner has laid a tile in the new deal, the line is gone
    session = await play_until(
        lambda s: s.state.deal_number > 2 or len(played_in_deal(s)) == len(panels)
    )
    if session.state.deal_number == 2:  # (else the deal ended before both had laid one)
        for panel in panels.values():
            assert "deal 1" not in panel.content.lower(), panel.content
