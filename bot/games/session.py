"""A game in a channel: its lobby seats, its match state, its bookkeeping."""

from __future__ import annotations

import random
from dataclasses import dataclass, fields, replace
from datetime import datetime
from typing import Any

from bot.engine import MatchState, Rules, state_from_json, state_to_json
from bot.storage import GameRow
from bot.storage import Status as Status  # the one definition, used from here

LOBBY, PLAYING = Status.LOBBY, Status.PLAYING
FINISHED, CANCELLED, ABANDONED = Status.FINISHED, Status.CANCELLED, Status.ABANDONED
ACTIVE = (LOBBY, PLAYING)
"""A game in one of these is in play: it lives in memory and holds its channel."""
MISSED_TURNS_LIMIT = 3
DECODED = ("rules", "seats", "state")
"""The :class:`Session` fields read from a stored game's JSON."""


@dataclass(frozen=True, slots=True)
class Seat:
    """A player at the table: a Discord user, or an AI (``user_id`` None, ``ai`` its level)."""

    name: str
    user_id: int | None = None
    ai: str | None = None
    missed: int = 0
    """Turns in a row the timer played for this user."""

    @property
    def is_ai(self) -> bool:
        return self.ai is not None

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "user_id": self.user_id, "ai": self.ai, "missed": self.missed}

    @staticmethod
    def from_json(data: dict[str, Any]) -> Seat:
        return Seat(
            name=str(data["name"]),
            user_id=data.get("user_id"),
            ai=data.get("ai"),
            missed=int(data.get("missed", 0)),
        )


class Seated:
    """What a game's seats tell, the same for a :class:`Session` and its public
    snapshot (``bot.games.snapshot``): both hold ``status``, ``rules`` and ``seats``."""

    __slots__ = ()
    status: str
    rules: Rules
    seats: tuple[Seat, ...]

    @property
    def active(self) -> bool:
        return self.status in ACTIVE

    @property
    def full(self) -> bool:
        return len(self.seats) >= self.rules.players

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    def seat_of(self, user_id: int) -> int | None:
        for i, seat in enumerate(self.seats):
            if seat.user_id == user_id:
                return i
        return None


@dataclass(frozen=True, slots=True)
class Session(Seated):
    """One game as the service sees it. A value: changes make new sessions."""

    id: int
    guild_id: int
    channel_id: int
    creator_id: int
    status: str
    rules: Rules
    seats: tuple[Seat, ...]
    state: MatchState | None
    seed: int
    version: int
    timer: int
    table_message_id: int | None
    turn_started_at: datetime | None
    updated_at: datetime
    announced_deals: int = 0
    """Deal summaries shown in Discord (as last written down; the publisher keeps count)."""
    ping_message_id: int | None = None
    """The turn ping shown in Discord (as last written down)."""
    ping_turn: str | None = None

    @staticmethod
    def from_row(row: GameRow) -> Session:
        """The game stored in ``row`` (its other fields are the row's as they are)."""
        return Session(
            **{f.name: getattr(row, f.name) for f in fields(Session) if f.name not in DECODED},
            rules=Rules.from_dict(row.rules),
            seats=tuple(Seat.from_json(s) for s in row.seats),
            state=state_from_json(row.state) if row.state else None,
        )

    # -- reading ---------------------------------------------------------------

    @property
    def playing(self) -> bool:
        return self.status == PLAYING and self.state is not None

    @property
    def turn(self) -> int | None:
        """The seat to move, while a deal is in play."""
        if not self.playing or self.state is None or self.state.deal.over:
            return None
        return self.state.deal.turn

    @property
    def turn_seat(self) -> Seat | None:
        turn = self.turn
        return self.seats[turn] if turn is not None else None

    def record(self) -> dict[str, Any] | None:
        if self.state is None:
            return None
        return state_to_json(self.state, self.names)

    def deal_rng(self, deal_number: int) -> random.Random:
        """The generator that deals deal ``deal_number``: the same after any restart."""
        return random.Random(f"{self.seed}:{deal_number}")

    def with_(self, **changes: Any) -> Session:
        return replace(self, **changes)
