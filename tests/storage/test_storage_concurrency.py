"""Concurrent saves through the one shared connection."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import datetime

from bot.storage import Database, GameRow, StaleGameError

MakeGame = Callable[..., Awaitable[GameRow]]


async def test_many_concurrent_saves_of_different_games_all_land(
    db: Database, make_game: MakeGame, t0: datetime
) -> None:
    games = [await make_game() for _ in range(40)]

    async def play(game: GameRow) -> GameRow:
        row = game
        for turn in range(3):
            row = await db.games.save(row.id, row.version, now=t0, state={"turn": turn})
        return row

    results = await asyncio.gather(*(play(g) for g in games))
    assert [r.version for r in results] == [3] * len(games)
    for game in games:
        stored = await db.games.get(game.id)
        assert stored is not None
        assert (stored.version, stored.state) == (3, {"turn": 2})


async def test_two_saves_of_one_game_with_the_same_version_exactly_one_wins(
    db: Database, make_game: MakeGame, t0: datetime
) -> None:
    game = await make_game()
    results = await asyncio.gather(
        db.games.save(game.id, 0, now=t0, status="playing", state={"by": "a"}),
        db.games.save(game.id, 0, now=t0, status="cancelled", state={"by": "b"}),
        return_exceptions=True,
    )
    won = [r for r in results if isinstance(r, GameRow)]
    lost = [r for r in results if isinstance(r, StaleGameError)]
    assert (len(won), len(lost)) == (1, 1)
    assert lost[0].actual_version == 1
    stored = await db.games.get(game.id)
    assert stored == won[0]
    assert stored.version == 1


async def test_concurrent_creates_in_one_channel_exactly_one_wins(
    db: Database, make_game: MakeGame
) -> None:
    from bot.storage import ChannelBusyError

    results = await asyncio.gather(
        *(make_game(channel_id=5, creator_id=i) for i in range(5)), return_exceptions=True
    )
    assert sum(isinstance(r, GameRow) for r in results) == 1
    assert sum(isinstance(r, ChannelBusyError) for r in results) == 4
