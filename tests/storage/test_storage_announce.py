"""What Discord was shown of a game, the games still to announce, and restoring in chunks."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta

import pytest

from bot.storage import Database, GameRow

MakeGame = Callable[..., Awaitable[GameRow]]


async def test_a_new_game_has_announced_nothing(make_game: MakeGame) -> None:
    game = await make_game()
    assert (game.announced_version, game.announced_deals) == (0, 0)


async def test_set_announced_moves_only_forward_and_keeps_the_version(
    db: Database, make_game: MakeGame, t0: datetime
) -> None:
    game = await make_game(now=t0)
    game = await db.games.save(game.id, 0, now=t0, status="playing", state={"deals": []})
    game = await db.games.save(game.id, 1, now=t0, state={"deals": [1]})
    await db.games.set_announced(game.id, version=2, deals=1, table_message_id=555)
    shown = await db.games.get(game.id)
    assert shown is not None
    assert (shown.announced_version, shown.announced_deals, shown.table_message_id) == (2, 1, 555)
    assert (shown.version, shown.updated_at) == (game.version, game.updated_at)

    # an announcement that arrives late never moves either count back
    await db.games.set_announced(game.id, version=1, deals=0)
    late = await db.games.get(game.id)
    assert late is not None
    assert (late.announced_version, late.announced_deals, late.table_message_id) == (2, 1, 555)
    # the counts move independently
    await db.games.set_announced(game.id, version=1, deals=3, table_message_id=556)
    mixed = await db.games.get(game.id)
    assert mixed is not None
    assert (mixed.announced_version, mixed.announced_deals, mixed.table_message_id) == (2, 3, 556)
    assert mixed.version == game.version


async def test_unannounced_lists_active_games_behind_their_version_by_id(
    db: Database, make_game: MakeGame, t0: datetime
) -> None:
    assert await db.games.unannounced() == []
    lobby = await make_game()  # version 0, announced 0: nothing to show
    playing = await make_game()
    playing = await db.games.save(playing.id, 0, now=t0, status="playing")
    shown = await make_game()
    shown = await db.games.save(shown.id, 0, now=t0, status="playing")
    await db.games.set_announced(shown.id, version=shown.version, deals=0)
    done = await make_game()
    await db.games.save(done.id, 0, now=t0, status="cancelled")
    joined = await db.games.save(lobby.id, 0, now=t0, seats=[{"user_id": 1}, {"user_id": 2}])
    assert [g.id for g in await db.games.unannounced()] == [joined.id, playing.id]
    assert await db.games.unannounced() == [joined, playing]

    await db.games.set_announced(playing.id, version=playing.version, deals=0)
    assert await db.games.unannounced() == [joined]
    again = await db.games.save(shown.id, shown.version, now=t0, state={"deals": [1]})
    assert [g.id for g in await db.games.unannounced()] == [joined.id, again.id]


async def test_unannounced_ended_since_adds_the_games_whose_end_was_never_shown(
    db: Database, make_game: MakeGame, t0: datetime
) -> None:
    """A game whose final save landed but whose end Discord never showed (a crash between
    the two) is listed if it ended since then; a shown end, or an older one, is not."""

    async def ended(at: datetime, *, shown: bool = False, guild: int = 1) -> GameRow:
        game = await make_game(now=at, guild_id=guild)
        game = await db.games.save(game.id, 0, now=at, status="playing")
        await db.games.set_announced(game.id, version=game.version, deals=0)
        over = await db.games.finish(
            game.id, game.version, now=at, status="cancelled", state={}, seats=[], match=None
        )
        if shown:
            await db.games.set_announced(over.id, version=over.version, deals=0)
        return over

    long_ago = await ended(t0 - timedelta(days=2))
    recent = await ended(t0 - timedelta(hours=1))
    await ended(t0 - timedelta(minutes=5), shown=True)
    other_shard = await ended(t0 - timedelta(minutes=1), guild=1 << 22)
    playing = await make_game(now=t0)
    playing = await db.games.save(playing.id, 0, now=t0, status="playing")

    assert [g.id for g in await db.games.unannounced()] == [playing.id]  # active only
    since = t0 - timedelta(days=1)
    both = await db.games.unannounced(ended_since=since)
    assert [g.id for g in both] == [recent.id, other_shard.id, playing.id]
    assert both[0].status == "cancelled"
    assert both[0].version > both[0].announced_version
    on_shard_0 = await db.games.unannounced(ended_since=since, shards=(2, (0,)))
    assert [g.id for g in on_shard_0] == [recent.id, playing.id]
    assert long_ago.id not in [g.id for g in both]


async def test_active_in_chunks_restores_every_game_once_in_order(
    db: Database, make_game: MakeGame, t0: datetime
) -> None:
    games = [await make_game(now=t0 + timedelta(seconds=i)) for i in range(7)]
    for game in games[1::3]:
        await db.games.save(game.id, 0, now=t0, status="finished")
    want = [g for g in games if g not in games[1::3]]
    assert await db.games.active() == want  # defaults: all of them

    chunks: list[list[int]] = []
    after = 0
    for _ in range(len(games)):  # bounded: a chunking bug must fail, not loop forever
        chunk = await db.games.active(after_id=after, limit=2)
        if not chunk:
            break
        chunks.append([g.id for g in chunk])
        after = chunk[-1].id
    assert chunks == [[g.id for g in want[i : i + 2]] for i in range(0, len(want), 2)]
    assert [g.id for g in await db.games.active(after_id=want[1].id)] == [g.id for g in want[2:]]
    assert await db.games.active(after_id=want[-1].id) == []
    assert await db.games.active(limit=0) == []


@pytest.mark.parametrize("limit", [1, 3, 100])
async def test_active_limit_caps_the_chunk(db: Database, make_game: MakeGame, limit: int) -> None:
    games = [await make_game() for _ in range(4)]
    got = await db.games.active(limit=limit)
    assert got == games[:limit]
