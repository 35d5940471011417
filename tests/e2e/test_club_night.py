"""``/domino competition``: a club night of 10 players over 3 rounds (issue 41).

Every table is played through the UI in its own thread (the ping's hand, a move
button); the absent player's turns run out on SimCord's clock, and after three the AI
plays their seat. Moves made by calling the service from the test would start the
games' timers outside the bot's own work, where SimCord's clock does not reach them.
"""

from __future__ import annotations

import pytest
from competition_support import TIMER, play_games, reply_text, settle

from bot.competitions.seating import pairs_of, repeats

SEED = 3
"""Every deal and seating from one seed, so that the night plays the same each run (the
absent player's round-1 deal has the three missed turns that hand their seat to the AI)."""


@pytest.fixture
def simcord_bot(new_bot):
    return new_bot(seed_source=lambda: SEED)


async def restart(simcord_env, bot, new_bot):
    await bot.shutdown()
    fresh = new_bot(seed_source=lambda: SEED)
    await simcord_env.restart_bot(fresh)
    await fresh.restoring
    await settle(simcord_env, fresh)
    return fresh


def current(bot, cid):
    return bot.competitions.open[cid].competition


def round_games(bot, cid):
    return [t.game_id for t in current(bot, cid).current.tables]


async def test_a_club_night_of_ten_over_three_rounds_with_an_absent_player_and_a_restart(
    simcord_env, bot, new_bot, guild, channel, referee
):
    players = [guild.add_member(simcord_env.create_user(f"player{i}")) for i in range(10)]
    absent = players[9]
    refused = await players[0].slash(channel, "domino competition open")
    assert "manage the server" in reply_text(refused)
    opened = await referee.slash(
        channel, "domino competition open", deals=1, timer=TIMER, seating="standing"
    )
    assert "check in" in reply_text(opened)
    message = channel.last_message
    assert "Competition" in message.content
    for p in players:
        await p.click(message, label="Check in")
    twice = await players[0].click(message, label="Check in")
    assert "already checked in" in reply_text(twice)
    held = bot.competitions.in_channel(channel.id)
    cid = held.id
    assert held.competition.players == [p.id for p in players]
    early = await players[0].slash(channel, "domino competition start")
    assert "referee" in reply_text(early)
    started = await referee.slash(channel, "domino competition start")
    assert "begun" in reply_text(started)
    await settle(simcord_env, bot)

    # round 1: tables of 4, 3 and 3, each in its own thread, each a game in play
    c = current(bot, cid)
    assert sorted(len(t.players) for t in c.current.tables) == [3, 3, 4]
    assert len(channel.threads) == 3
    first = round_games(bot, cid)
    for gid, table in zip(first, c.current.tables, strict=True):
        session = await bot.games.get(gid)
        assert session.status == "playing"
        assert [s.user_id for s in session.seats] == list(table.players)
    sessions = await play_games(simcord_env, bot, channel, players, first, absent.id)
    # the absent player's seat went to the AI, under their name
    theirs = next(s for s in sessions if "player9" in s.names)
    seat = theirs.seats[theirs.names.index("player9")]
    assert seat.user_id is None
    assert seat.is_ai
    for session, table in zip(sessions, current(bot, cid).rounds[0].tables, strict=True):
        assert table.result is not None
        assert list(table.result.score) == [float(x) for x in session.state.totals]

    # round 2 seated: by standing, as few pairs meeting again as can be (one: four
    # players of a table of 4 spread over three tables)
    c = current(bot, cid)
    assert c.current.number == 2
    assert (
        repeats(
            [t.players for t in c.current.tables], pairs_of(t.players for t in c.rounds[0].tables)
        )
        == 1
    )
    assert "Round 1 results" in "\n".join(m.content for m in channel.history(viewer=referee))
    second = round_games(bot, cid)
    # a table ends while the bot is not listening (its end saved, its result not yet):
    # the restart records it
    bot.games.ended.clear()
    await play_games(simcord_env, bot, channel, players, second[:1], absent.id)
    assert current(bot, cid).current.tables[0].result is None
    fresh = await restart(simcord_env, bot, new_bot)
    try:
        await after_the_restart(simcord_env, fresh, guild, channel, players, referee, cid, second)
    finally:
        await fresh.shutdown()


async def after_the_restart(simcord_env, bot, guild, channel, players, referee, cid, second):
    """Round 2's other tables and round 3, then the stored result."""
    absent = players[9]
    c = current(bot, cid)
    assert c.current.number == 2
    assert c.current.tables[0].result is not None
    await play_games(simcord_env, bot, channel, players, second[1:], absent.id)
    c = current(bot, cid)
    assert c.current.number == 3
    await play_games(simcord_env, bot, channel, players, round_games(bot, cid), absent.id)
    await settle(simcord_env, bot)

    # the stored result: finished, every round's place points summed (28 a round)
    assert cid not in bot.competitions.open
    stored = await bot.competitions.get(cid)
    assert stored.competition.status == "finished"
    assert [r.id for r in await bot.db.competitions.finished_in(guild.id)] == [cid]
    standings = stored.competition.standings()
    assert sum(s.points for s in standings) == 3 * (10 + 9 + 9)
    assert all(s.rounds == 3 for s in standings)
    assert [s.points for s in standings] == sorted((s.points for s in standings), reverse=True)
    for s in standings:
        earned = sum(
            pp
            for r in stored.competition.rounds
            for t in r.tables
            for p, pp in zip(t.result.players, t.result.place_points(), strict=True)
            if p == s.player
        )
        assert s.points == earned
    posted = "\n".join(m.content for m in channel.history(viewer=referee))
    assert "The competition is over" in posted
    assert "Standings" in posted
    late = await players[0].slash(channel, "domino competition standings")
    assert "no competition" in reply_text(late)
