"""The daily puzzle (issue 40): a server's puzzle of the day, posted when due, answered
once by each player, with streaks. The positions come from ``bot.engine.puzzle``; this
package picks them (:mod:`.picking`), stores them and the answers (``db.puzzles``) and
says when one is due (:class:`PuzzleService`)."""

from bot.storage import PuzzleSettings, Streak

from .daily import DailyPuzzle
from .service import AnswerOutcome, PuzzleError, PuzzleService, PuzzleStats, day_of

__all__ = [
    "AnswerOutcome",
    "DailyPuzzle",
    "PuzzleError",
    "PuzzleService",
    "PuzzleSettings",
    "PuzzleStats",
    "Streak",
    "day_of",
]
