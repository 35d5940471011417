"""Shards in several processes on one PostgreSQL database.

Two bot processes (``shards_child.py``), each an ``AutoShardedBot`` on one shard of two,
each with its own simulated server on its shard, share one PostgreSQL database. Each
finishes a match, then has a game in play; both are in play at once when the process
of shard 0 is killed with SIGKILL. The test then starts shard 0's process again (in
this process, in the same simulated world): every move it acknowledged is in the
database, it restores its own game and not shard 1's, and the game goes on to its end;
shard 1's process, untouched, plays its own game to the end meanwhile. The leaderboard
and history of shard 0's server count the match of the killed process and the one of
its successor, and the history of shard 1's server (written by the other process) is
read from the same database.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
from pathlib import Path
from typing import Any

import simcord
from child_support import next_line, start

from bot.client import DominoBot
from bot.engine import state_from_json
from bot.settings import Shards, shard_of
from bot.storage import Database

HERE = Path(__file__).parent
CHILD = HERE / "shards_child.py"
START_SECONDS = 60.0  # both children: imports, SimCord, the bot, a match and four moves


def child_module() -> Any:
    spec = importlib.util.spec_from_file_location("shards_child", CHILD)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Child:
    """One bot process and the lines it printed."""

    def __init__(self, url: str, shard: int, log: Path) -> None:
        self.shard = shard
        self.log = log
        self.errors = log.open("w")
        self.proc = start(CHILD, url, str(shard), stderr=self.errors)
        self.finished: list[int] = []
        self.acks: list[tuple[int, int, int]] = []

    async def until(self, word: str, timeout: float) -> None:
        """Read lines until ``word`` (FINISHED or READY) is printed."""
        end = asyncio.get_running_loop().time() + timeout
        who = f"shard {self.shard}'s process"
        while True:
            line = await next_line(self.proc, end, who, word, self.stderr)
            kind, *fields = line.split()
            if kind == "FINISHED":
                self.finished.append(int(fields[0]))
            elif kind == "ACK":
                game, deal, moves = (int(x) for x in fields)
                self.acks.append((game, deal, moves))
            if kind == word:
                return

    def stderr(self) -> str:
        self.errors.flush()
        return self.log.read_text()[-4000:]

    def kill(self) -> None:
        self.proc.kill()  # SIGKILL: no graceful close
        self.proc.wait(timeout=10)
        self.errors.close()


def embed_text(message: Any) -> str:
    """A message's words: its text, its embeds and its pictures' alt texts (a leaderboard
    is a picture, its lines read out in the alt text)."""
    parts = [message.content or ""]
    parts += [a.description or "" for a in message.attachments]
    for embed in message.embeds:
        parts += [embed.title or "", embed.description or ""]
        parts += [f"{f.name} {f.value}" for f in embed.fields]
    return "\n".join(parts)


async def test_two_processes_on_two_shards_share_one_database_and_survive_a_kill(
    postgres, tmp_path
):
    child = child_module()
    for shard, guild in child.GUILD_IDS.items():
        assert shard_of(guild, child.SHARD_COUNT) == shard
    url = await postgres.create_database()
    db = await Database.open(url)  # migrated once, before both processes start
    children: list[Child] = []
    bot: DominoBot | None = None
    env: simcord.Env | None = None
    try:
        a = Child(url, 0, tmp_path / "shard0.stderr")
        b = Child(url, 1, tmp_path / "shard1.stderr")
        children += [a, b]
        # Both play at once: a match each, then a game each in play.
        await asyncio.gather(a.until("READY", START_SECONDS), b.until("READY", START_SECONDS))
        assert len(a.finished) == len(b.finished) == 1
        assert a.acks
        assert b.acks
        a.kill()

        # Every move shard 0's process acknowledged is in the database.
        killed_game = a.acks[-1][0]
        for game_id, deal, moves in a.acks:
            row = await db.games.get(game_id)
            assert row is not None
            assert row.state is not None
            state = state_from_json(row.state)
            assert (state.deal_number, len(state.deal.history)) >= (deal, moves)
        active = {row.id: row for row in await db.games.active()}
        other_game = b.acks[-1][0]
        assert set(active) == {killed_game, other_game}  # one game in play per process
        assert shard_of(active[killed_game].guild_id, 2) == 0
        assert shard_of(active[other_game].guild_id, 2) == 1

        # Shard 0's process again, in the same world: only its own game comes back.
        bot = DominoBot(database_url=url, shards=Shards(child.SHARD_COUNT, (0,)))
        env = simcord.Env(bot)
        guild, channels, players = child.build_world(env, 0)
        assert guild.id == child.GUILD_IDS[0]
        await env.start()
        await bot.tree.sync()
        assert bot.restoring is not None
        assert await bot.restoring == 1
        assert bot.games.in_play() == 1
        session = await bot.games.in_channel(channels[1].id)
        assert session is not None
        assert session.id == killed_game
        assert session.version == active[killed_game].version

        # Both go on: shard 1's process plays its game out while this one does.
        assert b.proc.stdin is not None
        b.proc.stdin.write("GO\n")
        b.proc.stdin.flush()
        before = child.progress(session)
        after = await child.play_move(bot, channels[1], players)
        assert after is not None
        assert child.progress(after) > before
        assert await child.play_to_end(bot, channels[1], players) == killed_game
        await b.until("FINISHED", START_SECONDS)
        assert b.proc.wait(timeout=30) == 0, b.stderr()
        assert b.finished == [b.finished[0], other_game]

        # Shard 0's server: the killed process's match and its successor's, both counted.
        alice = players[0]
        board = (await alice.slash(channels[0], "domino leaderboard", game="block")).response
        text = embed_text(board)
        assert text.count("2 matches") == 2, text  # each of the two players
        history = (await alice.slash(channels[0], "domino history")).response
        assert embed_text(history).count("**Block game**") == 2  # both matches listed
        # Shard 1's server, written by the other process, read from the same database.
        page = await db.matches.history(child.GUILD_IDS[1])
        assert page.total == 2
        assert {m.game_id for m in page.entries} == {b.finished[0], other_game}
        assert await db.games.active() == []
        env.raise_errors()
    finally:
        for c in children:
            if c.proc.poll() is None:
                c.kill()
        if bot is not None:
            with contextlib.suppress(Exception):
                await bot.shutdown()
        if env is not None:
            await env.shutdown()
        await db.close()
        await postgres.drop_database(url)
