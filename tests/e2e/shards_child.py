"""A bot process of ``test_shards.py``: one shard of two, on a shared PostgreSQL database.

    python tests/e2e/shards_child.py DATABASE_URL SHARD

Runs the real bot as an ``AutoShardedBot`` on shard ``SHARD`` of :data:`SHARD_COUNT`
under SimCord, in the world :func:`build_world` makes for that shard (its server lives
on that shard; the test builds the same world again to restart the process). It plays,
through the UI, a one-deal block match to its end in the first channel, then starts a
second game in the second channel and makes :data:`MOVES` moves of it. It prints,
flushed, one line each:

    FINISHED <game id>                 a match played to its end
    ACK <game id> <deal> <moves>        a move the bot acknowledged and answered
    READY                               both done: a game is in play

then waits: for SIGKILL, or for a ``GO`` line on stdin, after which it plays the second
game to its end (``FINISHED``), closes the bot and exits.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

SHARD_COUNT = 2
GUILD_IDS = {0: 1180000000004194304, 1: 1180000000000000000}  # (id >> 22) % 2 == shard
MOVES = 4
"""Moves of the second game made before READY."""
SEED = 23
"""Every game's seed: its deal lasts 13 moves when each player plays its first legal
move (a random seed blocks within 5 moves about once in 30 games, and the second game
would end before the test is done with it)."""
ID_GAP = 5000
"""SimCord's ids start at the same value in every world: the world of shard 1 skips
this many, so that its channels are not shard 0's (Discord's ids are unique)."""


def build_world(env: Any, shard: int) -> tuple[Any, list[Any], list[Any]]:
    """The server, its two channels and its two players, always in this order."""
    for _ in range(ID_GAP * shard):
        env.backend.snowflake()
    guild = env.create_guild(f"Shard {shard} Club", id=GUILD_IDS[shard])
    channels = [guild.create_text_channel(f"table-{i}") for i in range(2)]
    players = [guild.add_member(env.create_user(f"player-{shard}{side}")) for side in "ab"]
    return guild, channels, players


def move_ids(message: Any) -> list[str]:
    return [
        c["custom_id"]
        for row in message.components
        for c in row["components"]
        if c.get("custom_id", "").startswith("domino:m:")
    ]


def progress(session: Any) -> tuple[int, int]:
    state = session.state
    return (state.deal_number, len(state.deal.history))


async def open_match(channel: Any, players: list[Any]) -> None:
    """A two-player block match of one deal, started."""
    a, b = players
    await a.slash(channel, "domino new", game="block", players=2, scoring="single", timer=0)
    await b.slash(channel, "domino join")
    await a.slash(channel, "domino start")


async def play_move(bot: Any, channel: Any, players: list[Any]) -> Any:
    """The human to move plays their first move through the UI; the session after it
    (None once the game is over)."""
    session = await bot.games.in_channel(channel.id)
    if session is None:
        return None
    by_id = {p.id: p for p in players}
    seat = session.turn_seat
    assert seat is not None
    assert seat.user_id is not None
    player = by_id[seat.user_id]
    hand = (await player.slash(channel, "domino hand")).response
    moves = move_ids(hand)
    assert moves, "the player to move is offered moves"
    await player.click(hand, custom_id=moves[0])
    return await bot.games.get(session.id)


async def play_to_end(bot: Any, channel: Any, players: list[Any]) -> int:
    """Play the channel's game to its end; its id."""
    session = await bot.games.in_channel(channel.id)
    assert session is not None
    game_id = session.id
    for _ in range(500):
        if await play_move(bot, channel, players) is None:
            break
    final = await bot.games.get(game_id)
    assert final is not None
    assert not final.active, "the game did not end"
    return game_id


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


async def main(url: str, shard: int) -> None:
    import simcord

    from bot.client import DominoBot
    from bot.settings import Shards

    shards = Shards(SHARD_COUNT, (shard,))
    bot = DominoBot(database_url=url, shards=shards, seed_source=lambda: SEED)
    env = simcord.Env(bot)
    _, channels, players = build_world(env, shard)
    await env.start()
    await bot.tree.sync()
    await open_match(channels[0], players)
    say(f"FINISHED {await play_to_end(bot, channels[0], players)}")
    await open_match(channels[1], players)
    for _ in range(MOVES):
        after = await play_move(bot, channels[1], players)
        assert after is not None, "the second game ended too soon"
        deal, moves = progress(after)
        say(f"ACK {after.id} {deal} {moves}")
    say("READY")
    line = await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    if line.strip() == "GO":
        say(f"FINISHED {await play_to_end(bot, channels[1], players)}")
    env.raise_errors()
    await bot.shutdown()
    await env.shutdown()


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
