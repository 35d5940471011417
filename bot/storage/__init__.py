"""SQLite storage through aiosqlite: migrations and small repositories with typed rows.

    db = await Database.open("dominobot.db")
    game = await db.games.create(guild_id=..., channel_id=..., ..., now=now)
    game = await db.games.save(game.id, game.version, now=now, status="playing", state=doc)
    await db.close()

No SQL lives outside this package.
"""

from .database import Database
from .errors import ChannelBusyError, MigrationError, StaleGameError, StorageError
from .games import ACTIVE_STATUSES, CLEARABLE, FINAL_STATUSES, STATUSES, GameRepository, GameRow
from .guilds import GuildRepository, GuildSettings
from .matches import FinishedMatch, MatchDeal, MatchRepository, MatchRow, MatchSeat
from .migrations import LATEST, MIGRATIONS, migrate
from .ratings import (
    ORDERS,
    OUTCOMES,
    BoardEntry,
    BoardPage,
    HistoryPage,
    MatchSummary,
    PlayerCard,
    PlayerResult,
    RatedSeat,
    Rater,
    Rating,
    RatingRepository,
    Season,
    SeatResult,
    Standing,
    match_results,
)

__all__ = [
    "ACTIVE_STATUSES",
    "CLEARABLE",
    "FINAL_STATUSES",
    "LATEST",
    "MIGRATIONS",
    "ORDERS",
    "OUTCOMES",
    "STATUSES",
    "BoardEntry",
    "BoardPage",
    "ChannelBusyError",
    "Database",
    "FinishedMatch",
    "GameRepository",
    "GameRow",
    "GuildRepository",
    "GuildSettings",
    "HistoryPage",
    "MatchDeal",
    "MatchRepository",
    "MatchRow",
    "MatchSeat",
    "MatchSummary",
    "MigrationError",
    "PlayerCard",
    "PlayerResult",
    "RatedSeat",
    "Rater",
    "Rating",
    "RatingRepository",
    "Season",
    "SeatResult",
    "StaleGameError",
    "Standing",
    "StorageError",
    "match_results",
    "migrate",
]
