"""``/domino competition add-ai``: a club short of players fills its tables with AI
fill-ins (issue 41). Three people and three AI players sit at two tables of three,
each with a person; both tables are played to the end (the people through the UI in
their threads, the AI seats by the AI) and the standings list the AI entrants."""

from __future__ import annotations

import pytest
from competition_support import reply_text, settle, unpaced
from driver_support import Driver


@pytest.fixture
def simcord_bot(new_bot):
    return unpaced(new_bot)


async def play_to_the_end(simcord_env, bot, channel, users, game_ids):
    """Each person plays on their turn (in their table's thread); while only AI seats
    are to move, time passes."""
    for _ in range(2000):
        await settle(simcord_env, bot)
        live = [s for s in [await bot.games.get(g) for g in game_ids] if s.active]
        if not live:
            return
        moved = False
        for s in live:
            seat = s.turn_seat
            if seat is not None and not seat.is_ai:
                thread = next(t for t in channel.threads if t.id == s.channel_id)
                await Driver(simcord_env, bot, thread, users).play_turn()
                moved = True
        if not moved:
            await simcord_env.advance_time(1)  # an AI seat is deciding
    raise AssertionError("the tables did not finish")


async def test_three_people_and_three_ai_fill_ins_play_two_tables_to_the_end(
    simcord_env, bot, guild, channel, referee
):
    people = [guild.add_member(simcord_env.create_user(f"player{i}")) for i in range(3)]
    await referee.slash(channel, "domino competition open", deals=1, rounds=1)
    message = channel.last_message
    for p in people:
        await p.click(message, label="Check in")
    refused = await people[0].slash(channel, "domino competition add-ai", count=3)
    assert "referee" in reply_text(refused)
    added = await referee.slash(channel, "domino competition add-ai", count=3, level="easy")
    assert "3 AI players are checked in" in reply_text(added)
    await settle(simcord_env, bot)
    held = bot.competitions.in_channel(channel.id)
    assert held.competition.players == [p.id for p in people] + [-1, -2, -3]
    shown = next(m for m in channel.history(viewer=referee) if m.id == message.id)
    assert "AI 3 (easy)" in shown.content

    started = await referee.slash(channel, "domino competition start")
    assert "begun" in reply_text(started)
    await settle(simcord_env, bot)
    c = bot.competitions.open[held.id].competition
    tables = c.current.tables
    assert sorted(len(t.players) for t in tables) == [3, 3]
    games = [t.game_id for t in tables]
    for gid, table in zip(games, tables, strict=True):
        assert any(p > 0 for p in table.players)  # a person at every table
        session = await bot.games.get(gid)
        for player, seat in zip(table.players, session.seats, strict=True):
            if player < 0:
                assert seat.user_id is None
                assert seat.ai == "easy"
                assert seat.name == f"AI {-player} (easy)"
            else:
                assert seat.user_id == player
    posted = "\n".join(m.content for m in channel.history(viewer=referee))
    assert "<@-" not in posted  # an AI fill-in is named, never "mentioned"

    await play_to_the_end(simcord_env, bot, channel, people, games)
    await settle(simcord_env, bot)
    stored = await bot.competitions.get(held.id)
    assert stored.competition.status == "finished"
    standings = stored.competition.standings()
    assert sorted(s.player for s in standings) == sorted([p.id for p in people] + [-1, -2, -3])
    assert sum(s.points for s in standings) == 2 * (4 + 3 + 2)
    posted = "\n".join(m.content for m in channel.history(viewer=referee))
    assert "Standings" in posted
    for n in (1, 2, 3):
        assert f"AI {n} (easy)" in posted


async def test_a_round_with_more_tables_than_people_seats_no_table_of_ai_alone(
    simcord_env, bot, guild, channel, referee
):
    """Two people, four AI players at tables of 3; the referee removes one person in
    round 1, so round 2 has one person: one table of three, two AI players sit out."""
    people = [guild.add_member(simcord_env.create_user(f"player{i}")) for i in range(2)]
    await referee.slash(channel, "domino competition open", deals=1, rounds=2, table_size=3)
    message = channel.last_message
    for p in people:
        await p.click(message, label="Check in")
    await referee.slash(channel, "domino competition add-ai", count=4, level="easy")
    await referee.slash(channel, "domino competition start")
    await settle(simcord_env, bot)
    cid = bot.competitions.in_channel(channel.id).id
    asked = await referee.slash(channel, "domino competition remove", player=people[1])
    question = asked.followups[-1] if asked.followups else asked.response
    removed = await referee.click(question, label="Remove player1")  # asked first
    assert "out of the competition" in removed.response.content
    first = [t.game_id for t in bot.competitions.open[cid].competition.current.tables]
    await play_to_the_end(simcord_env, bot, channel, people[:1], first)
    c = bot.competitions.open[cid].competition
    assert c.current.number == 2
    (table,) = c.current.tables
    assert people[0].id in table.players
    assert len(table.players) == 3
    await play_to_the_end(simcord_env, bot, channel, people[:1], [table.game_id])
    await settle(simcord_env, bot)
    stored = await bot.competitions.get(cid)
    assert stored.competition.status == "finished"
    rounds = {s.player: s.rounds for s in stored.competition.standings()}
    assert rounds[people[0].id] == 2
    assert sorted(rounds[p] for p in (-1, -2, -3, -4)) == [1, 1, 2, 2]
