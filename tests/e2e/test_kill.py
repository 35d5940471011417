"""kill -9 at random moves of concurrent games: every acknowledged move survives.

A child process (``kill_child.py``) runs the real bot under SimCord on a SQLite file
and plays several games at once, printing an ``ACK`` line for each move the bot
acknowledged and answered. After a random number of them (seeded: the seed and the
kill point are printed) the test kills it with SIGKILL, then checks the file: every
acknowledged move is in it, the database is sound, and a fresh bot started on it, in
the same simulated world, knows every game in play and lets a game go on.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import queue
import random
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO, Any

import pytest
import simcord

from bot.client import DominoBot
from bot.engine import play, state_from_json
from bot.storage import Database

CHILD = Path(__file__).with_name("kill_child.py")
ROOT = Path(__file__).resolve().parents[2]
GAMES = 5
START_SECONDS = 20.0  # the child's start (imports, SimCord, the bot) and its first moves


def child_module() -> Any:
    spec = importlib.util.spec_from_file_location("kill_child", CHILD)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Lines:
    """The child's stdout, line by line, readable with a deadline."""

    def __init__(self, stream: IO[str]) -> None:
        self._queue: queue.Queue[str | None] = queue.Queue()
        self._thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self._thread.start()

    def _read(self, stream: IO[str]) -> None:
        for line in stream:
            self._queue.put(line.rstrip("\n"))
        self._queue.put(None)

    def next(self, deadline: float) -> str | None:
        """The next line; None at the end of the output; TimeoutError past ``deadline``."""
        try:
            return self._queue.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise TimeoutError from None

    def rest(self) -> list[str]:
        """Every line still to come, once the child is gone."""
        self._thread.join(timeout=10)
        out = []
        while True:
            try:
                line = self._queue.get_nowait()
            except queue.Empty:
                return out
            if line is not None:
                out.append(line)


def run_and_kill(database: Path, seed: int, log: Path) -> tuple[list[str], list[tuple[int, ...]]]:
    """Start the child, SIGKILL it at a random acknowledged move; (WORLD line, ACKs)."""
    rng = random.Random(seed)
    target = rng.randint(5, 60)
    delay = rng.uniform(0.0, 0.03)
    print(f"seed {seed}: SIGKILL after {target} acknowledged moves and {delay * 1000:.0f} ms")
    world: list[str] = []
    acks: list[tuple[int, ...]] = []
    with log.open("w") as errors:
        proc = subprocess.Popen(
            [sys.executable, str(CHILD), str(database), str(GAMES)],
            stdout=subprocess.PIPE,
            stderr=errors,
            text=True,
            cwd=ROOT,
            env={**os.environ, "KILL_CHILD_SEED": str(seed)},
        )
        assert proc.stdout is not None
        lines = Lines(proc.stdout)

        def take(line: str) -> None:
            kind, *fields = line.split()
            if kind == "WORLD":
                world[:] = fields
            elif kind == "ACK":
                acks.append(tuple(int(x) for x in fields))

        try:
            deadline = time.monotonic() + START_SECONDS
            while len(acks) < target:
                try:
                    line = lines.next(deadline)
                except TimeoutError:
                    pytest.fail(
                        f"the child made only {len(acks)} acknowledged moves in "
                        f"{START_SECONDS:.0f} s; its stderr:\n{log.read_text()[-4000:]}"
                    )
                if line is None:
                    proc.wait(timeout=10)
                    pytest.fail(
                        f"the child exited ({proc.returncode}) after {len(acks)} acknowledged "
                        f"moves; its stderr:\n{log.read_text()[-4000:]}"
                    )
                take(line)
            time.sleep(delay)
        finally:
            proc.kill()  # SIGKILL: no graceful close, no flush, no atexit
            proc.wait(timeout=10)
        for line in lines.rest():  # printed (so acknowledged) before it died
            take(line)
    assert world, "the child never described its world"
    return world, acks


def progress(state: Any) -> tuple[int, int]:
    return (state.deal_number, len(state.deal.history))


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_a_kill_9_loses_no_acknowledged_move(tmp_path, seed):
    database = tmp_path / "dominobot.sqlite3"
    world, acks = run_and_kill(database, seed, tmp_path / "child.stderr")
    assert acks

    # Every acknowledged move is in the file, and the file is sound.
    db = await Database.open(database)
    try:
        check = await db.fetchone("PRAGMA integrity_check")
        assert check is not None
        assert check[0] == "ok", f"the file is damaged: {tuple(check)}"
        for game_id, deal, history in acks:
            row = await db.games.get(game_id)
            assert row is not None, f"game {game_id} is gone"
            assert row.state, f"game {game_id} lost its state"
            stored = progress(state_from_json(row.state))
            assert stored >= (deal, history), (
                f"game {game_id}: a move acknowledged at deal {deal}, move {history} "
                f"is missing: the file has deal {stored[0]}, move {stored[1]}"
            )
        active = await db.games.active()
    finally:
        await db.close()
    assert active, "the games in play are gone"
    playing = [row for row in active if row.state]
    for row in playing:  # each state in the file takes a legal move
        state = state_from_json(row.state)
        if not state.deal.over:
            play(state, state.legal_moves()[0], state.deal.turn)

    # A fresh bot on the file, in the same world, has every game and goes on playing.
    child = child_module()
    bot = DominoBot(database_path=database)
    env = simcord.Env(bot)
    guild = env.create_guild(child.GUILD_NAME, id=child.GUILD_ID)
    channels, players = child.build_world(env, guild, GAMES)
    assert child.world_line(guild, channels, players).split()[1:] == world, (
        "SimCord gave this world other ids than the child's (creation order changed?)"
    )
    await env.start()
    try:
        await bot.tree.sync()
        restoring = getattr(bot, "restoring", None)
        if restoring is not None:
            await restoring
        for row in active:
            session = await bot.games.get(row.id)
            assert session is not None, f"game {row.id} was not restored"
            assert session.version == row.version
        by_id = {p.id: p for p in players}
        channel_of = {c.id: c for c in channels}
        moved = False
        for row in playing:
            session = await bot.games.in_channel(row.channel_id)
            seat = session.turn_seat if session is not None else None
            if session is None or seat is None or seat.user_id is None:
                continue
            player, channel = by_id[seat.user_id], channel_of[row.channel_id]
            hand = (await player.slash(channel, "domino hand")).response
            moves = [
                c["custom_id"]
                for r in hand.components
                for c in r["components"]
                if c.get("custom_id", "").startswith("domino:m:")
            ]
            if not moves:
                continue
            await player.click(hand, custom_id=moves[0])
            after = await bot.games.get(session.id)
            assert after is not None
            assert after.version > session.version
            assert progress(after.state) > progress(session.state)
            moved = True
            break
        assert moved, "no restored game could take a move"
        env.raise_errors()
    finally:
        with contextlib.suppress(Exception):
            await bot.shutdown()
        await env.shutdown()
