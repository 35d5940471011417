"""The game service's tests' helpers: a publisher that keeps what it is handed (no
Discord at all) and an AI that plays the first legal move, both real implementations
of the service's protocols; the players' ids."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from bot.engine import Move
from bot.engine.view import PlayerView
from bot.games.service import Update
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
