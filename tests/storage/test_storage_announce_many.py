"""Many games' announcements written down in one statement, and marks merged in order."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime

from bot.storage import Announced, Database, GameRow

MakeGame = Callable[..., Awaitable[GameRow]]


async def test_one_batch_sets_each_game_on_its_own(
    db: Database, make_game: MakeGame, t0: datetime
) -> None:
    a, b, c, untouched = [await make_game() for _ in range(4)]
    for game in (a, b, c):
        await db.games.save(game.id, 0, now=t0, status="playing")
    await db.games.set_announced(c.id, version=1, deals=2, table_message_id=70, ping=(71, "t"))

    await db.games.set_announced_many(
        [
            Announced(a.id, 1, 0, table_message_id=10, ping=(11, "1:0")),
            Announced(b.id, 1, 1),  # no message given: both stay as they were
            Announced(c.id, 0, 1, ping=(None, None)),  # late counts; the ping is gone
        ]
    )

    rows = {}
    for game in (a, b, c, untouched):
        row = await db.games.get(game.id)
        assert row is not None
        rows[game.id] = row
    shown = {
        gid: (r.announced_version, r.announced_deals, r.table_message_id, r.ping_message_id)
        for gid, r in rows.items()
    }
    assert shown == {
        a.id: (1, 0, 10, 11),
        b.id: (1, 1, b.table_message_id, None),
        c.id: (1, 2, 70, None),
        untouched.id: (0, 0, untouched.table_message_id, None),
    }
    assert [rows[g.id].ping_turn for g in (a, b, c)] == ["1:0", None, None]
    assert [rows[g.id].version for g in (a, b, c)] == [1, 1, 1]


async def test_more_games_than_one_statement_takes(db: Database, make_game: MakeGame) -> None:
    games = [await make_game() for _ in range(1203)]
    await db.games.set_announced_many([Announced(g.id, 0, 1, table_message_id=g.id) for g in games])
    rows = await db.fetchall("SELECT id, announced_deals, table_message_id FROM games")
    assert sorted(tuple(r) for r in rows) == sorted((g.id, 1, g.id) for g in games)


def test_a_later_mark_wins_where_it_says_something() -> None:
    first = Announced(1, 5, 1, table_message_id=10, ping=(11, "a"))
    assert first.then(Announced(1, 4, 2)) == Announced(1, 5, 2, 10, (11, "a"))
    assert first.then(Announced(1, 6, 0, 12, (None, None))) == Announced(1, 6, 1, 12, (None, None))
