"""Finished matches: ``matches``, ``match_seats`` and ``match_deals``.

A match is written once, by :meth:`GameRepository.finish`, in the same
transaction as the game's final save (:func:`insert_match`);
:class:`MatchRepository` reads the server's history and a match's record, and
:func:`matches_after` reads them back in the order they were written, for the
leaderboard's rebuild.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from .codec import from_row, json_object, to_json, to_row, to_text
from .sql import Connection, Row

if TYPE_CHECKING:
    from .database import Database
    from .games import GameRow

_CHUNK = 5000


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
class MatchSummary:
    """A stored match without its record and deals: for history lists and the leaderboard."""

    id: int
    game_id: int
    channel_id: int
    game: str
    finished_at: datetime
    deals: int
    seats: tuple[MatchSeat, ...]
    """By seat number."""

    @property
    def winners(self) -> tuple[MatchSeat, ...]:
        return tuple(s for s in self.seats if s.won)


@dataclass(frozen=True, slots=True)
class HistoryPage:
    """One page of a server's matches, newest first."""

    guild_id: int
    page: int
    page_size: int
    total: int
    entries: tuple[MatchSummary, ...]

    @property
    def pages(self) -> int:
        return page_count(self.total, self.page_size)


def page_count(total: int, size: int) -> int:
    """How many pages ``total`` rows make, ``size`` a page (at least one, maybe empty)."""
    return max(1, -(-total // size))


def page_within(page: int, total: int, size: int) -> int:
    """``page`` (from 0) as shown: a page past the end is the last one."""
    return min(max(page, 0), page_count(total, size) - 1)


# -- writing --------------------------------------------------------------------------------


async def insert_match(conn: Connection, game: GameRow, match: FinishedMatch) -> MatchSummary:
    """Insert the match of ``game`` with its seats and deals (inside the caller's transaction)."""
    match_id = await conn.fetchint(
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
    )
    columns = "match_id, seat, user_id, ai_level, name, side, total, won, place"
    await conn.executemany(
        f"INSERT INTO match_seats ({columns}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            to_row(
                s,
                columns,
                match_id=match_id,
                total=float(s.total),
                won=int(bool(s.won)),
                place=None if s.place is None else float(s.place),
            )
            for s in match.seats
        ],
    )
    await conn.executemany(
        "INSERT INTO match_deals (match_id, deal, end_kind, winners, score) VALUES (?, ?, ?, ?, ?)",
        [
            (match_id, d.deal, d.end_kind, to_json(list(d.winners)), to_json(list(d.score)))
            for d in match.deals
        ],
    )
    seats = tuple(sorted(match.seats, key=lambda s: s.seat))
    return MatchSummary(
        match_id, game.id, game.channel_id, match.game, match.finished_at, len(match.deals), seats
    )


# -- reading --------------------------------------------------------------------------------


async def matches_after(
    conn: Connection, guild_id: int, after_match_id: int
) -> AsyncIterator[MatchSummary]:
    """The server's matches with an id above ``after_match_id``, in id order (the order
    they were written), read in chunks on ``conn``. Matches without seats are skipped."""
    current: Row | None = None
    seats: list[MatchSeat] = []
    async for batch in conn.chunks(
        "SELECT m.id AS id, m.game_id AS game_id, m.channel_id AS channel_id, m.game AS game,"
        " m.finished_at AS finished_at, m.deals AS deals, s.*"
        " FROM matches m JOIN match_seats s ON s.match_id = m.id"
        " WHERE m.guild_id = ? AND m.id > ? ORDER BY m.id, s.seat",
        (guild_id, after_match_id),
        _CHUNK,
    ):
        for row in batch:
            if current is None or row["id"] != current["id"]:
                if current is not None:
                    yield _summary(current, seats)
                current, seats = row, []
            seats.append(from_row(MatchSeat, row))
    if current is not None:
        yield _summary(current, seats)


def _summary(row: Row, seats: Sequence[MatchSeat]) -> MatchSummary:
    return from_row(MatchSummary, row, seats=tuple(seats))


class MatchRepository:
    """A server's match history and a match's record."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def history(self, guild_id: int, *, page: int = 0, page_size: int = 10) -> HistoryPage:
        """A page of the server's matches (all of them, resets or not), newest first.

        A page past the end gives the last page.
        """
        if page_size <= 0:
            raise ValueError(f"page size must be positive, not {page_size}")
        async with self._db.snapshot():
            total = await self._db.fetchint(
                "SELECT count(*) FROM matches WHERE guild_id = ?", (guild_id,)
            )
            page = page_within(page, total, page_size)
            entries = await self._summaries(
                " WHERE guild_id = ? ORDER BY finished_at DESC, id DESC LIMIT ? OFFSET ?",
                (guild_id, page_size, page * page_size),
            )
        return HistoryPage(guild_id, page, page_size, total, tuple(entries))

    async def summary(self, guild_id: int, match_id: int) -> MatchSummary | None:
        """One of the server's matches without its record, or None (no such match here)."""
        async with self._db.snapshot():
            found = await self._summaries(" WHERE id = ? AND guild_id = ?", (match_id, guild_id))
        return next(iter(found), None)

    async def _summaries(self, where: str, params: Sequence[Any]) -> list[MatchSummary]:
        """The matches ``where`` finds (in its order), each with its seats (in a snapshot)."""
        rows = await self._db.fetchall(
            f"SELECT id, game_id, channel_id, game, finished_at, deals FROM matches{where}", params
        )
        ids = [r["id"] for r in rows]
        seats: dict[int, list[MatchSeat]] = {i: [] for i in ids}
        if ids:
            for r in await self._db.fetchall(
                f"SELECT * FROM match_seats WHERE match_id IN ({', '.join('?' * len(ids))})"
                " ORDER BY match_id, seat",
                ids,
            ):
                seats[r["match_id"]].append(from_row(MatchSeat, r))
        return [_summary(r, seats[r["id"]]) for r in rows]

    async def last_of(self, guild_id: int, user_id: int) -> int | None:
        """The id of the server's latest match ``user_id`` had a seat in, or None."""
        row = await self._db.fetchone(
            "SELECT m.id FROM matches m JOIN match_seats s ON s.match_id = m.id"
            " WHERE m.guild_id = ? AND s.user_id = ?"
            " ORDER BY m.finished_at DESC, m.id DESC LIMIT 1",
            (guild_id, user_id),
        )
        return None if row is None else int(row[0])

    async def of_game(self, guild_id: int, game_id: int) -> int | None:
        """The id of the match the server's game ``game_id`` ended in, or None."""
        row = await self._db.fetchone(
            "SELECT id FROM matches WHERE game_id = ? AND guild_id = ?", (game_id, guild_id)
        )
        return None if row is None else int(row[0])

    async def record(self, guild_id: int, match_id: int) -> dict[str, Any] | None:
        """The record of one of the server's matches, or None (no such match here)."""
        row = await self._db.fetchone(
            "SELECT record FROM matches WHERE id = ? AND guild_id = ?", (match_id, guild_id)
        )
        return None if row is None else json_object(row["record"], "matches.record")
