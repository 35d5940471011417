"""/domino leaderboard, stats, history and reset-leaderboard through SimCord."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

from stats_support import components

from bot.client import DominoBot

Store = Callable[..., Awaitable[int]]
PNG = b"\x89PNG\r\n\x1a\n"


def button(message: Any, label: str) -> dict[str, Any]:
    return next(c for c in components(message) if c.get("label") == label)


def description(message: Any) -> str:
    return str(message.embeds[0].description)


def board(message: Any) -> str:
    """A leaderboard message's lines: its picture's alt text (the picture's form) or its
    embed's description (the text form, where the picture could not be shown)."""
    if message.attachments:
        return str(message.attachments[0].description)
    return description(message)


def board_lines(message: Any) -> list[str]:
    """The players' lines of a leaderboard message, whatever its form."""
    return [line for line in board(message).splitlines() if line.lstrip("*")[:1].isdigit()]


async def refused(result: Any, text: str) -> None:
    """A private answer: the reply itself, or (after a public "thinking…", which is
    removed) an ephemeral followup."""
    if result.response is not None:
        assert result.ephemeral
        assert text in result.response.content
    else:
        assert [m for m in result.followups if m.ephemeral and text in m.content]


async def a_crowd(store: Store, alice: Any, n: int = 25) -> None:
    """``n`` players who each lost once to alice."""
    for i in range(n):
        await store(
            (alice.id, "alice", 0, 100.0, True, None), (9000 + i, f"P{i:02d}", 1, 0.0, False, None)
        )


async def test_the_leaderboard_pages_with_its_buttons(
    bot: DominoBot, channel: Any, alice: Any, bob: Any, stored: Store
) -> None:
    await a_crowd(stored, alice)
    result = await alice.slash(channel, "domino leaderboard")
    assert not result.ephemeral  # a leaderboard is for everyone to see
    message = result.response
    lines = board_lines(message)
    assert lines[0].startswith("1. alice — rating ")
    assert "25 matches · 25 wins · 0 draws · 100%" in lines[0]
    assert len(lines) == 10
    assert "page 1 of 3" in board(message)
    assert (await message.attachments[0].read()).startswith(PNG)
    assert button(message, "◀ Previous")["disabled"]
    assert not button(message, "Next ▶")["disabled"]
    assert (
        button(message, "Next ▶")["custom_id"] == f"domino:lb:{channel.guild.id}:block:all:rating:1"
    )

    second = await bob.click(message, label="Next ▶")
    assert not second.ephemeral
    text = board(second.response)
    assert board_lines(second.response)[0].startswith("11. P")
    assert "page 2 of 3" in text
    assert len(second.response.attachments) == 1  # the new page replaces the picture
    third = await bob.click(second.response, label="Next ▶")
    lines = board_lines(third.response)
    assert [line.split(".")[0] for line in lines] == [str(n) for n in range(21, 27)]
    assert button(third.response, "Next ▶")["disabled"]
    back = await alice.click(third.response, label="◀ Previous")
    assert board(back.response) == text
    # pages are edits of the one message, not new messages
    assert back.response.id == message.id


async def test_periods_latvian_places_and_polite_refusals(
    bot: DominoBot, channel: Any, alice: Any, bob: Any, carol: Any, stored: Store
) -> None:
    now = bot.games.clock()
    await stored(
        (bob.id, "bob", 0, 100.0, True, None),
        (carol.id, "carol", 1, 0.0, False, None),
        at=now - timedelta(days=10),
    )
    await stored((alice.id, "alice", 0, 100.0, True, None), (bob.id, "bob", 1, 0.0, False, None))
    week = await alice.slash(channel, "domino leaderboard", period="week")
    text = board(week.response)
    assert "carol" not in text
    assert "bob — rating" in text
    assert "1 match · 0 wins" in text  # bob's week: one match, lost
    assert "Last 7 days" in text
    month = await alice.slash(channel, "domino leaderboard", period="month")
    assert "carol" in board(month.response)

    await stored(
        (alice.id, "alice", 0, 40.0, False, 2.0),
        (bob.id, "bob", 1, 20.0, True, 3.0),
        (carol.id, "carol", 2, 90.0, False, 1.0),
        game="latvian",
    )
    latvian = await bob.slash(channel, "domino leaderboard", game="latvian", order="places")
    lines = board_lines(latvian.response)
    assert lines[0].startswith("1. bob")
    assert "3 place pts" in lines[0]
    assert "by place points" in board(latvian.response)

    before = len(list(channel.history(viewer=bob)))
    await refused(
        await alice.slash(channel, "domino leaderboard", game="block", order="places"),
        "Only Latvian sessions give place points.",
    )
    assert len(list(channel.history(viewer=bob))) == before  # nothing public was posted


async def test_a_players_card(
    bot: DominoBot, channel: Any, alice: Any, bob: Any, carol: Any, stored: Store
) -> None:
    for won in (True, True, False):
        await stored(
            (alice.id, "alice", 0, 100.0 if won else 10.0, won, None),
            (bob.id, "bob", 1, 10.0 if won else 100.0, not won, None),
        )
    mine = await alice.slash(channel, "domino stats")
    assert not mine.ephemeral
    assert not mine.response.attachments  # one form: the card is text
    embed = mine.response.embeds[0]
    assert embed.title == "alice's stats"
    assert embed.image.url is None
    fields = {f.name: f.value for f in embed.fields}
    assert "3 matches · 2 wins · 0 draws · win rate 67%" in fields["Block game"]
    assert "best streak 2" in fields["Block game"]
    assert "#1 of 2" in fields["Block game"]
    assert "against the AI" not in fields["Block game"]
    assert "after 3 rated matches" in fields["Rating trend"]
    assert fields["Recent results"].count("\n") == 2
    assert embed.footer.text.count("Rating: a cautious estimate") == 1

    bobs = await alice.slash(channel, "domino stats", user=bob)
    assert bobs.response.embeds[0].title == "bob's stats"
    assert "1 win" in {f.name: f.value for f in bobs.response.embeds[0].fields}["Block game"]
    await refused(
        await alice.slash(channel, "domino stats", user=carol),
        "carol has no counted matches on this server yet.",
    )


async def test_history_lists_matches_and_exports_their_records(
    bot: DominoBot, channel: Any, alice: Any, bob: Any, stored: Store
) -> None:
    for i in range(12):
        await stored(
            (alice.id, "alice", 0, float(i), i % 2 == 0, None),
            (None, "Bot 1", 1, 50.0, i % 2 == 1, None),
            record={"format": "domino-record/1", "n": i},
        )
    result = await bob.slash(channel, "domino history")
    assert not result.ephemeral
    message = result.response
    text = description(message)
    assert text.count("`#") == 10
    assert text.startswith("`#12` **Block game** · 1 second ago")
    assert "won by Bot 1 (AI)" in text
    assert "**alice 10**" in text  # the winner in bold, with the side's total
    select = next(c for c in components(message) if c["type"] == 3)
    assert [o["value"] for o in select["options"]] == [str(n) for n in range(12, 2, -1)]

    older = await bob.click(message, label="Older ▶")
    assert description(older.response).count("`#") == 2
    select = next(c for c in components(older.response) if c["type"] == 3)
    assert [o["value"] for o in select["options"]] == ["2", "1"]

    export = await bob.select(older.response, ["2"], custom_id=select["custom_id"])
    assert export.ephemeral
    assert "match #2" in export.response.content
    record = json.loads(await export.response.attachments[0].read())
    assert record == {"format": "domino-record/1", "n": 1}
    # only bob sees his export
    assert all("match #2" not in m.content for m in channel.history(viewer=alice))


async def test_a_real_match_moves_the_ratings(
    bot: DominoBot, channel: Any, alice: Any, bob: Any
) -> None:
    games = bot.games
    session = await games.open_lobby(
        guild_id=channel.guild.id,
        channel_id=channel.id,
        user_id=alice.id,
        name="alice",
        options={"game": "block", "scoring": "single"},
    )
    await games.join(session.id, bob.id, "bob")
    session = await games.start(session.id, alice.id)
    while session.status == "playing":
        seat = session.turn_seat
        assert seat is not None
        assert seat.user_id is not None
        assert session.state is not None
        session = await games.play(session.id, seat.user_id, session.state.legal_moves()[0])
    assert session.status == "finished"
    standing = await bot.db.leaderboards.leaderboard(channel.guild.id, "block")
    assert {e.user_id for e in standing.entries} == {alice.id, bob.id}
    assert all(e.matches == 1 for e in standing.entries)
    assert all(e.rating is not None for e in standing.entries)
    winners = set(session.state.winners) if session.state else set()
    wins = {e.user_id: e.wins for e in standing.entries}
    assert sum(wins.values()) == (1 if len(winners) == 1 else 0)
    result = await alice.slash(channel, "domino leaderboard")
    assert len(board_lines(result.response)) == 2


async def test_a_reset_needs_manage_server_and_a_confirmation(
    simcord_env: Any, bot: DominoBot, channel: Any, alice: Any, bob: Any, stored: Store
) -> None:
    await stored((alice.id, "alice", 0, 100.0, True, None), (bob.id, "bob", 1, 0.0, False, None))
    before = await bot.db.leaderboards.standings(channel.guild.id)
    await refused(
        await bob.slash(channel, "domino reset-leaderboard"),
        "Only someone with Manage Server can reset the leaderboard.",
    )
    assert await bot.db.leaderboards.standings(channel.guild.id) == before

    ask = await alice.slash(channel, "domino reset-leaderboard")
    assert ask.ephemeral
    assert "Are you sure?" in ask.response.content
    cancel = await alice.click(ask.response, label="Cancel")
    assert cancel.response.content == "Nothing was reset."
    assert not cancel.response.components
    assert await bot.db.leaderboards.standings(channel.guild.id) == before

    ask = await alice.slash(channel, "domino reset-leaderboard")
    done = await alice.click(ask.response, label="Reset the leaderboard")
    assert "The leaderboard is reset." in done.response.content
    assert await bot.db.leaderboards.standings(channel.guild.id) == []
    empty = await bob.slash(channel, "domino leaderboard")
    assert not board_lines(empty.response)
    assert empty.response.attachments  # the picture says it (its alt text has no lines)
    history = await bob.slash(channel, "domino history")
    assert description(history.response).count("`#") == 1  # the match itself stays
    await stored((bob.id, "bob", 0, 100.0, True, None), (alice.id, "alice", 1, 0.0, False, None))
    fresh = await bob.slash(channel, "domino leaderboard")
    assert board_lines(fresh.response)[0].startswith("1. bob — rating")
    assert "1 match · 1 win" in board(fresh.response)


async def test_an_expired_reset_confirmation_changes_nothing(
    simcord_env: Any, bot: DominoBot, channel: Any, alice: Any, bob: Any, stored: Store
) -> None:
    await stored((alice.id, "alice", 0, 100.0, True, None), (bob.id, "bob", 1, 0.0, False, None))
    before = await bot.db.leaderboards.standings(channel.guild.id)
    ask = await alice.slash(channel, "domino reset-leaderboard")
    await simcord_env.advance_time(11 * 60)
    late = await alice.click(ask.response, label="Reset the leaderboard")
    assert late.followups or late.ephemeral
    texts = [m.content for m in late.followups] or [late.response.content]
    assert any("This confirmation has expired." in t for t in texts)
    assert await bot.db.leaderboards.standings(channel.guild.id) == before


async def test_a_member_who_leaves_keeps_their_history(
    bot: DominoBot, guild: Any, channel: Any, alice: Any, bob: Any, stored: Store
) -> None:
    await stored((alice.id, "alice", 0, 100.0, True, None), (bob.id, "bob", 1, 0.0, False, None))
    guild.remove_member(bob)
    shown = await alice.slash(channel, "domino leaderboard")
    assert "bob — rating" in board(shown.response)
    history = await alice.slash(channel, "domino history")
    assert "bob 0" in description(history.response)
    assert len(await bot.db.leaderboards.results(guild.id, bob.id)) == 1


async def test_leaderboard_buttons_work_after_a_restart(
    simcord_env: Any, bot: DominoBot, channel: Any, alice: Any, bob: Any, stored: Store
) -> None:
    await a_crowd(stored, alice, 12)
    message = (await alice.slash(channel, "domino leaderboard")).response
    await bot.shutdown()
    fresh = DominoBot(database_path=bot.database_path, database_url=bot.database_url)
    await simcord_env.restart_bot(fresh)
    try:
        second = await bob.click(message, label="Next ▶")
        assert board_lines(second.response)[0].startswith("11. P")
    finally:
        await fresh.shutdown()


async def test_stats_buttons_and_selects_acknowledge_before_the_database(
    monkeypatch: Any, bot: DominoBot, channel: Any, alice: Any, bob: Any, stored: Store
) -> None:
    """Pages, the export select and the reset confirmation answer Discord first."""
    from ack_journal import install

    await a_crowd(stored, alice, n=12)
    page = await alice.slash(channel, "domino leaderboard")
    history = await bob.slash(channel, "domino history")
    ask = await alice.slash(channel, "domino reset-leaderboard")
    journal = install(monkeypatch, bot)

    journal.clear()
    await bob.click(page.response, label="Next ▶")
    journal.check("leaderboard page")
    journal.clear()
    older = await bob.click(history.response, label="Older ▶")
    journal.check("history page")
    select = next(c for c in components(older.response) if c["type"] == 3)
    journal.clear()
    await bob.select(older.response, [select["options"][0]["value"]], custom_id=select["custom_id"])
    journal.check("export select")
    journal.clear()
    await alice.click(ask.response, label="Reset the leaderboard")
    journal.check("reset confirmation")
