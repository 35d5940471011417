"""The game service's tests' helpers: a publisher that keeps what it is handed (no
Discord at all) and an AI that plays the first legal move, both real implementations
of the service's protocols; the players' ids; waiting for the service's own tasks."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from bot.engine import Move
from bot.engine.view import PlayerView
from bot.games.service import GameService, Update
from bot.games.session import Session

T0 = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)
GUILD = 1
ALICE, BOB, CAROL = 11, 12, 13

Started = Callable[..., Awaitable[Session]]


class RecordingPublisher:
    """A :class:`~bot.games.service.Publisher` that keeps every table and update."""

    def __init__(self) -> None:
        self.tables: list[Session] = []
        self.updates: list[Update] = []

    async def open_table(self, session: Session) -> None:
        self.tables.append(session)

    def publish(self, update: Update) -> None:
        self.updates.append(update)

    async def repost(self, session: Session) -> bool:
        self.tables.append(session)
        return True


@dataclass(frozen=True, slots=True)
class Decision:
    move: Move


class FirstLegalMove:
    """A :class:`~bot.games.service.Decider` that plays the first legal move."""

    async def decide(self, seen: PlayerView, level: str, rng: random.Random) -> Decision:
        return Decision(seen.legal_moves[0])

    async def close(self) -> None:
        pass


async def until(done: Callable[[], Awaitable[bool]], *, steps: int = 2000) -> None:
    """Wait (a few ms at a time) until ``done()`` holds; fail if it never does."""
    for _ in range(steps):
        if await done():
            return
        await asyncio.sleep(0.005)
    raise AssertionError("the service never got there")


async def alice_opens(service: GameService, channel: int, players: int = 2) -> Session:
    """Alice's block table for ``players``, in the lobby."""
    return await service.open_lobby(
        guild_id=GUILD,
        channel_id=channel,
        user_id=ALICE,
        name="Alice",
        options={"game": "block", "players": players},
    )


async def against_the_ai(service: GameService, channel: int) -> Session:
    """Alice against an AI seat in a two-player block game, started."""
    lobby = await alice_opens(service, channel)
    await service.add_bot(lobby.id, ALICE, "easy")
    return await service.start(lobby.id, ALICE)


def moved_past(service: GameService, game_id: int, version: int) -> Callable[[], Awaitable[bool]]:
    """For :func:`until`: the game is past ``version`` (or over and forgotten)."""

    async def done() -> bool:
        current = await service.get(game_id)
        return current is None or current.version > version

    return done
