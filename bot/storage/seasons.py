"""Leaderboard seasons in SQL: the current one, the closed ones and their archived boards.

A server's **current season** is its ``leaderboard_seasons`` row (none: season 1, since
the first match). Closing it (:meth:`SeasonRepository.close`, one transaction under the
server's lock, like a reset):

- archives the season: its span (started at, ended at, the match ids it counted) and,
  for every game on its boards, the whole ranking as the all-time pages showed it
  (``season_boards``: JSON, by rating, and for latvian by place points too), so an
  archived board reads the same whatever the ratings do later;
- starts the next season: its results go (matches stay, as on a reset); its standings go
  too when the server's setting says ratings **reset**, or keep only their ratings when
  it says **carry** (``leaderboards.carried``: counts, streaks and rated matches at zero,
  players without a rating dropped), and the new season row remembers where the replay
  of its ratings starts (``ratings_after``), so a recompute gives the same numbers.

No rule lives here: when a season is due (the schedule) is ``bot.stats.seasons``'s.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, fields
from datetime import datetime
from typing import TYPE_CHECKING, Any, Final

from .codec import from_row, json_list, to_json, to_row, to_text
from .leaderboards import CARRY_SQL, BoardEntry, BoardPage, Rating, Season, ranking, season_of
from .matches import page_within
from .sql import Connection, Reader, upsert

if TYPE_CHECKING:
    from .database import Database

log = logging.getLogger(__name__)

RATINGS: Final = ("reset", "carry")
"""How ratings go on into the next season: begin anew, or carried over."""
SCHEDULES: Final = ("off", "weekly", "monthly")
"""When seasons close by themselves: never, Mondays 00:00 UTC, the 1st 00:00 UTC."""
LATVIAN_ORDERS: Final = {"latvian": ("rating", "places")}
"""The boards archived per game (every game: by rating)."""


@dataclass(frozen=True, slots=True)
class SeasonSettings:
    """A server's season settings (a server that set nothing has the defaults)."""

    ratings: str = "reset"
    schedule: str = "off"
    schedule_from: datetime | None = None
    """When the schedule was chosen: a schedule closes no season before its first due
    moment after this."""


@dataclass(frozen=True, slots=True)
class CurrentSeason:
    """The season a server's leaderboard counts now."""

    guild_id: int
    number: int
    started_at: datetime | None
    """None: since the server's first match (it never closed nor reset a season)."""
    after_match_id: int


@dataclass(frozen=True, slots=True)
class ClosedSeason:
    """A closed season: its span and what its boards held (per game, players)."""

    guild_id: int
    number: int
    started_at: datetime | None
    ended_at: datetime
    closed_by: int | None
    """Who closed it; None when the schedule did."""
    after_match_id: int
    until_match_id: int
    next_ratings: str
    """How ratings went on into the next season (``reset`` or ``carry``)."""
    games: tuple[tuple[str, int], ...] = ()
    """(game, players on its board), the most players first."""


class SeasonRepository:
    """Season settings, the current season, closing one, and the archived boards."""

    def __init__(self, db: Database) -> None:
        self._db = db

    # -- settings -----------------------------------------------------------------------

    async def settings(self, guild_id: int) -> SeasonSettings:
        return await _settings(self._db, guild_id)

    async def set_settings(
        self,
        guild_id: int,
        *,
        now: datetime,
        ratings: str | None = None,
        schedule: str | None = None,
    ) -> SeasonSettings:
        """Change what is given (None keeps it); a newly chosen schedule counts from ``now``."""
        if ratings is not None and ratings not in RATINGS:
            raise ValueError(f"ratings {ratings!r} is not one of {RATINGS}")
        if schedule is not None and schedule not in SCHEDULES:
            raise ValueError(f"schedule {schedule!r} is not one of {SCHEDULES}")
        async with self._db.transaction() as conn:
            old = await _settings(conn, guild_id)
            since = old.schedule_from
            if schedule is not None and schedule != old.schedule:
                since = now if schedule != "off" else None
            new = SeasonSettings(
                ratings=old.ratings if ratings is None else ratings,
                schedule=old.schedule if schedule is None else schedule,
                schedule_from=since,
            )
            columns = "guild_id, ratings, schedule, schedule_from"
            await conn.execute(
                upsert("season_settings", columns), to_row(new, columns, guild_id=guild_id)
            )
        return new

    async def scheduled(self) -> list[tuple[int, SeasonSettings, CurrentSeason]]:
        """Every server whose seasons close on a schedule, with its current season."""
        rows = await self._db.fetchall(
            "SELECT s.*, l.after_match_id, l.reset_at, l.reset_by, l.number, l.ratings_after"
            " FROM season_settings s LEFT JOIN leaderboard_seasons l"
            " ON l.guild_id = s.guild_id WHERE s.schedule <> 'off' ORDER BY s.guild_id"
        )
        out = []
        for r in rows:
            guild, season = int(r["guild_id"]), None if r["number"] is None else from_row(Season, r)
            out.append((guild, from_row(SeasonSettings, r), _current(guild, season)))
        return out

    # -- the current season and closing it ------------------------------------------------

    async def current(self, guild_id: int) -> CurrentSeason:
        return _current(guild_id, await season_of(self._db, guild_id))

    async def close(
        self, guild_id: int, *, number: int, by: int | None, now: datetime
    ) -> ClosedSeason | None:
        """Close season ``number`` if it is still the current one (else None: closed
        already, by a double click or another process) and start the next one."""
        async with self._db.transaction() as conn:
            await conn.lock(guild_id)  # no match of the server is being counted meanwhile
            season = await season_of(conn, guild_id)
            current = _current(guild_id, season)
            if current.number != number:
                return None
            carry = (await _settings(conn, guild_id)).ratings == "carry"
            last = await conn.fetchint("SELECT coalesce(max(id), 0) FROM matches")
            games = await _archive(conn, guild_id, number)
            closed = ClosedSeason(
                guild_id,
                number,
                current.started_at,
                now,
                by,
                current.after_match_id,
                last,
                "carry" if carry else "reset",
                games,
            )
            columns = (
                "guild_id, number, started_at, ended_at, closed_by, after_match_id,"
                " until_match_id, next_ratings"
            )
            await conn.execute(
                f"INSERT INTO seasons ({columns}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                to_row(closed, columns),
            )
            await conn.execute("DELETE FROM player_results WHERE guild_id = ?", (guild_id,))
            if carry:
                await conn.execute(
                    "DELETE FROM standings WHERE guild_id = ? AND ordinal IS NULL", (guild_id,)
                )
                await conn.execute(CARRY_SQL, (guild_id,))
                ratings_after: int | None = 0 if season is None else season.ratings_from
            else:
                await conn.execute("DELETE FROM standings WHERE guild_id = ?", (guild_id,))
                ratings_after = None
            columns = "guild_id, after_match_id, reset_at, reset_by, number, ratings_after"
            await conn.execute(
                upsert("leaderboard_seasons", columns),
                (guild_id, last, to_text(now), by or 0, number + 1, ratings_after),
            )
        log.info(
            "guild %d: season %d closed by %s after match %d (ratings %s)",
            guild_id,
            number,
            "the schedule" if by is None else by,
            last,
            closed.next_ratings,
        )
        return closed

    # -- closed seasons -------------------------------------------------------------------

    async def closed(self, guild_id: int) -> list[ClosedSeason]:
        """The server's closed seasons, the latest first, with their boards' sizes."""
        async with self._db.snapshot():
            rows = await self._db.fetchall(
                "SELECT * FROM seasons WHERE guild_id = ? ORDER BY number DESC", (guild_id,)
            )
            boards = await self._db.fetchall(
                "SELECT season, game, players FROM season_boards WHERE guild_id = ?"
                " AND board_order = 'rating' ORDER BY players DESC, game",
                (guild_id,),
            )
        games: dict[int, list[tuple[str, int]]] = {}
        for b in boards:
            games.setdefault(int(b["season"]), []).append((str(b["game"]), int(b["players"])))
        return [
            from_row(ClosedSeason, r, games=tuple(games.get(int(r["number"]), ()))) for r in rows
        ]

    async def closed_season(self, guild_id: int, number: int) -> ClosedSeason | None:
        return next((s for s in await self.closed(guild_id) if s.number == number), None)

    async def board(
        self,
        guild_id: int,
        number: int,
        game: str,
        *,
        order: str = "rating",
        page: int = 0,
        page_size: int = 10,
    ) -> BoardPage:
        """A page of a closed season's board, as it was at the close (empty when the
        game had no board that season). A page past the end gives the last page."""
        if page_size <= 0:
            raise ValueError(f"page size must be positive, not {page_size}")
        row = await self._db.fetchone(
            "SELECT entries FROM season_boards WHERE guild_id = ? AND season = ? AND game = ?"
            " AND board_order = ?",
            (guild_id, number, game, order),
        )
        entries = [] if row is None else [_entry(e) for e in json_list(row[0], "entries")]
        page = page_within(page, len(entries), page_size)
        shown = tuple(entries[page * page_size : (page + 1) * page_size])
        return BoardPage(guild_id, game, None, order, page, page_size, len(entries), shown)


async def _archive(conn: Connection, guild_id: int, number: int) -> tuple[tuple[str, int], ...]:
    """Store every board of the season as shown; (game, players) of each, most first."""
    rows = await conn.fetchall(
        "SELECT game, count(*) AS n FROM standings WHERE guild_id = ? AND matches > 0"
        " GROUP BY game ORDER BY n DESC, game",
        (guild_id,),
    )
    games = tuple((str(r["game"]), int(r["n"])) for r in rows)
    for game, _players in games:
        for order in LATVIAN_ORDERS.get(game, ("rating",)):
            entries = await ranking(conn, guild_id, game, order)
            await conn.execute(
                "INSERT INTO season_boards (guild_id, season, game, board_order, players,"
                " entries) VALUES (?, ?, ?, ?, ?, ?)",
                (guild_id, number, game, order, len(entries), to_json(_entries_json(entries))),
            )
    return games


def _entries_json(entries: Sequence[BoardEntry]) -> list[dict[str, Any]]:
    """The entries as archived: each field by name, the rating as [mu, sigma, ordinal]."""
    return [
        {f.name: getattr(e, f.name) for f in fields(BoardEntry)}
        | {"rating": None if e.rating is None else [e.rating.mu, e.rating.sigma, e.rating.ordinal]}
        for e in entries
    ]


def _entry(value: dict[str, Any]) -> BoardEntry:
    rating = value["rating"]
    return from_row(
        BoardEntry, value, rating=None if rating is None else Rating(*(float(x) for x in rating))
    )


async def _settings(reader: Reader, guild_id: int) -> SeasonSettings:
    row = await reader.fetchone(
        "SELECT ratings, schedule, schedule_from FROM season_settings WHERE guild_id = ?",
        (guild_id,),
    )
    return SeasonSettings() if row is None else from_row(SeasonSettings, row)


def _current(guild_id: int, season: Season | None) -> CurrentSeason:
    if season is None:
        return CurrentSeason(guild_id, 1, None, 0)
    return CurrentSeason(guild_id, season.number, season.reset_at, season.after_match_id)
