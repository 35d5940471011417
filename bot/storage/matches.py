"""Finished matches: ``matches``, ``match_seats`` and ``match_deals``.

A match is written once, by :meth:`GameRepository.finish`, in the same
transaction as the game's final save; :class:`MatchRepository` reads them back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

import aiosqlite

from .codec import from_text, json_list, json_object, to_json, to_text
from .sql import execute_many

if TYPE_CHECKING:
    from .database import Database
    from .games import GameRow


@dataclass(frozen=True, slots=True)
class MatchSeat:
    """One seat of a finished match; ``user_id`` is None for an AI seat."""

    seat: int
    user_id: int | None
    ai_level: str | None
    name: str
    side: int
    total: float
    won: bool
    place: float | None


@dataclass(frozen=True, slots=True)
class MatchDeal:
    """One deal of a finished match (``deal`` counts from 1)."""

    deal: int
    end_kind: str
    winners: tuple[int, ...]
    score: tuple[float, ...]


@dataclass(frozen=True, slots=True)
class FinishedMatch:
    """What :meth:`GameRepository.finish` stores about a match that ended."""

    game: str
    finished_at: datetime
    record: dict[str, Any]
    seats: tuple[MatchSeat, ...]
    deals: tuple[MatchDeal, ...]


@dataclass(frozen=True, slots=True)
class MatchRow:
    """A stored match with its seats (by seat) and deal results (by deal)."""

    id: int
    game_id: int
    guild_id: int
    channel_id: int
    game: str
    finished_at: datetime
    deals: int
    record: dict[str, Any]
    seats: tuple[MatchSeat, ...]
    deal_results: tuple[MatchDeal, ...]


async def insert_match(conn: aiosqlite.Connection, game: GameRow, match: FinishedMatch) -> int:
    """Insert the match of ``game`` with its seats and deals (inside the caller's transaction)."""
    async with conn.execute(
        "INSERT INTO matches (game_id, guild_id, channel_id, game, finished_at, deals, record)"
        " VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
        (
            game.id,
            game.guild_id,
            game.channel_id,
            match.game,
            to_text(match.finished_at),
            len(match.deals),
            to_json(match.record),
        ),
    ) as cursor:
        row = await cursor.fetchone()
    assert row is not None
    match_id = int(row[0])
    await execute_many(
        conn,
        "INSERT INTO match_seats (match_id, seat, user_id, ai_level, name, side, total, won, place)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                match_id,
                s.seat,
                s.user_id,
                s.ai_level,
                s.name,
                s.side,
                float(s.total),
                int(bool(s.won)),
                None if s.place is None else float(s.place),
            )
            for s in match.seats
        ],
    )
    await execute_many(
        conn,
        "INSERT INTO match_deals (match_id, deal, end_kind, winners, score) VALUES (?, ?, ?, ?, ?)",
        [
            (match_id, d.deal, d.end_kind, to_json(list(d.winners)), to_json(list(d.score)))
            for d in match.deals
        ],
    )
    return match_id


def _seat(row: aiosqlite.Row) -> MatchSeat:
    place = row["place"]
    return MatchSeat(
        seat=row["seat"],
        user_id=row["user_id"],
        ai_level=row["ai_level"],
        name=row["name"],
        side=row["side"],
        total=float(row["total"]),
        won=bool(row["won"]),
        place=None if place is None else float(place),
    )


def _deal(row: aiosqlite.Row) -> MatchDeal:
    return MatchDeal(
        deal=row["deal"],
        end_kind=row["end_kind"],
        winners=tuple(int(w) for w in json_list(row["winners"], "match_deals.winners")),
        score=tuple(float(x) for x in json_list(row["score"], "match_deals.score")),
    )


class MatchRepository:
    """Read finished matches."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def for_game(self, game_id: int) -> MatchRow | None:
        """The match recorded for a game, or None."""
        matches = await self._load("WHERE game_id = ?", (game_id,))
        return matches[0] if matches else None

    async def recent(self, guild_id: int, limit: int = 10) -> list[MatchRow]:
        """The guild's latest ``limit`` matches, newest first."""
        if limit <= 0:
            return []
        return await self._load(
            "WHERE guild_id = ? ORDER BY finished_at DESC, id DESC LIMIT ?", (guild_id, limit)
        )

    async def _load(self, where: str, params: Sequence[Any]) -> list[MatchRow]:
        # The three queries see one state (fetchall runs inside the snapshot).
        async with self._db.snapshot():
            rows = await self._db.fetchall(f"SELECT * FROM matches {where}", params)
            if not rows:
                return []
            ids = [row["id"] for row in rows]
            marks = ", ".join("?" * len(ids))
            seat_rows = await self._db.fetchall(
                f"SELECT * FROM match_seats WHERE match_id IN ({marks}) ORDER BY match_id, seat",
                ids,
            )
            deal_rows = await self._db.fetchall(
                f"SELECT * FROM match_deals WHERE match_id IN ({marks}) ORDER BY match_id, deal",
                ids,
            )
        seats: dict[int, list[MatchSeat]] = {i: [] for i in ids}
        for row in seat_rows:
            seats[row["match_id"]].append(_seat(row))
        deals: dict[int, list[MatchDeal]] = {i: [] for i in ids}
        for row in deal_rows:
            deals[row["match_id"]].append(_deal(row))
        return [
            MatchRow(
                id=row["id"],
                game_id=row["game_id"],
                guild_id=row["guild_id"],
                channel_id=row["channel_id"],
                game=row["game"],
                finished_at=from_text(row["finished_at"]),
                deals=row["deals"],
                record=json_object(row["record"], "matches.record"),
                seats=tuple(seats[row["id"]]),
                deal_results=tuple(deals[row["id"]]),
            )
            for row in rows
        ]
