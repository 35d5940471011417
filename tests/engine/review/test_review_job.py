"""The review runs in the AI process pool (bot/games/ai_runner.py), never on the event
loop: the worker replays the record and gives the same review as in process."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from bot.engine import Rules
from bot.engine.match import new_match, play
from bot.engine.record import match_record
from bot.engine.review import NotReviewable, ReviewSettings, review_deal
from bot.engine.review.values import KNOWN
from bot.games.ai_runner import AiRunner

SMALL = ReviewSettings(known=replace(KNOWN, work=10_000, worlds=20), open_playouts=2)


async def test_a_review_in_a_worker_process_is_the_in_process_one():
    state = new_match(Rules.make("block", players=3), random.Random(3))
    rng = random.Random(4)
    while not state.deal.over:
        state = play(state, rng.choice(state.legal_moves()))
    record = match_record(state, ["a", "b", "c"])
    runner = AiRunner(workers=1)
    try:
        done = await runner.review(record, 1, "game:1", SMALL)
        assert done.review == review_deal(state, 1, random.Random("game:1"), SMALL)
        assert done.cpu_seconds > 0
        assert runner.reviews == 1
        with pytest.raises(NotReviewable):
            await runner.review(record, 2, "game:2", SMALL)
    finally:
        await runner.close()
