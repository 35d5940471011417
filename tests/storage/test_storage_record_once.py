"""A finished match's record is stored once, in ``matches.record``; game reads still have it."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from datetime import datetime

from bot.storage import Database, FinishedMatch, GameRow, MatchDeal, MatchSeat

MakeGame = Callable[..., Awaitable[GameRow]]


def a_match(finished_at: datetime) -> FinishedMatch:
    return FinishedMatch(
        game="block",
        finished_at=finished_at,
        record={"format": "domino-record/1", "seats": ["Ann"], "deals": [{"moves": []}]},
        seats=(MatchSeat(0, 42, None, "Ann", 0, 10.0, True, None),),
        deals=(MatchDeal(1, "domino", (0,), (10.0,)),),
    )


async def stored_state(db: Database, game_id: int) -> str | None:
    """The games.state column as it is stored, read with SQL past the repositories."""
    row = await db.fetchone("SELECT state FROM games WHERE id = ?", (game_id,))
    assert row is not None
    return None if row[0] is None else str(row[0])


async def test_a_finished_games_state_is_only_in_its_match(
    db: Database, make_game: MakeGame, t0: datetime
) -> None:
    game = await make_game(channel_id=10)
    game = await db.games.save(game.id, 0, now=t0, status="playing", state={"deals": []})
    assert await stored_state(db, game.id) == '{"deals":[]}'
    match = a_match(t0)
    done = await db.games.finish(
        game.id, game.version, now=t0, status="finished", state=match.record, seats=[], match=match
    )
    assert await stored_state(db, game.id) is None
    assert done.state == match.record
    assert await db.games.get(game.id) == done
    assert await db.games.latest_in_channel(10) == done
    [row] = await db.fetchall("SELECT record FROM matches WHERE game_id = ?", (game.id,))
    assert json.loads(row[0]) == match.record


async def test_a_game_that_ends_without_a_match_keeps_its_state(
    db: Database, make_game: MakeGame, t0: datetime
) -> None:
    game = await make_game(channel_id=10)
    game = await db.games.save(game.id, 0, now=t0, status="playing", state={"deals": [1]})
    done = await db.games.finish(
        game.id,
        game.version,
        now=t0,
        status="abandoned",
        state={"deals": [1, 2]},
        seats=[],
        match=None,
    )
    assert await stored_state(db, game.id) == '{"deals":[1,2]}'
    assert done.state == {"deals": [1, 2]}
    assert await db.games.get(game.id) == done


async def test_every_read_of_a_game_row_takes_the_record_from_the_match(
    db: Database, make_game: MakeGame, t0: datetime
) -> None:
    game = await make_game(channel_id=10)
    match = a_match(t0)
    done = await db.games.finish(
        game.id, 0, now=t0, status="finished", state=match.record, seats=[], match=match
    )
    # a later save of the row (here: reviving it) returns the record too
    revived = await db.games.save(game.id, done.version, now=t0, status="playing")
    assert revived.state == match.record
    assert await db.games.active_in_channel(10) == revived
    assert await db.games.active() == [revived]
    assert await db.games.unannounced() == [revived]
