"""Migration 4 on a version 3 database with games the old code saved (a whole record in
``games.state`` at every move): a game being played has its record moved into pieces,
reads give back the same record, and the game restores and plays on."""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiosqlite
import asyncpg  # type: ignore[import-untyped]
from match_walks import walk

from bot.engine import MatchState, Move, Played, Rules, match_record
from bot.engine.view import PlayerView
from bot.games.service import GameService
from bot.storage import LATEST, Database, migrate
from bot.storage.codec import to_json
from bot.storage.postgres import migrate_pg, numbered

STAMP = "2025-03-01T12:00:00.000000+00:00"
T0 = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)
NOT_A_RECORD = '{"deals":[{"n":1}]}'  # deals without moves: it never replayed


def state_at(rules: Rules, seed: int, deal: int, moves: int = 2, **options: Any) -> MatchState:
    """The first state of a random match (match_walks.walk) in ``deal`` with at least
    ``moves`` moves played in it, the deal not over."""
    for state in walk(rules, seed, deals=deal, **options):
        played = sum(1 for e in state.deal.history if isinstance(e, Played))
        if state.deal_number == deal and played >= moves and not state.deal.over:
            return state
    raise AssertionError(f"seed {seed} never reached deal {deal}")


def timed_state() -> MatchState:
    rules = Rules.make("latvian", players=3, time_limit=20)
    for seed in range(50):
        for state in walk(rules, seed, deals=3, time_up_at=8):
            if state.time_up and not state.deal.over:
                return state
    raise AssertionError("no walk had its time called mid-deal")


def names(rules: Rules) -> list[str]:
    return [f"Player {seat}" for seat in range(rules.players)]


def seats(rules: Rules) -> list[dict[str, Any]]:
    return [
        {"name": name, "user_id": 500 + seat, "ai": None, "missed": 0}
        for seat, name in enumerate(names(rules))
    ]


# id -> (status, rules, the state the old code stored)
LATVIAN = Rules.make("latvian", players=4, deals=5)
MEXICAN = Rules.make("mexican", set=9, players=3, deals=3)
BLOCK = Rules.make("block", players=2)
OLD: dict[int, tuple[str, Rules, MatchState | str | None]] = {
    1: ("playing", LATVIAN, state_at(LATVIAN, 4, deal=3)),
    2: ("playing", MEXICAN, state_at(MEXICAN, 2, deal=2, moves=5)),
    3: ("playing", Rules.make("latvian", players=3, time_limit=20), timed_state()),
    4: ("playing", BLOCK, next(walk(BLOCK, 1))),  # dealt, no move yet
    5: ("lobby", BLOCK, None),
    6: ("finished", BLOCK, None),  # its record is its match's
    7: ("cancelled", MEXICAN, state_at(MEXICAN, 3, deal=1)),
    8: ("playing", BLOCK, NOT_A_RECORD),
}
FINISHED_RECORD = {"format": "domino-record/1", "deals": [{"moves": []}]}
LOGGED = (1, 2, 3, 4)


def stored_text(state: MatchState | str | None, rules: Rules) -> str | None:
    if state is None or isinstance(state, str):
        return state
    return to_json(match_record(state, names(rules)))


async def version_3(location: Path | str, backend: str) -> None:
    """A version 3 database holding :data:`OLD`, as the old code left it."""
    statements: list[tuple[str, Sequence[Any]]] = []
    for game_id, (status, rules, state) in OLD.items():
        statements.append(
            (
                "INSERT INTO games (id, guild_id, channel_id, creator_id, status, rules, seats,"
                " state, seed, version, timer, created_at, updated_at, announced_version)"
                " VALUES (?, 1, ?, 500, ?, ?, ?, ?, 99, 40, 0, ?, ?, 40)",
                (
                    game_id,
                    100 + game_id,
                    status,
                    to_json(rules.to_dict()),
                    to_json(seats(rules)),
                    stored_text(state, rules),
                    STAMP,
                    STAMP,
                ),
            )
        )
    statements.append(
        (
            "INSERT INTO matches (game_id, guild_id, channel_id, game, finished_at, deals,"
            " record) VALUES (6, 1, 106, 'block', ?, 1, ?)",
            (STAMP, to_json(FINISHED_RECORD)),
        )
    )
    if backend == "sqlite":
        async with aiosqlite.connect(location, isolation_level=None) as conn:
            assert await migrate(conn, 3) == 3
            for sql, params in statements:
                await conn.execute(sql, params)
        return
    raw = await asyncpg.connect(str(location))
    try:
        assert await migrate_pg(raw, 3) == (0, 3)
        for sql, params in statements:
            await raw.execute(numbered(sql), *params)
    finally:
        await raw.close()


def expected(game_id: int) -> dict[str, Any] | None:
    _, rules, state = OLD[game_id]
    if game_id == 6:
        return FINISHED_RECORD
    if state is None or isinstance(state, str):
        return None if state is None else {"deals": [{"n": 1}]}
    return match_record(state, names(rules))


async def test_the_games_being_played_move_into_pieces_and_read_the_same(
    db_path: Path | str, backend: str
) -> None:
    await version_3(db_path, backend)
    async with await Database.open(db_path) as db:
        assert await db.schema_version() == LATEST  # 4 and after
        for game_id in OLD:
            game = await db.games.get(game_id)
            assert game is not None
            assert game.state == expected(game_id), game_id
            assert (game.version, game.status) == (40, OLD[game_id][0])
        assert [g.id for g in await db.games.active()] == [1, 2, 3, 4, 5, 8]
        columns = {
            r[0]: (r[1], r[2])
            for r in await db.fetchall("SELECT id, state, record_head FROM games")
        }
        for game_id in LOGGED:  # no whole record left in games.state: a head and the pieces
            state, head = columns[game_id]
            assert state is None
            assert head is not None
            deals = await db.fetchall(
                "SELECT deal FROM game_deals WHERE game_id = ? ORDER BY deal", (game_id,)
            )
            record = expected(game_id)
            assert record is not None
            assert [r[0] for r in deals] == list(range(1, len(record["deals"]) + 1))
        for game_id in (7, 8):  # an ended game and a state that is no record: as they were
            assert columns[game_id] == (stored_text(OLD[game_id][2], OLD[game_id][1]), None)
        assert columns[6] == (None, None)
        assert expected(3)["deals"][-1]["time_up"] is True  # type: ignore[index]
        moved = await db.fetchall("SELECT DISTINCT game_id FROM game_moves ORDER BY game_id")
        assert [r[0] for r in moved] == [1, 2, 3]  # game 4 has no move yet


class FirstLegal:
    """An AI that plays the first legal move (no seat here is an AI)."""

    async def decide(self, seen: PlayerView, level: str, rng: random.Random) -> Any:
        raise AssertionError("no AI seat in these games")

    async def close(self) -> None:
        pass


async def test_a_game_saved_by_the_old_code_restores_and_plays_on(
    db_path: Path | str, backend: str
) -> None:
    await version_3(db_path, backend)
    async with await Database.open(db_path) as db:
        await db.write("UPDATE games SET status = 'cancelled' WHERE id = 8")  # unreadable
        service = GameService(db, clock=lambda: T0, ai=FirstLegal(), seed_source=lambda: 1)
        try:
            assert await service.restore() == 5
            for game_id in (1, 2, 3):
                session = await service.get(game_id)
                assert session is not None
                assert session.record() == expected(game_id)
                rng = random.Random(game_id)
                deals = session.state.deal_number if session.state else 0
                for _ in range(60):  # into the next deal, or to the end of the match
                    if not session.active or session.turn_seat is None:
                        break
                    user = session.turn_seat.user_id
                    assert user is not None
                    assert session.state is not None
                    move: Move = rng.choice(session.state.legal_moves())
                    session = await service.play(game_id, user, move)
                    row = await db.games.get(game_id)
                    assert row is not None
                    assert row.version == session.version
                    assert row.state == session.record()
                assert session.state is not None
                assert session.state.deal_number > deals or session.state.over
        finally:
            await service.close()
