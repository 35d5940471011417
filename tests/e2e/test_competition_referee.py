"""The referee's actions (issue 41): a referee role named by the server, Confirm / Cancel
before removing a player, ending a round early or ending the competition, and a removal
taken back."""

from __future__ import annotations

import discord
import pytest
from competition_support import settle, unpaced


@pytest.fixture
def simcord_bot(new_bot):
    return unpaced(new_bot)


def reply(result) -> discord.Message:
    private = [m for m in result.followups if m.ephemeral]
    return private[-1] if private else result.response


@pytest.fixture
def manager(simcord_env, guild):
    managers = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    return guild.add_member(simcord_env.create_user("admin"), roles=[managers])


async def test_a_referee_role_confirmations_an_early_round_end_and_a_reinstated_player(
    simcord_env, bot, guild, channel, manager
):
    referees = guild.create_role("Referees")
    referee = guild.add_member(simcord_env.create_user("referee"), roles=[referees])
    players = [guild.add_member(simcord_env.create_user(f"p{i}")) for i in range(5)]

    # without the role named, a member of Referees may not open one
    refused = await referee.slash(channel, "domino competition open")
    assert "manage the server" in reply(refused).content
    named = await players[0].slash(channel, "domino competition referees", role=referees)
    assert "Manage Server" in reply(named).content or "manage" in reply(named).content
    named = await manager.slash(channel, "domino competition referees", role=referees)
    assert "Referees" in reply(named).content
    opened = await referee.slash(channel, "domino competition open", rounds=2, deals=3)
    assert "check in" in reply(opened).content
    message = channel.last_message
    for p in players:
        await p.click(message, label="Check in")
    held = bot.competitions.in_channel(channel.id)
    await referee.slash(channel, "domino competition start")
    await settle(simcord_env, bot)
    c = bot.competitions.open[held.id].competition
    assert c.current.number == 1
    assert sorted(len(t.players) for t in c.current.tables) == [2, 3]

    # a player who is not a referee is refused before any question
    early = await players[1].slash(channel, "domino competition end-round")
    assert "referee" in reply(early).content
    assert not reply(early).components

    # remove: asked first; Cancel changes nothing
    asked = await referee.slash(channel, "domino competition remove", player=players[4])
    question = reply(asked)
    assert "Remove p4" in question.content
    cancelled = await referee.click(question, label="Cancel")
    assert "Nothing was changed" in cancelled.response.content
    assert bot.competitions.open[held.id].competition.entrant(players[4].id).active
    asked = await referee.slash(channel, "domino competition remove", player=players[4])
    done = await referee.click(reply(asked), label="Remove p4")
    assert "p4 is out" in done.response.content
    assert not bot.competitions.open[held.id].competition.entrant(players[4].id).active
    # reversible: seated again from the next round
    back = await referee.slash(channel, "domino competition reinstate", player=players[4])
    assert "back in the competition" in reply(back).content
    assert bot.competitions.open[held.id].competition.entrant(players[4].id).active

    # end round 1 early: every table's game ends, its totals stand, round 2 is seated
    games = [t.game_id for t in bot.competitions.open[held.id].competition.current.tables]
    asked = await referee.slash(channel, "domino competition end-round")
    question = reply(asked)
    assert "End round 1" in question.content
    asked_twice = reply(await referee.slash(channel, "domino competition end-round"))
    done = await referee.click(question, label="End round 1")
    assert "Round 1 is over" in done.response.content
    await settle(simcord_env, bot)
    c = bot.competitions.open[held.id].competition
    assert c.current.number == 2
    for table, game_id in zip(c.rounds[0].tables, games, strict=True):
        session = await bot.games.get(game_id)
        assert not session.active
        assert table.result is not None
        assert list(table.result.score) == [float(x) for x in session.state.totals]
    assert len(c.current.tables) == 2  # all five seated again, p4 included
    assert players[4].id in {p for t in c.current.tables for p in t.players}
    # a late confirmation of the same round is refused, nothing changes
    late = await referee.click(asked_twice, label="End round 1")
    assert bot.competitions.open[held.id].competition.current.number == 2
    assert "over already" in "\n".join(m.content for m in late.followups) + (
        late.response.content or ""
    )

    # end: asked, then the competition and its tables' games end
    asked = await referee.slash(channel, "domino competition end")
    done = await referee.click(reply(asked), label="End the competition")
    assert "over" in done.response.content
    await settle(simcord_env, bot)
    assert held.id not in bot.competitions.open
    stored = await bot.competitions.get(held.id)
    assert stored.competition.status == "cancelled"
    for t in stored.competition.current.tables:
        assert not (await bot.games.get(t.game_id)).active
