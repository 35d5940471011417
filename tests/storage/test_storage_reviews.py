"""Game reviews stored and read back (issue 40), on both backends: keyed by the match,
the deal and the review's version; a match's last one for a player; a game's match."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import datetime, timedelta

from bot.engine import Rules
from bot.engine.match import new_match, play
from bot.engine.review import REVIEW_VERSION, DealReview, ReviewSettings, review_deal
from bot.engine.review.values import KNOWN
from bot.storage import Database, FinishedMatch, GameRow, MatchSeat

MakeGame = Callable[..., Awaitable[GameRow]]


def a_review() -> DealReview:
    state = new_match(Rules.make("block", players=2), random.Random(1))
    rng = random.Random(2)
    while not state.deal.over:
        state = play(state, rng.choice(state.legal_moves()))
    small = ReviewSettings(known=replace(KNOWN, work=5_000, worlds=10), open_playouts=1)
    return review_deal(state, 1, random.Random(3), small)


async def a_finished_match(
    db: Database, make_game: MakeGame, now: datetime, user: int, guild: int = 1
) -> int:
    game = await make_game(channel_id=10 + user, guild_id=guild)
    await db.games.save(game.id, 0, now=now, status="playing", state={"deals": []})
    match = FinishedMatch(
        game="block",
        finished_at=now,
        record={"format": "domino-record/1", "deals": [{"leader": 0}]},
        seats=(
            MatchSeat(0, user, None, "Alice", 0, 61.0, True, None),
            MatchSeat(1, None, "hard", "Bot", 1, 10.0, False, None),
        ),
        deals=(),
    )
    await db.games.finish(game.id, 1, now=now, status="finished", state={}, seats=[], match=match)
    found = await db.matches.of_game(guild, game.id)
    assert found is not None
    return found


async def test_a_review_round_trips_by_match_deal_and_version(
    db: Database, make_game: MakeGame, t0: datetime
) -> None:
    match_id = await a_finished_match(db, make_game, t0, user=42)
    review = a_review()
    assert await db.reviews.get(match_id, 1, REVIEW_VERSION) is None
    await db.reviews.put(match_id, 1, REVIEW_VERSION, review.to_json(), now=t0)
    text = await db.reviews.get(match_id, 1, REVIEW_VERSION)
    assert text is not None
    assert DealReview.from_json(text) == review
    # another deal, another version: not this one
    assert await db.reviews.get(match_id, 2, REVIEW_VERSION) is None
    assert await db.reviews.get(match_id, 1, REVIEW_VERSION + 1) is None
    # a second put of the same key keeps the first
    await db.reviews.put(match_id, 1, REVIEW_VERSION, '{"other": 1}', now=t0)
    assert await db.reviews.get(match_id, 1, REVIEW_VERSION) == text


async def test_a_players_last_match_and_a_games_match(
    db: Database, make_game: MakeGame, t0: datetime
) -> None:
    first = await a_finished_match(db, make_game, t0, user=42)
    second = await a_finished_match(db, make_game, t0 + timedelta(hours=1), user=42)
    other = await a_finished_match(db, make_game, t0 + timedelta(hours=2), user=7)
    assert len({first, second, other}) == 3
    assert await db.matches.last_of(1, 42) == second
    assert await db.matches.last_of(1, 7) == other
    assert await db.matches.last_of(1, 99) is None
    assert await db.matches.last_of(2, 42) is None  # another server
    summary = await db.matches.summary(1, second)
    assert summary is not None
    assert summary.id == second
    assert [s.user_id for s in summary.seats] == [42, None]
    assert await db.matches.summary(2, second) is None
