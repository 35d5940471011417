"""The leaderboard tables: recompute, reset, concurrent finishes, crashes, migrations."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import aiosqlite
import pytest
from stats_support import T0, Matches, seats_of

from bot.stats import MatchLedger, OpenSkillRater, RatedSeat, Rating, StatsService, install
from bot.storage import (
    LATEST,
    Counted,
    Database,
    FinishedMatch,
    MatchSummary,
    Standing,
    StorageError,
    migrate,
)

GUILD, OTHER = 1, 2


async def tables(db: Database, guild: int) -> tuple[list[Any], list[Any]]:
    return await db.leaderboards.standings(guild), await db.leaderboards.results(guild)


async def random_matches(matches: Matches, rng: random.Random, n: int, guild: int) -> None:
    """A mix of 1v1, teams, free-for-all with AIs, draws and latvian sessions."""
    players = list(range(100, 108))
    for _ in range(n):
        kind = rng.choice(["duel", "teams", "ffa", "draw", "latvian"])
        if kind == "duel" or kind == "draw":
            a, b = rng.sample(players, 2)
            won = rng.random() < 0.5 if kind == "duel" else None
            await matches.add(
                (a, f"P{a}", 0, 100.0 if won else 0.0, won is True, None),
                (b, f"P{b}", 1, 0.0 if won else 100.0 if won is False else 0.0, won is False, None),
                guild_id=guild,
            )
        elif kind == "teams":
            a, b, c = rng.sample(players, 3)
            side = rng.randrange(2)
            await matches.add(
                (a, f"P{a}", 0, 100.0 if side == 0 else 50.0, side == 0, None),
                (b, f"P{b}", 1, 100.0 if side == 1 else 50.0, side == 1, None),
                (c, f"P{c}", 0, 100.0 if side == 0 else 50.0, side == 0, None),
                (None, "Bot", 1, 100.0 if side == 1 else 50.0, side == 1, None),
                guild_id=guild,
            )
        elif kind == "ffa":
            a, b = rng.sample(players, 2)
            totals = [rng.randrange(0, 100) for _ in range(3)]
            best = max(totals)
            seats = [a, b, None]
            await matches.add(
                *[
                    (u, f"P{u}" if u else "Bot", i, float(t), t == best, None)
                    for i, (u, t) in enumerate(zip(seats, totals, strict=True))
                ],
                guild_id=guild,
                game="draw",
            )
        else:
            four = rng.sample(players, 4)
            places = rng.choice([(4.0, 3.0, 2.0, 1.0), (3.5, 3.5, 1.5, 1.5), (4.0, 2.5, 2.5, 1.0)])
            await matches.add(
                *[
                    (u, f"P{u}", i, 10.0 * i, p == max(places), p)
                    for i, (u, p) in enumerate(zip(four, places, strict=True))
                ],
                guild_id=guild,
                game="latvian",
            )


async def test_recomputing_from_scratch_gives_the_incremental_table(
    db: Database, matches: Matches
) -> None:
    rng = random.Random(5)
    await random_matches(matches, rng, 60, GUILD)
    await random_matches(matches, rng, 20, OTHER)
    incremental = await tables(db, GUILD), await tables(db, OTHER)
    assert len(incremental[0][0]) >= 8
    assert any(s.rating is not None for s in incremental[0][0])

    assert await db.leaderboards.recompute() == 80
    assert (await tables(db, GUILD), await tables(db, OTHER)) == incremental
    assert await db.leaderboards.recompute(GUILD) == 60
    assert (await tables(db, GUILD), await tables(db, OTHER)) == incremental

    # and after a reset, only the matches after it are replayed
    await db.leaderboards.reset(GUILD, by=1, now=T0)
    await random_matches(matches, rng, 15, GUILD)
    after_reset = await tables(db, GUILD)
    assert sum(s.matches for s in after_reset[0]) == len(after_reset[1])
    assert await db.leaderboards.recompute(GUILD) == 15
    assert await tables(db, GUILD) == after_reset


async def test_a_reset_clears_one_server_and_keeps_its_matches(
    db: Database, matches: Matches
) -> None:
    await matches.add((1, "A", 0, 100.0, True, None), (2, "B", 1, 0.0, False, None))
    await matches.add((1, "A", 0, 100.0, True, None), (2, "B", 1, 0.0, False, None), guild_id=OTHER)
    other_before = await tables(db, OTHER)
    season = await db.leaderboards.reset(GUILD, by=7, now=T0)
    assert season.after_match_id == 2
    assert await db.leaderboards.standings(GUILD) == []
    assert (await db.leaderboards.leaderboard(GUILD, "block")).total == 0
    assert await tables(db, OTHER) == other_before
    assert (await db.matches.history(GUILD)).total == 1  # the match itself stays
    assert await db.matches.record(GUILD, 1) is not None
    stored = await db.leaderboards.season(GUILD)
    assert stored is not None
    assert (stored.after_match_id, stored.reset_by, stored.reset_at) == (2, 7, T0)

    await matches.add((2, "B", 0, 100.0, True, None), (1, "A", 1, 0.0, False, None))
    fresh = {s.user_id: s for s in await db.leaderboards.standings(GUILD)}
    assert (fresh[2].matches, fresh[2].wins, fresh[1].wins) == (1, 1, 0)
    model = OpenSkillRater().model
    [[b], [a]] = model.rate([[model.rating()], [model.rating()]], ranks=[1, 2])
    assert fresh[2].rating is not None
    assert fresh[2].rating.mu == pytest.approx(b.mu)
    assert fresh[1].rating is not None
    assert fresh[1].rating.mu == pytest.approx(a.mu)
    assert await db.leaderboards.recompute(GUILD) == 1


async def test_many_matches_finishing_at_the_same_moment_all_land(
    db: Database, matches: Matches
) -> None:
    players = list(range(1, 9))
    rng = random.Random(3)
    games = []
    for i in range(40):
        row = await db.games.create(
            guild_id=GUILD,
            channel_id=900 + i,
            creator_id=1,
            rules={"game": "block"},
            seats=[],
            seed=i,
            timer=0,
            now=T0,
        )
        games.append(row)

    async def finish(i: int) -> None:
        a, b = rng.sample(players, 2)
        match = FinishedMatch(
            game="block",
            finished_at=T0,
            record={"n": i},
            seats=seats_of((a, f"P{a}", 0, 100.0, True, None), (b, f"P{b}", 1, 5.0, False, None)),
            deals=(),
        )
        await db.games.finish(
            games[i].id, 0, now=T0, status="finished", state={}, seats=[], match=match
        )

    await asyncio.gather(*(finish(i) for i in range(40)))
    standings, results = await tables(db, GUILD)
    assert len(results) == 80
    assert sum(s.matches for s in standings) == 80
    assert sum(s.wins for s in standings) == 40
    for s in standings:
        assert s.matches == len(await db.leaderboards.results(GUILD, s.user_id))
    assert (await db.matches.history(GUILD)).total == 40
    # every update saw the one before it: replaying in id order gives the same table
    await db.leaderboards.recompute(GUILD)
    assert await tables(db, GUILD) == (standings, results)


@dataclass(frozen=True)
class TornLedger:
    """The real rules, but the standings rows they return cannot be written (no name):
    the save fails after the match, its seats, deals and results went in."""

    real: MatchLedger

    def count(self, standings: Mapping[int, Standing], match: MatchSummary) -> Counted:
        counted = self.real.count(standings, match)
        return Counted(tuple(replace(s, name=None) for s in counted.standings), counted.results)


async def test_a_crash_inside_the_save_leaves_no_half_written_match(
    db: Database, matches: Matches
) -> None:
    await matches.add((1, "A", 0, 100.0, True, None), (2, "B", 1, 0.0, False, None))
    before = await tables(db, GUILD)
    row = await db.games.create(
        guild_id=GUILD,
        channel_id=77,
        creator_id=1,
        rules={"game": "block"},
        seats=[],
        seed=1,
        timer=0,
        now=T0,
    )
    row = await db.games.save(row.id, 0, now=T0, status="playing", state={"deals": []})
    real = db.leaderboards.ledger
    assert isinstance(real, MatchLedger)
    db.leaderboards.ledger = TornLedger(real)
    match = FinishedMatch(
        game="block",
        finished_at=T0,
        record={"n": 1},
        seats=seats_of((1, "A", 0, 0.0, False, None), (2, "B", 1, 100.0, True, None)),
        deals=(),
    )
    # SQLite: "NOT NULL constraint failed: standings.name"; PostgreSQL: 'null value in
    # column "name" of relation "standings" violates not-null constraint'
    with pytest.raises(StorageError, match=r'standings\.name|"name" of relation "standings"'):
        await db.games.finish(
            row.id, row.version, now=T0, status="finished", state={}, seats=[], match=match
        )
    assert await tables(db, GUILD) == before
    assert (await db.matches.history(GUILD)).total == 1
    stored = await db.fetchone("SELECT count(*) FROM matches WHERE game_id = ?", (row.id,))
    assert stored is not None
    assert stored[0] == 0
    count = await db.fetchone("SELECT count(*) FROM match_seats")
    assert count is not None
    assert count[0] == 2  # the first match's seats only
    game = await db.games.get(row.id)
    assert game is not None
    assert (game.status, game.version) == ("playing", row.version)

    db.leaderboards.ledger = real
    await db.games.finish(
        row.id, row.version, now=T0, status="finished", state={}, seats=[], match=match
    )
    standings = {s.user_id: s for s in await db.leaderboards.standings(GUILD)}
    assert (standings[1].matches, standings[2].wins) == (2, 1)


class BrokenRater:
    def initial(self) -> Rating:
        return Rating(25.0, 8.0, 1.0)

    def rate(self, game: str, seats: Sequence[RatedSeat]) -> Mapping[int, Rating]:
        raise ZeroDivisionError("a rating bug")


async def test_a_failing_rater_never_loses_a_match(
    db: Database, matches: Matches, caplog: pytest.LogCaptureFixture
) -> None:
    db.leaderboards.ledger = MatchLedger(BrokenRater())
    with caplog.at_level(logging.ERROR, logger="bot.stats.ledger"):
        await matches.add((1, "A", 0, 100.0, True, None), (2, "B", 1, 0.0, False, None))
    assert "the rater failed" in caplog.text
    standings = {s.user_id: s for s in await db.leaderboards.standings(GUILD)}
    assert (standings[1].wins, standings[1].rated, standings[1].rating) == (1, 0, None)
    # with a working rater the stored match is rated by a recompute
    db.leaderboards.ledger = MatchLedger(OpenSkillRater())
    await db.leaderboards.recompute(GUILD)
    standings = {s.user_id: s for s in await db.leaderboards.standings(GUILD)}
    assert standings[1].rated == 1
    assert standings[1].rating is not None
    assert standings[1].rating.ordinal > 0


async def test_without_a_rater_matches_count_but_no_rating_moves(db_path: Path) -> None:
    async with await Database.open(db_path) as db:
        db.leaderboards.ledger = MatchLedger(rater=None)
        await Matches(db).add((1, "A", 0, 100.0, True, None), (2, "B", 1, 0.0, False, None))
        standings = {s.user_id: s for s in await db.leaderboards.standings(GUILD)}
        assert (standings[1].wins, standings[1].rating, standings[2].matches) == (1, None, 1)
        assert [r.rating_before for r in await db.leaderboards.results(GUILD)] == [None, None]


async def test_without_a_ledger_a_match_is_stored_and_waits_to_be_counted(db_path: Path) -> None:
    async with await Database.open(db_path) as db:
        assert db.leaderboards.ledger is None
        await Matches(db).add((1, "A", 0, 100.0, True, None), (2, "B", 1, 0.0, False, None))
        await Matches(db).add((None, "Bot", 0, 100.0, True, None), (2, "B", 1, 0.0, False, None))
        assert (await db.matches.history(GUILD)).total == 2
        assert await db.leaderboards.standings(GUILD) == []
        assert await db.leaderboards.rebuild_pending()
        with pytest.raises(StorageError, match="no ledger"):
            await db.leaderboards.recompute()
        install(db)
        await StatsService(db, clock=lambda: T0).start()
        assert not await db.leaderboards.rebuild_pending()
        standings = {s.user_id: s for s in await db.leaderboards.standings(GUILD)}
        assert (standings[1].wins, standings[2].matches, standings[2].rated) == (1, 2, 1)


# -- migrations -----------------------------------------------------------------------------------


async def _v1_with_a_finished_match(path: Path) -> None:
    async with aiosqlite.connect(path, isolation_level=None) as conn:
        assert await migrate(conn, 1) == 1
        await conn.execute(
            "INSERT INTO games (id, guild_id, channel_id, creator_id, status, rules, seats, seed,"
            " created_at, updated_at) VALUES (1, 5, 6, 11, 'finished', '{}', '[]', 0, ?, ?)",
            (T0.isoformat(), T0.isoformat()),
        )
        await conn.execute(
            "INSERT INTO matches (id, game_id, guild_id, channel_id, game, finished_at, deals,"
            " record) VALUES (1, 1, 5, 6, 'block', ?, 1, '{\"format\": \"domino-record/1\"}')",
            (T0.isoformat(timespec="microseconds"),),
        )
        await conn.executemany(
            "INSERT INTO match_seats (match_id, seat, user_id, ai_level, name, side, total, won,"
            " place) VALUES (1, ?, ?, NULL, ?, ?, ?, ?, NULL)",
            [(0, 11, "Ann", 0, 100.0, 1), (1, 12, "Ben", 1, 20.0, 0)],
        )


@pytest.mark.sqlite_only(reason="builds a version 1 SQLite file with aiosqlite")
async def test_a_version_1_file_with_matches_is_migrated_and_counted(db_path: Path) -> None:
    await _v1_with_a_finished_match(db_path)
    async with await Database.open(db_path) as db:
        assert await db.schema_version() == LATEST  # 2 and after
        assert await db.leaderboards.rebuild_pending()
        assert await db.leaderboards.standings(5) == []
        install(db)
        stats = StatsService(db, clock=lambda: T0)
        await stats.start()
        assert not await db.leaderboards.rebuild_pending()
        board = await db.leaderboards.leaderboard(5, "block")
        assert [(e.name, e.matches, e.wins) for e in board.entries] == [
            ("Ann", 1, 1),
            ("Ben", 1, 0),
        ]
        assert board.entries[0].rating is not None
        # the old match is kept and exportable
        assert (await db.matches.history(5)).entries[0].id == 1
        assert await stats.export(5, 1) == {"format": "domino-record/1"}
    async with await Database.open(db_path) as db:  # and a second start rebuilds nothing
        assert not await db.leaderboards.rebuild_pending()
        assert await db.leaderboards.rebuild_if_pending() is None


@pytest.mark.parametrize("start", [0, 1])
async def test_every_earlier_version_migrates_to_the_same_schema(
    tmp_path: Path, start: int
) -> None:
    fresh = tmp_path / "fresh.db"
    async with await Database.open(fresh) as db:
        want = await db.fetchall("SELECT type, name, sql FROM sqlite_master ORDER BY name")
        want_rows = [tuple(r) for r in want]
        assert not await db.leaderboards.rebuild_pending()
    old = tmp_path / f"v{start}.db"
    async with aiosqlite.connect(old, isolation_level=None) as conn:
        assert await migrate(conn, start) == start
    async with await Database.open(old) as db:
        got = await db.fetchall("SELECT type, name, sql FROM sqlite_master ORDER BY name")
        assert [tuple(r) for r in got] == want_rows
        assert not await db.leaderboards.rebuild_pending()  # no matches: nothing to count
        names = {r[1] for r in want_rows}
        assert {"standings", "player_results", "leaderboard_seasons"} <= names
        assert {"standings_by_rating", "player_results_period", "player_results_user"} <= names
