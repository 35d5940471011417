"""Storage: SQLite (aiosqlite) or PostgreSQL (asyncpg), migrations and small repositories.

    db = await Database.open("dominobot.db")  # or "postgresql://user:pw@host/dbname"
    game = await db.games.create(guild_id=..., channel_id=..., ..., now=now)
    game = await db.games.save(game.id, game.version, now=now, status="playing", state=doc)
    await db.close()

No SQL lives outside this package.
"""

from .database import Database, Timeouts, is_url
from .errors import (
    ChannelBusyError,
    DatabaseTimeoutError,
    DatabaseUnavailableError,
    IntegrityError,
    MigrationError,
    StaleGameError,
    StorageError,
)
from .games import Announced, GameRepository, GameRow, RecordAppend, Status
from .guilds import GuildSettings
from .leaderboards import (
    ORDERS,
    BoardEntry,
    BoardPage,
    Counted,
    LeaderboardRepository,
    Ledger,
    PlayerCard,
    PlayerResult,
    Rating,
    Season,
    Standing,
    Tally,
    fresh_standing,
)
from .matches import FinishedMatch, HistoryPage, MatchDeal, MatchRepository, MatchSeat, MatchSummary
from .migrations import LATEST, MIGRATIONS, PG_MIGRATIONS, migrate
from .puzzles import PuzzleRow, PuzzleSettings, Streak, streaks
from .seasons import (
    RATINGS,
    SCHEDULES,
    ClosedSeason,
    CurrentSeason,
    SeasonRepository,
    SeasonSettings,
)

__all__ = [
    "LATEST",
    "MIGRATIONS",
    "ORDERS",
    "PG_MIGRATIONS",
    "RATINGS",
    "SCHEDULES",
    "Announced",
    "BoardEntry",
    "BoardPage",
    "ChannelBusyError",
    "ClosedSeason",
    "Counted",
    "CurrentSeason",
    "Database",
    "DatabaseTimeoutError",
    "DatabaseUnavailableError",
    "FinishedMatch",
    "GameRepository",
    "GameRow",
    "GuildSettings",
    "HistoryPage",
    "IntegrityError",
    "LeaderboardRepository",
    "Ledger",
    "MatchDeal",
    "MatchRepository",
    "MatchSeat",
    "MatchSummary",
    "MigrationError",
    "PlayerCard",
    "PlayerResult",
    "PuzzleRow",
    "PuzzleSettings",
    "Rating",
    "RecordAppend",
    "Season",
    "SeasonRepository",
    "SeasonSettings",
    "StaleGameError",
    "Standing",
    "Status",
    "StorageError",
    "Streak",
    "Tally",
    "Timeouts",
    "fresh_standing",
    "is_url",
    "migrate",
    "streaks",
]
