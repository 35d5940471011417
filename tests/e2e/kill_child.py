"""The bot process that ``test_kill.py`` kills with SIGKILL (no graceful close).

    python tests/e2e/kill_child.py DATABASE GAMES

Runs the real :class:`~bot.client.DominoBot` on the SQLite file ``DATABASE`` under
SimCord, in the world :func:`build_world` makes (the test makes it again to restart
the bot on the same channels and players), and plays ``GAMES`` two-player block games
at once, flat out: one asyncio task per game, whose players open their hand and click
a move, many interactions in flight at once (``benchmarks/load_support.py``: below
SimCord's one-operation-at-a-time guard). It prints, flushed, one line each:

    WORLD <guild id> <channel id>,... <user id>,...
    ACK <game id> <deal> <history length>

An ``ACK`` follows a move click the bot acknowledged and answered with the player's
hand redrawn without that move: the game must hold at least that deal and that many
moves of it (the deal, then the history length, compared in that order).
"""

from __future__ import annotations

import asyncio
import os
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
for entry in (ROOT, ROOT / "benchmarks"):
    if str(entry) not in sys.path:
        sys.path.insert(0, str(entry))

GUILD_ID = 1180000000000000001
GUILD_NAME = "Kill Club"


def build_world(env: Any, guild: Any, games: int) -> tuple[list[Any], list[Any]]:
    """The channels (one per game) and the players (two per game), always in this order."""
    channels, players = [], []
    for i in range(games):
        channels.append(guild.create_text_channel(f"game-{i}"))
        for side in "ab":
            players.append(guild.add_member(env.create_user(f"player-{i}{side}")))
    return channels, players


def world_line(guild: Any, channels: list[Any], players: list[Any]) -> str:
    return "WORLD {} {} {}".format(
        guild.id, ",".join(str(c.id) for c in channels), ",".join(str(p.id) for p in players)
    )


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


async def main(database: Path, games: int) -> None:
    from load_support import Exchange, Table, start_world, token_of

    from bot.client import DominoBot

    built: dict[str, Any] = {}

    def build(env: Any, guild: Any) -> None:
        built["channels"], built["players"] = build_world(env, guild, games)

    bot = DominoBot(database_path=database)
    world = await start_world(bot, guild_name=GUILD_NAME, guild_id=GUILD_ID, build=build)
    channels, players = built["channels"], built["players"]
    say(world_line(world.guild, channels, players))
    harness = world.harness

    def acknowledged(click: Exchange) -> None:
        # Called once the bot answered the click with the hand past the move.
        assert click.custom_id is not None
        token = token_of(click.custom_id)
        assert token is not None
        game = int(click.custom_id.split(":")[2])
        say(f"ACK {game} {token[0]} {token[1] + 1}")

    stop = asyncio.Event()
    rng = random.Random(int(os.environ.get("KILL_CHILD_SEED", "1")))
    tables = [
        Table(
            harness,
            channels[i],
            players[2 * i : 2 * i + 2],
            rng=random.Random(rng.random()),
            stop=stop,
            turn_wait=5.0,
            on_move=acknowledged,
        )
        for i in range(games)
    ]
    await asyncio.gather(*(t.run() for t in tables))  # until the test kills us


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    os.environ.setdefault("TMPDIR", tempfile.gettempdir())
    asyncio.run(main(Path(sys.argv[1]), int(sys.argv[2])))
