"""The review service: a finished match's deal, reviewed once in the AI pool and stored.

Only deals of finished matches are reviewed (a match stored in ``matches``): its record
shows every hand, and nobody at its table is still playing it. A review is computed in
the AI process pool (:meth:`bot.games.ai_runner.AiRunner.review`), never on the event
loop, stored (``db.reviews``) and read back from there when asked again. Two requests
for the same review at once share one computation.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from bot.engine.match import MatchState
from bot.engine.record import load_record
from bot.engine.review import (
    REVIEW_VERSION,
    DealReview,
    Position,
    ReviewSettings,
    position_before,
)
from bot.engine.rules import Rules
from bot.engine.scoring import DealResult
from bot.games.ai_runner import AiRunner
from bot.games.errors import GameError
from bot.i18n import N_
from bot.storage import Database, MatchSeat

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class ShownMistake:
    """One of the biggest mistakes and the position it was made in."""

    row: int
    """Its index in ``review.rows``."""
    position: Position


@dataclass(frozen=True, slots=True)
class ReviewShown:
    """What a review's message shows: public values of a finished deal only."""

    match_id: int
    deal: int
    deals: int
    """Deals in the match."""
    rules: Rules
    names: tuple[str, ...]
    """Seat names as stored with the match."""
    seats: tuple[MatchSeat, ...]
    review: DealReview
    result: DealResult
    mistakes: tuple[ShownMistake, ...]
    from_storage: bool


class ReviewService:
    """Reviews of finished matches' deals for one bot."""

    def __init__(
        self,
        db: Database,
        ai: AiRunner,
        *,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
        settings: ReviewSettings | None = None,
    ) -> None:
        self.db = db
        self.ai = ai
        self.clock = clock
        self.settings = settings
        self._running: dict[tuple[int, int], asyncio.Future[DealReview]] = {}

    async def match_of_game(self, guild_id: int, game_id: int) -> int:
        """The match a finished game of the server ended in (its Review button)."""
        found = await self.db.matches.of_game(guild_id, game_id)
        if found is None:
            raise GameError(N_("This game has no finished match to review."))
        return found

    async def review(
        self, guild_id: int, user_id: int, match_id: int | None, deal: int | None
    ) -> ReviewShown:
        """The review of deal ``deal`` (default: the last) of the server's match
        ``match_id`` (default: the user's latest finished match). Refusals are
        :class:`GameError`."""
        if match_id is None:
            match_id = await self.db.matches.last_of(guild_id, user_id)
            if match_id is None:
                raise GameError(N_("You have no finished match on this server to review yet."))
        elif match_id <= 0:
            raise GameError(N_("There is no such match on this server."))
        summary = await self.db.matches.summary(guild_id, match_id)
        record = await self.db.matches.record(guild_id, match_id)
        if summary is None or record is None:
            raise GameError(N_("There is no such match on this server."))
        state = await asyncio.to_thread(_replayed, record)
        if state is None:
            raise GameError(N_("This match's record cannot be reviewed."))
        finished = [i + 1 for i, d in enumerate(state.deals) if d.over]
        if not finished:
            raise GameError(N_("This match has no finished deal to review."))
        if deal is None:
            deal = finished[-1]
        elif deal not in finished:
            raise GameError(
                N_("Match #{id} has finished deals 1 to {count}."),
                id=match_id,
                count=finished[-1],
            )
        review, stored = await self._review(match_id, deal, record)
        mistakes = await asyncio.to_thread(_positions, state, deal, review)
        result = state.deals[deal - 1].result
        assert result is not None
        return ReviewShown(
            match_id=match_id,
            deal=deal,
            deals=len(state.deals),
            rules=state.rules,
            names=tuple(s.name for s in summary.seats),
            seats=summary.seats,
            review=review,
            result=result,
            mistakes=mistakes,
            from_storage=stored,
        )

    async def _review(
        self, match_id: int, deal: int, record: dict[str, Any]
    ) -> tuple[DealReview, bool]:
        """The stored review, else one computed in the AI pool and stored."""
        text = await self.db.reviews.get(match_id, deal, REVIEW_VERSION)
        if text is not None:
            try:
                return DealReview.from_json(text), True
            except ValueError:
                log.warning("stored review of match %d deal %d unreadable", match_id, deal)
        key = (match_id, deal)
        running = self._running.get(key)
        if running is not None:
            return await asyncio.shield(running), False
        future: asyncio.Future[DealReview] = asyncio.get_running_loop().create_future()
        self._running[key] = future
        try:
            done = await self.ai.review(record, deal, f"review:{match_id}:{deal}", self.settings)
            review = done.review
            await self.db.reviews.put(
                match_id, deal, REVIEW_VERSION, review.to_json(), now=self.clock()
            )
            future.set_result(review)
        except BaseException as error:
            future.set_exception(error)
            future.exception()  # retrieved: a lone request raises it below
            raise
        finally:
            del self._running[key]
        log.info("reviewed match %d deal %d in %.2f s of CPU", match_id, deal, done.cpu_seconds)
        return review, False


def _replayed(record: dict[str, Any]) -> MatchState | None:
    try:
        return load_record(record)
    except Exception:
        log.warning("a stored match record could not be replayed", exc_info=True)
        return None


def _positions(state: MatchState, deal: int, review: DealReview) -> tuple[ShownMistake, ...]:
    return tuple(
        ShownMistake(i, position_before(state, deal, review.rows[i].index)) for i in review.mistakes
    )
