"""Time from a click on a move button to the updated table, through SimCord.

Four users play partnership block games (all 28 tiles of double-6 in play) through
the real bot: each turn the player opens their hand (/domino hand) and clicks a
move. The timed span is the click: the interaction, the move, the SQLite save and
the redrawn table message. Prints median and p95 over a few hundred moves.

    .venv/bin/python benchmarks/turn_latency.py [--moves 300]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import simcord

from bot.client import DominoBot


def move_buttons(message: simcord.ResponseMessage) -> list[str]:
    return [
        c["custom_id"]
        for row in message.components
        for c in row["components"]
        if c.get("custom_id", "").startswith("domino:m:")
    ]


async def run(moves: int) -> tuple[list[float], list[float]]:
    clicks: list[float] = []
    hands: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        bot = DominoBot(database_path=Path(folder) / "bench.sqlite3")
        async with simcord.run(bot) as env:
            await bot.tree.sync()
            guild = env.create_guild("Bench")
            users = [guild.add_member(env.create_user(f"p{i}")) for i in range(4)]
            by_id = {u.id: u for u in users}
            game = 0
            while len(clicks) < moves:
                game += 1
                channel = guild.create_text_channel(f"table-{game}")
                await users[0].slash(channel, "domino new", game="block", players=4, teams=True)
                table = channel.last_message
                assert table is not None
                for user in users[1:]:
                    await user.click(table, label="Join")
                await users[0].click(table, label="Start")
                while len(clicks) < moves:
                    session = await bot.games.in_channel(channel.id)
                    if session is None or session.turn_seat is None:
                        break
                    user_id = session.turn_seat.user_id
                    assert user_id is not None  # four people play: no AI seat
                    user = by_id[user_id]
                    start = time.perf_counter()
                    hand = (await user.slash(channel, "domino hand")).response
                    hands.append(time.perf_counter() - start)
                    assert hand is not None
                    start = time.perf_counter()
                    await user.click(hand, custom_id=move_buttons(hand)[0])
                    clicks.append(time.perf_counter() - start)
        await bot.shutdown()
    return clicks, hands


def describe(name: str, times: list[float]) -> str:
    ms = sorted(t * 1000 for t in times)
    p95 = ms[int(0.95 * (len(ms) - 1))]
    return f"{name:28} n={len(ms):4}  median {statistics.median(ms):6.1f} ms  p95 {p95:6.1f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=300)
    args = parser.parse_args()
    clicks, hands = asyncio.run(run(args.moves))
    print("Turn latency through SimCord (4-player partnership block, double-6)")
    print(describe("click -> updated table", clicks))
    print(describe("/domino hand -> hand image", hands))
    return 0


if __name__ == "__main__":
    sys.exit(main())
