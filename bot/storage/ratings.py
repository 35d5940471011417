"""Standings, ratings and per-player results: the leaderboard's tables behind one repository.

Every finished match is written by :meth:`GameRepository.finish` in one
transaction; inside it, :meth:`RatingRepository.record` adds one
``player_results`` row per human seat and updates that player's ``standings``
row (matches, wins, draws, points, place points, streaks and the rating). The
rating arithmetic is not done here: a :class:`Rater` is plugged in
(``db.ratings.rater = ...``; ``bot.stats`` provides the openskill one). Without
one, matches still count but no rating moves.

Everything in these tables is derived from ``matches`` and ``match_seats``:
:meth:`RatingRepository.recompute` rebuilds it by replaying the stored matches
in the order they were written (by match id), which gives exactly the table the
incremental updates gave. A server's reset (:meth:`RatingRepository.reset`)
clears its standings and results and remembers the last match id at that moment:
later recomputes replay only the matches after it. Matches are never deleted.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, Final, Protocol

import aiosqlite

from .codec import from_text, json_object, to_text
from .matches import FinishedMatch, MatchSeat
from .sql import execute, execute_many

if TYPE_CHECKING:
    from .database import Database

log = logging.getLogger(__name__)

OUTCOMES: Final = ("win", "draw", "loss")
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


@dataclass(frozen=True, slots=True)
class SeatResult:
    """How one seat did in a match: its side's rank (1 is best, ties share) and outcome."""

    seat: int
    user_id: int | None
    name: str
    side: int
    rank: int
    outcome: str
    """``win`` (the only winning side), ``draw`` (a shared first, or no winner) or ``loss``."""
    points: float
    place: float | None


@dataclass(frozen=True, slots=True)
class RatedSeat:
    """A seat as a :class:`Rater` sees it: ``rating`` is None exactly for AI seats."""

    seat: int
    user_id: int | None
    side: int
    rank: int
    rating: Rating | None


class Rater(Protocol):
    """The rating arithmetic, plugged into the repository."""

    def initial(self) -> Rating:
        """The rating of a player before their first rated match."""
        ...

    def rate(self, game: str, seats: Sequence[RatedSeat]) -> Mapping[int, Rating]:
        """New ratings by seat number for the human seats this match rates (may be empty)."""
        ...


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's record in one game of one server since its last reset."""

    game: str
    user_id: int
    name: str
    """The name the player had in their latest match."""
    matches: int
    wins: int
    draws: int
    points: float
    """The sum of the player's side totals."""
    place_points: float
    """Latvian place points, accumulated."""
    streak: int
    """Wins in a row up to now."""
    best_streak: int
    rated: int
    """Matches that moved the rating."""
    rating: Rating | None
    """None until the first rated match."""

    @property
    def losses(self) -> int:
        return self.matches - self.wins - self.draws

    @property
    def win_rate(self) -> float:
        return self.wins / self.matches if self.matches else 0.0

    @property
    def points_per_match(self) -> float:
        return self.points / self.matches if self.matches else 0.0


@dataclass(frozen=True, slots=True)
class BoardEntry:
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

    @property
    def win_rate(self) -> float:
        return self.wins / self.matches if self.matches else 0.0


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

    @property
    def pages(self) -> int:
        return max(1, -(-self.total // self.page_size))


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """One match of one player, as the leaderboard counted it."""

    match_id: int
    game: str
    finished_at: datetime
    seat: int
    outcome: str
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
class Season:
    """A server's last leaderboard reset: matches with a larger id than ``after_match_id`` count."""

    guild_id: int
    after_match_id: int
    reset_at: datetime
    reset_by: int


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


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """A stored match without its record: for history lists."""

    id: int
    game_id: int
    channel_id: int
    game: str
    finished_at: datetime
    deals: int
    seats: tuple[MatchSeat, ...]

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
        return max(1, -(-self.total // self.page_size))


# -- results of a match -------------------------------------------------------------------


def match_results(seats: Sequence[MatchSeat]) -> tuple[SeatResult, ...]:
    """Each seat's rank and outcome, from what the match stored about its sides.

    Latvian sessions rank by place points (higher is better). Other games put the
    winning sides first (tied with each other) and the rest by their totals, in
    the direction the winners show (higher wins for points, lower for penalty
    scoring); when that direction is unclear the other sides tie. A match with no
    winner is a draw for everyone; several winning sides draw with each other.
    """
    sides = sorted({s.side for s in seats})
    first = {side: next(s for s in seats if s.side == side) for side in sides}
    won = {side: any(s.won for s in seats if s.side == side) for side in sides}
    winners = [side for side in sides if won[side]]
    losers = [side for side in sides if not won[side]]
    key: dict[int, tuple[float, float]]
    if all(first[side].place is not None for side in sides):
        key = {side: (-(first[side].place or 0.0), 0.0) for side in sides}
    else:
        direction = _direction([first[s].total for s in winners], [first[s].total for s in losers])
        key = {side: (0.0 if won[side] else 1.0, -direction * first[side].total) for side in sides}
    rank = {side: 1 + sum(1 for other in sides if key[other] < key[side]) for side in sides}
    best = [side for side in sides if rank[side] == 1]

    def outcome(side: int) -> str:
        if rank[side] != 1:
            return "loss"
        return "win" if len(best) == 1 and winners else "draw"

    return tuple(
        SeatResult(
            seat=s.seat,
            user_id=s.user_id,
            name=s.name,
            side=s.side,
            rank=rank[s.side],
            outcome=outcome(s.side),
            points=float(s.total),
            place=s.place,
        )
        for s in sorted(seats, key=lambda s: s.seat)
    )


def _direction(winners: Sequence[float], losers: Sequence[float]) -> float:
    """+1 when winners have the higher totals, -1 the lower, 0 when it is unclear."""
    if not winners or not losers:
        return 0.0
    if min(winners) > max(losers):
        return 1.0
    if max(winners) < min(losers):
        return -1.0
    return 0.0


# -- the incremental update (shared with recompute) -----------------------------------------


@dataclass(slots=True)
class _Tally:
    """A standings row while it is being updated."""

    name: str
    matches: int = 0
    wins: int = 0
    draws: int = 0
    points: float = 0.0
    place_points: float = 0.0
    streak: int = 0
    best_streak: int = 0
    rated: int = 0
    rating: Rating | None = None
    last_match_id: int = 0


_RESULT_COLUMNS = (
    "match_id, seat, guild_id, game, user_id, finished_at, outcome, rank, sides, points, place,"
    " ordinal_before, mu, sigma, ordinal"
)
_STANDING_COLUMNS = (
    "guild_id, game, user_id, name, matches, wins, draws, points, place_points, streak,"
    " best_streak, rated, mu, sigma, ordinal, last_match_id"
)


def _apply(
    rater: Rater | None,
    *,
    guild_id: int,
    game: str,
    match_id: int,
    finished_at: str,
    seats: Sequence[MatchSeat],
    tallies: dict[int, _Tally],
) -> list[tuple[Any, ...]]:
    """Count one match into ``tallies`` (user id -> row); its ``player_results`` rows."""
    results = match_results(seats)
    humans = [r for r in results if r.user_id is not None]
    if not humans:
        return []
    ratings: dict[int, Rating] = {}
    if rater is not None:
        try:
            initial = rater.initial()
            rated_seats = [
                RatedSeat(
                    r.seat,
                    r.user_id,
                    r.side,
                    r.rank,
                    None if r.user_id is None else _current(tallies, r.user_id) or initial,
                )
                for r in results
            ]
            human_seats = {r.seat for r in humans}
            ratings = {
                seat: rating
                for seat, rating in rater.rate(game, rated_seats).items()
                if seat in human_seats
            }
        except Exception:
            # A rating bug must never keep a match from being saved: it counts unrated
            # (recompute can rate it later).
            log.exception("match %d: the rater failed; the match counts without ratings", match_id)
            ratings = {}
    sides = len({r.side for r in results})
    rows: list[tuple[Any, ...]] = []
    for r in humans:
        assert r.user_id is not None
        tally = tallies.get(r.user_id)
        if tally is None:
            tally = tallies[r.user_id] = _Tally(name=r.name)
        before = tally.rating
        tally.name = r.name
        tally.matches += 1
        if r.outcome == "win":
            tally.wins += 1
            tally.streak += 1
            tally.best_streak = max(tally.best_streak, tally.streak)
        else:
            tally.streak = 0
            if r.outcome == "draw":
                tally.draws += 1
        tally.points += r.points
        if r.place is not None:
            tally.place_points += r.place
        tally.last_match_id = match_id
        new = ratings.get(r.seat)
        if new is not None:
            assert rater is not None
            tally.rated += 1
            tally.rating = new
            was: float | None = (before or rater.initial()).ordinal
        else:
            was = None
        rows.append(
            (
                match_id,
                r.seat,
                guild_id,
                game,
                r.user_id,
                finished_at,
                r.outcome,
                r.rank,
                sides,
                r.points,
                r.place,
                was,
                None if new is None else new.mu,
                None if new is None else new.sigma,
                None if new is None else new.ordinal,
            )
        )
    return rows


def _current(tallies: Mapping[int, _Tally], user_id: int) -> Rating | None:
    tally = tallies.get(user_id)
    return None if tally is None else tally.rating


def _standing_row(guild_id: int, game: str, user_id: int, t: _Tally) -> tuple[Any, ...]:
    rating = t.rating
    return (
        guild_id,
        game,
        user_id,
        t.name,
        t.matches,
        t.wins,
        t.draws,
        t.points,
        t.place_points,
        t.streak,
        t.best_streak,
        t.rated,
        None if rating is None else rating.mu,
        None if rating is None else rating.sigma,
        None if rating is None else rating.ordinal,
        t.last_match_id,
    )


def _tally(row: aiosqlite.Row) -> _Tally:
    return _Tally(
        name=row["name"],
        matches=row["matches"],
        wins=row["wins"],
        draws=row["draws"],
        points=float(row["points"]),
        place_points=float(row["place_points"]),
        streak=row["streak"],
        best_streak=row["best_streak"],
        rated=row["rated"],
        rating=_rating(row),
        last_match_id=row["last_match_id"],
    )


def _rating(row: aiosqlite.Row) -> Rating | None:
    if row["mu"] is None:
        return None
    return Rating(float(row["mu"]), float(row["sigma"]), float(row["ordinal"]))


async def _write(
    conn: aiosqlite.Connection,
    results: Sequence[tuple[Any, ...]],
    standings: Sequence[tuple[Any, ...]],
) -> None:
    for start in range(0, len(results), _CHUNK):
        await execute_many(
            conn,
            f"INSERT INTO player_results ({_RESULT_COLUMNS}) VALUES ({_marks(15)})",
            results[start : start + _CHUNK],
        )
    for start in range(0, len(standings), _CHUNK):
        await execute_many(
            conn,
            f"INSERT OR REPLACE INTO standings ({_STANDING_COLUMNS}) VALUES ({_marks(16)})",
            standings[start : start + _CHUNK],
        )


def _marks(n: int) -> str:
    return ", ".join("?" * n)


# -- reading rows ---------------------------------------------------------------------------


def _standing(row: aiosqlite.Row) -> Standing:
    return Standing(
        game=row["game"],
        user_id=row["user_id"],
        name=row["name"],
        matches=row["matches"],
        wins=row["wins"],
        draws=row["draws"],
        points=float(row["points"]),
        place_points=float(row["place_points"]),
        streak=row["streak"],
        best_streak=row["best_streak"],
        rated=row["rated"],
        rating=_rating(row),
    )


def _result(row: aiosqlite.Row) -> PlayerResult:
    place = row["place"]
    before = row["ordinal_before"]
    return PlayerResult(
        match_id=row["match_id"],
        game=row["game"],
        finished_at=from_text(row["finished_at"]),
        seat=row["seat"],
        outcome=row["outcome"],
        rank=row["rank"],
        sides=row["sides"],
        points=float(row["points"]),
        place=None if place is None else float(place),
        rating_before=None if before is None else float(before),
        rating=_rating(row),
    )


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


def _check_order(order: str) -> None:
    if order not in ORDERS:
        raise ValueError(f"leaderboard order {order!r} is not one of {ORDERS}")


_BOARD_ORDER = {
    "rating": "ordinal DESC, wins DESC, matches DESC, user_id",
    "places": "place_points DESC, ordinal DESC, wins DESC, user_id",
}
_PERIOD_ORDER = {
    "rating": "s.ordinal DESC, p.wins DESC, p.matches DESC, p.user_id",
    "places": "p.place_points DESC, s.ordinal DESC, p.wins DESC, p.user_id",
}


class RatingRepository:
    """Standings, ratings, player results, history pages and leaderboard resets."""

    def __init__(self, db: Database, rater: Rater | None = None) -> None:
        self._db = db
        self.rater: Rater | None = rater

    # -- writing ------------------------------------------------------------------------

    async def record(
        self, conn: aiosqlite.Connection, match_id: int, guild_id: int, match: FinishedMatch
    ) -> None:
        """Count a just-inserted match (inside the caller's transaction, on its connection)."""
        users = sorted({s.user_id for s in match.seats if s.user_id is not None})
        if not users:
            return
        async with conn.execute(
            f"SELECT * FROM standings WHERE guild_id = ? AND game = ?"
            f" AND user_id IN ({_marks(len(users))})",
            (guild_id, match.game, *users),
        ) as cursor:
            tallies = {row["user_id"]: _tally(row) for row in await cursor.fetchall()}
        rows = _apply(
            self.rater,
            guild_id=guild_id,
            game=match.game,
            match_id=match_id,
            finished_at=to_text(match.finished_at),
            seats=match.seats,
            tallies=tallies,
        )
        standings = [_standing_row(guild_id, match.game, uid, tallies[uid]) for uid in users]
        await _write(conn, rows, standings)

    async def recompute(self, guild_id: int | None = None) -> int:
        """Rebuild standings and results of one server (or all) from the stored matches.

        Replays the matches after each server's last reset in the order they were
        written; returns how many matches were replayed. One transaction.
        """
        replayed = 0
        async with self._db.transaction() as conn:
            if guild_id is None:
                async with conn.execute(
                    "SELECT guild_id FROM matches UNION SELECT guild_id FROM standings"
                ) as cursor:
                    guilds = [int(row[0]) for row in await cursor.fetchall()]
            else:
                guilds = [guild_id]
            for guild in sorted(guilds):
                replayed += await self._replay(conn, guild)
            if guild_id is None:
                await execute(conn, "DELETE FROM stats_rebuild")
        log.info("recomputed standings from %d matches", replayed)
        return replayed

    async def _replay(self, conn: aiosqlite.Connection, guild_id: int) -> int:
        after = 0
        async with conn.execute(
            "SELECT after_match_id FROM leaderboard_seasons WHERE guild_id = ?", (guild_id,)
        ) as cursor:
            row = await cursor.fetchone()
        if row is not None:
            after = int(row[0])
        await execute(conn, "DELETE FROM standings WHERE guild_id = ?", (guild_id,))
        await execute(conn, "DELETE FROM player_results WHERE guild_id = ?", (guild_id,))
        tallies: dict[str, dict[int, _Tally]] = {}
        results: list[tuple[Any, ...]] = []
        count = 0
        current: tuple[int, str, str] | None = None
        seats: list[MatchSeat] = []

        def flush() -> None:
            nonlocal count
            if current is None:
                return
            match_id, game, finished_at = current
            results.extend(
                _apply(
                    self.rater,
                    guild_id=guild_id,
                    game=game,
                    match_id=match_id,
                    finished_at=finished_at,
                    seats=seats,
                    tallies=tallies.setdefault(game, {}),
                )
            )
            count += 1

        async with conn.execute(
            "SELECT m.id AS mid, m.game AS game, m.finished_at AS finished_at, s.*"
            " FROM matches m JOIN match_seats s ON s.match_id = m.id"
            " WHERE m.guild_id = ? AND m.id > ? ORDER BY m.id, s.seat",
            (guild_id, after),
        ) as cursor:
            while batch := await cursor.fetchmany(_CHUNK):
                for row in batch:
                    key = (int(row["mid"]), str(row["game"]), str(row["finished_at"]))
                    if key != current:
                        flush()
                        current, seats = key, []
                    seats.append(_seat(row))
        flush()
        standings = [
            _standing_row(guild_id, game, uid, tally)
            for game, by_user in tallies.items()
            for uid, tally in by_user.items()
        ]
        await _write(conn, results, standings)
        return count

    async def rebuild_pending(self) -> bool:
        """Whether matches were stored before these tables existed and wait to be counted."""
        row = await self._db.fetchone("SELECT count(*) FROM stats_rebuild")
        return row is not None and int(row[0]) > 0

    async def rebuild_if_pending(self) -> int | None:
        """Run :meth:`recompute` for every server if a migration asked for it."""
        if not await self.rebuild_pending():
            return None
        return await self.recompute()

    async def reset(self, guild_id: int, *, by: int, now: datetime) -> Season:
        """Clear the server's leaderboard: standings and results go, matches stay (one
        transaction). Only matches written after this count from now on."""
        async with self._db.transaction() as conn:
            async with conn.execute("SELECT coalesce(max(id), 0) FROM matches") as cursor:
                row = await cursor.fetchone()
            last = int(row[0]) if row is not None else 0
            await execute(conn, "DELETE FROM standings WHERE guild_id = ?", (guild_id,))
            await execute(conn, "DELETE FROM player_results WHERE guild_id = ?", (guild_id,))
            await execute(
                conn,
                "INSERT OR REPLACE INTO leaderboard_seasons"
                " (guild_id, after_match_id, reset_at, reset_by) VALUES (?, ?, ?, ?)",
                (guild_id, last, to_text(now), by),
            )
        log.info("guild %d: leaderboard reset by %d after match %d", guild_id, by, last)
        return Season(guild_id, last, now, by)

    # -- reading ------------------------------------------------------------------------

    async def season(self, guild_id: int) -> Season | None:
        """The server's last reset, or None if it never reset."""
        row = await self._db.fetchone(
            "SELECT * FROM leaderboard_seasons WHERE guild_id = ?", (guild_id,)
        )
        if row is None:
            return None
        return Season(guild_id, row["after_match_id"], from_text(row["reset_at"]), row["reset_by"])

    async def games(self, guild_id: int) -> list[tuple[str, int]]:
        """(game, player-matches) counted on the server's boards, the most played first."""
        rows = await self._db.fetchall(
            "SELECT game, sum(matches) AS n FROM standings WHERE guild_id = ?"
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
        if game is None:
            rows = await self._db.fetchall(
                "SELECT * FROM standings WHERE guild_id = ? ORDER BY game, user_id", (guild_id,)
            )
        else:
            rows = await self._db.fetchall(
                "SELECT * FROM standings WHERE guild_id = ? AND game = ? ORDER BY user_id",
                (guild_id, game),
            )
        return [_standing(r) for r in rows]

    async def results(self, guild_id: int, user_id: int | None = None) -> list[PlayerResult]:
        """The counted results of the server (or one player), oldest first."""
        if user_id is None:
            rows = await self._db.fetchall(
                "SELECT * FROM player_results WHERE guild_id = ? ORDER BY match_id, seat",
                (guild_id,),
            )
        else:
            rows = await self._db.fetchall(
                "SELECT * FROM player_results WHERE guild_id = ? AND user_id = ?"
                " ORDER BY match_id, seat",
                (guild_id, user_id),
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
        pages = max(1, -(-total // page_size))
        return BoardPage(
            guild_id=guild_id,
            game=game,
            since=since,
            order=order,
            page=min(max(page, 0), pages - 1),
            page_size=page_size,
            total=total,
            entries=tuple(entries),
        )

    async def _board_all(
        self, guild_id: int, game: str, order: str, page: int, size: int
    ) -> tuple[int, list[BoardEntry]]:
        row = await self._db.fetchone(
            "SELECT count(*) FROM standings WHERE guild_id = ? AND game = ?", (guild_id, game)
        )
        total = int(row[0]) if row is not None else 0
        page = _clamp(page, total, size)
        rows = await self._db.fetchall(
            "SELECT user_id, name, matches, wins, draws, points, place_points, mu, sigma, ordinal"
            f" FROM standings WHERE guild_id = ? AND game = ? ORDER BY {_BOARD_ORDER[order]}"
            " LIMIT ? OFFSET ?",
            (guild_id, game, size, page * size),
        )
        return total, _entries(rows, page * size)

    async def _board_since(
        self, guild_id: int, game: str, since: datetime, order: str, page: int, size: int
    ) -> tuple[int, list[BoardEntry]]:
        # The covering index on (guild, game, finished_at, ...) reads only the period's
        # rows; without the hint SQLite may prefer walking the per-user index in user
        # order to save the GROUP BY sort, which reads every row of the server.
        period = (
            "SELECT user_id, count(*) AS matches, sum(outcome = 'win') AS wins,"
            " sum(outcome = 'draw') AS draws, sum(points) AS points,"
            " coalesce(sum(place), 0.0) AS place_points"
            " FROM player_results INDEXED BY player_results_period"
            " WHERE guild_id = ? AND game = ? AND finished_at >= ?"
            " GROUP BY user_id"
        )
        params = (guild_id, game, to_text(since))
        sql = (
            f"WITH p AS ({period})"
            " SELECT p.user_id, s.name, p.matches, p.wins, p.draws, p.points, p.place_points,"
            " s.mu, s.sigma, s.ordinal, count(*) OVER () AS total FROM p JOIN standings s"
            " ON s.guild_id = ? AND s.game = ? AND s.user_id = p.user_id"
            f" ORDER BY {_PERIOD_ORDER[order]} LIMIT ? OFFSET ?"
        )
        page = max(page, 0)
        rows = await self._db.fetchall(sql, (*params, guild_id, game, size, page * size))
        if rows:
            return int(rows[0]["total"]), _entries(rows, page * size)
        row = await self._db.fetchone(f"SELECT count(*) FROM ({period})", params)
        total = int(row[0]) if row is not None else 0
        last = _clamp(page, total, size)
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
                "SELECT * FROM standings WHERE guild_id = ? AND user_id = ?"
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
                row = await self._db.fetchone(
                    "SELECT sum(ordinal > ?), count(*) FROM standings"
                    " WHERE guild_id = ? AND game = ? AND ordinal IS NOT NULL",
                    (s.rating.ordinal, guild_id, s.game),
                )
                assert row is not None
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
        )

    async def history(self, guild_id: int, *, page: int = 0, page_size: int = 10) -> HistoryPage:
        """A page of the server's matches (all of them, resets or not), newest first."""
        if page_size <= 0:
            raise ValueError(f"page size must be positive, not {page_size}")
        async with self._db.snapshot():
            row = await self._db.fetchone(
                "SELECT count(*) FROM matches WHERE guild_id = ?", (guild_id,)
            )
            total = int(row[0]) if row is not None else 0
            page = _clamp(page, total, page_size)
            rows = await self._db.fetchall(
                "SELECT id, game_id, channel_id, game, finished_at, deals FROM matches"
                " WHERE guild_id = ? ORDER BY finished_at DESC, id DESC LIMIT ? OFFSET ?",
                (guild_id, page_size, page * page_size),
            )
            ids = [r["id"] for r in rows]
            seat_rows = (
                await self._db.fetchall(
                    f"SELECT * FROM match_seats WHERE match_id IN ({_marks(len(ids))})"
                    " ORDER BY match_id, seat",
                    ids,
                )
                if ids
                else []
            )
        seats: dict[int, list[MatchSeat]] = {i: [] for i in ids}
        for r in seat_rows:
            seats[r["match_id"]].append(_seat(r))
        entries = tuple(
            MatchSummary(
                id=r["id"],
                game_id=r["game_id"],
                channel_id=r["channel_id"],
                game=r["game"],
                finished_at=from_text(r["finished_at"]),
                deals=r["deals"],
                seats=tuple(seats[r["id"]]),
            )
            for r in rows
        )
        return HistoryPage(guild_id, page, page_size, total, entries)

    async def match_record(self, guild_id: int, match_id: int) -> dict[str, Any] | None:
        """The record of one of the server's matches, or None (no such match here)."""
        row = await self._db.fetchone(
            "SELECT record FROM matches WHERE id = ? AND guild_id = ?", (match_id, guild_id)
        )
        return None if row is None else json_object(row["record"], "matches.record")


def _clamp(page: int, total: int, size: int) -> int:
    pages = max(1, -(-total // size))
    return min(max(page, 0), pages - 1)


def _entries(rows: Sequence[aiosqlite.Row], offset: int) -> list[BoardEntry]:
    return [
        BoardEntry(
            position=offset + i + 1,
            user_id=r["user_id"],
            name=r["name"],
            matches=int(r["matches"]),
            wins=int(r["wins"]),
            draws=int(r["draws"]),
            points=float(r["points"]),
            place_points=float(r["place_points"]),
            rating=_rating(r),
        )
        for i, r in enumerate(rows)
    ]
