"""Finished competitions read back (issue 41): a server's history (paged, its own
only), a player's competitions, and the export with every table's match record as
stored; on both backends."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import Any

import pytest

from bot.competitions.archive import EXPORT_FORMAT, CompetitionArchive
from bot.competitions.competition import (
    Competition,
    Format,
    check_in,
    new_competition,
    record,
    set_game,
    start,
    to_json,
)
from bot.competitions.standings import TableResult
from bot.games.errors import GameError
from bot.storage import Database, FinishedMatch, GameRow, MatchSeat

MakeGame = Callable[..., Awaitable[GameRow]]


async def finished(
    db: Database, make_game: MakeGame, t0: datetime, *, guild: int = 1, players: int = 5
) -> tuple[int, Competition, dict[int, dict[str, Any]]]:
    """A finished competition of ``players`` over 2 rounds, each table a stored match;
    its id, value and each game's record."""
    c = new_competition(Format(rounds=2), seed=guild * 100 + players)
    for user in range(1, players + 1):
        c = check_in(c, user, f"p{user}")
    row = await db.competitions.create(
        guild_id=guild,
        channel_id=guild * 10,
        referee_id=99,
        status=c.status,
        state=to_json(c),
        now=t0,
    )
    c = start(c)
    rng = random.Random(players)
    records: dict[int, dict[str, Any]] = {}
    while c.status == "playing":
        current = c.current
        assert current is not None
        for table in current.tables:
            game = await make_game(guild_id=guild)
            score = tuple(float(rng.randint(0, 90)) for _ in table.players)
            rec = {"format": "domino-record/1", "game": game.id, "deals": [{"leader": 0}]}
            records[game.id] = rec
            await db.games.finish(
                game.id,
                0,
                now=t0,
                status="finished",
                state={},
                seats=[],
                match=FinishedMatch(
                    game="latvian",
                    finished_at=t0,
                    record=rec,
                    seats=tuple(
                        MatchSeat(i, p, None, f"p{p}", i, s, False, None)
                        for i, (p, s) in enumerate(zip(table.players, score, strict=True))
                    ),
                    deals=(),
                ),
            )
            c = set_game(c, current.number, table.number, game.id)
            c = record(c, current.number, table.number, TableResult(table.players, score))
    await db.competitions.save(
        row.id,
        expected_version=0,
        status=c.status,
        state=to_json(c),
        now=t0 + timedelta(hours=2),
    )
    return row.id, c, records


async def test_the_history_lists_a_server_s_finished_competitions_newest_first(
    db: Database, make_game: MakeGame, t0: datetime
) -> None:
    first, c, _ = await finished(db, make_game, t0, players=5)
    second, _, _ = await finished(db, make_game, t0, players=6)
    await finished(db, make_game, t0, guild=2, players=4)
    await db.competitions.create(
        guild_id=1,
        channel_id=77,
        referee_id=9,
        status="checkin",
        state=to_json(new_competition(Format(), 1)),
        now=t0,
    )
    archive = CompetitionArchive(db)
    page = await archive.history(1)
    assert [e.id for e in page.entries] == [second, first]
    assert page.total == 2
    entry = page.entries[1]
    assert (entry.game, entry.rounds, entry.players) == ("latvian", 2, 5)
    assert entry.finished_at == t0 + timedelta(hours=2)
    best = [s for s in c.standings() if s.rank == 1]
    assert entry.winners == tuple(f"p{s.player}" for s in best)
    one = await archive.history(1, page=5, page_size=1)  # past the end: the last page
    assert (one.page, one.pages, [e.id for e in one.entries]) == (1, 2, [first])
    assert (await archive.history(3)).entries == ()
    assert await archive.latest(1) == second
    with pytest.raises(GameError, match="no finished competition"):
        await archive.latest(3)


async def test_the_export_holds_the_competition_and_every_table_s_record(
    db: Database, make_game: MakeGame, t0: datetime
) -> None:
    cid, c, records = await finished(db, make_game, t0, players=7)
    data = await CompetitionArchive(db).export(1, cid)
    assert data["format"] == EXPORT_FORMAT
    assert data["id"] == cid
    assert [e["user_id"] for e in data["entrants"]] == list(range(1, 8))
    tables = [t for r in data["rounds"] for t in r["tables"]]
    assert len(tables) == sum(len(r.tables) for r in c.rounds)
    assert {t["game_id"] for t in tables} == set(records)
    for t in tables:
        assert t["record"] == records[t["game_id"]]  # exactly as stored
        assert t["match_id"] is not None
        assert sum(t["place_points"]) == sum((4, 3, 2, 1)[: len(t["players"])])
    assert [(s["user_id"], s["rank"], s["place_points"]) for s in data["standings"]] == [
        (s.player, s.rank, s.points) for s in c.standings()
    ]
    assert data["competition"]["rounds"] == 2


async def test_an_export_is_only_of_this_server_s_finished_competitions(
    db: Database, make_game: MakeGame, t0: datetime
) -> None:
    cid, _, _ = await finished(db, make_game, t0, guild=2)
    archive = CompetitionArchive(db)
    with pytest.raises(GameError) as other:
        await archive.export(1, cid)
    assert other.value.fields == {"id": cid}
    assert "no competition" in other.value.message
    with pytest.raises(GameError, match="no competition"):
        await archive.export(1, 424242)
    opened = await db.competitions.create(
        guild_id=1,
        channel_id=5,
        referee_id=9,
        status="checkin",
        state=to_json(new_competition(Format(), 1)),
        now=t0,
    )
    with pytest.raises(GameError, match="not finished"):
        await archive.export(1, opened.id)


async def test_a_player_s_competitions(db: Database, make_game: MakeGame, t0: datetime) -> None:
    _, a, _ = await finished(db, make_game, t0, players=5)
    _, b, _ = await finished(db, make_game, t0, players=6)
    archive = CompetitionArchive(db)
    for user in range(1, 7):
        ranks = [s.rank for c in (a, b) for s in c.standings() if s.player == user]
        mine = await archive.player(1, user)
        assert mine.played == len(ranks)
        assert mine.won == ranks.count(1)
        assert mine.best == min(ranks)
    nobody = await archive.player(1, 999)
    assert (nobody.played, nobody.won, nobody.best) == (0, 0, None)
    assert (await archive.player(2, 1)).played == 0
