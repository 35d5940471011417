"""finish: the final save and the match, its seats and deals, in one transaction."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.storage import (
    Database,
    FinishedMatch,
    GameRow,
    MatchDeal,
    MatchSeat,
    StaleGameError,
    StorageError,
)

MakeGame = Callable[..., Awaitable[GameRow]]


def a_match(finished_at: datetime, game: str = "block") -> FinishedMatch:
    return FinishedMatch(
        game=game,
        finished_at=finished_at,
        record={"format": "domino-record/1", "deals": [{"leader": 0}]},
        seats=(
            MatchSeat(0, 42, None, "Alice", 0, 101.0, True, None),
            MatchSeat(1, None, "hard", "Bot", 1, 64.5, False, None),
            MatchSeat(2, 43, None, "Bob", 0, 101.0, True, None),
            MatchSeat(3, None, "easy", "Bot 2", 1, 64.5, False, None),
        ),
        deals=(
            MatchDeal(1, "domino", (0, 2), (40.0, 0.0)),
            MatchDeal(2, "blocked", (1, 3), (0.0, 64.5)),
            MatchDeal(3, "domino", (0, 2), (61.0, 0.0)),
        ),
    )


async def playing_game(db: Database, make_game: MakeGame, now: datetime) -> GameRow:
    game = await make_game(channel_id=10)
    return await db.games.save(game.id, 0, now=now, status="playing", state={"deals": []})


async def stored_match(
    db: Database, game_id: int
) -> tuple[tuple[Any, ...], tuple[MatchSeat, ...], tuple[MatchDeal, ...]] | None:
    """The match stored for a game, read with SQL past the repositories: its row
    (game id, guild, channel, game, finished at, deals, record), its seats and deals."""
    row = await db.fetchone(
        "SELECT id, game_id, guild_id, channel_id, game, finished_at, deals, record"
        " FROM matches WHERE game_id = ?",
        (game_id,),
    )
    if row is None:
        return None
    seats = await db.fetchall(
        "SELECT seat, user_id, ai_level, name, side, total, won, place FROM match_seats"
        " WHERE match_id = ? ORDER BY seat",
        (row[0],),
    )
    deals = await db.fetchall(
        "SELECT deal, end_kind, winners, score FROM match_deals WHERE match_id = ? ORDER BY deal",
        (row[0],),
    )
    assert all(s[6] in (0, 1) for s in seats)  # won is stored as 0/1
    values = tuple(row)
    return (
        (*values[1:7], json.loads(values[7])),
        tuple(MatchSeat(*tuple(s)[:6], bool(s[6]), s[7]) for s in seats),
        tuple(
            MatchDeal(d, kind, tuple(json.loads(w)), tuple(json.loads(sc)))
            for d, kind, w, sc in deals
        ),
    )


async def count(db: Database, table: str) -> int:
    row = await db.fetchone(f"SELECT count(*) FROM {table}")
    assert row is not None
    return int(row[0])


async def test_finish_writes_game_match_seats_and_deals(
    db: Database, make_game: MakeGame, t0: datetime
) -> None:
    game = await playing_game(db, make_game, t0)
    end = t0 + timedelta(minutes=30)
    match = a_match(end)
    done = await db.games.finish(
        game.id,
        game.version,
        now=end,
        status="finished",
        state=match.record,
        seats=[{"user_id": 42}, {"ai": "hard"}, {"user_id": 43}, {"ai": "easy"}],
        match=match,
    )
    assert (done.status, done.version, done.updated_at) == ("finished", game.version + 1, end)
    assert done.state == match.record
    assert done.seats[1] == {"ai": "hard"}
    assert await db.games.get(game.id) == done
    assert await db.games.active_in_channel(10) is None

    stored = await stored_match(db, game.id)
    assert stored is not None
    row, seats, deals = stored
    assert row == (game.id, 1, 10, "block", end.isoformat(timespec="microseconds"), 3, match.record)
    assert seats == match.seats
    assert deals == match.deals


async def test_finish_without_a_match_only_saves_the_game(
    db: Database, make_game: MakeGame, t0: datetime
) -> None:
    game = await playing_game(db, make_game, t0)
    done = await db.games.finish(
        game.id, game.version, now=t0, status="cancelled", state={}, seats=[], match=None
    )
    assert (done.status, done.state, done.seats) == ("cancelled", {}, [])
    assert await stored_match(db, game.id) is None
    assert await count(db, "matches") == 0


async def test_a_failure_midway_leaves_no_half_match_and_the_game_unchanged(
    db: Database, make_game: MakeGame, t0: datetime
) -> None:
    game = await playing_game(db, make_game, t0)
    good = a_match(t0)
    duplicate = replace(good, seats=(*good.seats, replace(good.seats[0], name="Again")))
    with pytest.raises(StorageError, match="match_seats"):
        await db.games.finish(
            game.id,
            game.version,
            now=t0,
            status="finished",
            state={"x": 1},
            seats=[],
            match=duplicate,
        )
    assert await db.games.get(game.id) == game  # status, version, state, seats all as before
    for table in ("matches", "match_seats", "match_deals"):
        assert await count(db, table) == 0

    # a duplicate deal number fails after the seats went in: still nothing lands
    twice = replace(good, deals=(*good.deals, good.deals[0]))
    with pytest.raises(StorageError, match="match_deals"):
        await db.games.finish(
            game.id, game.version, now=t0, status="finished", state={}, seats=[], match=twice
        )
    assert await db.games.get(game.id) == game
    for table in ("matches", "match_seats", "match_deals"):
        assert await count(db, table) == 0

    # and the same game can still finish properly with the version it had
    done = await db.games.finish(
        game.id, game.version, now=t0, status="finished", state={}, seats=[], match=good
    )
    assert done.version == game.version + 1
    assert await count(db, "match_seats") == 4


async def test_finish_with_a_stale_version_writes_nothing(
    db: Database, make_game: MakeGame, t0: datetime
) -> None:
    game = await playing_game(db, make_game, t0)
    with pytest.raises(StaleGameError):
        await db.games.finish(
            game.id,
            game.version - 1,
            now=t0,
            status="finished",
            state={},
            seats=[],
            match=a_match(t0),
        )
    assert await db.games.get(game.id) == game
    assert await count(db, "matches") == 0


async def test_finish_requires_a_final_status(
    db: Database, make_game: MakeGame, t0: datetime
) -> None:
    game = await playing_game(db, make_game, t0)
    with pytest.raises(ValueError, match="playing"):
        await db.games.finish(
            game.id, game.version, now=t0, status="playing", state={}, seats=[], match=None
        )
    assert await db.games.get(game.id) == game


async def test_history_lists_a_guilds_matches_newest_first(
    db: Database, make_game: MakeGame, t0: datetime
) -> None:
    ids = []
    for i, guild in enumerate([1, 1, 2, 1]):
        game = await make_game(guild_id=guild)
        game = await db.games.save(game.id, 0, now=t0, status="playing")
        await db.games.finish(
            game.id,
            1,
            now=t0,
            status="finished",
            state={},
            seats=[],
            match=a_match(t0 + timedelta(hours=[3, 1, 2, 2][i]), game=f"g{i}"),
        )
        ids.append(game.id)
    history = await db.matches.history(1)
    assert (history.total, history.pages, history.page) == (3, 1, 0)
    assert [m.game for m in history.entries] == ["g0", "g3", "g1"]
    assert [m.game_id for m in history.entries] == [ids[0], ids[3], ids[1]]
    assert all(len(m.seats) == 4 and m.deals == 3 for m in history.entries)
    assert [s.name for s in history.entries[0].winners] == ["Alice", "Bob"]
    first = await db.matches.history(1, page_size=2)
    assert ([m.game for m in first.entries], first.pages) == (["g0", "g3"], 2)
    last = await db.matches.history(1, page=9, page_size=2)  # past the end: the last page
    assert (last.page, [m.game for m in last.entries]) == (1, ["g1"])
    with pytest.raises(ValueError, match="page size"):
        await db.matches.history(1, page_size=0)
    assert [m.game for m in (await db.matches.history(2)).entries] == ["g2"]
    assert (await db.matches.history(3)).entries == ()
    # a match's record, only on its own server
    match_id = history.entries[0].id
    assert await db.matches.record(1, match_id) == a_match(t0).record
    assert await db.matches.record(2, match_id) is None


async def test_matches_survive_close_and_reopen(db_path: Path, t0: datetime) -> None:
    db = await Database.open(db_path)
    game = await db.games.create(
        guild_id=1, channel_id=2, creator_id=3, rules={}, seats=[], seed=1, timer=0, now=t0
    )
    match = replace(
        a_match(t0, game="latvian"),
        seats=tuple(replace(s, place=float(4 - s.seat)) for s in a_match(t0).seats),
    )
    await db.games.finish(game.id, 0, now=t0, status="finished", state={}, seats=[], match=match)
    before = await db.matches.history(1)
    written = await stored_match(db, game.id)
    await db.close()
    assert written is not None
    db = await Database.open(db_path)
    try:
        assert await stored_match(db, game.id) == written
        after = await db.matches.history(1)
        assert after == before
        assert [s.place for s in after.entries[0].seats] == [4.0, 3.0, 2.0, 1.0]
        assert (await db.games.get(game.id)).status == "finished"  # type: ignore[union-attr]
    finally:
        await db.close()
