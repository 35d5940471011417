"""A bot process of ``test_owner.py``: the real bot under SimCord on a shared database.

    python tests/e2e/owner_child.py LOCATION SHARDS [--open]

LOCATION is a SQLite file or a PostgreSQL URL; SHARDS is ``-`` (no shards) or
``COUNT:IDS`` (``2:0``). The bot starts (taking ownership of its shards: it may wait
there), then prints, flushed, one line each:

    SERVING <games restored>        started: it owns its shards and restored their games
    OPENED                          with --open: a game opened in its server

and every log line of WARNING and above as ``LOG <level> <logger>: <message>``, in the
same stream, so the order is the order things happened. It then waits for ``STOP`` on
stdin (closes the bot, prints ``STOPPED``, exits 0) or for SIGKILL.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

GUILD_ID = 1180000000004194304  # on shard 0 of 2: (id >> 22) % 2 == 0


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


class Lines(logging.Handler):
    def emit(self, record: logging.LogRecord) -> None:
        say(f"LOG {record.levelname} {record.name}: {record.getMessage()}")


async def main(location: str, shards_text: str, open_game: bool) -> None:
    import simcord

    from bot.client import DominoBot
    from bot.settings import Shards
    from bot.storage import is_url

    logging.getLogger().addHandler(Lines(logging.WARNING))
    shards = None
    if shards_text != "-":
        count, ids = shards_text.split(":")
        shards = Shards(int(count), tuple(int(i) for i in ids.split(",")))
    if is_url(location):
        bot = DominoBot(database_url=location, shards=shards)
    else:
        bot = DominoBot(database_path=location, shards=shards)
    env = simcord.Env(bot)
    guild = env.create_guild("Owners", id=GUILD_ID)
    channel = guild.create_text_channel("dominoes")
    alice = guild.add_member(env.create_user("alice"))
    await env.start()  # setup_hook: one owner per shard, waiting for another one here
    await bot.tree.sync()
    assert bot.restoring is not None
    say(f"SERVING {await bot.restoring}")
    if open_game:
        await alice.slash(channel, "domino new", game="block", players=2)
        say("OPENED")
    line = await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    if line.strip() == "STOP":
        await bot.shutdown()
        await env.shutdown()
        say("STOPPED")


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3:] == ["--open"]))
