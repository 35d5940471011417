"""Standings, per-player results and leaderboard resets: the leaderboard's tables, in SQL.

No leaderboard rule lives here. A :class:`Ledger` (the rules: ranks, outcomes,
tallies, streaks and ratings, as pure functions over the plain values below) is
plugged in once, by the bot's ``setup_hook`` (``bot.stats.install``), and this
repository only reads and writes what it takes and gives:

- every finished match is written by :meth:`GameRepository.finish` in one
  transaction; inside it, :meth:`LeaderboardRepository.count` reads the standings of
  the match's players, asks the ledger, and writes the ``player_results`` rows
  and new ``standings`` rows it returns, on the same connection. Without a
  ledger the match is stored uncounted and the rebuild is asked for
  (``stats_rebuild``), so the next start with a ledger counts it;
- everything in these tables is derived from ``matches`` and ``match_seats``:
  :meth:`LeaderboardRepository.recompute` rebuilds it by handing the stored matches
  to the same ledger in the order they were written (by match id), which gives
  exactly the table the incremental updates gave. A server's reset
  (:meth:`LeaderboardRepository.reset`) clears its standings and results and
  remembers the last match id at that moment: later recomputes replay only the
  matches after it. Matches are never deleted.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Final, Protocol

from .codec import from_row, to_row, to_text
from .errors import StorageError
from .matches import MatchSummary, matches_after, page_count, page_within
from .sql import Connection, Dialect, Reader, Row, upsert

if TYPE_CHECKING:
    from .database import Database

log = logging.getLogger(__name__)

ORDERS: Final = ("rating", "places")
"""Leaderboard orders: by conservative rating, or by accumulated latvian place points."""

_CHUNK = 5000


# -- values ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Rating:
    """A skill estimate: mean ``mu``, uncertainty ``sigma`` and the conservative ``ordinal``."""

    mu: float
    sigma: float
    ordinal: float


class _WinRate:
    """The win rate of a record of ``matches`` with ``wins`` (a base of the records)."""

    __slots__ = ()
    matches: int
    wins: int

    @property
    def win_rate(self) -> float:
        """Wins per match played (0 before the first match)."""
        return self.wins / self.matches if self.matches else 0.0


@dataclass(frozen=True, slots=True)
class Standing(_WinRate):
    """A player's record in one game of one server since its last reset (the defaults:
    nothing played)."""

    game: str
    user_id: int
    name: str
    """The name the player had in their latest match."""
    matches: int = 0
    wins: int = 0
    draws: int = 0
    points: float = 0.0
    """The sum of the player's side totals."""
    place_points: float = 0.0
    """Latvian place points, accumulated."""
    streak: int = 0
    """Wins in a row up to now."""
    best_streak: int = 0
    rated: int = 0
    """Matches that moved the rating."""
    rating: Rating | None = None
    """None until the first rated match."""
    last_match_id: int = 0
    """The latest match counted in this row."""

    @property
    def losses(self) -> int:
        return self.matches - self.wins - self.draws

    @property
    def points_per_match(self) -> float:
        return self.points / self.matches if self.matches else 0.0


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """One match of one player, as the leaderboard counted it."""

    match_id: int
    user_id: int
    game: str
    finished_at: datetime
    seat: int
    outcome: str
    """``win``, ``draw`` or ``loss``."""
    rank: int
    sides: int
    points: float
    place: float | None
    rating_before: float | None
    """The conservative rating before the match, if the match was rated."""
    rating: Rating | None
    """The rating after the match, if it was rated."""

    @property
    def change(self) -> float | None:
        if self.rating is None or self.rating_before is None:
            return None
        return self.rating.ordinal - self.rating_before


@dataclass(frozen=True, slots=True)
class Counted:
    """What counting one match changes: its players' new standings and their results."""

    standings: tuple[Standing, ...]
    results: tuple[PlayerResult, ...]


class Ledger(Protocol):
    """The leaderboard's rules, plugged into :class:`LeaderboardRepository` (no SQL in them)."""

    def count(self, standings: Mapping[int, Standing], match: MatchSummary) -> Counted:
        """Count one stored ``match`` of a server.

        ``standings`` holds (at least) the current rows of the match's players in
        ``match.game``, by user id; a player who has none is missing. Returns the
        new rows of the players it counted and one result per counted seat.
        Must not change ``standings``, and must give the same answer for the same
        arguments (a rebuild replays it).
        """
        ...


@dataclass(frozen=True, slots=True)
class BoardEntry(_WinRate):
    """One line of a leaderboard; counts are for the page's period, the rating is current."""

    position: int
    user_id: int
    name: str
    matches: int
    wins: int
    draws: int
    points: float
    place_points: float
    rating: Rating | None


@dataclass(frozen=True, slots=True)
class BoardPage:
    """One page of a leaderboard (``page`` counts from 0)."""

    guild_id: int
    game: str
    since: datetime | None
    order: str
    page: int
    page_size: int
    total: int
    """Players on the whole board."""
    entries: tuple[BoardEntry, ...]
    season: int | None = None
    """The season the board is of (the service says it; None: not said)."""

    @property
    def pages(self) -> int:
        return page_count(self.total, self.page_size)


@dataclass(frozen=True, slots=True)
class Season:
    """A server's current season, as its last reset or close began it: matches with a
    larger id than ``after_match_id`` count (``reset_at``: when it began)."""

    guild_id: int
    after_match_id: int
    reset_at: datetime
    reset_by: int
    number: int = 1
    """The season's number (1 until a season is closed; a reset keeps it)."""
    ratings_after: int | None = None
    """Where the replay of its ratings starts: None when ratings began anew with the
    season, an earlier match id when they were carried in (``bot.storage.seasons``)."""

    @property
    def ratings_from(self) -> int:
        """The match id after which its ratings are counted."""
        return self.after_match_id if self.ratings_after is None else self.ratings_after


@dataclass(frozen=True, slots=True)
class Tally:
    """Matches played, won and drawn."""

    matches: int
    wins: int
    draws: int


@dataclass(frozen=True, slots=True)
class PlayerCard:
    """Everything a player's stats card shows (since the server's last reset)."""

    guild_id: int
    user_id: int
    name: str
    standings: tuple[Standing, ...]
    """One per game, the most played first."""
    positions: Mapping[str, tuple[int, int]]
    """Per rated game: (position on the rating board, rated players on it)."""
    trend_game: str
    trend: tuple[PlayerResult, ...]
    """The rated matches of ``trend_game``, oldest first (the rating after each)."""
    recent: tuple[PlayerResult, ...]
    """The latest matches of any game, newest first."""
    season: Season | None
    against_ai: Mapping[str, Tally] = field(default_factory=dict)
    """Per game: the matches (counted in ``standings``) where no other side had a human
    player, i.e. played against the AI alone. No rating moves in them."""


# -- rows -------------------------------------------------------------------------------------

_RESULT_COLUMNS = (
    "match_id, seat, guild_id, game, user_id, finished_at, outcome, rank, sides, points, place,"
    " ordinal_before, mu, sigma, ordinal"
)
_STANDING_COLUMNS = (
    "guild_id, game, user_id, name, matches, wins, draws, points, place_points, streak,"
    " best_streak, rated, mu, sigma, ordinal, last_match_id"
)


def _result_row(guild_id: int, r: PlayerResult) -> tuple[Any, ...]:
    return to_row(
        r,
        _RESULT_COLUMNS,
        guild_id=guild_id,
        ordinal_before=r.rating_before,
        **_rating_columns(r.rating),
    )


def _standing_row(guild_id: int, s: Standing) -> tuple[Any, ...]:
    return to_row(s, _STANDING_COLUMNS, guild_id=guild_id, **_rating_columns(s.rating))


def _rating_columns(rating: Rating | None) -> dict[str, float | None]:
    if rating is None:
        return {"mu": None, "sigma": None, "ordinal": None}
    return {"mu": rating.mu, "sigma": rating.sigma, "ordinal": rating.ordinal}


async def _write(
    conn: Connection, guild_id: int, results: Sequence[PlayerResult], standings: Sequence[Standing]
) -> None:
    for start in range(0, len(results), _CHUNK):
        await conn.executemany(
            f"INSERT INTO player_results ({_RESULT_COLUMNS}) VALUES ({_marks(15)})",
            [_result_row(guild_id, r) for r in results[start : start + _CHUNK]],
        )
    for start in range(0, len(standings), _CHUNK):
        await conn.executemany(
            upsert("standings", _STANDING_COLUMNS, "guild_id, game, user_id"),
            [_standing_row(guild_id, s) for s in standings[start : start + _CHUNK]],
        )


def _marks(n: int) -> str:
    return ", ".join("?" * n)


def _rating(row: Row) -> Rating | None:
    return None if row["mu"] is None else from_row(Rating, row)


def _standing(row: Row) -> Standing:
    return from_row(Standing, row, rating=_rating(row))


def _result(row: Row) -> PlayerResult:
    before = row["ordinal_before"]
    return from_row(
        PlayerResult,
        row,
        rating_before=None if before is None else float(before),
        rating=_rating(row),
    )


def _check_order(order: str) -> None:
    if order not in ORDERS:
        raise ValueError(f"leaderboard order {order!r} is not one of {ORDERS}")


# {nulls}: the dialect's NULLS LAST (unrated players last), as the indexes are ordered.
_BOARD_ORDER = {
    "rating": "ordinal DESC{nulls}, wins DESC, matches DESC, user_id",
    "places": "place_points DESC, ordinal DESC{nulls}, wins DESC, user_id",
}


def _board_sql(order: str, dialect: Dialect) -> str:
    """A game's all-time board (the server and the game its parameters), in ``order``."""
    return (
        "SELECT user_id, name, matches, wins, draws, points, place_points, mu, sigma, ordinal"
        " FROM standings WHERE guild_id = ? AND game = ? AND matches > 0"
        f" ORDER BY {_BOARD_ORDER[order].format(nulls=dialect.nulls_last)}"
    )


_PERIOD_ORDER = {
    "rating": "s.ordinal DESC{nulls}, p.wins DESC, p.matches DESC, p.user_id",
    "places": "p.place_points DESC, s.ordinal DESC{nulls}, p.wins DESC, p.user_id",
}


class LeaderboardRepository:
    """Standings, player results, leaderboard pages, player cards and resets."""

    def __init__(self, db: Database, ledger: Ledger | None = None) -> None:
        self._db = db
        self.ledger: Ledger | None = ledger
        """The rules that count matches; set once at start (``bot.stats.install``)."""

    # -- writing ------------------------------------------------------------------------

    async def count(self, conn: Connection, guild_id: int, match: MatchSummary) -> None:
        """Count a just-inserted match (inside the caller's transaction, on its connection,
        which holds the server's lock: the standings read here cannot change meanwhile)."""
        users = sorted({s.user_id for s in match.seats if s.user_id is not None})
        if not users:
            return
        if self.ledger is None:
            # Nothing can count it now: the next start with a ledger rebuilds.
            await conn.execute(
                "INSERT INTO stats_rebuild (pending)"
                " SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM stats_rebuild)"
            )
            log.warning("match %d is stored uncounted: no ledger is plugged in", match.id)
            return
        rows = await conn.fetchall(
            f"SELECT * FROM standings WHERE guild_id = ? AND game = ?"
            f" AND user_id IN ({_marks(len(users))})",
            (guild_id, match.game, *users),
        )
        standings = {row["user_id"]: _standing(row) for row in rows}
        counted = self.ledger.count(standings, match)
        await _write(conn, guild_id, counted.results, counted.standings)

    async def recompute(self, guild_id: int | None = None) -> int:
        """Rebuild standings and results of one server (or all) from the stored matches.

        Replays the matches after each server's last reset through the ledger, in
        the order they were written; returns how many matches were replayed. One
        transaction, holding each server's lock (in id order). Raises
        :class:`StorageError` when no ledger is plugged in.
        """
        ledger = self.ledger
        if ledger is None:
            raise StorageError("no ledger is plugged in: nothing can count the matches")
        replayed = 0
        async with self._db.transaction() as conn:
            if guild_id is None:
                rows = await conn.fetchall(
                    "SELECT guild_id FROM matches UNION SELECT guild_id FROM standings"
                )
                guilds = [int(row[0]) for row in rows]
            else:
                guilds = [guild_id]
            for guild in sorted(guilds):
                await conn.lock(guild)
            for guild in sorted(guilds):
                replayed += await _replay(conn, guild, ledger)
            if guild_id is None:
                await conn.execute("DELETE FROM stats_rebuild")
        log.info("recomputed standings from %d matches", replayed)
        return replayed

    async def rebuild_pending(self) -> bool:
        """Whether stored matches wait to be counted (stored before these tables
        existed, or while no ledger was plugged in)."""
        return await self._db.fetchint("SELECT count(*) FROM stats_rebuild") > 0

    async def rebuild_if_pending(self) -> int | None:
        """Run :meth:`recompute` for every server if matches wait to be counted."""
        return await self.recompute() if await self.rebuild_pending() else None

    async def reset(self, guild_id: int, *, by: int, now: datetime) -> Season:
        """Clear the server's leaderboard: standings and results go, matches stay (one
        transaction). Only matches written after this count from now on."""
        async with self._db.transaction() as conn:
            await conn.lock(guild_id)  # no match of the server is being counted meanwhile
            last = await conn.fetchint("SELECT coalesce(max(id), 0) FROM matches")
            await conn.execute("DELETE FROM standings WHERE guild_id = ?", (guild_id,))
            await conn.execute("DELETE FROM player_results WHERE guild_id = ?", (guild_id,))
            columns = "guild_id, after_match_id, reset_at, reset_by, ratings_after"
            number = await conn.fetchint(  # the season's (a reset keeps it)
                upsert("leaderboard_seasons", columns) + " RETURNING number",
                (guild_id, last, to_text(now), by, None),
            )
        log.info("guild %d: leaderboard reset by %d after match %d", guild_id, by, last)
        return Season(guild_id, last, now, by, number=number)

    # -- reading ------------------------------------------------------------------------

    async def season(self, guild_id: int) -> Season | None:
        """The server's last reset, or None if it never reset."""
        return await season_of(self._db, guild_id)

    async def games(self, guild_id: int) -> list[tuple[str, int]]:
        """(game, player-matches) counted on the server's boards, the most played first."""
        rows = await self._db.fetchall(
            "SELECT game, sum(matches) AS n FROM standings WHERE guild_id = ? AND matches > 0"
            " GROUP BY game ORDER BY n DESC, game",
            (guild_id,),
        )
        return [(str(r["game"]), int(r["n"])) for r in rows]

    async def standing(self, guild_id: int, game: str, user_id: int) -> Standing | None:
        """A player's standing in one game, or None."""
        row = await self._db.fetchone(
            "SELECT * FROM standings WHERE guild_id = ? AND game = ? AND user_id = ?",
            (guild_id, game, user_id),
        )
        return None if row is None else _standing(row)

    async def standings(self, guild_id: int, game: str | None = None) -> list[Standing]:
        """Every standing of the server (or of one game), by game and user id."""
        where, params = ("", (guild_id,)) if game is None else (" AND game = ?", (guild_id, game))
        rows = await self._db.fetchall(
            f"SELECT * FROM standings WHERE guild_id = ?{where} ORDER BY game, user_id", params
        )
        return [_standing(r) for r in rows]

    async def results(self, guild_id: int, user_id: int | None = None) -> list[PlayerResult]:
        """The counted results of the server (or one player), oldest first."""
        where, params = (
            ("", (guild_id,)) if user_id is None else (" AND user_id = ?", (guild_id, user_id))
        )
        rows = await self._db.fetchall(
            f"SELECT * FROM player_results WHERE guild_id = ?{where} ORDER BY match_id, seat",
            params,
        )
        return [_result(r) for r in rows]

    async def leaderboard(
        self,
        guild_id: int,
        game: str,
        *,
        since: datetime | None = None,
        order: str = "rating",
        page: int = 0,
        page_size: int = 10,
    ) -> BoardPage:
        """A page of the board: every player with a counted match (since ``since``),
        ranked by ``order``; unrated players come after the rated ones.

        A page past the end gives the last page.
        """
        _check_order(order)
        if page_size <= 0:
            raise ValueError(f"page size must be positive, not {page_size}")
        async with self._db.snapshot():
            if since is None:
                total, entries = await self._board_all(guild_id, game, order, page, page_size)
            else:
                total, entries = await self._board_since(
                    guild_id, game, since, order, page, page_size
                )
        page = page_within(page, total, page_size)
        return BoardPage(guild_id, game, since, order, page, page_size, total, tuple(entries))

    async def _board_all(
        self, guild_id: int, game: str, order: str, page: int, size: int
    ) -> tuple[int, list[BoardEntry]]:
        total = await self._db.fetchint(
            "SELECT count(*) FROM standings WHERE guild_id = ? AND game = ? AND matches > 0",
            (guild_id, game),
        )
        page = page_within(page, total, size)
        rows = await self._db.fetchall(
            _board_sql(order, self._db.dialect) + " LIMIT ? OFFSET ?",
            (guild_id, game, size, page * size),
        )
        return total, _entries(rows, page * size)

    async def _board_since(
        self, guild_id: int, game: str, since: datetime, order: str, page: int, size: int
    ) -> tuple[int, list[BoardEntry]]:
        # The covering index on (guild, game, finished_at, ...) reads only the period's
        # rows; without the hint SQLite may prefer walking the per-user index in user
        # order to save the GROUP BY sort, which reads every row of the server.
        # (PostgreSQL has no hints: its planner picks by its statistics.)
        dialect = self._db.dialect
        hint = " INDEXED BY player_results_period" if dialect.name == "sqlite" else ""
        period = (
            "SELECT user_id, count(*) AS matches,"
            " sum(CASE WHEN outcome = 'win' THEN 1 ELSE 0 END) AS wins,"
            " sum(CASE WHEN outcome = 'draw' THEN 1 ELSE 0 END) AS draws,"
            " sum(points) AS points, coalesce(sum(place), 0.0) AS place_points"
            f" FROM player_results{hint}"
            " WHERE guild_id = ? AND game = ? AND finished_at >= ?"
            " GROUP BY user_id"
        )
        params = (guild_id, game, to_text(since))
        sql = (
            f"WITH p AS ({period})"
            " SELECT p.user_id, s.name, p.matches, p.wins, p.draws, p.points, p.place_points,"
            " s.mu, s.sigma, s.ordinal, count(*) OVER () AS total FROM p JOIN standings s"
            " ON s.guild_id = ? AND s.game = ? AND s.user_id = p.user_id"
            f" ORDER BY {_PERIOD_ORDER[order].format(nulls=dialect.nulls_last)} LIMIT ? OFFSET ?"
        )
        page = max(page, 0)
        rows = await self._db.fetchall(sql, (*params, guild_id, game, size, page * size))
        if rows:
            return int(rows[0]["total"]), _entries(rows, page * size)
        total = await self._db.fetchint(f"SELECT count(*) FROM ({period}) AS period", params)
        last = page_within(page, total, size)
        if total == 0 or last == page:
            return total, []
        rows = await self._db.fetchall(sql, (*params, guild_id, game, size, last * size))
        return total, _entries(rows, last * size)

    async def card(
        self,
        guild_id: int,
        user_id: int,
        *,
        game: str | None = None,
        trend: int = 40,
        recent: int = 8,
    ) -> PlayerCard | None:
        """A player's card, or None if they have no counted match on this server.

        ``game`` picks the rating trend's game (default: the player's most played).
        """
        async with self._db.snapshot():
            rows = await self._db.fetchall(
                "SELECT * FROM standings WHERE guild_id = ? AND user_id = ? AND matches > 0"
                " ORDER BY matches DESC, game",
                (guild_id, user_id),
            )
            if not rows:
                return None
            standings = tuple(_standing(r) for r in rows)
            positions: dict[str, tuple[int, int]] = {}
            for s in standings:
                if s.rating is None:
                    continue
                [row] = await self._db.fetchall(
                    "SELECT sum(CASE WHEN ordinal > ? THEN 1 ELSE 0 END), count(*) FROM standings"
                    " WHERE guild_id = ? AND game = ? AND ordinal IS NOT NULL AND matches > 0",
                    (s.rating.ordinal, guild_id, s.game),
                )
                positions[s.game] = (1 + int(row[0] or 0), int(row[1]))
            focus = game if game is not None else standings[0].game
            trend_rows = await self._db.fetchall(
                "SELECT * FROM player_results WHERE guild_id = ? AND user_id = ? AND game = ?"
                " AND ordinal IS NOT NULL ORDER BY match_id DESC LIMIT ?",
                (guild_id, user_id, focus, trend),
            )
            recent_rows = await self._db.fetchall(
                "SELECT * FROM player_results WHERE guild_id = ? AND user_id = ?"
                " ORDER BY match_id DESC LIMIT ?",
                (guild_id, user_id, recent),
            )
            season = await self.season(guild_id)
            ai_rows = await self._db.fetchall(_AGAINST_AI, (guild_id, user_id))
        latest = max(rows, key=lambda r: r["last_match_id"])
        return PlayerCard(
            guild_id=guild_id,
            user_id=user_id,
            name=latest["name"],
            standings=standings,
            positions=positions,
            trend_game=focus,
            trend=tuple(_result(r) for r in reversed(trend_rows)),
            recent=tuple(_result(r) for r in recent_rows),
            season=season,
            against_ai={str(r["game"]): from_row(Tally, r) for r in ai_rows},
        )


# A player's counted matches in which no seat of another side was a human's (every
# opponent an AI seat), per game: read through the player's results (player_results_user)
# and each match's seats (its primary key).
_AGAINST_AI = (
    "SELECT r.game AS game, count(*) AS matches,"
    " sum(CASE WHEN r.outcome = 'win' THEN 1 ELSE 0 END) AS wins,"
    " sum(CASE WHEN r.outcome = 'draw' THEN 1 ELSE 0 END) AS draws"
    " FROM player_results r JOIN match_seats me ON me.match_id = r.match_id AND me.seat = r.seat"
    " WHERE r.guild_id = ? AND r.user_id = ? AND NOT EXISTS (SELECT 1 FROM match_seats o"
    " WHERE o.match_id = r.match_id AND o.side <> me.side AND o.user_id IS NOT NULL)"
    " GROUP BY r.game"
)


async def _replay(conn: Connection, guild_id: int, ledger: Ledger) -> int:
    """Rebuild one server's standings and results from its matches after its reset.

    When the current season carried its ratings in (``ratings_after`` before its start),
    the matches since the ratings began are replayed first for the ratings alone, then
    carried over as the season's close did (:func:`carried`)."""
    after = ratings_from = 0
    season = await season_of(conn, guild_id)
    if season is not None:
        after, ratings_from = season.after_match_id, season.ratings_from
    await conn.execute("DELETE FROM standings WHERE guild_id = ?", (guild_id,))
    await conn.execute("DELETE FROM player_results WHERE guild_id = ?", (guild_id,))
    tables: dict[str, dict[int, Standing]] = {}
    results: list[PlayerResult] = []
    count = 0
    started = ratings_from >= after
    async for match in matches_after(conn, guild_id, ratings_from):
        if not started and match.id > after:
            tables, started = carried(tables), True
        table = tables.setdefault(match.game, {})
        counted = ledger.count(table, match)
        for standing in counted.standings:
            table[standing.user_id] = standing
        if started:
            results.extend(counted.results)
        count += 1
    if not started:
        tables = carried(tables)
    standings = [s for table in tables.values() for s in table.values()]
    await _write(conn, guild_id, results, standings)
    return count


def fresh_standing(
    game: str, user_id: int, name: str, rating: Rating | None = None, last_match_id: int = 0
) -> Standing:
    """A player's standing with nothing played: before their first counted match of
    ``game``, or as a season that carries ratings starts it (their ``rating`` alone)."""
    return Standing(game, user_id, name, rating=rating, last_match_id=last_match_id)


def carried(tables: dict[str, dict[int, Standing]]) -> dict[str, dict[int, Standing]]:
    """The standings (by game, by user) as a season that carries ratings starts them: each
    one's rating alone (nothing played yet in the season); a player without one goes."""
    return {
        game: {
            user: fresh_standing(s.game, s.user_id, s.name, s.rating, s.last_match_id)
            for user, s in table.items()
            if s.rating is not None
        }
        for game, table in tables.items()
    }


CARRY_SQL = (
    "UPDATE standings SET matches = 0, wins = 0, draws = 0, points = 0, place_points = 0,"
    " streak = 0, best_streak = 0, rated = 0 WHERE guild_id = ?"
)
"""What :func:`carried` does, for every standing of a server that has a rating (the
others are deleted first)."""


async def season_of(reader: Reader, guild_id: int) -> Season | None:
    """The server's current season as its ``leaderboard_seasons`` row says (None: none)."""
    row = await reader.fetchone("SELECT * FROM leaderboard_seasons WHERE guild_id = ?", (guild_id,))
    return None if row is None else from_row(Season, row)


async def ranking(conn: Connection, guild_id: int, game: str, order: str) -> list[BoardEntry]:
    """The whole board of one game as its all-time pages show it (on ``conn``)."""
    _check_order(order)
    return _entries(await conn.fetchall(_board_sql(order, conn.dialect), (guild_id, game)), 0)


def _entries(rows: Sequence[Row], offset: int) -> list[BoardEntry]:
    return [
        from_row(BoardEntry, r, position=offset + i + 1, rating=_rating(r))
        for i, r in enumerate(rows)
    ]
