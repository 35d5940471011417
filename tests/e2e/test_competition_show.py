"""A finished competition shown and kept (issue 41): the standings picture rides on the
round's results message (no extra counted call), ``/domino competition standings``
answers with it, ``history`` lists the competition, ``export`` gives it whole with every
table's match record as stored, and the players' stats count it. One round of one table
of three, one deal: quick."""

from __future__ import annotations

import json

from competition_support import play_games, reply_text, settle
from test_budget import counted

TIMER = 30


def private(result):
    """The command's ephemeral answer (the deferred response's, or its last followup)."""
    answers = [m for m in result.followups if m.ephemeral]
    answer = answers[-1] if answers else result.response
    assert answer.ephemeral
    return answer


async def test_a_finished_competition_s_picture_history_export_and_stats(
    simcord_env, bot, guild, channel, referee
):
    players = [guild.add_member(simcord_env.create_user(f"player{i}")) for i in range(3)]
    await referee.slash(channel, "domino competition open", rounds=1, deals=1, timer=TIMER)
    message = channel.last_message
    for p in players:
        await p.click(message, label="Check in")
    cid = bot.competitions.in_channel(channel.id).id
    await referee.slash(channel, "domino competition start")
    await settle(simcord_env, bot)

    shown = private(await players[0].slash(channel, "domino competition standings"))
    [picture] = shown.attachments
    assert picture.filename == f"standings-{cid}.png"
    assert (await picture.read()).startswith(b"\x89PNG")
    assert picture.description.startswith("Round 1 of 1")

    [table] = bot.competitions.open[cid].competition.current.tables
    mark = len(simcord_env.http_requests)
    await play_games(simcord_env, bot, channel, players, [table.game_id], -1)
    await settle(simcord_env, bot)
    assert cid not in bot.competitions.open

    # the results and the final standings: one message, the picture attached to it
    posts = [
        r
        for r in counted(simcord_env.http_requests[mark:])
        if r.method == "POST" and r.path == f"/channels/{channel.id}/messages"
    ]
    assert len(posts) == 1
    results = next(m for m in channel.history(viewer=referee) if "Round 1 results" in m.content)
    assert "The competition is over" in results.content
    assert "**Standings**: 1. " in results.content
    [final] = results.attachments
    assert (await final.read()).startswith(b"\x89PNG")
    assert final.description.startswith("Final standings")

    # the history lists it
    listed = private(await players[1].slash(channel, "domino competition history"))
    assert f"#{cid}" in listed.content
    assert "1 round" in listed.content
    assert "3 players" in listed.content
    stored = await bot.competitions.get(cid)
    winners = [s.player for s in stored.competition.standings() if s.rank == 1]
    assert stored.competition.entrant(winners[0]).name in listed.content

    # the export: the competition and its table's record exactly as stored
    exported = private(await players[2].slash(channel, "domino competition export"))
    [file] = exported.attachments
    assert file.filename == f"domino-competition-{cid}.json"
    data = json.loads(await file.read())
    assert data["id"] == cid
    assert [e["user_id"] for e in data["entrants"]] == [p.id for p in players]
    [[only]] = [r["tables"] for r in data["rounds"]]
    match_id = await bot.db.matches.of_game(guild.id, table.game_id)
    assert only["match_id"] == match_id
    assert only["record"] == await bot.db.matches.record(guild.id, match_id)
    assert [s["user_id"] for s in data["standings"]] == [
        s.player for s in stored.competition.standings()
    ]
    refused = await players[2].slash(channel, "domino competition export", competition=cid + 99)
    assert f"no competition #{cid + 99} on this server" in reply_text(refused)

    # the players' stats count it
    card = await players[0].slash(channel, "domino stats")
    embed = (card.followups[-1] if card.followups else card.response).embeds[0]
    field = next(f for f in embed.fields if f.name == "Competitions")
    assert field.value.startswith("1 played, ")
