"""What SQLite's ``synchronous`` setting costs a game save (issue 37, row 14).

In WAL mode, ``synchronous=NORMAL`` syncs the write-ahead log only at checkpoints: a
commit survives a crash of the bot, but a power loss (or a kernel panic) may take the
last commits before the checkpoint with it, moves that were saved and already
announced on Discord. ``FULL`` syncs the log at every commit, so a commit that returned
is on disk. This measures the price: the real save path (``db.games.save``: one
versioned ``UPDATE`` of a game's row with its state, a 4-player block match some
moves in) on a real file, one save after another, with the writer at ``NORMAL`` and at
``FULL``, in alternating rounds so that both see the same machine.

    python benchmarks/sqlite_sync_bench.py [--saves 400] [--rounds 3] [--folder DIR]

``--folder`` is where the database file lives (default: a new folder under the current
one, on the disk the bot would use; a tmpfs such as /tmp syncs for free and measures
nothing). Reported per mode: the median, 95th percentile and mean milliseconds of one
save, and saves per second.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bot.engine import Rules, legal_moves, new_match, play, state_to_json
from bot.storage import Database

MODES = ("NORMAL", "FULL")


def sample_state(moves: int = 12) -> dict[str, Any]:
    """A 4-player block match ``moves`` moves into its first deal, as saved."""
    rng = random.Random(37)
    state = new_match(Rules.make("block", players=4), rng)
    for _ in range(moves):
        options = legal_moves(state)
        if not options:
            break
        state = play(state, rng.choice(options))
    return state_to_json(state)


async def measure(path: Path, mode: str, saves: int, state: dict[str, Any]) -> list[float]:
    """Milliseconds of each of ``saves`` saves with the writer at ``mode``."""
    db = await Database.open(path)
    try:
        await db.write(f"PRAGMA synchronous = {mode}")
        now = datetime(2026, 1, 1, tzinfo=UTC)
        game = await db.games.create(
            guild_id=1, channel_id=random.randrange(1 << 40), creator_id=1, rules={},
            seats=[], seed=1, timer=0, now=now,
        )  # fmt: skip
        version = game.version
        times: list[float] = []
        for _ in range(saves):
            start = time.perf_counter()
            row = await db.games.save(game.id, version, now=now, state=state)
            times.append((time.perf_counter() - start) * 1000)
            version = row.version
        await db.games.save(game.id, version, now=now, status="cancelled")
        return times
    finally:
        await db.close()


def report(mode: str, times: list[float]) -> str:
    ordered = sorted(times)
    p95 = ordered[int(0.95 * (len(ordered) - 1))]
    mean = statistics.fmean(times)
    return (
        f"{mode:>6}: median {statistics.median(times):6.3f} ms, p95 {p95:6.3f} ms, "
        f"mean {mean:6.3f} ms, {1000 / mean:7.0f} saves/s ({len(times)} saves)"
    )


async def main(saves: int, rounds: int, folder: Path) -> None:
    state = sample_state()
    path = folder / "bench.sqlite3"
    print(f"database {path}; state {len(str(state))} characters of JSON")
    results: dict[str, list[float]] = {mode: [] for mode in MODES}
    for _ in range(rounds):
        for mode in MODES:
            results[mode] += await measure(path, mode, saves, state)
    for mode in MODES:
        print(report(mode, results[mode]))
    extra = statistics.median(results["FULL"]) - statistics.median(results["NORMAL"])
    print(f"FULL costs {extra:.3f} ms more per save (median)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--saves", type=int, default=400, help="saves per round and mode")
    parser.add_argument("--rounds", type=int, default=3, help="rounds, the modes alternating")
    parser.add_argument("--folder", type=Path, default=None, help="where the file lives")
    args = parser.parse_args()
    if args.folder is not None:
        asyncio.run(main(args.saves, args.rounds, args.folder))
    else:
        with tempfile.TemporaryDirectory(dir=Path.cwd(), prefix="sync-bench-") as folder:
            asyncio.run(main(args.saves, args.rounds, Path(folder)))
