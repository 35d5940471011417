"""Game review (issue 40): each move of a finished deal valued against the best move.

Pure like the rest of the engine, and deterministic given a ``random.Random``::

    state = load_record(doc)
    review = review_deal(state, 2, random.Random(seed))   # deal 2, from 1
    review.seats[0].accuracy, review.mistakes, review.to_json()
    position_before(state, 2, review.rows[i].index)        # what a picture of move i shows

How each move is valued (from the mover's view, and with every hand open), what a cost
and an accuracy are: :mod:`bot.engine.review.values`, :mod:`bot.engine.review.accuracy`
and docs/REVIEW.md.
"""

from __future__ import annotations

from .accuracy import move_accuracy
from .replay import NotReviewable, Position, position_before, steps
from .report import REVIEW_VERSION, DealReview, MoveRow
from .review import review_deal
from .values import ReviewSettings

__all__ = [
    "REVIEW_VERSION",
    "DealReview",
    "MoveRow",
    "NotReviewable",
    "Position",
    "ReviewSettings",
    "move_accuracy",
    "position_before",
    "review_deal",
    "steps",
]
