"""The daily puzzle: ``puzzle_settings``, ``puzzles`` and ``puzzle_answers``.

A server's puzzle of a day is one row (one a day, one position a server: both keys),
created when it is first needed (posted when due, or asked for with ``/domino
puzzle``) and marked posted once its message is up. An answer is one row a user a
puzzle (the primary key refuses a second). Streaks are computed from the answers
(:func:`streaks`): a run of the server's puzzle days answered right.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from .codec import from_row, json_object, to_json, to_text
from .errors import IntegrityError
from .sql import upsert

if TYPE_CHECKING:
    from .database import Database
    from .sql import Row

MINUTES_A_DAY = 24 * 60
_SETTINGS = "SELECT guild_id, enabled, channel_id, minute FROM puzzle_settings"
_PUZZLE = "id, guild_id, day, puzzle_key, puzzle, channel_id, message_id, created_at"


@dataclass(frozen=True, slots=True)
class PuzzleSettings:
    """A server's daily puzzle settings (a server without a row: off)."""

    guild_id: int
    enabled: bool = False
    channel_id: int | None = None
    minute: int = 0
    """When it is posted: minutes after midnight, UTC."""


@dataclass(frozen=True, slots=True)
class PuzzleRow:
    """A server's puzzle of one day (``day``: ``YYYY-MM-DD``, UTC)."""

    id: int
    guild_id: int
    day: str
    key: str
    puzzle: dict[str, Any]
    channel_id: int | None
    message_id: int | None
    created_at: datetime


@dataclass(frozen=True, slots=True)
class Answer:
    puzzle_id: int
    user_id: int
    choice: int
    correct: bool
    answered_at: datetime


@dataclass(frozen=True, slots=True)
class Streak:
    """One user's record in a server: answers, right answers, streaks."""

    user_id: int
    answered: int = 0
    solved: int = 0
    current: int = 0
    best: int = 0


def streaks(
    days: Iterable[tuple[int, str]], answers: Iterable[tuple[int, int, bool]], today: str
) -> dict[int, Streak]:
    """Each user's :class:`Streak` from the server's puzzle days (``(puzzle id, day)``)
    and answers (``(puzzle id, user id, correct)``).

    A streak is a run of the server's puzzle days answered right; a wrong answer ends
    it, and so does a past day left unanswered; today's, not answered yet, does not."""
    by_user: dict[int, dict[int, bool]] = {}
    for puzzle_id, user_id, right in answers:
        by_user.setdefault(user_id, {})[puzzle_id] = right
    ordered = sorted(days, key=lambda d: d[1])
    result: dict[int, Streak] = {}
    for user_id, answered in by_user.items():
        run = best = 0
        for puzzle_id, day in ordered:
            correct = answered.get(puzzle_id)
            if correct is None and day >= today:
                continue
            run = run + 1 if correct else 0
            best = max(best, run)
        solved = sum(answered.values())
        result[user_id] = Streak(user_id, len(answered), solved, run, best)
    return result


def _puzzle(row: Row) -> PuzzleRow:
    return from_row(
        PuzzleRow,
        row,
        key=str(row["puzzle_key"]),
        puzzle=json_object(row["puzzle"], "puzzles.puzzle"),
    )


class PuzzleRepository:
    """The daily puzzle's settings, puzzles and answers."""

    def __init__(self, db: Database) -> None:
        self._db = db

    # -- settings -----------------------------------------------------------------

    async def settings(self, guild_id: int) -> PuzzleSettings:
        row = await self._db.fetchone(f"{_SETTINGS} WHERE guild_id = ?", (guild_id,))
        return PuzzleSettings(guild_id) if row is None else from_row(PuzzleSettings, row)

    async def set_settings(
        self, guild_id: int, *, enabled: bool, channel_id: int | None, minute: int, now: datetime
    ) -> PuzzleSettings:
        """Save a server's settings (all of them); ``ValueError`` for a minute outside
        the day or a puzzle turned on without a channel."""
        if not 0 <= minute < MINUTES_A_DAY:
            raise ValueError(f"the minute of the day runs from 0 to 1439, not {minute}")
        if enabled and channel_id is None:
            raise ValueError("a daily puzzle needs a channel")
        await self._db.write(
            upsert("puzzle_settings", "guild_id, enabled, channel_id, minute, updated_at"),
            (guild_id, int(enabled), channel_id, minute, to_text(now)),
        )
        return PuzzleSettings(guild_id, enabled, channel_id, minute)

    async def enabled(self) -> list[PuzzleSettings]:
        """Every server with the daily puzzle on, by server id."""
        rows = await self._db.fetchall(f"{_SETTINGS} WHERE enabled = 1 ORDER BY guild_id")
        return [from_row(PuzzleSettings, r) for r in rows]

    # -- puzzles ------------------------------------------------------------------

    async def of_day(self, guild_id: int, day: str) -> PuzzleRow | None:
        return await self._one("guild_id = ? AND day = ?", (guild_id, day))

    async def get(self, puzzle_id: int) -> PuzzleRow | None:
        return await self._one("id = ?", (puzzle_id,))

    async def _one(self, where: str, params: tuple[Any, ...]) -> PuzzleRow | None:
        row = await self._db.fetchone(f"SELECT {_PUZZLE} FROM puzzles WHERE {where}", params)
        return None if row is None else _puzzle(row)

    async def used_keys(self, guild_id: int) -> set[str]:
        """The positions the server has had (each key once a server)."""
        rows = await self._db.fetchall(
            "SELECT puzzle_key FROM puzzles WHERE guild_id = ?", (guild_id,)
        )
        return {str(r[0]) for r in rows}

    async def create_day(
        self, guild_id: int, day: str, key: str, puzzle: Mapping[str, Any], now: datetime
    ) -> PuzzleRow:
        """The server's puzzle of ``day``: this one, unless another was made first (two
        processes, two askers at once), which is then the day's and is returned.
        :class:`IntegrityError` for a key the server has had on another day."""
        try:
            rows = await self._db.write(
                "INSERT INTO puzzles (guild_id, day, puzzle_key, puzzle, created_at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id, day) DO NOTHING"
                f" RETURNING {_PUZZLE}",
                (guild_id, day, key, to_json(puzzle), to_text(now)),
            )
        except IntegrityError:
            found = await self.of_day(guild_id, day)
            if found is None:
                raise
            return found
        if rows:
            return _puzzle(rows[0])
        found = await self.of_day(guild_id, day)
        assert found is not None, "the day's puzzle was there a moment ago"
        return found

    async def mark_posted(self, puzzle_id: int, channel_id: int, message_id: int) -> None:
        await self._db.write(
            "UPDATE puzzles SET channel_id = ?, message_id = ? WHERE id = ?",
            (channel_id, message_id, puzzle_id),
        )

    # -- answers ------------------------------------------------------------------

    async def answer(
        self, puzzle_id: int, user_id: int, *, choice: int, correct: bool, now: datetime
    ) -> bool:
        """Record a user's answer; False (nothing changed) if they answered before."""
        rows = await self._db.write(
            "INSERT INTO puzzle_answers (puzzle_id, user_id, choice, correct, answered_at)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (puzzle_id, user_id) DO NOTHING"
            " RETURNING puzzle_id",
            (puzzle_id, user_id, choice, int(correct), to_text(now)),
        )
        return bool(rows)

    async def answer_of(self, puzzle_id: int, user_id: int) -> Answer | None:
        row = await self._db.fetchone(
            "SELECT * FROM puzzle_answers WHERE puzzle_id = ? AND user_id = ?", (puzzle_id, user_id)
        )
        return None if row is None else from_row(Answer, row)

    async def streaks(
        self, guild_id: int, today: str, user_id: int | None = None
    ) -> dict[int, Streak]:
        """Every user's :class:`Streak` in the server (or one user's)."""
        async with self._db.snapshot():
            days = await self._db.fetchall(
                "SELECT id, day FROM puzzles WHERE guild_id = ?", (guild_id,)
            )
            sql = (
                "SELECT a.puzzle_id, a.user_id, a.correct FROM puzzle_answers a"
                " JOIN puzzles p ON p.id = a.puzzle_id WHERE p.guild_id = ?"
            )
            params: tuple[int, ...] = (guild_id,)
            if user_id is not None:
                sql += " AND a.user_id = ?"
                params += (user_id,)
            answers = await self._db.fetchall(sql, params)
        return streaks(
            ((int(r["id"]), str(r["day"])) for r in days),
            ((int(r[0]), int(r[1]), bool(r[2])) for r in answers),
            today,
        )
