"""How fast a leaderboard page and a player's card are, on a big server.

Builds (once, then reuses) an SQLite file with 100,000 finished matches of
10,000 players in one server, spread over a year: duels, 2v2 teams, free-for-all
tables with AI seats and latvian sessions. The games, matches and seats are
inserted with ``executemany`` in big transactions (each match keeps a small
valid record, not a full one); the standings, results and ratings are then
built by ``LeaderboardRepository.recompute`` through the ledger the bot plugs in
(``bot.stats.install``: ``count_match`` with openskill), the same rules that
count each real match. Then it times, for many random pages and players:

- a leaderboard page (all time, last 30 days, last 7 days; rating order, and
  latvian place points), as ``StatsService.leaderboard`` computes it;
- a player's card, as ``StatsService.card`` computes it;
- both again with the embed text and the PNG card drawn (what the bot does
  before it sends);
- storing one more finished match with its rating update (``GameRepository.finish``).

It prints the median and p95 milliseconds of each. Run it as a script::

    .venv/bin/python benchmarks/leaderboard_bench.py [--db PATH] [--runs N] [--rebuild]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.i18n import ENGLISH
from bot.stats import StatsService, install
from bot.storage import Database, FinishedMatch, MatchSeat
from bot.storage.codec import to_json, to_text
from cogs.domino.stats_texts import board_card, card_embed
from render.cards import render_leaderboard

GUILD = 424242
NOW = datetime(2025, 6, 1, 12, 0, tzinfo=UTC)
SPAN = timedelta(days=365)
GAMES = (("block", 0.5), ("draw", 0.2), ("allfives", 0.15), ("latvian", 0.15))
BATCH = 10_000


def synthetic(
    rng: random.Random, players: int, n: int
) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """Rows for games, matches and match_seats: ``n`` matches in time order."""
    weights = [1.0 / (1 + i) ** 0.6 for i in range(players)]  # some play much more
    population = list(range(1, players + 1))
    names = [g for g, _ in GAMES]
    game_weights = [w for _, w in GAMES]
    record = to_json({"format": "domino-record/1", "synthetic": True})
    games: list[tuple[Any, ...]] = []
    matches: list[tuple[Any, ...]] = []
    seats: list[tuple[Any, ...]] = []
    step = SPAN / n
    for i in range(n):
        match_id = i + 1
        when = to_text(NOW - SPAN + step * i)
        game = rng.choices(names, game_weights)[0]
        kind = (
            "latvian"
            if game == "latvian"
            else rng.choices(["duel", "teams", "ffa"], [0.65, 0.2, 0.15])[0]
        )
        if i < players:  # everybody plays at least once
            first = population[i]
        else:
            first = rng.choices(population, weights)[0]
        people = [first]
        wanted = {"duel": 2, "teams": 4, "ffa": 2, "latvian": 4}[kind]
        while len(people) < wanted:
            p = rng.choices(population, weights)[0]
            if p not in people:
                people.append(p)
        games.append((match_id, GUILD, 1, first, "finished", "{}", "[]", 0, when, when))
        matches.append((match_id, match_id, GUILD, 1, game, when, 3, record))
        if kind == "duel":
            won = rng.randrange(2)
            for s, user in enumerate(people):
                seats.append(
                    (
                        match_id,
                        s,
                        user,
                        None,
                        f"P{user}",
                        s,
                        100.0 if s == won else rng.randrange(100),
                        int(s == won),
                        None,
                    )
                )
        elif kind == "teams":
            won = rng.randrange(2)
            for s, user in enumerate(people):
                side = s % 2
                seats.append(
                    (
                        match_id,
                        s,
                        user,
                        None,
                        f"P{user}",
                        side,
                        100.0 if side == won else 60.0,
                        int(side == won),
                        None,
                    )
                )
        elif kind == "ffa":
            totals = [rng.randrange(100) for _ in range(3)]
            best = max(totals)
            for s, human in enumerate([*people, None]):
                seats.append(
                    (
                        match_id,
                        s,
                        human,
                        None if human else "normal",
                        f"P{human}" if human else "Bot 1",
                        s,
                        float(totals[s]),
                        int(totals[s] == best),
                        None,
                    )
                )
        else:
            order = list(range(4))
            rng.shuffle(order)
            places = (4.0, 3.0, 2.0, 1.0)
            for s, user in enumerate(people):
                place = places[order[s]]
                seats.append(
                    (
                        match_id,
                        s,
                        user,
                        None,
                        f"P{user}",
                        s,
                        float(10 * order[s]),
                        int(place == 4.0),
                        place,
                    )
                )
    return games, matches, seats


async def build(path: Path, players: int, n: int) -> None:
    path.unlink(missing_ok=True)
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    started = time.perf_counter()
    games, matches, seats = synthetic(random.Random(2025), players, n)
    async with await Database.open(path) as db:
        install(db)  # the leaderboard's rules with openskill, as DominoBot.setup_hook does
        for start in range(0, n, BATCH):
            async with db.transaction() as conn:
                await conn.executemany(
                    "INSERT INTO games (id, guild_id, channel_id, creator_id, status, rules,"
                    " seats, seed, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    games[start : start + BATCH],
                )
                await conn.executemany(
                    "INSERT INTO matches (id, game_id, guild_id, channel_id, game, finished_at,"
                    " deals, record) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    matches[start : start + BATCH],
                )
        for start in range(0, len(seats), BATCH * 3):
            async with db.transaction() as conn:
                await conn.executemany(
                    "INSERT INTO match_seats (match_id, seat, user_id, ai_level, name, side,"
                    " total, won, place) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    seats[start : start + BATCH * 3],
                )
        inserted = time.perf_counter()
        replayed = await db.leaderboards.recompute()
        done = time.perf_counter()
    print(
        f"built {n:,} matches ({len(seats):,} seats) of {players:,} players: "
        f"insert {inserted - started:.1f} s, recompute {done - inserted:.1f} s "
        f"({replayed:,} matches, {(done - inserted) / replayed * 1e6:.0f} µs each)"
    )


def report(name: str, times: list[float]) -> None:
    times = sorted(times)
    median = statistics.median(times)
    p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
    print(f"  {name:<46} median {median * 1000:7.2f} ms   p95 {p95 * 1000:7.2f} ms")


async def timed(runs: int, make: Callable[[int], Awaitable[object]]) -> list[float]:
    await make(0)  # warm up
    out = []
    for i in range(runs):
        start = time.perf_counter()
        await make(i)
        out.append(time.perf_counter() - start)
    return out


async def bench(path: Path, runs: int) -> None:
    async with await Database.open(path) as db:
        install(db)  # as DominoBot.setup_hook does: finished matches are counted
        stats = StatsService(db, clock=lambda: NOW)
        await stats.start()
        rng = random.Random(7)
        boards = {g: (await db.leaderboards.leaderboard(GUILD, g)).pages for g, _ in GAMES}
        players = [s.user_id for s in await db.leaderboards.standings(GUILD, "block")]
        heavy = max(await db.leaderboards.standings(GUILD, "block"), key=lambda s: s.matches)
        print(
            f"block board: {len(players):,} players, {boards['block']:,} pages; "
            f"the most active player has {heavy.matches:,} block matches"
        )

        print("leaderboard page (StatsService.leaderboard):")
        for period in ("all", "month", "week"):
            pages = (await stats.leaderboard(GUILD, "block", period)).pages

            async def page(i: int, period: str = period, pages: int = pages) -> object:
                return await stats.leaderboard(
                    GUILD, "block", period, "rating", rng.randrange(pages)
                )

            report(f"block, {period}, random page of {pages:,}", await timed(runs, page))

        async def places(i: int) -> object:
            return await stats.leaderboard(
                GUILD, "latvian", "all", "places", rng.randrange(boards["latvian"])
            )

        report("latvian by place points, all, random page", await timed(runs, places))

        print("player card (StatsService.card):")

        async def card(i: int) -> object:
            return await stats.card(GUILD, rng.choice(players), "x")

        report("random player", await timed(runs, card))

        async def heavy_card(i: int) -> object:
            return await stats.card(GUILD, heavy.user_id, "x")

        report(f"the most active player ({heavy.matches:,} matches)", await timed(runs, heavy_card))

        print("with what the bot sends (the leaderboard's picture, the card's text):")

        async def page_png(i: int) -> object:
            board = await stats.leaderboard(GUILD, "block", "all", "rating", rng.randrange(100))
            drawn = board_card(board, ENGLISH, "all", None)
            return await asyncio.to_thread(render_leaderboard, drawn)

        report("leaderboard page + image", await timed(runs, page_png))

        async def card_text(i: int) -> object:
            found = await stats.card(GUILD, rng.choice(players), "x")
            return card_embed(found, ENGLISH, "Domino Club")

        report("player card + its text", await timed(runs, card_text))

        print("storing a finished match with its rating update (GameRepository.finish):")

        async def finish(i: int) -> object:
            row = await db.games.create(
                guild_id=GUILD,
                channel_id=10**9 + i + rng.randrange(10**6),
                creator_id=1,
                rules={"game": "block"},
                seats=[],
                seed=0,
                timer=0,
                now=NOW,
            )
            a, b = rng.sample(players, 2)
            match = FinishedMatch(
                game="block",
                finished_at=NOW,
                record={"format": "domino-record/1", "synthetic": True},
                seats=(
                    MatchSeat(0, a, None, f"P{a}", 0, 100.0, True, None),
                    MatchSeat(1, b, None, f"P{b}", 1, 40.0, False, None),
                ),
                deals=(),
            )
            return await db.games.finish(
                row.id, 0, now=NOW, status="finished", state={}, seats=[], match=match
            )

        report("one 1v1 match", await timed(min(runs, 100), finish))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, default=Path("/tmp/dominobot-leaderboard-bench.db"))
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--rebuild", action="store_true", help="build the data set again")
    args = parser.parse_args(argv)
    if args.rebuild or not args.db.exists():
        asyncio.run(build(args.db, args.players, args.matches))
    asyncio.run(bench(args.db, args.runs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
