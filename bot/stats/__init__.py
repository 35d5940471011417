"""Match history, leaderboards and player stats on top of the stored matches.

    stats = StatsService(db, clock=clock)
    await stats.start()                     # plug in the openskill rater, count old matches
    page = await stats.leaderboard(guild_id, "block", period="week", page=0)
    card = await stats.card(guild_id, user_id, name)

Storage (``bot.storage.ratings``) keeps the tables and updates them in the
transaction that stores a finished match; the rating arithmetic lives in
:mod:`bot.stats.rating` (openskill). See docs/LEADERBOARDS.md.
"""

from .rating import OpenSkillRater, rated_sides
from .service import (
    DEFAULT_GAME,
    HISTORY_PAGE_SIZE,
    PAGE_SIZE,
    PERIODS,
    RESET_WINDOW,
    StatsService,
    install,
)

__all__ = [
    "DEFAULT_GAME",
    "HISTORY_PAGE_SIZE",
    "PAGE_SIZE",
    "PERIODS",
    "RESET_WINDOW",
    "OpenSkillRater",
    "StatsService",
    "install",
    "rated_sides",
]
