"""The playground's club night (``--club-night``): a competition opened by Alice, the four
players checked in, AI fill-ins added, started: two tables of three, each in its thread,
each with a person."""

from __future__ import annotations

from bot.playground.app import PlaygroundOptions
from bot.playground.cli import parse_args
from bot.playground.club import AI_FILL_INS, open_club_night
from bot.playground.world import PLAYERS, running_world


def test_the_club_night_is_asked_for_on_the_command_line():
    assert parse_args([]).club_night is False
    assert parse_args(["--club-night"]) == PlaygroundOptions(club_night=True)


async def test_a_club_night_with_the_four_players_and_ai_fill_ins(new_bot):
    async with running_world(new_bot()) as (env, world):
        bot = env.bot
        cid = await open_club_night(bot, world)
        c = bot.competitions.open[cid].competition
        assert c.status == "checkin"
        assert c.humans == [m.id for m in world.members]
        assert [e.name for e in c.entrants if e.is_ai] == [
            f"AI {n} (easy)" for n in range(1, AI_FILL_INS + 1)
        ]
        posted = "\n".join(m.content for m in world.channel.history(viewer=world.member("Bob")))
        assert "AI 2 (easy)" in posted
        assert all(shown in posted for _, shown in PLAYERS)

        await world.member("Alice").slash(world.channel, "domino competition start")
        c = bot.competitions.open[cid].competition
        assert c.status == "playing"
        tables = c.current.tables
        assert [len(t.players) for t in tables] == [3, 3]
        assert len(world.channel.threads) == 2
        seats = []
        for table in tables:
            session = await bot.games.get(table.game_id)
            assert session.status == "playing"
            assert session.channel_id in {t.id for t in world.channel.threads}
            assert any(s.user_id is not None for s in session.seats)  # a person at each
            seats += session.seats
        assert sum(1 for s in seats if s.is_ai) == AI_FILL_INS
        assert sorted(s.user_id for s in seats if s.user_id) == sorted(c.humans)


async def test_a_club_night_left_open_by_the_last_start_is_ended_and_opened_anew(new_bot):
    async with running_world(new_bot()) as (env, world):
        first = await open_club_night(env.bot, world, start=True)
    async with running_world(new_bot()) as (env, world):
        second = await open_club_night(env.bot, world)
        assert second != first
        assert (await env.bot.competitions.get(first)).competition.status == "cancelled"
        assert env.bot.competitions.open[second].competition.status == "checkin"
