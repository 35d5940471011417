"""Restoring by shard: ``games.active(shards=(count, ids))`` on both backends.

Discord routes a server to shard ``(guild_id >> 22) % count``; a process running some
shards restores only their servers' games. Real snowflake-sized server ids, so the
shift and the modulo run on 64-bit integers as they will in production.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta

import pytest

from bot.settings import shard_of
from bot.storage import Database, GameRow

MakeGame = Callable[..., Awaitable[GameRow]]

COUNT = 4
# One real-sized server id per shard (and a second server on shard 2).
BASE = 1180000000000000001
GUILDS = {
    shard: next(
        g for g in range(BASE, BASE + (COUNT << 23), 1 << 22) if shard_of(g, COUNT) == shard
    )
    for shard in range(COUNT)
}
SECOND_ON_2 = GUILDS[2] + (COUNT << 22)
LARGEST = (1 << 63) - 1  # the largest bigint: on shard (2**41 - 1) % 4 == 3


async def test_active_keeps_only_the_games_of_the_given_shards(
    db: Database, make_game: MakeGame, t0: datetime
) -> None:
    assert shard_of(SECOND_ON_2, COUNT) == 2
    assert shard_of(LARGEST, COUNT) == 3
    games = {}
    for shard, guild in GUILDS.items():
        games[shard] = await make_game(guild_id=guild)
    also_2 = await make_game(guild_id=SECOND_ON_2)
    largest = await make_game(guild_id=LARGEST)
    over = await make_game(guild_id=GUILDS[1], now=t0 + timedelta(hours=1))
    await db.games.save(over.id, 0, now=t0, status="finished")  # shard 1, not active

    ids = [g.id for g in await db.games.active(shards=(COUNT, (0, 2)))]
    assert ids == [games[0].id, games[2].id, also_2.id]
    ids = [g.id for g in await db.games.active(shards=(COUNT, [3]))]
    assert ids == [games[3].id, largest.id]
    assert [g.id for g in await db.games.active(shards=(COUNT, (1,)))] == [games[1].id]

    # Every shard of the count: every active game, as without a filter.
    everything = await db.games.active()
    assert await db.games.active(shards=(COUNT, range(COUNT))) == everything
    assert len(everything) == 6
    # One shard in all: the same.
    assert await db.games.active(shards=(1, (0,))) == everything


async def test_the_shard_filter_chunks_like_the_rest(db: Database, make_game: MakeGame) -> None:
    made = []
    for i in range(6):
        made.append(await make_game(guild_id=GUILDS[i % 2]))
    want = [g.id for g in made if shard_of(g.guild_id, COUNT) == 0]
    chunk = await db.games.active(limit=2, shards=(COUNT, (0,)))
    assert [g.id for g in chunk] == want[:2]
    rest = await db.games.active(after_id=chunk[-1].id, shards=(COUNT, (0,)))
    assert [g.id for g in rest] == want[2:]


@pytest.mark.parametrize(
    "shards",
    [(0, (0,)), (4, ()), (4, (4,)), (4, (-1,))],
    ids=["no-count", "no-ids", "id-too-big", "negative-id"],
)
async def test_a_filter_outside_the_count_is_refused(
    db: Database, shards: tuple[int, tuple[int, ...]]
) -> None:
    with pytest.raises(ValueError, match="shard"):
        await db.games.active(shards=shards)
