"""What saving one move costs at deal 1 and at deal 100 of a 100-deal latvian session.

The game service saves every move (``Saver.commit``, ``bot/games/saving.py``). It used to
write the whole match record into ``games.state`` each time (``state_to_json`` and one
``UPDATE``), so a save grew with the match; now it appends only what is new
(``record_gain``, a ``RecordAppend``: the record kept in pieces, ``bot/storage/games.py``).
This times both, side by side in one run, on SQLite and on PostgreSQL:

- **new**: ``RecordAppend(None, *record_gain(before, after))`` and
  ``db.games.update(..., seats=..., log=..., turn_started_at=...)``, as ``Saver.commit`` does;
- **old**: ``state_to_json(after, names)`` and ``db.games.update(..., seats=...,
  state=..., turn_started_at=...)``, as the service's save did before.

Each of ``--games`` random 100-deal sessions of 4 players is played in memory first
(random legal moves, a save after each move, the next deal dealt in the save that ends
a deal). Then for each session four games are stored: saved the new way move by move up
to the start of deal 1 and of deal 100, and the old way at the same two places. The
timed saves are the moves inside deal 1 and inside deal 100 (a move that ends a deal is
left out: it also deals the next one). Per session the new way's saves come first, then
the old way's (whose 60 KB saves would disturb the small ones), each way's two games in
turns, in a shuffled order each time, so that a busy moment of the machine falls on
both deals alike; the garbage collector waits while a save is timed (as in timeit).
A save is timed from the two states to the new version back from the database.

It prints, per backend and way, the median and p95 milliseconds of a save at deal 1
and at deal 100 and their ratio (deal 100 / deal 1; the goal for the new way: within
10%), and the bytes a save writes. PostgreSQL: ``--database URL`` (a server where the
user may create databases: the run makes one and drops it), else a throwaway server is
started for the run when PostgreSQL is installed (``tests/postgres_support.py``), else
it is skipped. ::

    .venv/bin/python benchmarks/save_bench.py [--games 40] [--deals 100]
        [--database postgresql://...] [--no-postgres] [--json PATH]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.engine import MatchState, Rules, new_match, next_deal, play, state_to_json  # noqa: E402
from bot.engine.record import record_gain, record_head  # noqa: E402
from bot.storage import Database, GameRow, RecordAppend  # noqa: E402
from bot.storage.codec import to_json  # noqa: E402

GOAL = 1.10
PLAYERS = 4
NAMES = [f"Player {seat}" for seat in range(PLAYERS)]
SEATS = [{"name": n, "user_id": 1000 + i, "ai": None, "missed": 0} for i, n in enumerate(NAMES)]
NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
WAYS = ("new", "old")


@dataclass
class Session:
    """One random session played in memory: the state of every save, in order."""

    saves: list[MatchState]

    def start_of(self, deal: int) -> int:
        """The index of the save that dealt ``deal``."""
        return next(i for i, s in enumerate(self.saves) if s.deal_number == deal)

    def moves_in(self, deal: int) -> list[int]:
        """The saves of one move inside ``deal`` (not the one that ends it)."""
        return [
            i
            for i in range(1, len(self.saves))
            if self.saves[i - 1].deal_number == deal == self.saves[i].deal_number
            and not self.saves[i].deal.over
        ]


def play_session(seed: int, deals: int) -> Session:
    rules = Rules.make("latvian", players=PLAYERS, deals=deals)
    rng = random.Random(seed)
    state = new_match(rules, random.Random(f"{seed}:1"))
    saves = [state]
    while not state.over:
        state = play(state, rng.choice(state.legal_moves()))
        if state.deal.over and not state.over:
            state = next_deal(state, random.Random(f"{seed}:{state.deal_number + 1}"))
        saves.append(state)
    return Session(saves)


@dataclass
class Game:
    """A stored game and the save it is at."""

    id: int
    version: int
    at: int
    way: str


@dataclass
class Series:
    times: list[float] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)


async def save(db: Database, game: Game, before: MatchState, after: MatchState) -> int:
    """One save of ``after`` (the game holds ``before``), the new or the old way; the
    bytes of record it writes (the game is at ``after`` then)."""
    seats = SEATS
    if game.way == "new":
        head = record_head(after, NAMES) if game.at < 0 else None
        deals, moves = record_gain(None if game.at < 0 else before, after)
        log = RecordAppend(head, deals, moves)
        game.version = await db.games.update(
            game.id, game.version, now=NOW, seats=seats, log=log, turn_started_at=NOW
        )
        return sum(len(str(v)) for i in log.inserts(game.id) for row in i.rows for v in row)
    record = state_to_json(after, NAMES)
    game.version = await db.games.update(
        game.id, game.version, now=NOW, seats=seats, state=record, turn_started_at=NOW
    )
    return len(to_json(record))


async def new_game(db: Database, channel: int, way: str) -> Game:
    row: GameRow = await db.games.create(
        guild_id=1, channel_id=channel, creator_id=1000, rules={}, seats=SEATS, seed=1,
        timer=0, now=NOW,
    )  # fmt: skip
    saved = await db.games.save(row.id, row.version, now=NOW, status="playing")
    return Game(saved.id, saved.version, -1, way)


async def place(db: Database, session: Session, game: Game, index: int) -> None:
    """Bring ``game`` to save ``index`` of ``session``: the new way save by save (as the
    bot would have), the old way in one save of the whole record."""
    if game.at == index:
        return
    if game.way == "old":
        await save(db, game, session.saves[index], session.saves[index])
        game.at = index
        return
    while game.at < index:
        before = session.saves[max(game.at, 0)]
        await save(db, game, before, session.saves[game.at + 1])
        game.at += 1


async def run_backend(db: Database, sessions: list[Session], deals: int) -> dict[str, Any]:
    channels = iter(range(1, 10**6))
    shuffle = random.Random(2026).shuffle
    series = {(way, deal): Series() for way in WAYS for deal in (1, deals)}
    for session in sessions:
        games: dict[tuple[str, int], Game] = {}
        for way in WAYS:
            for deal in (1, deals):
                game = await new_game(db, next(channels), way)
                await place(db, session, game, session.start_of(deal))
                games[way, deal] = game
        turns = {deal: session.moves_in(deal) for deal in (1, deals)}
        for way in WAYS:  # the new way's saves, then the old way's
            for step in range(max(len(t) for t in turns.values())):
                order = [deal for deal in (1, deals) if step < len(turns[deal])]
                shuffle(order)  # neither deal always right after the other
                for deal in order:
                    index = turns[deal][step]
                    game = games[way, deal]
                    await place(db, session, game, index - 1)  # a move left out: caught up
                    before, after = session.saves[index - 1], session.saves[index]
                    gc.disable()
                    start = time.perf_counter()
                    size = await save(db, game, before, after)
                    series[way, deal].times.append(time.perf_counter() - start)
                    gc.enable()
                    series[way, deal].sizes.append(size)
                    game.at = index
    return {f"{way}@{deal}": s for (way, deal), s in series.items()}


def summary(series: dict[str, Any], deals: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for way in WAYS:
        row: dict[str, Any] = {}
        for deal in (1, deals):
            s: Series = series[f"{way}@{deal}"]
            times = sorted(s.times)
            row[f"deal{deal}"] = {
                "saves": len(times),
                "median_ms": statistics.median(times) * 1e3,
                "p95_ms": times[int(0.95 * (len(times) - 1))] * 1e3,
                "bytes": statistics.median(s.sizes),
            }
        first, last = row["deal1"], row[f"deal{deals}"]
        row["ratio_median"] = last["median_ms"] / first["median_ms"]
        row["ratio_p95"] = last["p95_ms"] / first["p95_ms"]
        out[way] = row
    return out


def show(name: str, result: dict[str, Any], deals: int) -> None:
    print(f"\n{name}")
    print(
        f"  {'way':<4} {'deal':>5} {'saves':>6} {'median ms':>10} {'p95 ms':>8}"
        f" {'bytes':>7}   deal {deals}/deal 1 (median, p95)"
    )
    for way in WAYS:
        row = result[way]
        for deal in (1, deals):
            cell = row[f"deal{deal}"]
            ratio = ""
            if deal == deals:
                verdict = ""
                if way == "new":
                    ok = row["ratio_median"] <= GOAL
                    verdict = f"  goal <= {GOAL:.2f}: {'met' if ok else 'MISSED'}"
                ratio = f"   {row['ratio_median']:.2f}, {row['ratio_p95']:.2f}{verdict}"
            print(
                f"  {way:<4} {deal:>5} {cell['saves']:>6} {cell['median_ms']:>10.3f}"
                f" {cell['p95_ms']:>8.3f} {cell['bytes']:>7.0f}{ratio}"
            )


@asynccontextmanager
async def sqlite_database() -> AsyncIterator[Database]:
    with tempfile.TemporaryDirectory(prefix="save-bench-") as folder:
        db = await Database.open(Path(folder) / "bench.sqlite3")
        try:
            yield db
        finally:
            await db.close()


@asynccontextmanager
async def postgres_database(url: str) -> AsyncIterator[Database]:
    from load import drop_postgres, fresh_postgres

    location = await fresh_postgres(url)
    try:
        db = await Database.open(location)
        try:
            yield db
        finally:
            await db.close()
    finally:
        await drop_postgres(url, location)


@asynccontextmanager
async def throwaway_server() -> AsyncIterator[str | None]:
    """A PostgreSQL server for the run (tests/postgres_support.py), or None without one."""
    sys.path.insert(0, str(ROOT / "tests"))
    import postgres_support  # type: ignore[import-not-found]

    bindir = postgres_support.binaries()
    if bindir is None:
        yield None
        return
    cluster = postgres_support.Cluster(bindir)
    try:
        cluster.start()
        yield cluster.url()
    finally:
        try:
            cluster.stop()
        finally:
            cluster.remove()


async def measure(
    name: str,
    opened: Callable[[], AbstractAsyncContextManager[Database]],
    sessions: list[Session],
    deals: int,
) -> dict[str, Any]:
    async with opened() as db:
        result = summary(await run_backend(db, sessions, deals), deals)
    show(name, result, deals)
    return result


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    started = time.perf_counter()
    sessions = [play_session(seed, args.deals) for seed in range(args.games)]
    record = to_json(state_to_json(sessions[0].saves[sessions[0].start_of(args.deals)], NAMES))
    moves = sum(len(s.moves_in(1)) + len(s.moves_in(args.deals)) for s in sessions)
    print(
        f"{args.games} latvian sessions of {args.deals} deals, {PLAYERS} players:"
        f" {moves} timed moves per way; the record at the start of deal {args.deals}:"
        f" {len(record) / 1024:.1f} KB (played in {time.perf_counter() - started:.1f} s)"
    )
    results: dict[str, Any] = {
        "goal_ratio": GOAL,
        "record_kb_at_last_deal": len(record) / 1024,
    }
    results["sqlite"] = await measure("SQLite (a file, WAL)", sqlite_database, sessions, args.deals)
    if args.no_postgres:
        return results
    if args.database:
        url = args.database
        results["postgresql"] = await measure(
            "PostgreSQL", lambda: postgres_database(url), sessions, args.deals
        )
        return results
    async with throwaway_server() as server:
        if server is None:
            print("\nPostgreSQL: skipped (not installed; or give --database URL)")
            return results
        results["postgresql"] = await measure(
            "PostgreSQL (a throwaway server on a unix socket, fsync off)",
            lambda: postgres_database(server),
            sessions,
            args.deals,
        )
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40, help="sessions (default 40)")
    parser.add_argument("--deals", type=int, default=100, help="deals a session (default 100)")
    parser.add_argument("--database", help="a PostgreSQL server's URL (CREATEDB needed)")
    parser.add_argument("--no-postgres", action="store_true", help="SQLite only")
    parser.add_argument("--json", type=Path, help="also write the figures as JSON")
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    results = asyncio.run(main_async(args))
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
