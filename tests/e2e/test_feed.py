"""Following the play (issue 38): the table's feed tells everything since the last turn
of the player to move, the ping what they need to know, teams are shown as teams."""

from __future__ import annotations

from feed_support import feed_lines
from test_match import open_table

from bot.engine import Drew
from bot.games.feed import feed_start


async def settle(bot):
    await bot.get_cog("Domino").publisher.settled()


def table_of(channel, viewer, session):
    return next(m for m in channel.history(viewer=viewer) if m.id == session.table_message_id)


async def test_ai_moves_between_two_human_turns_read_as_a_sequence(bot, channel, alice, driver):
    table = await open_table(alice, channel, game="block", players=4)
    for _ in range(3):
        await alice.click(table, label="Add AI")
    await alice.click(table, label="Start")
    for _ in range(3):
        session = await driver.session()
        if session.status != "playing" or session.turn_seat.user_id != alice.id:
            break
        before = session.state
        await driver.play_turn()
        await settle(bot)
        session = await driver.session()
        if session.status != "playing" or session.state.deal_number != before.deal_number:
            break  # a deal that ended is told otherwise (tested below)
        assert session.turn_seat.user_id == alice.id  # the three AI seats moved
        message = table_of(channel, alice, session)
        field = next(f for f in message.embeds[0].fields if f.name.startswith("Since "))
        assert field.name == "Since alice's last turn"
        lines = feed_lines(message)
        # alice's own move is behind her; each AI seat's turn, in seat order
        # (the engine may have passed for her since: her last turn is then that pass)
        since, (deal, start) = feed_start(session.state)
        assert (since, deal) == (0, session.state.deal_number)
        assert start > len(before.deal.history)
        turns = [e for e in session.state.deal.history[start:] if type(e) is not Drew]
        assert [e.seat for e in turns] == [1, 2, 3]
        assert [line.split(" ")[0:2] for line in lines] == [["Bot", str(n)] for n in (1, 2, 3)]
        for line, event in zip(lines, turns, strict=True):
            assert (" played " in line) == (type(event).__name__ == "Played"), line
        # the ping says what she needs to move: the open ends
        layout = session.state.deal.layout
        ends = [f"{end.name.lower()} {layout.values[end]}" for end in layout.open_ends()]
        assert message.content.startswith(f"<@{alice.id}>, it's your turn")
        for end in ends:
            assert end in message.content
        return
    raise AssertionError("alice never had two turns in a row of the same deal")


async def test_a_team_game_shows_partners_in_the_lobby_and_one_score_a_team(
    bot, channel, alice, bob, carol, dave, driver
):
    table = await open_table(alice, channel, game="allfives", players=4, teams=True)
    fields = {f.name: f.value for f in table.embeds[0].fields}
    assert fields["Partners"] == "Team 1: 1. alice & 3. —\nTeam 2: 2. — & 4. —"
    for user in (bob, carol, dave):
        await user.click(table, label="Join")
    table = channel.last_message
    fields = {f.name: f.value for f in table.embeds[0].fields}
    assert fields["Partners"] == "Team 1: 1. alice & 3. carol\nTeam 2: 2. bob & 4. dave"
    await alice.click(table, label="Start")
    await settle(bot)
    session = await driver.session()
    message = table_of(channel, alice, session)
    fields = {f.name: f.value for f in message.embeds[0].fields}
    assert fields["Score"] == "Team 1: 0 pts · Team 2: 0 pts"
    rows = fields["Players"].splitlines()
    assert [("(team 1)" in r, "(team 2)" in r) for r in rows] == [
        (True, False),
        (False, True),
        (True, False),
        (False, True),
    ]
    assert not any(" pts" in row for row in rows)  # a team's score is not a player's
