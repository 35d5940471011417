"""PostgreSQL's own machinery: placeholders, migrations, several writers, a server that goes away.

Everything runs against real servers started by the tests (tests/postgres_support.py):
the session's, and for the server that stops and starts again one of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
from collections import Counter
from collections.abc import AsyncIterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import asyncpg  # type: ignore[import-untyped]
import pytest
from postgres_support import Cluster, start_cluster
from test_storage_dialects import postgres_schema
from test_storage_migration_3 import GAMES, MATCHES, STAMP

from bot.stats import install
from bot.storage import (
    LATEST,
    PG_MIGRATIONS,
    Database,
    DatabaseTimeoutError,
    DatabaseUnavailableError,
    FinishedMatch,
    MatchSeat,
    MigrationError,
    StorageError,
    Timeouts,
)
from bot.storage.postgres import migrate_pg, numbered, server_problem
from bot.storage.urls import redacted

GUILD = 7


@pytest.fixture
async def url(postgres: Cluster) -> AsyncIterator[str]:
    """A fresh, empty database on the session's server."""
    address = await postgres.create_database()
    yield address
    await postgres.drop_database(address)


async def raw(url: str) -> Any:
    return await asyncpg.connect(url)


# -- the dialect ----------------------------------------------------------------------------


def test_placeholders_are_numbered_outside_string_literals() -> None:
    assert numbered("SELECT ? , ?::bigint FROM t WHERE a = ?") == (
        "SELECT $1 , $2::bigint FROM t WHERE a = $3"
    )
    assert numbered("SELECT '?', 'it''s ?', ? WHERE b = '?'") == (
        "SELECT '?', 'it''s ?', $1 WHERE b = '?'"
    )
    assert numbered("SELECT 1") == "SELECT 1"


def test_the_password_never_shows() -> None:
    assert redacted("postgresql://bot:s3cr@t@db.example:5432/dominobot?sslmode=require") == (
        "postgresql://bot:***@db.example:5432/dominobot?sslmode=require"
    )
    assert redacted("postgresql:///dominobot?host=/run/postgresql") == (
        "postgresql:///dominobot?host=/run/postgresql"
    )


async def test_discord_sized_ids_and_unrated_players_last(url: str, t0: datetime) -> None:
    """Ids past 32 bits round-trip; a leaderboard puts NULL ratings last, as SQLite does."""
    big = 1_234_567_890_123_456_789
    async with await Database.open(url) as db:
        game = await db.games.create(
            guild_id=big, channel_id=big + 1, creator_id=big + 2, rules={}, seats=[],
            seed=2**62, timer=0, now=t0,
        )  # fmt: skip
        assert (game.guild_id, game.channel_id, game.creator_id, game.seed) == (
            big, big + 1, big + 2, 2**62,
        )  # fmt: skip
        async with db.transaction() as conn:
            for user, ordinal in ((big + 10, None), (big + 11, 5.0), (big + 12, 20.0)):
                await conn.execute(
                    "INSERT INTO standings (guild_id, game, user_id, name, matches, wins, draws,"
                    " points, place_points, streak, best_streak, rated, mu, sigma, ordinal,"
                    " last_match_id)"
                    " VALUES (?, 'block', ?, 'p', 1, 0, 0, 0, 0, 0, 0, 0, ?, ?, ?, 0)",
                    (big, user, ordinal, ordinal, ordinal),
                )
        board = await db.leaderboards.leaderboard(big, "block")
        assert [e.user_id for e in board.entries] == [big + 12, big + 11, big + 10]
        places = await db.leaderboards.leaderboard(big, "block", order="places")
        assert [e.user_id for e in places.entries] == [big + 12, big + 11, big + 10]


# -- migrations -----------------------------------------------------------------------------


@pytest.mark.parametrize("start", range(len(PG_MIGRATIONS)))
async def test_open_migrates_from_every_earlier_version(
    postgres: Cluster, url: str, start: int
) -> None:
    fresh = await postgres.create_database()
    try:
        async with await Database.open(fresh) as db:
            want, _ = await postgres_schema(db)
    finally:
        await postgres.drop_database(fresh)
    conn = await raw(url)
    try:
        assert await migrate_pg(conn, start) == (0, start)
    finally:
        await conn.close()
    async with await Database.open(url) as db:
        assert await db.schema_version() == LATEST
        got, _ = await postgres_schema(db)
    assert got == want


async def test_a_failing_migration_leaves_schema_and_version_unchanged(url: str) -> None:
    broken = (
        "CREATE TABLE a (id INTEGER PRIMARY KEY, x TEXT NOT NULL);",
        "CREATE TABLE half (id INTEGER); INSERT INTO a (id, x) VALUES (1, NULL);",
    )
    conn = await raw(url)
    try:
        assert await migrate_pg(conn, 1, migrations=broken) == (0, 1)
        with pytest.raises(MigrationError, match="migration 2"):
            await migrate_pg(conn, migrations=broken)
        assert await conn.fetchval("SELECT version FROM dominobot_schema") == 1
        assert await conn.fetchval("SELECT to_regclass('half')") is None
        assert not conn.is_in_transaction()
        fixed = (broken[0], "CREATE TABLE half (id INTEGER);")
        assert await migrate_pg(conn, migrations=fixed) == (1, 2)
        with pytest.raises(MigrationError, match="downgrade"):
            await migrate_pg(conn, 1, migrations=fixed)
        with pytest.raises(MigrationError, match="newer"):
            await migrate_pg(conn, migrations=fixed[:1])
        with pytest.raises(MigrationError, match="no schema version"):
            await migrate_pg(conn, 3, migrations=fixed)
    finally:
        await conn.close()


async def test_open_refuses_a_database_from_a_newer_bot(url: str) -> None:
    async with await Database.open(url) as db:
        await db.write("UPDATE dominobot_schema SET version = ?", (LATEST + 1,))
    with pytest.raises(MigrationError, match="newer"):
        await Database.open(url)


async def test_processes_starting_together_migrate_once(url: str) -> None:
    opened = await asyncio.gather(*(Database.open(url) for _ in range(4)))
    try:
        assert [await db.schema_version() for db in opened] == [LATEST] * 4
        row = await opened[0].fetchone("SELECT count(*) FROM dominobot_schema")
        assert row is not None
        assert row[0] == 1
    finally:
        for db in opened:
            await db.close()


async def test_migration_3_backfills_a_version_2_database(url: str) -> None:
    """The same data as test_storage_migration_3's SQLite file, the same outcome."""
    conn = await raw(url)
    try:
        await migrate_pg(conn, 2)
        for game_id, (status, version, state) in GAMES.items():
            await conn.execute(
                "INSERT INTO games (id, guild_id, channel_id, creator_id, status, rules, seats,"
                " state, seed, version, timer, created_at, updated_at)"
                " VALUES ($1, 1, $2, 42, $3, '{}', '[]', $4, 7, $5, 0, $6, $6)",
                game_id, 100 + game_id, status, state, version, STAMP,
            )  # fmt: skip
        await conn.execute("UPDATE games SET state = 'not json' WHERE id = 7")
        for game_id, (deals, record) in MATCHES.items():
            await conn.execute(
                "INSERT INTO matches (game_id, guild_id, channel_id, game, finished_at, deals,"
                " record) VALUES ($1, 1, $2, 'block', $3, $4, $5)",
                game_id, 100 + game_id, STAMP, deals, record,
            )  # fmt: skip
    finally:
        await conn.close()
    async with await Database.open(url) as db:
        assert await db.schema_version() == LATEST  # 3 and after
        rows = await db.fetchall("SELECT id, announced_version, announced_deals, state FROM games")
        assert await db.games.unannounced() == []
        assert (await db.guilds.settings(1)).threads is False
    counts = {r[0]: (r[1], r[2]) for r in rows}
    assert counts == {
        g: (version, deals)
        for g, (_, version, _), deals in zip(
            GAMES, GAMES.values(), (0, 2, 3, 1, 1, 0, 0), strict=True
        )
    }
    states = {r[0]: r[3] for r in rows}
    assert states[3] is None  # stored once, in matches.record
    assert states[7] == "not json"  # unreadable: counted as no deal, kept
    assert {g: states[g] for g in (1, 2, 4, 5, 6)} == {g: GAMES[g][2] for g in (1, 2, 4, 5, 6)}


# -- several writers on one database ------------------------------------------------------


def planned_matches(n: int, t0: datetime) -> list[FinishedMatch]:
    """``n`` matches of 4 of the same 6 players (every pair meets often), seeded."""
    rng = random.Random(2025)
    matches = []
    for i in range(n):
        players = rng.sample(range(1, 7), 4)
        winner = rng.randrange(4)
        seats = tuple(
            MatchSeat(s, user, None, f"P{user}", s, 100.0 if s == winner else 10.0 * s,
                      s == winner, None)
            for s, user in enumerate(players)
        )  # fmt: skip
        matches.append(
            FinishedMatch(
                game="block",
                finished_at=t0 + timedelta(minutes=i),
                record={"format": "domino-record/1", "n": i},
                seats=seats,
                deals=(),
            )
        )
    return matches


async def playing(db: Database, channel: int, t0: datetime) -> int:
    game = await db.games.create(
        guild_id=GUILD, channel_id=channel, creator_id=1, rules={"game": "block"},
        seats=[], seed=1, timer=0, now=t0,
    )  # fmt: skip
    saved = await db.games.save(game.id, 0, now=t0, status="playing")
    return saved.id


async def test_two_processes_finishing_matches_of_the_same_players_lose_no_update(
    url: str, tmp_path: Path, t0: datetime
) -> None:
    """Two Database objects (two bot processes) on one PostgreSQL finish 40 matches of
    the same six players at once, many tasks each. The standings, results and ratings
    are exactly those of the same matches finished one at a time, in the order the
    server stored them (on SQLite, and by PostgreSQL's own rebuild)."""
    plan = planned_matches(40, t0)
    first, second = await Database.open(url), await Database.open(url)
    try:
        for db in (first, second):
            install(db)  # the leaderboard's rules with openskill, as setup_hook does
        games = [await playing(first, 100 + i, t0) for i in range(len(plan))]
        start = asyncio.Event()

        async def finish(db: Database, game_id: int, match: FinishedMatch) -> None:
            await start.wait()
            await db.games.finish(
                game_id, 1, now=match.finished_at, status="finished", state={}, seats=[],
                match=match,
            )  # fmt: skip

        tasks = [
            asyncio.create_task(finish((first, second)[i % 2], game_id, match))
            for i, (game_id, match) in enumerate(zip(games, plan, strict=True))
        ]
        await asyncio.sleep(0)  # every task waits at the start line
        start.set()
        await asyncio.gather(*tasks)

        standings = await first.leaderboards.standings(GUILD)
        results = await second.leaderboards.results(GUILD)
        order = [int(r[0]) for r in await first.fetchall("SELECT game_id FROM matches ORDER BY id")]
        # the counts, from the plan alone
        played = Counter(s.user_id for m in plan for s in m.seats)
        won = Counter(s.user_id for m in plan for s in m.seats if s.won)
        assert {s.user_id: (s.matches, s.wins) for s in standings} == {
            u: (played[u], won[u]) for u in played
        }
        assert len(results) == sum(played.values())
        assert all(s.rated == s.matches and s.rating is not None for s in standings)
        # PostgreSQL's rebuild replays the stored matches in id order: the same tables
        assert await first.leaderboards.recompute(GUILD) == len(plan)
        assert await first.leaderboards.standings(GUILD) == standings
        assert await first.leaderboards.results(GUILD) == results
    finally:
        await first.close()
        await second.close()

    # one at a time, on SQLite, in the order PostgreSQL stored them: the same numbers
    by_game = dict(zip(games, plan, strict=True))
    async with await Database.open(tmp_path / "one-at-a-time.db") as lite:
        install(lite)
        for i, game_id in enumerate(order):
            match = by_game[game_id]
            game = await playing(lite, 100 + i, t0)
            await lite.games.finish(
                game, 1, now=match.finished_at, status="finished", state={}, seats=[],
                match=match,
            )  # fmt: skip
        assert await lite.leaderboards.standings(GUILD) == standings
        assert [
            (r.user_id, r.outcome, r.rating) for r in await lite.leaderboards.results(GUILD)
        ] == [(r.user_id, r.outcome, r.rating) for r in results]


async def test_a_reset_waits_for_a_match_being_counted(url: str, t0: datetime) -> None:
    """A leaderboard reset and a match's count take the server's lock: the reset waits
    for the transaction that counts the match, and then clears it too."""
    a, b = await Database.open(url), await Database.open(url)
    try:
        install(a)
        game = await playing(a, 5, t0)
        counted = asyncio.Event()
        release = asyncio.Event()

        class Slow:
            """The real ledger, holding its transaction open until released."""

            def __init__(self, inner: Any) -> None:
                self.inner = inner

            def count(self, standings: Any, match: Any) -> Any:
                counted.set()
                return self.inner.count(standings, match)

        a.leaderboards.ledger = Slow(a.leaderboards.ledger)
        original = a.leaderboards.count

        async def count_then_wait(conn: Any, guild_id: int, match: Any) -> None:
            await original(conn, guild_id, match)
            await release.wait()

        a.leaderboards.count = count_then_wait  # type: ignore[method-assign]
        finishing = asyncio.create_task(
            a.games.finish(
                game,
                1,
                now=t0,
                status="finished",
                state={},
                seats=[],
                match=planned_matches(1, t0)[0],
            )
        )
        await counted.wait()
        resetting = asyncio.create_task(b.leaderboards.reset(GUILD, by=1, now=t0))
        try:
            # the reset waits for the server's lock, held by the match's transaction
            while not await b.fetchone(
                "SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
                " AND objid = ? AND database = (SELECT oid FROM pg_database"
                " WHERE datname = current_database())",
                (GUILD,),
            ):
                assert not resetting.done()
                await asyncio.sleep(0.01)
            assert not resetting.done()
        finally:
            release.set()
        await finishing
        season = await resetting
        assert season.after_match_id == 1  # it saw the committed match
        assert await b.leaderboards.standings(GUILD) == []
    finally:
        await a.close()
        await b.close()


# -- a server that goes away ------------------------------------------------------------------


async def terminate_others(url: str) -> int:
    """End every other session on the database, as an administrator would, and wait
    until they are gone (pg_terminate_backend only signals)."""
    conn = await raw(url)
    try:
        pids = await conn.fetchval(
            "SELECT array_agg(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        for pid in pids or ():
            await conn.execute("SELECT pg_terminate_backend($1)", pid)
        while await conn.fetchval(
            "SELECT count(*) FROM pg_stat_activity WHERE pid = ANY($1::int[])", pids or []
        ):
            await asyncio.sleep(0.01)
        return len(pids or ())
    finally:
        await conn.close()


async def test_a_dropped_connection_fails_the_call_in_flight_and_the_next_call_works(
    url: str, t0: datetime
) -> None:
    async with await Database.open(url) as db:
        game = await playing(db, 5, t0)

        async def a_move_cut_off() -> None:
            bump = "UPDATE games SET version = version + 1 WHERE id = ?"
            async with db.transaction() as conn:
                await conn.execute(bump, (game,))
                assert await terminate_others(url) >= 1
                await conn.execute(bump, (game,))

        with pytest.raises(DatabaseUnavailableError) as failed:
            await a_move_cut_off()
        assert isinstance(failed.value, StorageError)
        assert "dominobot-test" not in str(failed.value)  # the password never shows
        # nothing of the transaction landed; the next calls work on fresh connections
        row = await db.games.get(game)
        assert row is not None
        assert row.version == 1
        saved = await db.games.save(game, 1, now=t0, state={"after": True})
        assert saved.version == 2

        # idle pooled connections dropped meanwhile: reads and writes just go on
        assert await terminate_others(url) >= 1
        assert (await db.games.get(game)) == saved
        assert await terminate_others(url) >= 1
        assert (await db.games.save(game, 2, now=t0)).version == 3


@pytest.fixture
def own_server() -> Any:
    """A server of this test's own, to stop and start."""
    cluster = start_cluster()
    try:
        yield cluster
    finally:
        with contextlib.suppress(RuntimeError):  # already stopped
            cluster.stop()
        cluster.remove()


async def test_a_server_that_stops_refuses_calls_and_they_work_again_when_it_is_back(
    own_server: Cluster, t0: datetime
) -> None:
    url = await own_server.create_database()
    async with await Database.open(url) as db:
        game = await playing(db, 5, t0)
        await asyncio.to_thread(own_server.stop)
        with pytest.raises(DatabaseUnavailableError, match="unavailable"):
            await db.games.save(game, 1, now=t0, state={"lost": True})
        with pytest.raises(DatabaseUnavailableError):
            await db.games.get(game)
        with pytest.raises(StorageError):
            await db.leaderboards.leaderboard(GUILD, "block")
        assert await server_problem(url) is not None
        await asyncio.to_thread(own_server.start)
        assert await server_problem(url) is None
        row = await db.games.get(game)
        assert row is not None
        assert (row.version, row.state) == (1, None)  # the refused save never landed
        assert (await db.games.save(game, 1, now=t0, state={"back": True})).version == 2


# -- timeouts (issue 37, row 9) ------------------------------------------------------------

SHORT = Timeouts(statement=1.0, lock=0.3, grace=0.5)
GIVE_UP = 60.0
"""Only for the tests' sake: without timeouts these calls would wait for ever."""


async def test_a_save_that_waits_for_a_locked_row_is_refused_and_writes_nothing(
    url: str, t0: datetime
) -> None:
    """Another connection holds the game's row (a hung transaction, a stuck process): the
    save gives up at the lock timeout, as unavailable, and nothing of it lands."""
    async with await Database.open(url, timeouts=SHORT) as db:
        game = await playing(db, 5, t0)
        other = await raw(url)
        try:
            await other.execute("BEGIN")
            await other.execute("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", game)
            with pytest.raises(DatabaseUnavailableError, match="lock") as refused:
                await asyncio.wait_for(db.games.save(game, 1, now=t0, state={"move": 1}), GIVE_UP)
            assert isinstance(refused.value, DatabaseTimeoutError)
            await other.execute("ROLLBACK")
        finally:
            await other.close()
        row = await db.games.get(game)
        assert row is not None
        assert (row.version, row.state) == (1, None)
        assert (await db.games.save(game, 1, now=t0, state={"move": 1})).version == 2


async def test_a_statement_past_the_statement_timeout_is_refused(url: str) -> None:
    async with await Database.open(url, timeouts=SHORT) as db:
        with pytest.raises(DatabaseTimeoutError, match="too long"):
            await asyncio.wait_for(db.fetchall("SELECT pg_sleep(30)"), GIVE_UP)
        assert await db.fetchall("SELECT 1") == [(1,)]  # the connection goes on


async def test_a_server_that_hangs_is_given_up_and_the_transaction_writes_nothing(
    url: str, t0: datetime
) -> None:
    """The server process behind the transaction's connection is stopped (SIGSTOP): it
    answers nothing, not even the statement timeout; the client gives up after the
    command timeout, drops the connection, and the next call works on a fresh one."""
    async with await Database.open(url, timeouts=SHORT) as db:
        game = await playing(db, 5, t0)

        async def a_move_on_a_hung_server() -> None:
            async with db.transaction() as conn:
                await conn.execute(
                    "UPDATE games SET state = '{}', version = 2 WHERE id = ?", (game,)
                )
                row = await conn.fetchone("SELECT pg_backend_pid()")
                assert row is not None
                backend = int(row[0])
                try:
                    os.kill(backend, signal.SIGSTOP)
                except PermissionError:
                    pytest.skip("cannot stop the server's process (not its user, nor root)")
                try:
                    await asyncio.wait_for(conn.execute("SELECT 1"), GIVE_UP)
                finally:
                    os.kill(backend, signal.SIGCONT)

        with pytest.raises(DatabaseTimeoutError, match="did not answer"):
            await a_move_on_a_hung_server()
        saved = await db.games.get(game)
        assert saved is not None
        assert (saved.version, saved.state) == (1, None)
        assert (await db.games.save(game, 1, now=t0)).version == 2


async def test_open_names_what_is_wrong(postgres: Cluster, url: str, tmp_path: Path) -> None:
    name = url.partition("@/")[2].partition("?")[0]
    with pytest.raises(DatabaseUnavailableError, match="password") as wrong:
        await Database.open(postgres.url(name, password="wrong"))
    assert "wrong" not in str(wrong.value)
    with pytest.raises(DatabaseUnavailableError, match="does not exist"):
        await Database.open(postgres.url("no_such_database"))
    with pytest.raises(DatabaseUnavailableError, match="unavailable"):
        await Database.open(f"postgresql://dominobot:x@/{name}?host={tmp_path}")
