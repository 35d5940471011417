"""Game reviews (issue 40) between Discord and the engine: which deal, from storage or
the AI pool, and what a picture of it needs.

    reviews = ReviewService(db, ai, clock=clock)
    shown = await reviews.review(guild_id, user_id, match_id=None, deal=None)
    shown.review.seats[0].accuracy, shown.mistakes[0].position, shown.from_storage

The review itself is the engine's (:mod:`bot.engine.review`); docs/REVIEW.md.
"""

from .service import ReviewService, ReviewShown, ShownMistake

__all__ = ["ReviewService", "ReviewShown", "ShownMistake"]
