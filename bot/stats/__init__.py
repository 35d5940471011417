"""Match history, leaderboards and player stats on top of the stored matches.

    install(db)                             # the rules, once, in DominoBot.setup_hook
    stats = StatsService(db, clock=clock)
    await stats.start()                     # count matches that wait to be counted
    page = await stats.leaderboard(guild_id, "block", period="week", page=0)
    card = await stats.card(guild_id, user_id, name)

The leaderboard's rules are pure functions over plain values: ranks and
outcomes (:mod:`bot.stats.ranking`), the tallies, streaks and ratings of a
counted match (:mod:`bot.stats.ledger`) and the rating arithmetic
(:mod:`bot.stats.rating`, openskill). Storage (``bot.storage.leaderboards``) keeps
only the tables: it hands each finished match to the plugged-in
:class:`MatchLedger` inside the transaction that stores it, and writes what
comes back. See docs/LEADERBOARDS.md.
"""

from bot.storage import (
    RATINGS,
    SCHEDULES,
    BoardEntry,
    BoardPage,
    ClosedSeason,
    CurrentSeason,
    HistoryPage,
    MatchSeat,
    MatchSummary,
    PlayerCard,
    PlayerResult,
    Season,
    SeasonSettings,
    Standing,
    Tally,
)

from .ledger import MatchLedger, RatedSeat, Rater, Rating, count_match
from .ranking import SeatResult, match_results
from .rating import OpenSkillRater, rated_sides
from .seasons import CLOSE_WINDOW, SeasonOverview, SeasonService, due_at, next_close
from .service import PERIODS, StatsService, install

# The values the service answers with (read from storage) are re-exported here: the
# cogs take them from bot.stats and never import bot.storage.
__all__ = [
    "CLOSE_WINDOW",
    "PERIODS",
    "RATINGS",
    "SCHEDULES",
    "BoardEntry",
    "BoardPage",
    "ClosedSeason",
    "CurrentSeason",
    "HistoryPage",
    "MatchLedger",
    "MatchSeat",
    "MatchSummary",
    "OpenSkillRater",
    "PlayerCard",
    "PlayerResult",
    "RatedSeat",
    "Rater",
    "Rating",
    "Season",
    "SeasonOverview",
    "SeasonService",
    "SeasonSettings",
    "SeatResult",
    "Standing",
    "StatsService",
    "Tally",
    "count_match",
    "due_at",
    "install",
    "match_results",
    "next_close",
    "rated_sides",
]
