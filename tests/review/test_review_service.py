"""The review service (bot/review) on a real database and a real AI pool: a stored match's
deal reviewed once, then read back from storage; two requests at once share one
computation; what it refuses."""

from __future__ import annotations

import asyncio
import random
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import pytest

from bot.engine import Rules
from bot.engine.match import new_match, next_deal, play
from bot.engine.record import match_record
from bot.engine.review import ReviewSettings
from bot.engine.review.values import KNOWN
from bot.games.ai_runner import AiRunner
from bot.games.errors import GameError
from bot.review import ReviewService
from bot.storage import Database, FinishedMatch, MatchSeat

T0 = datetime(2026, 1, 1, tzinfo=UTC)
SMALL = ReviewSettings(known=replace(KNOWN, work=5_000, worlds=10), open_playouts=1)


@pytest.fixture
async def db_path(database_at: Any) -> Any:
    return await database_at("reviews.db")


def a_record() -> dict[str, Any]:
    """A block match's first two deals (the match not over yet: its target is far), as
    its record."""
    rules = Rules.make("block", players=2, target=300)
    state = new_match(rules, random.Random(5))
    rng = random.Random(6)
    for deal in range(2):
        if deal:
            state = next_deal(state, rng)
        while not state.deal.over:
            state = play(state, rng.choice(state.legal_moves()))
    return match_record(state, ["Alice", "Bot"])


async def stored_match(db: Database, user: int) -> int:
    game = await db.games.create(
        guild_id=1,
        channel_id=10,
        creator_id=user,
        rules={"game": "block", "players": 2},
        seats=[{"user_id": user, "name": "Alice"}],
        seed=1,
        timer=60,
        now=T0,
    )
    await db.games.save(game.id, 0, now=T0, status="playing", state={"deals": []})
    match = FinishedMatch(
        game="block",
        finished_at=T0,
        record=a_record(),
        seats=(
            MatchSeat(0, user, None, "Alice", 0, 10.0, True, None),
            MatchSeat(1, None, "easy", "Bot", 1, 5.0, False, None),
        ),
        deals=(),
    )
    await db.games.finish(game.id, 1, now=T0, status="finished", state={}, seats=[], match=match)
    found = await db.matches.of_game(1, game.id)
    assert found is not None
    return found


async def test_a_review_is_computed_once_then_read_from_storage(db: Database) -> None:
    match_id = await stored_match(db, 42)
    ai = AiRunner(workers=1)
    try:
        service = ReviewService(db, ai, clock=lambda: T0, settings=SMALL)
        first, again = await asyncio.gather(
            service.review(1, 42, None, None), service.review(1, 42, None, None)
        )
        assert ai.reviews == 1  # two requests at once: one computation
        assert first.review == again.review
        assert first.match_id == match_id
        assert first.deal == 2  # the last deal by default
        assert first.names == ("Alice", "Bot")
        assert len(first.mistakes) == len(first.review.mistakes)
        later = await service.review(1, 7, match_id, 2)  # anyone may name a match
        assert later.from_storage
        assert later.review == first.review
        assert ai.reviews == 1
        one = await service.review(1, 42, match_id, 1)
        assert not one.from_storage
        assert one.deal == 1
        assert ai.reviews == 2
    finally:
        await ai.close()


async def test_what_the_service_refuses(db: Database) -> None:
    ai = AiRunner(workers=0)
    try:
        service = ReviewService(db, ai, clock=lambda: T0, settings=SMALL)
        with pytest.raises(GameError, match="no finished match on this server"):
            await service.review(1, 42, None, None)
        match_id = await stored_match(db, 42)
        with pytest.raises(GameError, match="no such match"):
            await service.review(2, 42, match_id, None)  # another server's
        with pytest.raises(GameError, match="no such match"):
            await service.review(1, 42, match_id + 100, None)
        with pytest.raises(GameError, match="has finished deals 1 to"):
            await service.review(1, 42, match_id, 3)
        with pytest.raises(GameError, match="no finished match to review"):
            await service.match_of_game(1, 999)
        assert ai.reviews == 0
    finally:
        await ai.close()
