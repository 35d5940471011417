"""A PostgreSQL server that holds a move's save up (issue 37, row 9).

Another connection holds the game's row locked (a stuck transaction of another process,
a hung server's half): the move's save gives up at the lock timeout, the player is told
politely that the database is unavailable and nothing was done, the table is not
touched and nothing is written; once the row is free, the same move goes through.

On the session's PostgreSQL server (tests/postgres_support.py), with short timeouts.
"""

from __future__ import annotations

import asyncio
from typing import Any

import asyncpg  # type: ignore[import-untyped]
import pytest
from test_database_outage import public, settle, shown, table_of

from bot.client import DominoBot
from bot.games.errors import DATABASE_UNAVAILABLE as UNAVAILABLE
from bot.storage import Timeouts

GIVE_UP = 60.0
"""Only for the test's sake: without timeouts the save would wait for ever."""


@pytest.fixture
async def database_url(postgres):
    url = await postgres.create_database()
    yield url
    await postgres.drop_database(url)


@pytest.fixture
def simcord_bot(database_url):
    return DominoBot(database_url=database_url, database_timeouts=Timeouts(statement=5.0, lock=0.5))


def move_button(hand: Any) -> dict[str, Any]:
    return next(
        c
        for row in hand.components
        for c in row["components"]
        if c.get("custom_id", "").startswith("domino:m:")
    )


async def test_a_move_whose_save_waits_for_a_locked_row_is_refused_politely(
    database_url, bot, channel, alice, bob
):
    await alice.slash(channel, "domino new", game="block", players=2)
    await bob.click(channel.last_message, label="Join")
    await alice.click(channel.last_message, label="Start")
    session = await bot.games.in_channel(channel.id)
    mover = alice if session.turn_seat.user_id == alice.id else bob
    hand = (await mover.slash(channel, "domino hand")).response
    move = move_button(hand)
    await settle(bot)
    session = await bot.games.in_channel(channel.id)  # the table the start posted
    table_before = shown(table_of(channel, alice, session))
    messages_before = public(channel, alice)
    saved_before = await bot.db.games.get(session.id)

    other = await asyncpg.connect(database_url)
    try:
        await other.execute("BEGIN")
        await other.execute("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", session.id)
        refused = await asyncio.wait_for(mover.click(hand, custom_id=move["custom_id"]), GIVE_UP)
        assert [m.content for m in refused.followups] == [UNAVAILABLE]
        assert all(m.ephemeral for m in refused.followups)
        assert shown(table_of(channel, alice, session)) == table_before
        assert public(channel, alice) == messages_before  # nothing posted
        assert (await bot.games.in_channel(channel.id)).version == session.version
        await other.execute("ROLLBACK")
    finally:
        await other.close()
    assert await bot.db.games.get(session.id) == saved_before  # nothing written

    played = await mover.click(hand, custom_id=move["custom_id"])
    assert UNAVAILABLE not in [m.content for m in played.followups]
    assert (await bot.games.in_channel(channel.id)).version == session.version + 1
    await settle(bot)
    after = await bot.games.in_channel(channel.id)  # the move's table (a new one or the same)
    assert shown(table_of(channel, alice, after)) != table_before
