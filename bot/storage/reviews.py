"""Game reviews (issue 40): the ``reviews`` table behind :class:`ReviewRepository`.

A review of one deal of a finished match is computed once (seconds of CPU in the AI
pool) and stored as the JSON of its value (``bot.engine.review.DealReview``), keyed by
the match, the deal and the review's version: asking again reads it back, and a new
version of the review simply computes and stores a new row.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from .codec import to_text

if TYPE_CHECKING:
    from .database import Database


class ReviewRepository:
    """Read and store reviews of finished matches' deals."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def get(self, match_id: int, deal: int, version: int) -> str | None:
        """The stored review (its JSON text) of deal ``deal`` of match ``match_id`` at
        ``version``, or None."""
        row = await self._db.fetchone(
            "SELECT review FROM reviews WHERE match_id = ? AND deal = ? AND version = ?",
            (match_id, deal, version),
        )
        return None if row is None else str(row["review"])

    async def put(
        self, match_id: int, deal: int, version: int, review: str, *, now: datetime
    ) -> None:
        """Store a review; one already stored for the same key is kept (two requests that
        computed it at once computed the same review)."""
        await self._db.write(
            "INSERT INTO reviews (match_id, deal, version, review, created_at)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (match_id, deal, version) DO NOTHING",
            (match_id, deal, version, review, to_text(now)),
        )
